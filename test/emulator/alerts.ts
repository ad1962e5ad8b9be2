/** Alert rules of the live server (api-notes §1.4) on top of the OpenAPI schema, and the response shape. */
import { ALERTABLE_DISPLAY_TYPES } from './dashboards';
import { badRequest } from './errors';
import { newObjectId } from './ids';
import { formatIssue, futureKeys } from './schemas';
import type { JsonObject, ServiceData, StoredAlert } from './types';

export const INTERVAL_MINUTES: Record<string, number> = {
  '30s': 0.5,
  '1m': 1,
  '5m': 5,
  '15m': 15,
  '30m': 30,
  '1h': 60,
  '6h': 360,
  '12h': 720,
  '1d': 1440,
};

const YEAR_MS = 365 * 24 * 3600 * 1000;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A broken server rule, worded as the live server words a zod issue: `Body validation failed: path: message`. */
interface ZodIssue {
  path: string;
  message: string;
}

function zodFail(issues: ZodIssue[]): never {
  throw badRequest(
    `Body validation failed: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`,
  );
}

function received(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** ISO 8601 in UTC as zod's `z.string().datetime()` accepts it: ends in Z, seconds optional, no offset. */
const UTC_DATE_TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?Z$/;

/** Stable key of a channel by its whole contents (the server hashes the object; key order does not matter). */
function channelKey(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(channelKey).join(',')}]`;
  if (isObject(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${channelKey(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

const THRESHOLD_TYPES = [
  'above',
  'below',
  'above_exclusive',
  'below_or_equal',
  'equal',
  'not_equal',
  'between',
  'not_between',
];

/**
 * The live server's alert body rules (HyperDX `alertSchema` in packages/api/src/utils/zod.ts with its refinements in
 * packages/common-utils/src/types.ts), on top of the OpenAPI schema. The spec allows `null` for several fields the
 * server refuses it for (thresholdMax, scheduleOffsetMinutes, channel, channels, savedSearchId, tileId, dashboardId).
 */
export function alertBodyIssues(body: JsonObject, now: number, newer = false): ZodIssue[] {
  const issues: ZodIssue[] = [];
  const add = (path: string, message: string): void => {
    issues.push({ path, message });
  };
  const typeOf = (key: string, type: 'number' | 'string' | 'object' | 'array', optional: boolean): void => {
    const v = body[key];
    if (v === undefined) {
      if (!optional) add(key, 'Required');
      return;
    }
    const t = received(v);
    if (t !== type) add(key, `Expected ${type}, received ${t}`);
  };
  typeOf('channel', 'object', true);
  typeOf('channels', 'array', true);
  if (body.interval === undefined) add('interval', 'Required');
  else if (body.interval === null) add('interval', 'Expected string, received null');
  typeOf('scheduleOffsetMinutes', 'number', true);
  if (typeof body.scheduleOffsetMinutes === 'number') {
    const n = body.scheduleOffsetMinutes;
    if (!Number.isInteger(n)) add('scheduleOffsetMinutes', 'Expected integer, received float');
    else if (n < 0) add('scheduleOffsetMinutes', 'Number must be greater than or equal to 0');
    else if (n > 1439) add('scheduleOffsetMinutes', 'Number must be less than or equal to 1439');
  }
  const start = body.scheduleStartAt;
  if (start !== undefined && start !== null) {
    if (typeof start !== 'string' || !UTC_DATE_TIME.test(start) || Number.isNaN(Date.parse(start))) {
      add('scheduleStartAt', 'Invalid datetime');
    } else {
      const t = Date.parse(start);
      if (t > now + YEAR_MS) add('scheduleStartAt', 'scheduleStartAt must be within 1 year from now');
      if (t < now - 10 * YEAR_MS) add('scheduleStartAt', 'scheduleStartAt must be within 10 years in the past');
    }
  }
  typeOf('threshold', 'number', false);
  if (body.thresholdType === undefined) add('thresholdType', 'Required');
  else if (!THRESHOLD_TYPES.includes(String(body.thresholdType)) || typeof body.thresholdType !== 'string') {
    add(
      'thresholdType',
      `Invalid enum value. Expected ${THRESHOLD_TYPES.map((t) => `'${t}'`).join(' | ')}, received ${received(body.thresholdType) === 'string' ? `'${String(body.thresholdType)}'` : received(body.thresholdType)}`,
    );
  }
  typeOf('thresholdMax', 'number', true);
  if (body.source === null) add('source', "Expected 'saved_search' | 'tile', received null");
  for (const [key, max] of [
    ['name', 512],
    ['message', 4096],
    ['note', 4096],
  ] as const) {
    const v = body[key];
    if (typeof v !== 'string') continue;
    if (v.length < 1) add(key, 'String must contain at least 1 character(s)');
    if (v.length > max) add(key, `String must contain at most ${max} character(s)`);
  }
  const ncw = body.numConsecutiveWindows;
  if (typeof ncw === 'number' && (!Number.isInteger(ncw) || ncw < 1)) {
    add(
      'numConsecutiveWindows',
      Number.isInteger(ncw) ? 'Number must be greater than or equal to 1' : 'Expected integer, received float',
    );
  }
  // The tile / saved-search union: the literal `source` picks the branch; a branch that does not fit is "Invalid input".
  const nonEmpty = (key: string): boolean => typeof body[key] === 'string' && (body[key] as string).length > 0;
  const savedSearchFits =
    body.source === 'saved_search' &&
    nonEmpty('savedSearchId') &&
    (body.groupBy === undefined || body.groupBy === null || typeof body.groupBy === 'string');
  const tileFits = body.source === 'tile' && nonEmpty('tileId') && nonEmpty('dashboardId');
  // The newest HyperDX (oss/newer.ts): an inline alert carries its chart; no other source takes one.
  const inlineFits = newer && body.source === 'inline' && isObject(body.chartConfig);
  if (newer && body.source !== 'inline' && body.chartConfig !== undefined) {
    add('chartConfig', "chartConfig is only allowed when source is 'inline'");
  }
  if (!savedSearchFits && !tileFits && !inlineFits) add('', 'Invalid input');
  if (issues.length > 0) return issues;

  // Refinements (they run once the fields themselves are valid).
  const channel = body.channel as JsonObject | undefined;
  const channels = body.channels as JsonObject[] | undefined;
  if (channel === undefined && channels === undefined) add('channels', 'Provide either "channel" or "channels"');
  else if (
    channel !== undefined &&
    channels !== undefined &&
    (channels[0] === undefined || channelKey(channel) !== channelKey(channels[0]))
  ) {
    add(
      'channels',
      'When both "channel" and "channels" are provided, "channel" must match the first entry of "channels"',
    );
  } else if (channels !== undefined && new Set(channels.map(channelKey)).size !== channels.length) {
    add('channels', 'Duplicate notification channels are not allowed');
  }
  const interval = String(body.interval);
  const intervalMinutes = INTERVAL_MINUTES[interval] ?? 0;
  const offset = typeof body.scheduleOffsetMinutes === 'number' ? body.scheduleOffsetMinutes : 0;
  if (start !== undefined && start !== null && offset > 0) {
    add('scheduleOffsetMinutes', 'scheduleOffsetMinutes must be 0 when scheduleStartAt is provided');
  }
  if (offset >= intervalMinutes) {
    add(
      'scheduleOffsetMinutes',
      `scheduleOffsetMinutes must be less than ${intervalMinutes} minute${intervalMinutes === 1 ? '' : 's'}`,
    );
  }
  if (body.thresholdType === 'between' || body.thresholdType === 'not_between') {
    if (typeof body.thresholdMax !== 'number') {
      add('thresholdMax', 'thresholdMax is required for between/not_between threshold types');
    } else if (body.thresholdMax < (body.threshold as number)) {
      add('thresholdMax', 'thresholdMax must be greater than or equal to threshold');
    }
  }
  return issues;
}

const OBJECT_ID = /^[0-9a-f]{24}$/i;

/**
 * Builds the stored alert from a create/update body that already fits the OpenAPI schema, with the live server's
 * rules. PUT is a partial update in exactly the server's way (HyperDX `makeAlert` + Mongoose `findOneAndUpdate`, which
 * leaves fields it is given as `undefined` alone): an omitted `thresholdMax`, `scheduleStartAt` or
 * `scheduleOffsetMinutes` keeps the stored value (the offset resets to 0 when `scheduleStartAt` is sent, or is cleared
 * with it), while `name`, `message`, `note`, `numConsecutiveWindows` and `groupBy` become null when omitted, the links
 * follow `source`, and the channels are replaced. Read-only fields are kept. Throws ApiFailure (400) on a broken rule.
 */
export function alertFromBody(
  body: JsonObject,
  data: ServiceData,
  existing?: StoredAlert,
  now = Date.now(),
  newer = false,
): StoredAlert {
  const issues = alertBodyIssues(body, now, newer);
  if (issues.length > 0) zodFail(issues);
  const source = body.source === 'tile' || body.source === 'inline' ? body.source : 'saved_search';
  const channels: JsonObject[] = Array.isArray(body.channels)
    ? (body.channels as JsonObject[])
    : [body.channel as JsonObject];

  // Controller checks (validateAlertInput), in its order.
  let dashboardId: string | null = null;
  let tileId: string | null = null;
  let savedSearchId: string | null = null;
  if (source === 'tile') {
    const id = String(body.dashboardId);
    if (!OBJECT_ID.test(id)) throw badRequest('Invalid dashboard ID');
    const dashboard = data.dashboards.get(id);
    if (!dashboard) throw badRequest('Dashboard not found');
    const tile = dashboard.tiles.find((t) => t.id === body.tileId);
    if (!tile) throw badRequest('Tile not found');
    const config = isObject(tile.config) ? tile.config : {};
    if (config.configType === 'sql' && !ALERTABLE_DISPLAY_TYPES.has(String(config.displayType))) {
      throw badRequest('Alerts on Raw SQL tiles are only supported for Line, Stacked Bar, or Number display types');
    }
    dashboardId = id;
    tileId = String(body.tileId);
  } else if (source === 'saved_search') {
    const id = String(body.savedSearchId);
    if (!OBJECT_ID.test(id)) throw badRequest('Invalid saved search ID');
    if (!data.savedSearches.has(id)) throw badRequest('Saved search not found');
    savedSearchId = id;
  }
  if (channels.length === 0) throw badRequest('At least one notification channel is required');
  const webhookIds: string[] = [];
  channels.forEach((channel, i) => {
    if (channel.type === 'email' || channel.emailRecipients !== undefined) {
      const recipients = channel.emailRecipients;
      if (!Array.isArray(recipients) || recipients.length === 0) {
        fail(`/channels/${i}/emailRecipients`, 'must NOT have fewer than 1 items');
      }
      return;
    }
    const webhookId = String(channel.webhookId);
    if (!OBJECT_ID.test(webhookId)) throw badRequest('Invalid webhook ID');
    webhookIds.push(webhookId);
  });
  if (webhookIds.some((w) => !data.webhooks.has(w))) throw badRequest('Webhook not found');

  // makeAlert
  const hasStart = body.scheduleStartAt !== undefined;
  const start = body.scheduleStartAt as string | null | undefined;
  const offsetSent = typeof body.scheduleOffsetMinutes === 'number' ? body.scheduleOffsetMinutes : undefined;
  const offset = hasStart && start != null ? 0 : hasStart && offsetSent === undefined ? 0 : offsetSent;
  const stamp = new Date(now).toISOString();
  const alert: StoredAlert = {
    id: existing?.id ?? newObjectId(now),
    teamId: data.teamId,
    source,
    dashboardId,
    tileId,
    savedSearchId,
    groupBy: source === 'saved_search' && typeof body.groupBy === 'string' ? body.groupBy : null,
    threshold: body.threshold as number,
    thresholdMax: typeof body.thresholdMax === 'number' ? body.thresholdMax : (existing?.thresholdMax ?? null),
    thresholdType: String(body.thresholdType),
    interval: String(body.interval),
    scheduleOffsetMinutes: offset ?? existing?.scheduleOffsetMinutes ?? null,
    scheduleStartAt: hasStart
      ? start == null
        ? null
        : new Date(Date.parse(start)).toISOString()
      : (existing?.scheduleStartAt ?? null),
    channels,
    name: typeof body.name === 'string' ? body.name : null,
    message: typeof body.message === 'string' ? body.message : null,
    note: typeof body.note === 'string' ? body.note : null,
    numConsecutiveWindows: typeof body.numConsecutiveWindows === 'number' ? body.numConsecutiveWindows : null,
    state: existing?.state ?? 'OK',
    silenced: existing?.silenced ?? null,
    executionErrors: existing?.executionErrors ?? [],
    createdAt: existing?.createdAt ?? stamp,
    updatedAt: stamp,
    extra: futureKeys(body),
  };
  if (!newer) return alert;
  alert.chartConfig = source === 'inline' ? inlineChart(body.chartConfig as JsonObject) : null;
  const derived = derivedLabels(alert, data);
  alert.displayName = typeof body.displayName === 'string' ? body.displayName : derived.displayName;
  alert.tags = Array.isArray(body.tags) ? (body.tags as string[]) : derived.tags;
  return alert;
}

/**
 * The display name and tags the newest HyperDX gives an alert that was sent without them (and backfills on stored
 * alerts): "dashboard – tile" and the dashboard's tags on a tile, the saved search's name and tags on a saved search;
 * an inline alert's name (or "Inline alert") and no tags — the documents found do not say more for inline alerts.
 */
export function derivedLabels(a: StoredAlert, data: ServiceData): { displayName: string; tags: string[] } {
  const named = (displayName: string, tags: unknown): { displayName: string; tags: string[] } => ({
    displayName: displayName.slice(0, 512),
    tags: Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [],
  });
  if (a.source === 'tile') {
    const dashboard = data.dashboards.get(a.dashboardId ?? '');
    const tile = dashboard?.tiles.find((t) => t.id === a.tileId);
    return named(`${dashboard?.name ?? ''} – ${String(tile?.name ?? '')}`, dashboard?.tags);
  }
  if (a.source === 'saved_search') {
    const savedSearch = data.savedSearches.get(a.savedSearchId ?? '');
    return named(savedSearch?.name ?? '', savedSearch?.tags);
  }
  return named(a.name ?? 'Inline alert', []);
}

/** An inline alert's chart as stored: a raw SQL chart takes no chart-level `where` (dropped, as zod drops a key). */
function inlineChart(config: JsonObject): JsonObject {
  if (config.configType !== 'sql') return config;
  const { where: _where, whereLanguage: _language, ...rest } = config;
  return rest;
}

function fail(path: string, message: string): never {
  throw badRequest(formatIssue({ path, message }));
}

/** The alert as the API returns it: unset links omitted, note/numConsecutiveWindows always present. */
export function alertResponse(a: StoredAlert, listed = false): JsonObject {
  const out: JsonObject = { id: a.id, name: a.name, message: a.message, source: a.source };
  // The newest HyperDX: one alert carries its inline chart (the list omits it), every alert its name and tags.
  if (a.chartConfig && !listed) out.chartConfig = a.chartConfig;
  if (a.displayName !== undefined) out.displayName = a.displayName;
  if (a.tags !== undefined) out.tags = a.tags;
  if (a.dashboardId !== null) out.dashboardId = a.dashboardId;
  if (a.tileId !== null) out.tileId = a.tileId;
  if (a.savedSearchId !== null) out.savedSearchId = a.savedSearchId;
  if (a.groupBy !== null) out.groupBy = a.groupBy;
  out.threshold = a.threshold;
  if (a.thresholdMax !== null) out.thresholdMax = a.thresholdMax;
  out.thresholdType = a.thresholdType;
  out.interval = a.interval;
  if (a.scheduleOffsetMinutes !== null) out.scheduleOffsetMinutes = a.scheduleOffsetMinutes;
  if (a.scheduleStartAt !== null) out.scheduleStartAt = a.scheduleStartAt;
  if (a.channels.length > 0) {
    out.channel = a.channels[0];
    out.channels = a.channels;
  }
  out.note = a.note;
  out.numConsecutiveWindows = a.numConsecutiveWindows;
  out.state = a.state;
  out.teamId = a.teamId;
  if (a.silenced !== null) out.silenced = a.silenced;
  out.executionErrors = a.executionErrors;
  out.createdAt = a.createdAt;
  out.updatedAt = a.updatedAt;
  return { ...out, ...a.extra };
}
