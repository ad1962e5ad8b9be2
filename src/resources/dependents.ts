import type { Alert, Dashboard, SavedSearch, Source } from './model';

/**
 * What refers to a webhook, a saved search or a source, read from the cached lists — said before a delete:
 * - a webhook in use cannot be deleted (the service answers 409 while alerts send to it);
 * - deleting a saved search deletes the alerts attached to it (the service cascades);
 * - deleting a source leaves tiles, saved searches, alerts and other sources pointing at a missing source.
 * No `vscode` here.
 */

/** Webhook IDs an alert sends to (`channel` and `channels`). */
export function alertWebhookIds(alert: Alert): string[] {
  const out: string[] = [];
  const channels = [alert.channel, ...(alert.channels ?? [])];
  for (const channel of channels) {
    const id = (channel as { webhookId?: unknown } | undefined)?.webhookId;
    if (typeof id === 'string' && id && !out.includes(id)) out.push(id);
  }
  return out;
}

export function alertsUsingWebhook(alerts: readonly Alert[], webhookId: string): Alert[] {
  return alerts.filter((a) => alertWebhookIds(a).includes(webhookId));
}

export function alertsOnSavedSearch(alerts: readonly Alert[], savedSearchId: string): Alert[] {
  return alerts.filter((a) => a.savedSearchId === savedSearchId);
}

export interface SourceDependents {
  /** Tiles whose query reads the source, with their dashboard. */
  readonly tiles: readonly { dashboard: Dashboard; tileId: string; tileName: string }[];
  readonly savedSearches: readonly SavedSearch[];
  /** Alerts on those tiles or saved searches. */
  readonly alerts: readonly Alert[];
  /** Other sources that correlate with it (trace, log, metric, session source IDs). */
  readonly sources: readonly Source[];
}

const SOURCE_LINKS = ['traceSourceId', 'logSourceId', 'metricSourceId', 'sessionSourceId'] as const;

export function sourceDependents(
  sourceId: string,
  lists: {
    dashboards?: readonly Dashboard[];
    savedSearches?: readonly SavedSearch[];
    alerts?: readonly Alert[];
    sources?: readonly Source[];
  },
): SourceDependents {
  const tiles: { dashboard: Dashboard; tileId: string; tileName: string }[] = [];
  for (const dashboard of lists.dashboards ?? []) {
    for (const tile of dashboard.tiles ?? []) {
      if (tile.config?.sourceId === sourceId) tiles.push({ dashboard, tileId: tile.id, tileName: tile.name });
    }
  }
  const savedSearches = (lists.savedSearches ?? []).filter((s) => s.sourceId === sourceId);
  const searchIds = new Set(savedSearches.map((s) => s.id));
  const tileKeys = new Set(tiles.map((t) => `${t.dashboard.id}\u0000${t.tileId}`));
  const alerts = (lists.alerts ?? []).filter(
    (a) =>
      (a.savedSearchId && searchIds.has(a.savedSearchId)) ||
      (a.dashboardId && a.tileId && tileKeys.has(`${a.dashboardId}\u0000${a.tileId}`)),
  );
  const sources = (lists.sources ?? []).filter(
    (s) => s.id !== sourceId && SOURCE_LINKS.some((k) => (s as Record<string, unknown>)[k] === sourceId),
  );
  return { tiles, savedSearches, alerts, sources };
}

export const MASK = '••••';

/**
 * Path words of webhook addresses that carry no secret, kept so an address stays readable (`/services/…` of Slack,
 * `/v2/enqueue` of PagerDuty). Every other path segment is a token, whatever its length: a short one (`T1/B2/x`) is
 * as secret as a long one.
 */
const ROUTE_WORDS: ReadonlySet<string> = new Set([
  'alert',
  'alerts',
  'api',
  'enqueue',
  'event',
  'events',
  'generic',
  'hook',
  'hooks',
  'incoming',
  'integration',
  'integrations',
  'notification',
  'notifications',
  'notify',
  'services',
  'v1',
  'v2',
  'v3',
  'v4',
  'webhook',
  'webhooks',
]);

function isRouteWord(segment: string): boolean {
  return segment === '' || ROUTE_WORDS.has(segment.toLowerCase());
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A webhook URL as the tree, diffs and service folder files show it: scheme, host and port kept; user info, query
 * values and every path segment but a few route words (`services`, `v2`, `alerts`, …) masked, whatever their length.
 * Text that is not a URL is masked whole.
 */
export function maskWebhookUrl(url: string | null | undefined): string {
  if (!url) return '';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return MASK;
  }
  const path = parsed.pathname
    .split('/')
    .map((segment) => (isRouteWord(safeDecode(segment)) ? segment : MASK))
    .join('/');
  const query = [...parsed.searchParams.keys()].map((k) => `${encodeURIComponent(k)}=${MASK}`).join('&');
  const userInfo = parsed.username || parsed.password ? `${MASK}@` : '';
  return `${parsed.protocol}//${userInfo}${parsed.host}${path}${query ? `?${query}` : ''}${parsed.hash ? '#' + MASK : ''}`;
}

/** A header value shown masked (its length is not revealed). */
export function maskHeaderValue(value: string): string {
  return value ? MASK : '';
}
