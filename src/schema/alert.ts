/**
 * Alerts: the write body shared by create (POST) and update (PUT), and the response.
 *
 * The write schema follows the live server's validators: known fields and every cross-field
 * rule the service enforces are reported before a request is sent, each at the path of the
 * field. Keys this version does not know (newer server fields) are kept in the body and sent
 * unchanged, at every depth. The response schema checks only what the extension relies on
 * and keeps unknown fields.
 */
import * as z from 'zod';
import { omitNullOr, nonEmptyOrNull, requiredOr, openEnum, optionalResourceId, resourceIdSchema } from './ids';
import { lazySchema } from './lazySchema';

export const ALERT_STATES = ['ALERT', 'OK', 'PENDING', 'INSUFFICIENT_DATA', 'DISABLED'] as const;
export const THRESHOLD_TYPES = [
  'above',
  'below',
  'above_exclusive',
  'below_or_equal',
  'equal',
  'not_equal',
  'between',
  'not_between',
] as const;
/** Threshold types that use `thresholdMax` as the upper bound of a range. */
export const RANGE_THRESHOLD_TYPES = ['between', 'not_between'] as const;
/** `30s` is only accepted by services with the sub-minute feature enabled. */
export const ALERT_INTERVALS = ['30s', '1m', '5m', '15m', '30m', '1h', '6h', '12h', '1d'] as const;
export const ALERT_SOURCES = ['tile', 'saved_search'] as const;
export const EXECUTION_ERROR_TYPES = [
  'QUERY_ERROR',
  'QUERY_TIMEOUT',
  'WEBHOOK_ERROR',
  'INVALID_ALERT',
  'UNKNOWN',
] as const;
export const ALERT_CHANNEL_TYPES = ['webhook', 'email'] as const;
export const ALERT_SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
export const MAX_ALERT_CHANNELS = 10;
export const MAX_SCHEDULE_OFFSET_MINUTES = 1439;

export type AlertState = (typeof ALERT_STATES)[number];
export type ThresholdType = (typeof THRESHOLD_TYPES)[number];
export type AlertInterval = (typeof ALERT_INTERVALS)[number];
export type AlertSource = (typeof ALERT_SOURCES)[number];
export type ExecutionErrorType = (typeof EXECUTION_ERROR_TYPES)[number];
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

