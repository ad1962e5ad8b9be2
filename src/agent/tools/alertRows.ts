/** How the alert tools describe an alert: its state in words, its condition and what it watches. */
import { sanitizeServerText } from '../../api';
import type { Alert, Dashboard, SavedSearch } from '../../resources/model';
import { conditionText, isSilenced } from '../../labels/plainFormat';

const STATES: Record<string, string> = {
  ALERT: 'firing',
  OK: 'OK',
  PENDING: 'pending',
  INSUFFICIENT_DATA: 'insufficient data',
  DISABLED: 'disabled',
};

/** firing / OK / pending / insufficient data / disabled, with "silenced until …" and "N errors" when they apply. */
export function alertState(alert: Alert, now = Date.now()): string {
  const state =
    alert.state && Object.hasOwn(STATES, alert.state)
      ? STATES[alert.state]!
      : sanitizeServerText(alert.state) || 'unknown';
  const parts = [state];
  if (isSilenced(alert, now)) {
    const until = alert.silenced?.until ? sanitizeServerText(alert.silenced.until, 40) : '';
    parts.push(until ? `silenced until ${until}` : 'silenced');
  }
  const errors = alert.executionErrors?.length ?? 0;
  if (errors > 0) parts.push(`${errors} execution error${errors === 1 ? '' : 's'}`);
  return parts.join(', ');
}

export interface Names {
  readonly dashboards?: readonly Dashboard[] | undefined;
  readonly savedSearches?: readonly SavedSearch[] | undefined;
}

/** What the alert watches: `tile "Errors" of dashboard "Checkout"` or `saved search "5xx"` (names from the service). */
export function watched(alert: Alert, names: Names): string {
  if (alert.source === 'saved_search' || (!alert.dashboardId && alert.savedSearchId)) {
    const search = names.savedSearches?.find((s) => s.id === alert.savedSearchId);
    const group = alert.groupBy ? ` grouped by ${alert.groupBy}` : '';
    return `saved search "${search?.name ?? alert.savedSearchId ?? '?'}"${group}`;
  }
  const dashboard = names.dashboards?.find((d) => d.id === alert.dashboardId);
  const tile = dashboard?.tiles?.find((t) => t.id === alert.tileId);
  return `tile "${tile?.name ?? alert.tileId ?? '?'}" of dashboard "${dashboard?.name ?? alert.dashboardId ?? '?'}"`;
}

/** `above 5, every 5m, 2 windows in a row`. */
export function condition(alert: Alert): string {
  const parts = [conditionText(alert)];
  if (alert.interval) parts.push(`every ${alert.interval}`);
  if (alert.numConsecutiveWindows && alert.numConsecutiveWindows > 1) {
    parts.push(`${alert.numConsecutiveWindows} windows in a row`);
  }
  return parts.join(', ');
}
