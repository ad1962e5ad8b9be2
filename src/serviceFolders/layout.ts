/**
 * The layout of a service folder: one file per resource, in a sub-folder per kind, plus the target file that names the
 * service the folder belongs to. Pure (no vscode import).
 *
 * ```
 * <folder>/service.observability.json
 * <folder>/sources/Logs.source.json
 * <folder>/saved-searches/Errors.savedsearch.json
 * <folder>/webhooks/Ops relay.webhook.json
 * <folder>/dashboards/Checkout.dashboard.json
 * <folder>/alerts/Checkout errors.alert.json
 * ```
 */
import { SERVICE_FOLDER_TARGET_FILE } from '../jsonDocuments/serviceFolderFiles';

/** The kinds a service folder holds, in dependency order (what a kind refers to comes before it). */
export const FOLDER_KINDS = ['source', 'savedSearch', 'webhook', 'dashboard', 'alert'] as const;
export type FolderKind = (typeof FOLDER_KINDS)[number];

export interface KindLayout {
  /** File name suffix. */
  readonly suffix: string;
  /** Sub-folder of the service folder. */
  readonly folder: string;
  /** Lower-case name in messages. */
  readonly label: string;
  readonly plural: string;
}

export const LAYOUT: { readonly [K in FolderKind]: KindLayout } = {
  source: { suffix: '.source.json', folder: 'sources', label: 'source', plural: 'sources' },
  savedSearch: {
    suffix: '.savedsearch.json',
    folder: 'saved-searches',
    label: 'saved search',
    plural: 'saved searches',
  },
  webhook: { suffix: '.webhook.json', folder: 'webhooks', label: 'webhook', plural: 'webhooks' },
  dashboard: { suffix: '.dashboard.json', folder: 'dashboards', label: 'dashboard', plural: 'dashboards' },
  alert: { suffix: '.alert.json', folder: 'alerts', label: 'alert', plural: 'alerts' },
};

/** The file that names the folder's service (connection kind, organization and service, or deployment address). */
export const TARGET_FILE = SERVICE_FOLDER_TARGET_FILE;

/** The kind of a resource file, from its name; undefined for other files. */
export function kindOfFile(fileName: string): FolderKind | undefined {
  return FOLDER_KINDS.find((kind) => fileName.endsWith(LAYOUT[kind].suffix) && fileName !== LAYOUT[kind].suffix);
}

const MAX_STEM = 80;

/**
 * A file name for a resource: its name with characters that are not allowed in file names (on any system) replaced,
 * shortened, and made unique among `taken` (compared without case, as some file systems do) by a ` (2)`, ` (3)`, ….
 * The chosen name is added to `taken`.
 */
export function fileNameFor(kind: FolderKind, name: string | undefined, taken: Set<string>): string {
  let stem = (name ?? '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .replace(/[. ]+$/, '');
  if (stem.length > MAX_STEM) stem = stem.slice(0, MAX_STEM).trim();
  if (stem === '' || /^(con|prn|aux|nul|com\d|lpt\d)$/i.test(stem)) {
    stem = `${stem || 'unnamed'}-${LAYOUT[kind].label.replace(' ', '-')}`;
  }
  let candidate = `${stem}${LAYOUT[kind].suffix}`;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${LAYOUT[kind].suffix}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}
