import {
  followServer,
  type ServerKind,
  ALERT_INTERVALS,
  ALERTABLE_DISPLAY_TYPES,
  QUERY_ENDPOINT_ROLES,
  isRangeThresholdType,
  schemaIssues,
} from '../schema';
import { presentIn, restoreKeys, unknownKeyPaths, withoutKeys } from '../schema/unknownKeys';
import type { DocumentKind, LiveFacts } from '../resources/model';
import { KINDS } from '../resources/kinds';

/**
 * Checks of a resource document that a JSON Schema cannot express: references to things that must exist on the
 * service (dashboard, tile, webhook, saved search, API key), tiles that cannot carry an alert, cross-field rules and
 * empty strings. Pure functions over plain values; the editor turns the paths into ranges.
 */

export type IssuePath = readonly (string | number)[];

export interface DocumentIssue {
  readonly path: IssuePath;
  readonly message: string;
  readonly severity: 'error' | 'warning' | 'info';
  /** Point at the property name instead of its value (unknown keys). */
  readonly atKey?: boolean;
}

export type { DashboardInfo, LiveFacts, NamedInfo, TileInfo } from '../resources/model';

type Json = unknown;

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every empty string value, with its path. */
function emptyStrings(value: Json, path: (string | number)[] = [], out: DocumentIssue[] = []): DocumentIssue[] {
  if (value === '') {
    out.push({
      path,
      message: 'Empty text is rejected by the service: write a value, use null or leave the field out.',
      severity: 'error',
    });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => emptyStrings(v, [...path, i], out));
  } else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) emptyStrings(v, [...path, k], out);
  }
  return out;
}

function alertIssues(value: Record<string, Json>, facts: LiveFacts | undefined): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  const where = facts ? ` on service ${facts.serviceLabel}` : '';
  if (
    typeof value.interval === 'string' &&
    value.interval !== '' &&
    !(ALERT_INTERVALS as readonly string[]).includes(value.interval)
  ) {
    issues.push({
      path: ['interval'],
      message: `Unknown interval "${value.interval}". Use one of: ${ALERT_INTERVALS.join(', ')}.`,
      severity: 'error',
    });
  }
  if (typeof value.thresholdType === 'string' && isRangeThresholdType(value.thresholdType)) {
    const max = value.thresholdMax;
    if (max === undefined || max === null) {
      issues.push({
        path: ['thresholdType'],
        message: `"${value.thresholdType}" needs "thresholdMax" (the upper bound; "threshold" is the lower bound).`,
        severity: 'error',
      });
    } else if (typeof max === 'number' && typeof value.threshold === 'number' && max < value.threshold) {
      issues.push({
        path: ['thresholdMax'],
        message: `"thresholdMax" (${max}) must not be below "threshold" (${value.threshold}).`,
        severity: 'error',
      });
    }
  }
  const source = value.source;
  if (source === 'tile' || (source === undefined && (value.dashboardId !== undefined || value.tileId !== undefined))) {
    const dashboardId = value.dashboardId;
    if (typeof dashboardId === 'string' && dashboardId !== '' && facts?.dashboards) {
      const dashboard = facts.dashboards.find((d) => d.id === dashboardId);
      if (!dashboard) {
        issues.push({
          path: ['dashboardId'],
          message: `Dashboard "${dashboardId}" does not exist${where}.`,
          severity: 'error',
        });
      } else if (typeof value.tileId === 'string' && value.tileId !== '') {
        const tile = dashboard.tiles?.find((t) => t.id === value.tileId);
        if (!tile) {
          issues.push({
            path: ['tileId'],
            message: `Tile "${value.tileId}" does not exist on dashboard "${dashboard.name || dashboard.id}".`,
            severity: 'error',
          });
        } else {
          const displayType = tile.config?.displayType;
          if (!displayType || !(ALERTABLE_DISPLAY_TYPES as readonly string[]).includes(displayType)) {
            issues.push({
              path: ['tileId'],
              message: `Tile "${tile.name || tile.id}" is a ${displayType ?? 'tile without a display type'}: only ${ALERTABLE_DISPLAY_TYPES.join(', ')} tiles can carry an alert (others are deleted by the next dashboard update).`,
              severity: 'error',
            });
          }
        }
      }
    }
  }
  if (
    source === 'saved_search' &&
    typeof value.savedSearchId === 'string' &&
    value.savedSearchId !== '' &&
    facts?.savedSearches
  ) {
    if (!facts.savedSearches.some((s) => s.id === value.savedSearchId)) {
      issues.push({
        path: ['savedSearchId'],
        message: `Saved search "${value.savedSearchId}" does not exist${where}.`,
        severity: 'error',
      });
    }
  }
  const checkWebhook = (channel: Json, path: (string | number)[]) => {
    if (!isObject(channel) || typeof channel.webhookId !== 'string' || channel.webhookId === '' || !facts?.webhooks) {
      return;
    }
    if (!facts.webhooks.some((w) => w.id === channel.webhookId)) {
      issues.push({
        path: [...path, 'webhookId'],
        message: `Webhook "${channel.webhookId}" does not exist${where}.`,
        severity: 'error',
      });
    }
  };
  checkWebhook(value.channel, ['channel']);
  if (Array.isArray(value.channels)) value.channels.forEach((c, i) => checkWebhook(c, ['channels', i]));
  return issues;
}

