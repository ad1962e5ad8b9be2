/**
 * Comparing a file with the service: only what the file says counts. A field the service adds or keeps (server-set
 * fields, defaults, fields this version does not know, optional fields the file leaves out) is not a change, nor are
 * tile and filter IDs (the service assigns them) or the file's own keys. Pure (no vscode import).
 */
import { dropNulls, FILE_ONLY_KEYS } from './files';
import type { FolderKind } from './layout';
import { isObject, NAME_KEYS } from './refs';
import { KINDS } from '../resources/kinds';
import { unknownKeyPaths } from '../schema/unknownKeys';

/** One difference: the field, the service's value and the file's. */
export interface Change {
  readonly path: string;
  /** The service's value (undefined: the service has none). */
  readonly before: unknown;
  /** The file's value (undefined for a deletion). */
  readonly after: unknown;
}

function instant(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const at = Date.parse(value);
  return Number.isFinite(at) ? new Date(at).toISOString() : value;
}

/** A file value or a service's name form in the shape both are compared in. */
export function comparable(kind: FolderKind, value: Record<string, unknown>): Record<string, unknown> {
  const out = dropNulls(value) as Record<string, unknown>;
  for (const key of FILE_ONLY_KEYS) delete out[key];
  if (kind === 'dashboard') {
    // Tile and filter IDs are the service's (assigned on create).
    for (const list of ['tiles', 'filters'] as const) {
      if (!Array.isArray(out[list])) continue;
      out[list] = (out[list] as unknown[]).map((t) => {
        if (!isObject(t)) return t;
        const { id: _id, ...rest } = t;
        return rest;
      });
    }
  }
  if (kind === 'alert') {
    const channels = Array.isArray(out.channels) ? out.channels : out.channel !== undefined ? [out.channel] : undefined;
    delete out.channel;
    delete out.channels;
    if (channels) out.channels = channels;
    if ('scheduleStartAt' in out) out.scheduleStartAt = instant(out.scheduleStartAt);
  }
  return out;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Where `live` differs from what `file` says: every key of the file object must be in the live one with the same value
 * (objects key by key, arrays item by item with the same length). Keys only the live side has are not compared.
 */
export function differences(file: unknown, live: unknown, path = ''): Change[] {
  if (isObject(file)) {
    if (!isObject(live)) return [{ path, before: live, after: file }];
    const out: Change[] = [];
    for (const [key, value] of Object.entries(file)) {
      out.push(...differences(value, live[key], path === '' ? key : `${path}.${key}`));
    }
    return out;
  }
  if (Array.isArray(file)) {
    if (!Array.isArray(live) || live.length !== file.length) return [{ path, before: live, after: file }];
    return file.flatMap((item, i) => differences(item, live[i], `${path}.${i}`));
  }
  return same(file, live) ? [] : [{ path, before: live, after: file }];
}

/**
 * The changes applying a file would make to the live resource (both in name form). A field this version does not
 * know counts only when the service has it too: one the service does not keep (it drops what it does not know) would
 * otherwise show as a change after every apply.
 */
export function changesOf(kind: FolderKind, file: Record<string, unknown>, live: Record<string, unknown>): Change[] {
  const unknown = unknownKeyPaths(KINDS[kind].schema(false), file)
    .filter((path) => !NAME_KEYS.has(String(path[path.length - 1])))
    .map((path) => path.join('.'));
  return differences(comparable(kind, file), comparable(kind, live)).filter(
    (change) =>
      change.before !== undefined || !unknown.some((p) => change.path === p || change.path.startsWith(`${p}.`)),
  );
}
