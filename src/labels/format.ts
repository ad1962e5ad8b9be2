import * as vscode from 'vscode';
import { markdownCode, markdownText, sanitizeServerText } from '../api';
import type { Alert, ConnectionView, QueryEndpoint, RequestFailure, Source, TileResponse } from '../resources/model';
import {
  ALERT_STATUS_ICONS,
  alertStatus,
  collator,
  conditionText,
  isFiring,
  isSilenced,
  type AlertStatus,
} from './plainFormat';

export {
  alertStatus,
  collator,
  conditionText,
  contextState,
  isFiring,
  isFiringUnsilenced,
  isSilenced,
  nameOf,
  sortByName,
  sourceIconId,
  tileIconId,
} from './plainFormat';

/**
 * Pure presentation helpers: labels, icons, descriptions and tooltips. No requests, no state. Those that need no
 * `vscode` (names, sort orders, conditions, icon IDs) live in `./plainFormat` and are re-exported above.
 * Every server string goes through `sanitizeServerText` (labels, descriptions) or `markdownText`/`markdownCode`
 * (tooltips): a name like `[Re-enter your key](https://…)` must not become a link, a bidi override must not reorder.
 */

export function alertLabel(alert: Alert): string {
  return sanitizeServerText(alert.name) || vscode.l10n.t('Alert {0}', sanitizeServerText(alert.id));
}

export function tileLabel(tile: TileResponse): string {
  return sanitizeServerText(tile.name) || vscode.l10n.t('Tile {0}', sanitizeServerText(tile.id));
}

export function sortAlerts(alerts: readonly Alert[]): Alert[] {
  const labelled = alerts.map((alert) => ({ alert, label: alertLabel(alert), firing: isFiring(alert) }));
  labelled.sort((a, b) => (a.firing === b.firing ? collator.compare(a.label, b.label) : a.firing ? -1 : 1));
  return labelled.map((x) => x.alert);
}

const STATUS_ICONS = new Map<AlertStatus, vscode.ThemeIcon>(
  (Object.entries(ALERT_STATUS_ICONS) as [AlertStatus, { icon: string; color?: string }][]).map(([status, look]) => [
    status,
    new vscode.ThemeIcon(look.icon, look.color ? new vscode.ThemeColor(look.color) : undefined),
  ]),
);

/** The icon of an alert's status: firing, silenced, pending, OK, insufficient data, disabled, execution error. */
export function alertIcon(alert: Alert, now = Date.now()): vscode.ThemeIcon {
  return STATUS_ICONS.get(alertStatus(alert, now))!;
}

/** The words for an alert's status; a silenced alert also says whether it fires underneath. */
export function alertStatusText(alert: Alert, now = Date.now()): string {
  const status = alertStatus(alert, now);
  switch (status) {
    case 'silenced':
      return isFiring(alert) ? vscode.l10n.t('Silenced (firing)') : vscode.l10n.t('Silenced');
    case 'error':
      return vscode.l10n.t('Execution error ({0})', stateText(alert.state));
    default:
      return stateText(alert.state);
  }
}

export function stateText(state: string | null | undefined): string {
  switch (state) {
    case 'ALERT':
      return vscode.l10n.t('Firing');
    case 'OK':
      return vscode.l10n.t('OK');
    case 'PENDING':
      return vscode.l10n.t('Pending');
    case 'INSUFFICIENT_DATA':
      return vscode.l10n.t('Insufficient data');
    case 'DISABLED':
      return vscode.l10n.t('Disabled');
    default:
      return sanitizeServerText(state) || vscode.l10n.t('Unknown');
  }
}

export function channelText(alert: Alert, webhookNames: ReadonlyMap<string, string>): string | undefined {
  const channel = alert.channel;
  if (!channel) return undefined;
  if (channel.webhookId) {
    return sanitizeServerText(webhookNames.get(channel.webhookId) ?? channel.webhookId) || undefined;
  }
  if (channel.emailRecipients && channel.emailRecipients.length > 0) {
    return channel.emailRecipients.length === 1
      ? sanitizeServerText(channel.emailRecipients[0]) || undefined
      : vscode.l10n.t('{0} email recipients', channel.emailRecipients.length);
  }
  return sanitizeServerText(channel.type) || undefined;
}

/**
 * One line, the condition first (it is what a narrow sidebar must still show): "above 100 · silenced · 1h ·
 * webhook-name". A silenced alert or one whose last run failed says so after the condition (the icon says it too).
 */
export function alertDescription(alert: Alert, webhookNames: ReadonlyMap<string, string>, now = Date.now()): string {
  const parts: string[] = [conditionText(alert)];
  if (isSilenced(alert, now)) parts.push(vscode.l10n.t('silenced'));
  else if (alertStatus(alert, now) === 'error') parts.push(vscode.l10n.t('execution error'));
  if (alert.interval) parts.push(sanitizeServerText(alert.interval));
  const channel = channelText(alert, webhookNames);
  if (channel) parts.push(channel);
  return parts.filter((p) => p).join(' · ');
}