const INTERVAL_MINUTES: Record<AlertInterval, number> = {
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

/** Length of an evaluation interval in minutes (`30s` is 0.5). */
export function intervalToMinutes(interval: AlertInterval): number {
  return INTERVAL_MINUTES[interval];
}

export function isRangeThresholdType(type: string): type is (typeof RANGE_THRESHOLD_TYPES)[number] {
  return (RANGE_THRESHOLD_TYPES as readonly string[]).includes(type);
}

// ---------------------------------------------------------------------------------------------
// Channels
// ---------------------------------------------------------------------------------------------

export const webhookChannelSchema = lazySchema(() =>
  z
    .looseObject({
      type: z.literal('webhook').describe('Send the notification to a webhook.'),
      webhookId: resourceIdSchema.describe('ID of an existing webhook of this service (see the webhook list).'),
      webhookService: nonEmptyOrNull(128).describe('Kind of webhook integration, e.g. "slack_api". Optional.'),
      slackChannelId: nonEmptyOrNull(256).describe('Slack channel ID for "slack_api" webhooks, e.g. "C01ABCDEF23".'),
      severity: z
        .enum(ALERT_SEVERITIES)
        .nullable()
        .optional()
        .describe('Severity passed to the integration (used by PagerDuty API webhooks).'),
    })
    .describe('Webhook notification channel.'),
);

export const emailChannelSchema = lazySchema(() =>
  z
    .looseObject({
      type: z.literal('email').describe('Send the notification by email.'),
      emailRecipients: z
        .array(z.email({ error: 'must be an email address' }))
        .min(1, { error: 'must list at least one email address' })
        .describe('Email addresses that receive the notification.'),
    })
    .describe('Email notification channel (managed service only).'),
);

/** A notification channel of an alert, chosen by `type`. */
export const alertChannelSchema = lazySchema(() =>
  z
    .discriminatedUnion('type', [webhookChannelSchema, emailChannelSchema], {
      error: 'must be "webhook" or "email"',
    })
    .describe('Notification channel: {"type":"webhook","webhookId":…} or {"type":"email","emailRecipients":[…]}.'),
);

export type AlertChannel = z.infer<typeof alertChannelSchema>;

/** Canonical JSON (sorted keys) used to compare channels for equality. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** True when two channels are the same notification target with the same options. */
export function sameChannel(a: AlertChannel, b: AlertChannel): boolean {
  return canonical(a) === canonical(b);
}

// ---------------------------------------------------------------------------------------------
// Write body (create = update)
// ---------------------------------------------------------------------------------------------

/** Tile IDs are chosen by the dashboard author (at most 36 characters, any text). */
const L_TILE_ID = 36;
const MAX_FUTURE_MS = 365 * 24 * 60 * 60 * 1000;
const MAX_PAST_MS = 10 * 365 * 24 * 60 * 60 * 1000;

/** A UTC date-time as the server's validator reads it: ISO 8601 ending in `Z`, no offset. */
const UTC_DATE_TIME = 'must be a UTC date-time ending in "Z", e.g. 2026-02-08T10:00:00.000Z';

const alertWriteObject = lazySchema(() =>
  z.looseObject({
    source: z
      .enum(ALERT_SOURCES, { error: requiredOr('must be "tile" or "saved_search"') })
      .describe('What the alert watches: "tile" (a dashboard tile) or "saved_search". Always send it.'),
    dashboardId: optionalResourceId().describe('Dashboard that holds the tile. Required when source is "tile".'),
    tileId: nonEmptyOrNull(L_TILE_ID).describe(
      'Tile of that dashboard (a line, stacked_bar or number tile; its "id" in the dashboard). Required when source is "tile".',
    ),
    savedSearchId: optionalResourceId().describe('Saved search to watch. Required when source is "saved_search".'),
    groupBy: nonEmptyOrNull(10000).describe(
      'Group the saved search by this expression. Only for source "saved_search".',
    ),
    threshold: z
      .number({ error: requiredOr('must be a number') })
      .refine(Number.isFinite, { error: 'must be a finite number' })
      .describe('Threshold value; the lower bound for "between" and "not_between".'),
    thresholdMax: z
      .number({ error: omitNullOr('must be a number') })
      .refine(Number.isFinite, { error: 'must be a finite number' })
      .optional()
      .describe(
        'Upper bound; required (and >= threshold) for "between" and "not_between". Omit it otherwise (null is refused).',
      ),
    thresholdType: z
      .enum(THRESHOLD_TYPES, { error: requiredOr(`must be one of ${THRESHOLD_TYPES.join(', ')}`) })
      .describe('How the value is compared with the threshold.'),
    interval: z
      .enum(ALERT_INTERVALS, { error: requiredOr(`must be one of ${ALERT_INTERVALS.join(', ')}`) })
      .describe('Evaluation interval. "30s" needs the sub-minute feature on the service.'),
    scheduleOffsetMinutes: z
      .number({ error: omitNullOr('must be a number') })
      .int({ error: 'must be a whole number of minutes' })
      .min(0, { error: 'must be between 0 and 1439' })
      .max(MAX_SCHEDULE_OFFSET_MINUTES, { error: 'must be between 0 and 1439' })
      .optional()
      .describe(
        'Shift of the evaluation window start, in minutes (0–1439, less than the interval). Omit it for 0 (null is refused).',
      ),
    scheduleStartAt: z.iso
      .datetime({ offset: false, local: false, error: UTC_DATE_TIME })
      .nullable()
      .optional()
      .describe(
        'Anchor of the evaluation schedule: a UTC date-time ending in "Z". null clears it; omitted keeps it on update.',
      ),
    channel: alertChannelSchema
      .optional()
      .describe('Notification channel. With "channels" present it must equal channels[0].'),
    channels: z
      .array(alertChannelSchema)
      .min(1, { error: 'must hold at least one channel' })
      .max(MAX_ALERT_CHANNELS, { error: `must hold at most ${MAX_ALERT_CHANNELS} channels` })
      .optional()
      .describe('Notification channels (1–10, no duplicates). Newer services only.'),
    name: nonEmptyOrNull(512).describe('Display name of the alert (1–512 characters).'),
    message: nonEmptyOrNull(4096).describe('Notification message template (1–4096 characters).'),
    note: nonEmptyOrNull(4096).describe('Markdown note for responders (1–4096 characters).'),
    numConsecutiveWindows: z
      .number()
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be at least 1' })
      .nullable()
      .optional()
      .describe('Windows in a row the condition must hold before the alert fires (state PENDING until then).'),
  }),
);

type AlertWriteShape = z.infer<typeof alertWriteObject>;

function checkAlertWrite(alert: AlertWriteShape, ctx: z.RefinementCtx, now: number): void {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });

  // Source and its links. The service ignores the links of the other source (it drops
  // them), so they are not refused here; the editors point them out as unused.
  if (alert.source === 'tile') {
    if (alert.dashboardId == null) issue(['dashboardId'], 'is required when source is "tile"');
    if (alert.tileId == null) issue(['tileId'], 'is required when source is "tile"');
  } else if (alert.source === 'saved_search') {
    if (alert.savedSearchId == null) issue(['savedSearchId'], 'is required when source is "saved_search"');
  }

  // Range thresholds.
  if (isRangeThresholdType(alert.thresholdType)) {
    if (alert.thresholdMax == null) {
      issue(['thresholdMax'], `is required when thresholdType is "${alert.thresholdType}"`);
    } else if (alert.thresholdMax < alert.threshold) {
      issue(['thresholdMax'], 'must be greater than or equal to threshold');
    }
  }

  // Schedule.
  const offset = alert.scheduleOffsetMinutes;
  if (offset != null) {
    const minutes = intervalToMinutes(alert.interval);
    if (alert.scheduleStartAt != null && offset !== 0) {
      issue(['scheduleOffsetMinutes'], 'must be 0 when scheduleStartAt is set');
    } else if (offset >= minutes) {
      issue(['scheduleOffsetMinutes'], `must be less than the interval (${minutes} minutes for "${alert.interval}")`);
    }
  }
  if (alert.scheduleStartAt != null) {
    const at = Date.parse(alert.scheduleStartAt);
    if (Number.isFinite(at)) {
      if (at - now > MAX_FUTURE_MS) issue(['scheduleStartAt'], 'must be at most 1 year in the future');
      if (now - at > MAX_PAST_MS) issue(['scheduleStartAt'], 'must be at most 10 years in the past');
    }
  }

  // Channels.
  if (alert.channel === undefined && alert.channels === undefined) {
    issue(['channel'], 'a notification channel is required: set "channel" (or "channels")');
  }
  if (alert.channels !== undefined) {
    const seen = new Map<string, number>();
    alert.channels.forEach((channel, index) => {
      const key = canonical(channel);
      const first = seen.get(key);
      if (first !== undefined) {
        issue(['channels', index], `duplicates channels[${first}]`);
      } else {
        seen.set(key, index);
      }
    });
    const head = alert.channels[0];
    if (alert.channel !== undefined && head !== undefined && !sameChannel(alert.channel, head)) {
      issue(['channel'], 'must equal channels[0] when both are sent');
    }
  }
}