function queryEndpointIssues(value: Record<string, Json>, facts: LiveFacts | undefined): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  if (Array.isArray(value.roles)) {
    value.roles.forEach((r, i) => {
      if (typeof r === 'string' && r !== '' && !(QUERY_ENDPOINT_ROLES as readonly string[]).includes(r)) {
        issues.push({
          path: ['roles', i],
          message: `Unknown role "${r}". Use ${QUERY_ENDPOINT_ROLES.join(' or ')}.`,
          severity: 'error',
        });
      }
    });
  }
  if (Array.isArray(value.openApiKeys) && facts?.apiKeys) {
    const keys = facts.apiKeys;
    value.openApiKeys.forEach((k, i) => {
      if (typeof k === 'string' && k !== '' && !keys.some((key) => key.id === k)) {
        issues.push({
          path: ['openApiKeys', i],
          message: `API key "${k}" does not exist in the organization (use the key's UUID, not its key ID).`,
          severity: 'error',
        });
      }
    });
  }
  return issues;
}

function dashboardIssues(value: Record<string, Json>, facts: LiveFacts | undefined): DocumentIssue[] {
  if (!facts?.watchedTiles || !Array.isArray(value.tiles)) return [];
  const issues: DocumentIssue[] = [];
  const tiles = value.tiles.filter(isObject);
  for (const watched of facts.watchedTiles) {
    const index = tiles.findIndex((t) => t.id === watched.tileId);
    const names = watched.alerts.join(', ');
    const label = watched.tileName || watched.tileId;
    if (index < 0) {
      issues.push({
        path: ['tiles'],
        atKey: true,
        severity: 'warning',
        message: `Tile "${label}" (${watched.tileId}) is missing: applying makes the service delete the alert(s) watching it: ${names}.`,
      });
      continue;
    }
    const config = tiles[index]?.config;
    const displayType = isObject(config) ? config.displayType : undefined;
    if (typeof displayType === 'string' && !(ALERTABLE_DISPLAY_TYPES as readonly string[]).includes(displayType)) {
      issues.push({
        path: ['tiles', value.tiles.indexOf(tiles[index]), 'config', 'displayType'],
        severity: 'warning',
        message: `A ${displayType} tile cannot carry an alert: applying makes the service delete ${names}.`,
      });
    }
  }
  return issues;
}

/** References from a saved search or a source to sources of the service: they must exist (and be of the kind named). */
function sourceReferenceIssues(
  kind: 'savedSearch' | 'source',
  value: Record<string, Json>,
  facts: LiveFacts | undefined,
): DocumentIssue[] {
  const sources = facts?.sources;
  if (!sources) return [];
  const where = facts ? ` on service ${facts.serviceLabel}` : '';
  const fields: [string, string | undefined][] =
    kind === 'savedSearch'
      ? [['sourceId', undefined]]
      : [
          ['traceSourceId', 'trace'],
          ['logSourceId', 'log'],
          ['metricSourceId', 'metric'],
          ['sessionSourceId', 'session'],
        ];
  const issues: DocumentIssue[] = [];
  for (const [field, wanted] of fields) {
    const id = value[field];
    if (typeof id !== 'string' || id === '') continue;
    const source = sources.find((s) => s.id === id);
    if (!source) {
      issues.push({ path: [field], message: `Source "${id}" does not exist${where}.`, severity: 'error' });
    } else if (wanted && source.kind !== wanted) {
      issues.push({
        path: [field],
        message: `Source "${source.name || id}" is a ${source.kind} source: "${field}" names a ${wanted} source.`,
        severity: 'warning',
      });
    }
  }
  return issues;
}

/** Checks beyond the JSON Schema, against what is known of the service. */
export function semanticIssues(kind: DocumentKind, value: Json, facts: LiveFacts | undefined): DocumentIssue[] {
  if (!isObject(value)) return [];
  // Alerts and the query endpoint refuse empty text anywhere, except the query endpoint's `allowedOrigins`, where ""
  // is a value (backend-only, no CORS). Dashboards accept empty text in many fields (a tile select's `valueExpression`
  // and `where` are `z.string().max(10000).optional()` in the service's validator): their write schema says which not;
  // so do the schemas of webhooks, saved searches, sources and roles (a saved search's `where` may be "").
  const issues =
    kind === 'alert' || kind === 'queryEndpoint'
      ? emptyStrings(value).filter(
          (i) => !(kind === 'queryEndpoint' && i.path.length === 1 && i.path[0] === 'allowedOrigins'),
        )
      : [];
  if (kind === 'alert') issues.push(...alertIssues(value, facts));
  if (kind === 'queryEndpoint') issues.push(...queryEndpointIssues(value, facts));
  if (kind === 'dashboard') issues.push(...dashboardIssues(value, facts));
  if (kind === 'savedSearch' || kind === 'source') issues.push(...sourceReferenceIssues(kind, value, facts));
  return issues;
}

