/**
 * Future-fields mode: answers as a newer server would, with fields this client has never heard of at every level of
 * everything returned (`futureField_<level>`). A client that drops them on a read-modify-write loses data a newer
 * server holds; the emulator keeps them when they come back (see FUTURE_FIELD_PREFIX in schemas.ts).
 */
import { FUTURE_FIELD_PREFIX } from './schemas';
import type { JsonObject } from './types';

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value added at `level`; deterministic so that echoing it back is idempotent. */
export function futureValue(level: string): JsonObject {
  return { level, since: '2099.1', flags: ['kept-by-newer-servers'] };
}

function mark(o: unknown, level: string): void {
  if (isObject(o)) o[`${FUTURE_FIELD_PREFIX}${level}`] = futureValue(level);
}

function each(list: unknown, level: string, inner?: (o: JsonObject) => void): void {
  if (!Array.isArray(list)) return;
  for (const item of list) {
    mark(item, level);
    if (inner && isObject(item)) inner(item);
  }
}

function dashboard(d: JsonObject): void {
  mark(d, 'dashboard');
  each(d.tiles, 'tile', (t) => {
    mark(t.config, 'tileConfig');
    if (isObject(t.config)) each(t.config.select, 'selectItem');
  });
  each(d.filters, 'filter');
  each(d.containers, 'container', (c) => each(c.tabs, 'tab'));
  each(d.savedFilterValues, 'savedFilterValue');
}

function alert(a: JsonObject): void {
  mark(a, 'alert');
  const channels = Array.isArray(a.channels) ? (a.channels as unknown[]) : isObject(a.channel) ? [a.channel] : [];
  each(channels, 'channel');
  // Newer servers send `channels` beside `channel`, which mirrors channels[0].
  if (channels.length > 0) {
    a.channels = channels;
    a.channel = structuredClone(channels[0]);
  }
}

function source(s: JsonObject): void {
  mark(s, 'source');
  mark(s.from, 'sourceFrom');
}

const BY_RESOURCE: [RegExp, (o: JsonObject) => void][] = [
  [/\/dashboards(\/\{[^}]+\})?$/, dashboard],
  [/\/alerts(\/\{[^}]+\})?$/, alert],
  [/\/sources(\/\{[^}]+\})?$/, source],
  [/\/webhooks(\/\{[^}]+\})?$/, (w) => mark(w, 'webhook')],
  [/\/saved-searches(\/\{[^}]+\})?$/, (s) => mark(s, 'savedSearch')],
  [
    /\/roles(\/\{[^}]+\})?$/,
    (r) => {
      mark(r, 'role');
      each(r.permissions, 'permission');
    },
  ],
  [/\/serviceQueryEndpoint$/, (q) => mark(q, 'queryEndpoint')],
];

/** A copy of `result` (the envelope's `result` for the operation `specKey`) with future fields at every level. */
export function addFutureFields(specKey: string, result: unknown): unknown {
  const [method, path = ''] = specKey.split(' ');
  if (method === 'DELETE') return result;
  const copy = structuredClone(result);
  if (path.endsWith('/dashboards/validate')) {
    if (isObject(copy) && isObject(copy.normalized)) dashboard(copy.normalized);
    if (isObject(copy)) mark(copy, 'validation');
    return copy;
  }
  const hit = BY_RESOURCE.find(([re]) => re.test(path));
  if (!hit) return copy;
  if (Array.isArray(copy)) copy.forEach((o) => isObject(o) && hit[1](o));
  else if (isObject(copy)) hit[1](copy);
  return copy;
}