/** Text for a tooltip: sanitised and Markdown-escaped (no link, emphasis, HTML or autolink can form). */
function md(text: unknown, max?: number): string {
  return markdownText(text, max);
}

/** An ID or type as a code span, sanitised. */
function code(text: unknown): string {
  return markdownCode(text);
}

export function alertTooltip(
  alert: Alert,
  webhookNames: ReadonlyMap<string, string>,
  dashboardName?: string,
  tileName?: string,
  savedSearchName?: string,
  /** The alert's service: its saved search becomes a link opening it in the search panel. */
  scope?: { connectionId: string; serviceId: string },
): vscode.MarkdownString {
  const lines: string[] = [];
  let link = false;
  lines.push(`**${md(alertLabel(alert))}** — ${md(alertStatusText(alert))}`, '');
  lines.push(`- ${vscode.l10n.t('ID')}: ${code(alert.id)}`);
  lines.push(
    `- ${vscode.l10n.t('Condition')}: ${md(conditionText(alert))}${alert.interval ? ` · ${md(vscode.l10n.t('every {0}', alert.interval))}` : ''}`,
  );
  if (alert.numConsecutiveWindows && alert.numConsecutiveWindows > 1) {
    lines.push(`- ${vscode.l10n.t('Fires after {0} consecutive windows', alert.numConsecutiveWindows)}`);
  }
  if (alert.source === 'tile' || alert.dashboardId) {
    const where = dashboardName
      ? `${md(dashboardName)}${tileName ? ` › ${md(tileName)}` : ''}`
      : code(alert.dashboardId ?? '?');
    lines.push(`- ${vscode.l10n.t('Watches')}: ${where} (${vscode.l10n.t('tile')} ${code(alert.tileId ?? '?')})`);
  } else if (alert.savedSearchId) {
    let search = savedSearchName ? md(savedSearchName) : code(alert.savedSearchId);
    if (scope) {
      // The one link of the tooltip: escaped text, the command and its argument built here.
      const title = vscode.l10n.t('Open in Search');
      search = `[${search}](${commandUri(OPEN_SEARCH, { ...scope, savedSearchId: alert.savedSearchId })} "${title}")`;
      link = true;
    }
    lines.push(`- ${vscode.l10n.t('Saved search')}: ${search}`);
  }
  const channel = channelText(alert, webhookNames);
  if (channel) {
    lines.push(
      `- ${vscode.l10n.t('Notifies')}: ${md(channel)}${alert.channel?.type ? ` (${md(alert.channel.type)})` : ''}`,
    );
  }
  if (alert.silenced) {
    // Each piece is escaped on its own and joined with plain spaces: the sanitiser trims what it escapes, so a
    // leading space inside a piece would be lost ("Silencedby …").
    const pieces = [md(vscode.l10n.t('Silenced'))];
    if (alert.silenced.by) pieces.push(md(vscode.l10n.t('by {0}', alert.silenced.by)));
    if (alert.silenced.until) {
      pieces.push(md(vscode.l10n.t('until {0}', new Date(alert.silenced.until).toLocaleString())));
    }
    lines.push(`- ${pieces.join(' ')}`);
  }
  if (alert.message) lines.push(`- ${vscode.l10n.t('Message')}: ${md(alert.message, 200)}`);
  const errors = alert.executionErrors ?? [];
  if (errors.length > 0) {
    lines.push('', `**${vscode.l10n.t('Recent execution errors')}**`, '');
    const recent = [...errors].sort((a, b) => (b.timestamp ?? '').localeCompare(a.timestamp ?? '')).slice(0, 5);
    for (const e of recent) {
      const when = e.timestamp ? new Date(e.timestamp).toLocaleString() : '';
      lines.push(`- $(error) ${md(when)} ${e.type ? code(e.type) : ''} ${md(e.message, 300)}`);
    }
    if (errors.length > recent.length) {
      lines.push(`- ${vscode.l10n.t('… and {0} more', errors.length - recent.length)}`);
    }
  }
  return plainTooltip(lines.join('\n'), link ? [OPEN_SEARCH] : undefined);
}

const OPEN_SEARCH = 'observability.searchEvents';

/**
 * A `command:` URI with one argument: JSON, percent-encoded, parentheses and quotes too (so the Markdown link's
 * target cannot end early whatever the server's IDs hold).
 */