/**
 * The alert write body (create and update). Unknown keys are kept and sent unchanged.
 * `scheduleStartAt` is checked against the clock at validation time.
 */
export const alertWriteSchema = lazySchema(() =>
  alertWriteObject
    .superRefine((alert, ctx) => checkAlertWrite(alert, ctx, Date.now()))
    .describe('Alert write body (create and update).'),
);

export type AlertWrite = z.infer<typeof alertWriteSchema>;

// ---------------------------------------------------------------------------------------------
// Response
// ---------------------------------------------------------------------------------------------

/** A channel as returned by the service (variant told apart by webhookId vs emailRecipients). */
export const alertChannelResponseSchema = lazySchema(() =>
  z.looseObject({
    type: z.string().nullable(),
    webhookId: z.string().optional(),
    webhookService: z.string().nullable().optional(),
    slackChannelId: z.string().nullable().optional(),
    severity: openEnum(ALERT_SEVERITIES).nullable().optional(),
    emailRecipients: z.array(z.string()).optional(),
  }),
);

export const alertExecutionErrorSchema = lazySchema(() =>
  z.looseObject({
    timestamp: z.string().optional(),
    type: openEnum(EXECUTION_ERROR_TYPES),
    message: z.string(),
  }),
);

export const alertSilencedSchema = lazySchema(() =>
  z.looseObject({
    by: z.string().nullable().optional(),
    at: z.string().optional(),
    until: z.string().optional(),
  }),
);

