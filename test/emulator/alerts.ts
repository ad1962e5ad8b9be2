/** Alert rules of the live server (api-notes §1.4) on top of the OpenAPI schema, and the response shape. */
import { ALERTABLE_DISPLAY_TYPES } from './dashboards';
import { badRequest } from './errors';
import { newObjectId } from './ids';
import { checkSchema, formatIssue } from './schemas';
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

function fail(path: string, message: string): never {
  throw badRequest(formatIssue({ path, message }));
}

function optionalText(body: JsonObject, key: string, max: number): string | null {
  const v = body[key];
  if (v === undefined || v === null) return null;
  const s = String(v);
  if (s.length < 1) fail(`/${key}`, 'must NOT have fewer than 1 characters (send null to leave it unset)');
  if (s.length > max) fail(`/${key}`, `must NOT have more than ${max} characters`);
  return s;
}

function channelsOf(body: JsonObject): JsonObject[] {
  const channel = body.channel;
  const channels = body.channels;
  if (channels !== undefined) {
    if (!Array.isArray(channels)) fail('/channels', 'must be array');
    if (channels.length < 1) fail('/channels', 'must NOT have fewer than 1 items');
    if (channels.length > 10) fail('/channels', 'must NOT have more than 10 items');
    const seen = new Set<string>();
    channels.forEach((c: unknown, i) => {
      const issue = checkSchema('ClickStackAlertChannel', c);
      if (issue) fail(`/channels/${i}${issue.path === '/' ? '' : issue.path}`, issue.message);
      const key = JSON.stringify(c);
      if (seen.has(key)) fail(`/channels/${i}`, 'duplicate channel');
      seen.add(key);
    });
    if (channel !== undefined && JSON.stringify(channel) !== JSON.stringify(channels[0])) fail('/channel', 'must equal channels[0] when both are sent');
    return channels as JsonObject[];
  }
  if (channel === undefined) fail('/channel', 'is required (send channel or channels)');
  return [channel as JsonObject];
}

/**
 * Builds the stored alert from a create/update body that already fits the schema. On update, `existing` supplies
 * the read-only fields and `scheduleStartAt` when it is omitted. Throws ApiFailure (400) on a broken rule.
 */