export function commandUri(command: string, arg: unknown): string {
  const encoded = encodeURIComponent(JSON.stringify([arg])).replace(
    /[()'!*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `command:${command}?${encoded}`;
}

/**
 * A tooltip whose Markdown comes from this module only: theme icons on, no HTML, and no command links but those of
 * `commands` (the links this module built).
 */
function plainTooltip(markdown: string, commands?: string[]): vscode.MarkdownString {
  const tooltip = new vscode.MarkdownString(markdown, true);
  tooltip.isTrusted = commands ? { enabledCommands: commands } : false;
  tooltip.supportHtml = false;
  return tooltip;
}

export function sourceDescription(source: Source): string {
  const table = [source.from?.databaseName, source.from?.tableName]
    .map((p) => sanitizeServerText(p))
    .filter((p) => p)
    .join('.');
  const parts = [sanitizeServerText(source.kind) || vscode.l10n.t('unknown kind')];
  if (table) parts.push(table);
  if (source.disabled) parts.push(vscode.l10n.t('disabled'));
  return parts.join(' · ');
}

export function queryEndpointLines(
  endpoint: QueryEndpoint,
): { key: string; label: string; description: string; icon: string }[] {
  const roles = (endpoint.roles ?? []).map((r) => sanitizeServerText(r)).filter((r) => r);
  const keys = endpoint.openApiKeys ?? [];
  const origins = (typeof endpoint.allowedOrigins === 'string' ? endpoint.allowedOrigins : '')
    .split(',')
    .map((o) => sanitizeServerText(o))
    .filter((o) => o);
  return [
    {
      key: 'roles',
      label: vscode.l10n.t('Roles'),
      description: roles.length ? roles.join(', ') : vscode.l10n.t('none'),
      icon: 'shield',
    },
    { key: 'keys', label: vscode.l10n.t('API keys'), description: String(keys.length), icon: 'key' },
    {
      key: 'origins',
      label: vscode.l10n.t('Allowed origins'),
      description: origins.length ? origins.join(', ') : vscode.l10n.t('none (server-side calls only)'),
      icon: 'globe',
    },
  ];
}

/** What the tree says about a failure, and which follow-up actions help. */
export interface FailurePresentation {
  readonly label: string;
  readonly description: string;
  readonly tooltip: vscode.MarkdownString;
  /** contextValue tokens for the actions: `editConnection`, `updateSecret`. */
  readonly actions: readonly ('editConnection' | 'updateSecret')[];
}

const RESOURCE_PATHS: Record<string, string> = {
  dashboards: 'dashboards',
  alerts: 'alerts',
  sources: 'sources',
  webhooks: 'webhooks',
  queryEndpoint: 'serviceQueryEndpoint',
};

export function presentFailure(
  failure: RequestFailure,
  what: string,
  connection: ConnectionView | undefined,
): FailurePresentation {
  const status = failure.status !== undefined ? `HTTP ${failure.status}` : failure.kind;
  let label: string;
  const actions: ('editConnection' | 'updateSecret')[] = [];
  switch (failure.kind) {
    case 'unauthorized':
      label = vscode.l10n.t('The service rejected the API key (HTTP 401): update the key secret');
      actions.push('updateSecret', 'editConnection');
      break;
    case 'forbidden':
      label = vscode.l10n.t('The API key may not read {0} (HTTP 403): check its role', what);
      actions.push('editConnection');
      break;
    case 'routeNotServed': {
      const segment = connection?.pathSegment ?? 'observability';
      const tail = failure.path
        ? failure.path.replace(/^.*\/services\/[^/]+/, '…')
        : `…/${segment}/${RESOURCE_PATHS[what] ?? what}`;
      label = vscode.l10n.t('The service answered with an HTML 404 for {0}: check the product path segment', tail);
      actions.push('editConnection');
      break;
    }
    case 'network':
      label = vscode.l10n.t('Cannot reach the service: {0}', sanitizeServerText(failure.message));
      actions.push('editConnection');
      break;
    case 'timeout':
      label = vscode.l10n.t('The service did not answer in time');
      break;
    case 'rateLimited':
      label = vscode.l10n.t('Too many requests: the rate limit was reached, retry in a moment');
      break;
    case 'notFound':
      label = vscode.l10n.t('Not found (HTTP 404): check the organization and service of this connection');
      actions.push('editConnection');
      break;
    default:
      label = sanitizeServerText(failure.serverMessage) || sanitizeServerText(failure.message);
  }
  const lines = [`**${md(vscode.l10n.t('Could not load {0}', what))}**`, '', md(failure.message, 1000), ''];
  if (failure.operation) lines.push(`- ${vscode.l10n.t('Operation')}: ${md(failure.operation)}`);
  if (failure.method || failure.path) {
    lines.push(`- ${vscode.l10n.t('Request')}: ${code(`${failure.method ?? ''} ${failure.path ?? ''}`.trim())}`);
  }
  if (failure.status !== undefined) lines.push(`- ${vscode.l10n.t('HTTP status')}: ${failure.status}`);
  if (failure.serverMessage) lines.push(`- ${vscode.l10n.t('Server message')}: ${md(failure.serverMessage, 500)}`);
  if (failure.requestId) lines.push(`- ${vscode.l10n.t('Request ID')}: ${code(failure.requestId)}`);
  lines.push(`- ${vscode.l10n.t('Kind')}: ${code(failure.kind)}`);
  return { label, description: status, tooltip: plainTooltip(lines.join('\n')), actions };
}
