/**
 * References between the resources of a service folder. The service knows resources by ID; a folder names them, so it
 * reads the same on every service: a tile names its source (`sourceName`), a saved search its source, an alert its
 * dashboard and tile (`dashboardName`, `tileName`), saved search and webhooks (`webhookName`), a source the sources it
 * correlates with (`traceSourceName`, …). Each name field replaces the ID field beside which it would sit, in place
 * (key order kept). Pull turns IDs into names (only when the name is unique on the service; otherwise the ID stays);
 * plan and apply turn names back into the IDs of the service they write to. Pure (no vscode import).
 */
import type { FolderKind } from './layout';
import type { LookupWords } from '../resources/nameLookup';

export type RefKind = 'source' | 'savedSearch' | 'webhook' | 'dashboard' | 'tile';
export type Path = readonly (string | number)[];

/** One place in a value that refers to another resource. */
export interface Slot {
  /** Path of the object holding the reference. */
  readonly holder: Path;
  readonly idKey: string;
  readonly nameKey: string;
  readonly refKind: RefKind;
  /** An array of references (`appliesToSourceIds`). */
  readonly many: boolean;
}

export const REF_LABEL: Record<RefKind, string> = {
  source: 'source',
  savedSearch: 'saved search',
  webhook: 'webhook',
  dashboard: 'dashboard',
  tile: 'tile',
};

/** The correlated-source fields of a source. */
const SOURCE_LINKS = ['logSourceId', 'traceSourceId', 'metricSourceId', 'sessionSourceId'] as const;

/** Every field that names a resource by name (none of them is ever sent). */
export const NAME_KEYS: ReadonlySet<string> = new Set([
  ...SOURCE_LINKS.map((k) => k.replace(/Id$/, 'Name')),
  'sourceName',
  'appliesToSourceNames',
  'dashboardName',
  'tileName',
  'savedSearchName',
  'webhookName',
]);

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function slot(holder: Path, idKey: string, refKind: RefKind, many = false): Slot {
  const nameKey = many ? idKey.replace(/Ids$/, 'Names') : idKey.replace(/Id$/, 'Name');
  return { holder, idKey, nameKey, refKind, many };
}

/** The reference slots of a value of a kind (only where the holding object exists). */
export function slotsOf(kind: FolderKind, value: unknown): Slot[] {
  if (!isObject(value)) return [];
  const out: Slot[] = [];
  switch (kind) {
    case 'source':
      for (const key of SOURCE_LINKS) out.push(slot([], key, 'source'));
      break;
    case 'savedSearch':
      out.push(slot([], 'sourceId', 'source'));
      break;
    case 'dashboard':
      if (Array.isArray(value.tiles)) {
        value.tiles.forEach((tile, i) => {
          if (isObject(tile) && isObject(tile.config)) out.push(slot(['tiles', i, 'config'], 'sourceId', 'source'));
        });
      }
      if (Array.isArray(value.filters)) {
        value.filters.forEach((filter, i) => {
          if (!isObject(filter)) return;
          out.push(slot(['filters', i], 'sourceId', 'source'));
          out.push(slot(['filters', i], 'appliesToSourceIds', 'source', true));
        });
      }
      break;
    case 'alert':
      out.push(
        slot([], 'dashboardId', 'dashboard'),
        slot([], 'tileId', 'tile'),
        slot([], 'savedSearchId', 'savedSearch'),
      );
      if (isObject(value.channel)) out.push(slot(['channel'], 'webhookId', 'webhook'));
      if (Array.isArray(value.channels)) {
        value.channels.forEach((c, i) => {
          if (isObject(c)) out.push(slot(['channels', i], 'webhookId', 'webhook'));
        });
      }
      break;
  }
  return out;
}