/** The write schema of a document (create and update bodies of dashboards and roles differ). */
export function schemaFor(kind: DocumentKind, isNew: boolean) {
  return KINDS[kind].schema(isNew);
}

/**
 * Validates a document value against its write schema; issues carry JSON paths. Keys no schema of this version names
 * never block: they are left out of the check and put back, unchanged, into the body that is sent (a newer service
 * returns fields this version does not know, at any depth).
 */
export function schemaCheck(
  kind: DocumentKind,
  isNew: boolean,
  value: Json,
  server?: ServerKind,
  original?: unknown,
): { ok: true; data: unknown; warnings: DocumentIssue[] } | { ok: false; issues: DocumentIssue[] } {
  const schema = schemaFor(kind, isNew);
  const unknown = unknownKeyPaths(schema, value);
  const result = schema.safeParse(withoutKeys(value, unknown));
  const local: DocumentIssue[] = result.success
    ? []
    : schemaIssues(result.error).map((i) => ({
        path: i.path === '' ? [] : i.path.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s)),
        message: i.message,
        severity: 'error' as const,
        atKey: i.message.startsWith('unknown field'),
      }));
  // What only some server versions accept: blocked on Cloud, a warning on a self-hosted deployment (serverRules.ts).
  const issues = followServer(kind, value, local, server, original);
  const errors = issues.filter((i) => i.severity === 'error');
  const warnings = issues.filter((i) => i.severity !== 'error');
  if (errors.length > 0) return { ok: false, issues };
  // A body the local schema refused only for what this server may accept is sent as written.
  return { ok: true, data: result.success ? restoreKeys(result.data, value, unknown) : value, warnings };
}

/**
 * Warnings for keys this version does not know that the user typed: a likely typo. A key that is also in the
 * service's version the document was opened from (`original`) came from the service and is never reported. The keys
 * are sent as typed; the service decides.
 */
export function unknownKeyIssues(
  kind: DocumentKind,
  isNew: boolean,
  value: Json,
  original: Json | undefined,
): DocumentIssue[] {
  return unknownKeyPaths(schemaFor(kind, isNew), value)
    .filter((path) => original === undefined || !presentIn(original, value, path))
    .map((path) => ({
      path,
      atKey: true,
      severity: 'warning' as const,
      message: `Unknown field "${String(path[path.length - 1])}": not a field this version knows (a typo?). It is sent as typed; the service may ignore or reject it.`,
    }));
}

/**
 * For an alert: fields the service's version has (with a value) that the document leaves out. An update does not
 * clear them (the service keeps optional fields a body omits), so say so where the reader looks.
 */
export function leftOutIssues(kind: DocumentKind, value: Json, original: Json | undefined): DocumentIssue[] {
  if (kind !== 'alert' || !isObject(value) || !isObject(original)) return [];
  const hasChannel = 'channel' in value || 'channels' in value;
  return Object.entries(original)
    .filter(
      ([key, v]) =>
        v !== null && v !== undefined && !(key in value) && !((key === 'channel' || key === 'channels') && hasChannel),
    )
    .map(([key]) => ({
      path: [],
      severity: 'info' as const,
      message: `"${key}" is left out: an update keeps its current value on the service. To clear it, set "${key}": null.`,
    }));
}

/** The value without the keys this version does not know (for the checks that read known fields only). */
export function knownPart(kind: DocumentKind, isNew: boolean, value: Json): Json {
  return withoutKeys(value, unknownKeyPaths(schemaFor(kind, isNew), value));
}

/** Field a server error message names, for the errors the service reports as text only. */
export function fieldOfServerMessage(message: string | undefined): IssuePath | undefined {
  if (!message) return undefined;
  if (/dashboard not found/i.test(message)) return ['dashboardId'];
  if (/tile not found/i.test(message)) return ['tileId'];
  if (/webhook not found/i.test(message)) return ['channel', 'webhookId'];
  if (/saved search not found/i.test(message)) return ['savedSearchId'];
  const quoted = /["'`]([A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)*)["'`]/.exec(message);
  if (
    quoted?.[1] &&
    /^(name|message|note|threshold|thresholdMax|thresholdType|interval|source|channel|channels|tiles|roles|openApiKeys|allowedOrigins|scheduleOffsetMinutes|scheduleStartAt|numConsecutiveWindows|groupBy)\b/.test(
      quoted[1],
    )
  ) {
    return quoted[1].split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  }
  return undefined;
}

/** The issues without repeats (same field, same message): the schema and the rules may both report one problem. */
export function dedupeIssues(issues: readonly DocumentIssue[]): DocumentIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.path.join('.')}|${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
