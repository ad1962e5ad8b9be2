import { sanitizeServerText } from '../api';
import type { Alert, Source, TileResponse } from '../resources/model';
import { conditionOf } from './condition';

/**
 * Presentation helpers that need no `vscode` (no localised words, no icons or Markdown objects): names,
 * sort orders, alert conditions, silence, context values and codicon IDs. `./format` re-exports them beside the
 * helpers that do, so plain Node can test these. Every server string goes through `sanitizeServerText`.
 */

export const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

export function nameOf(item: { readonly id: string; readonly name?: string | null }): string {
  return sanitizeServerText(item.name) || sanitizeServerText(item.id);
}

/** Sort key order for alert states: firing first. */
export function isFiring(alert: Alert): boolean {
  return alert.state === 'ALERT';
}

export function sortByName<T extends { readonly id: string; readonly name?: string | null }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => collator.compare(nameOf(a), nameOf(b)));
}

export function contextState(state: string | null | undefined): string {
  switch (state) {
    case 'ALERT':
      return 'firing';
    case 'OK':
      return 'ok';
    case 'PENDING':
      return 'pending';
    case 'INSUFFICIENT_DATA':
      return 'insufficientData';
    case 'DISABLED':
      return 'disabled';
    default:
      return 'unknownState';
  }
}

/** The alert's condition in the one wording of every view (`at least 1500`), its server text sanitised. */
export function conditionText(alert: Alert): string {
  return sanitizeServerText(conditionOf(alert));
}

function silencedActive(alert: Alert, now: number): boolean {
  if (!alert.silenced) return false;
  const until = alert.silenced.until ? Date.parse(alert.silenced.until) : NaN;
  return Number.isNaN(until) || until > now;
}

export function isSilenced(alert: Alert, now = Date.now()): boolean {
  return silencedActive(alert, now);
}

/** Firing and not silenced: what the status bar counts and notifications announce. */
export function isFiringUnsilenced(alert: Alert, now = Date.now()): boolean {
  return isFiring(alert) && !silencedActive(alert, now);
}

/**
 * What a user should read from an alert at a glance, one of seven states (or `unknown` for a state this version
 * does not know). Disabled wins over everything, then an active silence, then firing; an alert whose last run
 * reported execution errors (the server keeps only the last run's) shows `error` unless it fires.
 */
export type AlertStatus =
  'firing' | 'silenced' | 'pending' | 'ok' | 'insufficientData' | 'disabled' | 'error' | 'unknown';

export function alertStatus(alert: Alert, now = Date.now()): AlertStatus {
  if (alert.state === 'DISABLED') return 'disabled';
  if (silencedActive(alert, now)) return 'silenced';
  if (alert.state === 'ALERT') return 'firing';
  if ((alert.executionErrors?.length ?? 0) > 0) return 'error';
  switch (alert.state) {
    case 'OK':
      return 'ok';
    case 'PENDING':
      return 'pending';
    case 'INSUFFICIENT_DATA':
      return 'insufficientData';
    default:
      return 'unknown';
  }
}

/** Codicon and theme colour of each alert status (the colour is a `ThemeColor` ID). */
export const ALERT_STATUS_ICONS: Readonly<Record<AlertStatus, { readonly icon: string; readonly color?: string }>> = {
  firing: { icon: 'bell-dot', color: 'list.errorForeground' },
  silenced: { icon: 'bell-slash', color: 'list.warningForeground' },
  pending: { icon: 'clock', color: 'list.warningForeground' },
  ok: { icon: 'pass', color: 'testing.iconPassed' },
  insufficientData: { icon: 'question', color: 'descriptionForeground' },
  disabled: { icon: 'circle-slash', color: 'disabledForeground' },
  error: { icon: 'warning', color: 'problemsWarningIcon.foreground' },
  unknown: { icon: 'bell' },
};

const TILE_ICONS: Record<string, string> = {
  line: 'graph-line',
  stacked_bar: 'graph',
  table: 'table',
  number: 'symbol-number',
  pie: 'pie-chart',
  bar: 'graph-left',
  heatmap: 'flame',
  search: 'search',
  event_patterns: 'symbol-event',
  markdown: 'markdown',
};

export function tileIconId(tile: TileResponse): string {
  const type = tile.config?.displayType ?? '';
  // Own keys only: a display type like `constructor` from the server is not an icon.
  return Object.hasOwn(TILE_ICONS, type) ? TILE_ICONS[type]! : 'symbol-misc';
}

const SOURCE_ICONS: Record<string, string> = {
  log: 'list-flat',
  trace: 'pulse',
  metric: 'graph-line',
  session: 'account',
  promql: 'symbol-operator',
};

export function sourceIconId(source: Source): string {
  const kind = source.kind ?? '';
  return Object.hasOwn(SOURCE_ICONS, kind) ? SOURCE_ICONS[kind]! : 'database';
}