export function getAt(root: unknown, path: Path): unknown {
  let node: unknown = root;
  for (const segment of path) {
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

/** Replaces `oldKey` by `key` in an object, in place of it (key order kept); `undefined` removes it. */
function renameKey(object: Record<string, unknown>, oldKey: string, key: string, value: unknown): void {
  const entries = Object.entries(object);
  for (const k of Object.keys(object)) delete object[k];
  for (const [k, v] of entries) {
    if (k === oldKey) {
      if (value !== undefined) object[key] = value;
    } else object[k] = v;
  }
}

export function cloneJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** Names of the resources of one service, for turning IDs into names. */
export interface NameSource {
  /** The name of a resource by ID, when exactly one resource of the kind has that name. */
  nameOf(kind: Exclude<RefKind, 'tile'>, id: string): string | undefined;
  /** The name of a tile of a dashboard, when exactly one tile of the dashboard has that name. */
  tileNameOf(dashboardId: string, tileId: string): string | undefined;
}

/** A value of a kind with its references by ID turned into references by name (where the name is unique). */
export function toNameForm(
  kind: FolderKind,
  value: Record<string, unknown>,
  names: NameSource,
): Record<string, unknown> {
  const out = cloneJson(value);
  const dashboardId = typeof value.dashboardId === 'string' ? value.dashboardId : undefined;
  for (const s of slotsOf(kind, out)) {
    const holder = getAt(out, s.holder);
    if (!isObject(holder) || !(s.idKey in holder)) continue;
    const id = holder[s.idKey];
    if (s.many) {
      if (!Array.isArray(id) || id.length === 0) continue;
      const mapped = id.map((one) => (typeof one === 'string' ? names.nameOf('source', one) : undefined));
      if (mapped.every((n): n is string => n !== undefined)) renameKey(holder, s.idKey, s.nameKey, mapped);
      continue;
    }
    if (typeof id !== 'string' || id === '') continue;
    const name =
      s.refKind === 'tile'
        ? dashboardId !== undefined
          ? names.tileNameOf(dashboardId, id)
          : undefined
        : names.nameOf(s.refKind, id);
    if (name !== undefined) renameKey(holder, s.idKey, s.nameKey, name);
  }
  return out;
}

/** What a name stands for on the service written to. */
export type Lookup =
  | { readonly id: string }
  /** A resource of the folder that is created before this one (its ID is known once it exists). */
  | { readonly pending: true }
  | { readonly message: string };

export interface Resolver {
  id(kind: Exclude<RefKind, 'tile'>, name: string): Lookup;
  /** A tile of a dashboard named by name (or by ID when the value keeps the dashboard's ID). */
  tileId(dashboard: { readonly id?: string; readonly name?: string }, tileName: string): Lookup;
  /** A problem when a reference the value keeps as an ID is not on the service written to. */
  checkId?(kind: Exclude<RefKind, 'tile'>, id: string): string | undefined;
}

export interface RefProblem {
  readonly path: Path;
  readonly message: string;
}

/** A resource of the folder another one refers to by name. */
export interface Dependency {
  readonly kind: Exclude<RefKind, 'tile'>;
  readonly name: string;
}

/** An ID no service hands out, standing for a resource the apply creates first (matches the ID pattern). */
export const PENDING_ID = 'pending-reference';

/**
 * A value of a kind with its references by name turned into the IDs of the service written to. Names of resources the
 * apply creates first get `PENDING_ID` (and are listed in `pending`); names that resolve to nothing are problems.
 */
export function toIdForm(
  kind: FolderKind,
  value: Record<string, unknown>,
  resolve: Resolver,
): { value: Record<string, unknown>; problems: RefProblem[]; pending: Dependency[]; dependsOn: Dependency[] } {
  const out = cloneJson(value);
  const problems: RefProblem[] = [];
  const pending: Dependency[] = [];
  const dependsOn: Dependency[] = [];
  const dashboard = { id: undefined as string | undefined, name: undefined as string | undefined };
  for (const s of slotsOf(kind, out)) {
    const holder = getAt(out, s.holder);
    if (!isObject(holder)) continue;
    const hasId = s.idKey in holder;
    const hasName = s.nameKey in holder;
    const namePath = [...s.holder, s.nameKey];
    if (hasId && hasName) {
      problems.push({ path: namePath, message: `use either ${s.idKey} or ${s.nameKey}, not both` });
      continue;
    }
    if (hasId) {
      const ids = s.many ? holder[s.idKey] : [holder[s.idKey]];
      if (s.refKind === 'dashboard' && typeof holder[s.idKey] === 'string') dashboard.id = holder[s.idKey] as string;
      if (s.refKind !== 'tile' && resolve.checkId && Array.isArray(ids)) {
        for (const id of ids) {
          const problem = typeof id === 'string' && id !== '' ? resolve.checkId(s.refKind, id) : undefined;
          if (problem) problems.push({ path: [...s.holder, s.idKey], message: problem });
        }
      }
      continue;
    }
    if (!hasName) continue;
    const raw = holder[s.nameKey];
    const names = s.many ? raw : [raw];
    if (!Array.isArray(names) || names.some((n) => typeof n !== 'string' || n.trim() === '')) {
      problems.push({
        path: namePath,
        message: s.many
          ? `must be a list of ${REF_LABEL[s.refKind]} names`
          : `must be the name of a ${REF_LABEL[s.refKind]} (non-empty text)`,
      });
      renameKey(holder, s.nameKey, s.idKey, undefined);
      continue;
    }
    const ids: string[] = [];
    for (const name of names as string[]) {
      let found: Lookup;
      if (s.refKind === 'tile') {
        if (dashboard.id === undefined && dashboard.name === undefined) {
          found = { message: `a tile named by name needs the alert's dashboard (dashboardName or dashboardId)` };
        } else found = resolve.tileId(dashboard, name);
      } else {
        found = resolve.id(s.refKind, name);
        dependsOn.push({ kind: s.refKind, name });
        if (s.refKind === 'dashboard') dashboard.name = name;
      }
      if ('id' in found) ids.push(found.id);
      else if ('pending' in found) {
        ids.push(PENDING_ID);
        if (s.refKind !== 'tile') pending.push({ kind: s.refKind, name });
      } else {
        problems.push({ path: namePath, message: found.message });
        ids.push(PENDING_ID);
      }
    }
    renameKey(holder, s.nameKey, s.idKey, s.many ? ids : ids[0]);
  }
  return { value: out, problems, pending, dependsOn };
}

/** The words of lookup messages for a kind of reference. */
export function lookupWords(kind: RefKind, serviceLabel: string): LookupWords {
  const one = REF_LABEL[kind];
  return { one, many: kind === 'savedSearch' ? 'saved searches' : `${one}s`, serviceLabel, idField: `${kind}Id` };
}
