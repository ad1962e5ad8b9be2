/**
 * A service's resources as the files of a service folder: the write body a resource is edited as (read-only and
 * server-set fields left out, webhook URL secrets masked, headers never present: the service does not return them),
 * with references by name, plus the resource's `id` on the folder's own service. Pure (no vscode import).
 */
import { KINDS } from '../resources/kinds';
import type { Alert, Dashboard, SavedSearch, Source, Webhook } from '../schema';
import { FOLDER_KINDS, fileNameFor, LAYOUT, type FolderKind } from './layout';
import { isObject, toNameForm, type NameSource, type RefKind } from './refs';

/** The resources of one service, as its lists return them. */
export interface Snapshot {
  readonly source: readonly Source[];
  readonly savedSearch: readonly SavedSearch[];
  readonly webhook: readonly Webhook[];
  readonly dashboard: readonly Dashboard[];
  readonly alert: readonly Alert[];
}

/** A server object of any folder kind (what the folder reads of it). */
export interface ServerItem {
  readonly id: string;
  readonly name?: string | null;
  readonly [key: string]: unknown;
}

export function itemsOf(snapshot: Snapshot, kind: FolderKind): readonly ServerItem[] {
  return snapshot[kind] as unknown as readonly ServerItem[];
}

/** Keys of a file that belong to the folder and are never sent. */
export const FILE_ONLY_KEYS = ['$schema', 'id'] as const;

/** The IDs of a service's resources with their unique names (a shared or missing name gives no name). */
export function nameSourceOf(snapshot: Snapshot): NameSource {
  const unique = (items: readonly { id: string; name?: string | null }[]) => {
    const count = new Map<string, number>();
    for (const item of items) if (item.name) count.set(item.name, (count.get(item.name) ?? 0) + 1);
    const out = new Map<string, string>();
    for (const item of items) if (item.name && count.get(item.name) === 1) out.set(item.id, item.name);
    return out;
  };
  const byKind = new Map<Exclude<RefKind, 'tile'>, Map<string, string>>();
  for (const kind of ['source', 'savedSearch', 'webhook', 'dashboard'] as const) {
    byKind.set(kind, unique(itemsOf(snapshot, kind)));
  }
  const tiles = new Map<string, Map<string, string>>();
  for (const d of snapshot.dashboard) tiles.set(d.id, unique(tilesOf(d)));
  return {
    nameOf: (kind, id) => byKind.get(kind)?.get(id),
    tileNameOf: (dashboardId, tileId) => tiles.get(dashboardId)?.get(tileId),
  };
}

/** The tiles of a dashboard value (server object or file), with their IDs and names where they have them. */
export function tilesOf(dashboard: unknown): { id: string; name?: string }[] {
  if (!isObject(dashboard) || !Array.isArray(dashboard.tiles)) return [];
  return dashboard.tiles.filter(isObject).map((t) => ({
    id: typeof t.id === 'string' ? t.id : '',
    ...(typeof t.name === 'string' ? { name: t.name } : {}),
  }));
}

export function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) out[k] = dropNulls(v);
    return out;
  }
  return value;
}

/** The body of a server object as a folder shows it (IDs, not yet names): editable form, no nulls, one channel field. */
export function editableBody(kind: FolderKind, server: unknown): Record<string, unknown> {
  const body = dropNulls(KINDS[kind].editable(server)) as Record<string, unknown>;
  if (kind === 'alert') {
    const channels = Array.isArray(body.channels) ? body.channels : undefined;
    if (channels && channels.length > 1) delete body.channel;
    else {
      if (body.channel === undefined && channels?.[0] !== undefined) body.channel = channels[0];
      delete body.channels;
    }
  }
  return body;
}

/** The file value of a server object: its `id` first, then the editable body with references by name. */
export function fileValueOf(kind: FolderKind, server: ServerItem, names: NameSource): Record<string, unknown> {
  return { id: server.id, ...toNameForm(kind, editableBody(kind, server), names) };
}

export function fileText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** One file a pull writes. */
export interface PulledFile {
  readonly kind: FolderKind;
  readonly id: string;
  readonly name: string;
  /** Path inside the service folder, e.g. `dashboards/Checkout.dashboard.json`. */
  readonly path: string;
  readonly value: Record<string, unknown>;
}

/**
 * The files of a service, in dependency order. `existing` maps `kind:id` to the path a file already has (a resource
 * keeps its file when pulled again, even after a rename); new files get a name from the resource's name.
 */
export function pulledFiles(snapshot: Snapshot, existing: ReadonlyMap<string, string> = new Map()): PulledFile[] {
  const names = nameSourceOf(snapshot);
  const out: PulledFile[] = [];
  const taken = new Map<FolderKind, Set<string>>(FOLDER_KINDS.map((k) => [k, new Set<string>()]));
  for (const path of existing.values()) {
    const [folder, file] = path.split('/');
    const kind = FOLDER_KINDS.find((k) => LAYOUT[k].folder === folder);
    if (kind && file) taken.get(kind)!.add(file.toLowerCase());
  }
  for (const kind of FOLDER_KINDS) {
    const items = [...itemsOf(snapshot, kind)].sort(
      (a, b) => (a.name ?? '').localeCompare(b.name ?? '') || a.id.localeCompare(b.id),
    );
    for (const item of items) {
      const known = existing.get(`${kind}:${item.id}`);
      const path = known ?? `${LAYOUT[kind].folder}/${fileNameFor(kind, item.name ?? undefined, taken.get(kind)!)}`;
      out.push({ kind, id: item.id, name: item.name ?? '', path, value: fileValueOf(kind, item, names) });
    }
  }
  return out;
}