export function alertFromBody(body: JsonObject, data: ServiceData, existing?: StoredAlert, now = Date.now()): StoredAlert {
  const source = body.source;
  if (source === undefined) fail('/source', 'is required ("tile" or "saved_search")');
  if (body.threshold === undefined) fail('/threshold', 'is required');
  if (body.thresholdType === undefined) fail('/thresholdType', 'is required');
  if (body.interval === undefined) fail('/interval', 'is required');
  const threshold = body.threshold as number;
  const thresholdType = String(body.thresholdType);
  const interval = String(body.interval);
  const channels = channelsOf(body);

  const name = optionalText(body, 'name', 512);
  const message = optionalText(body, 'message', 4096);
  const note = optionalText(body, 'note', 4096);

  const ncw = body.numConsecutiveWindows;
  if (typeof ncw === 'number' && ncw < 1) fail('/numConsecutiveWindows', 'must be >= 1');

  let thresholdMax: number | null = typeof body.thresholdMax === 'number' ? body.thresholdMax : null;
  if (thresholdType === 'between' || thresholdType === 'not_between') {
    if (thresholdMax === null) fail('/thresholdMax', `is required when thresholdType is "${thresholdType}"`);
    if (thresholdMax < threshold) fail('/thresholdMax', 'must be greater than or equal to threshold');
  } else {
    thresholdMax = thresholdMax ?? null;
  }

  let scheduleStartAt: string | null;
  if (body.scheduleStartAt === undefined) scheduleStartAt = existing?.scheduleStartAt ?? null;
  else scheduleStartAt = (body.scheduleStartAt as string | null) ?? null;
  if (scheduleStartAt !== null) {
    const t = Date.parse(scheduleStartAt);
    if (t > now + YEAR_MS) fail('/scheduleStartAt', 'must be at most 1 year in the future');
    if (t < now - 10 * YEAR_MS) fail('/scheduleStartAt', 'must be at most 10 years in the past');
    scheduleStartAt = new Date(t).toISOString();
  }
  let scheduleOffsetMinutes: number | null = typeof body.scheduleOffsetMinutes === 'number' ? body.scheduleOffsetMinutes : null;
  if (body.scheduleStartAt === null) scheduleOffsetMinutes = 0;
  if (scheduleOffsetMinutes !== null) {
    if (scheduleOffsetMinutes < 0 || scheduleOffsetMinutes > 1439) fail('/scheduleOffsetMinutes', 'must be between 0 and 1439');
    const minutes = INTERVAL_MINUTES[interval] ?? 0;
    if (scheduleOffsetMinutes > 0 && scheduleOffsetMinutes >= minutes) fail('/scheduleOffsetMinutes', `must be less than the interval (${interval} = ${minutes} minutes)`);
    if (scheduleStartAt !== null && scheduleOffsetMinutes !== 0) fail('/scheduleOffsetMinutes', 'must be 0 when scheduleStartAt is set');
  }

  let dashboardId: string | null = null;
  let tileId: string | null = null;
  let savedSearchId: string | null = null;
  let groupBy: string | null = null;
  if (source === 'tile') {
    if (typeof body.dashboardId !== 'string' || body.dashboardId.length === 0) fail('/dashboardId', 'is required when source is "tile"');
    if (typeof body.tileId !== 'string' || body.tileId.length === 0) fail('/tileId', 'is required when source is "tile"');
    const dashboard = data.dashboards.get(body.dashboardId);
    if (!dashboard) throw badRequest('Dashboard not found');
    const tile = dashboard.tiles.find((t) => t.id === body.tileId);
    if (!tile) throw badRequest('Tile not found');
    const config = isObject(tile.config) ? tile.config : {};
    if (config.configType === 'sql' && !ALERTABLE_DISPLAY_TYPES.has(String(config.displayType))) {
      throw badRequest(`Alerts are not supported on raw SQL tiles with displayType "${String(config.displayType)}"; use a line, stacked_bar or number tile`);
    }
    dashboardId = body.dashboardId;
    tileId = body.tileId;
  } else {
    if (typeof body.savedSearchId !== 'string' || body.savedSearchId.length === 0) fail('/savedSearchId', 'is required when source is "saved_search"');
    if (!data.savedSearches.has(body.savedSearchId)) throw badRequest('Saved search not found');
    savedSearchId = body.savedSearchId;
    groupBy = typeof body.groupBy === 'string' && body.groupBy.length > 0 ? body.groupBy : null;
  }

  for (const channel of channels) {
    if (channel.type === 'email' || channel.emailRecipients !== undefined) {
      const recipients = channel.emailRecipients;
      if (!Array.isArray(recipients) || recipients.length === 0) fail('/channel/emailRecipients', 'must NOT have fewer than 1 items');
      continue;
    }
    const webhookId = channel.webhookId;
    if (typeof webhookId !== 'string' || !data.webhooks.has(webhookId)) throw badRequest('Webhook not found');
  }

  const stamp = new Date(now).toISOString();
  return {
    id: existing?.id ?? newObjectId(now),
    teamId: data.teamId,
    source: source === 'tile' ? 'tile' : 'saved_search',
    dashboardId,
    tileId,
    savedSearchId,
    groupBy,
    threshold,
    thresholdMax,
    thresholdType,
    interval,
    scheduleOffsetMinutes,
    scheduleStartAt,
    channels,
    name,
    message,
    note,
    numConsecutiveWindows: typeof ncw === 'number' ? ncw : null,
    state: existing?.state ?? 'OK',
    silenced: existing?.silenced ?? null,
    executionErrors: existing?.executionErrors ?? [],
    createdAt: existing?.createdAt ?? stamp,
    updatedAt: stamp,
  };
}

/** The alert as the API returns it: unset links omitted, note/numConsecutiveWindows always present. */
export function alertResponse(a: StoredAlert): JsonObject {
  const out: JsonObject = { id: a.id, name: a.name, message: a.message, source: a.source };
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
  return out;
}