/**
 * An alert as returned by the service. Fields that are unset may be omitted; unknown
 * fields are kept so an edited alert can be written back without losing data.
 */
export const alertSchema = lazySchema(() =>
  z.looseObject({
    id: z.string().min(1),
    name: z.string().nullable().optional(),
    message: z.string().nullable().optional(),
    note: z.string().nullable().optional(),
    state: openEnum(ALERT_STATES).optional(),
    source: openEnum(ALERT_SOURCES).optional(),
    dashboardId: z.string().nullable().optional(),
    tileId: z.string().nullable().optional(),
    savedSearchId: z.string().nullable().optional(),
    groupBy: z.string().nullable().optional(),
    threshold: z.number().optional(),
    thresholdMax: z.number().nullable().optional(),
    thresholdType: openEnum(THRESHOLD_TYPES).optional(),
    interval: openEnum(ALERT_INTERVALS).optional(),
    scheduleOffsetMinutes: z.number().nullable().optional(),
    scheduleStartAt: z.string().nullable().optional(),
    numConsecutiveWindows: z.number().nullable().optional(),
    channel: alertChannelResponseSchema.optional(),
    channels: z.array(alertChannelResponseSchema).optional(),
    silenced: alertSilencedSchema.nullable().optional(),
    executionErrors: z.array(alertExecutionErrorSchema).optional(),
    teamId: z.string().optional(),
    createdAt: z.string().nullable().optional(),
    updatedAt: z.string().nullable().optional(),
  }),
);

export type Alert = z.infer<typeof alertSchema>;

/** Fields the service sets; they are not part of a write body. */
export const ALERT_READ_ONLY_FIELDS = [
  'id',
  'state',
  'teamId',
  'silenced',
  'executionErrors',
  'createdAt',
  'updatedAt',
] as const;

/**
 * Fields the service returns as `null` when unset but refuses as `null` in a write body:
 * an unset value is omitted instead.
 */
export const ALERT_OMIT_WHEN_NULL_FIELDS = ['thresholdMax', 'scheduleOffsetMinutes'] as const;

/**
 * Turns an alert response into the body of a full-replace update: read-only fields are
 * removed, `null` is dropped where the service refuses it (`thresholdMax`,
 * `scheduleOffsetMinutes`), and everything else (including fields unknown to this version)
 * is kept, so the result must still be checked with `alertWriteSchema`.
 */
export function alertToWriteBody(alert: Alert): Record<string, unknown> {
  const body: Record<string, unknown> = { ...alert };
  for (const field of ALERT_READ_ONLY_FIELDS) delete body[field];
  for (const field of ALERT_OMIT_WHEN_NULL_FIELDS) if (body[field] === null) delete body[field];
  return body;
}
