/** The code insights settings (`observability.codeInsights.*`), with their defaults for missing or nonsense values. */
import * as vscode from 'vscode';
import type { PrefixMapping } from '../codeModel';

export const RANGES: Record<string, number> = {
  '1h': 3_600_000,
  '6h': 6 * 3_600_000,
  '24h': 24 * 3_600_000,
  '7d': 7 * 24 * 3_600_000,
};
export const DEFAULT_RANGE = '24h';

export interface CodeInsightsSettings {
  /** The range's name (`24h`) and length in milliseconds. */
  range: string;
  rangeMs: number;
  refreshMs: number;
  pathMappings: PrefixMapping[];
}

export function codeInsightsSettings(): CodeInsightsSettings {
  const c = vscode.workspace.getConfiguration('observability.codeInsights');
  const rawRange = String(c.get('range', DEFAULT_RANGE));
  const range = RANGES[rawRange] !== undefined ? rawRange : DEFAULT_RANGE;
  const minutes = Number(c.get('refreshMinutes', 15));
  const refreshMs = (Number.isFinite(minutes) && minutes >= 1 ? minutes : 15) * 60_000;
  const raw = c.get<unknown>('pathMappings', {});
  const pathMappings: PrefixMapping[] = [];
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const [from, to] of Object.entries(raw as Record<string, unknown>)) {
      if (typeof to === 'string' && from.trim() !== '') pathMappings.push({ from, to });
    }
  }
  return { range, rangeMs: RANGES[range] as number, refreshMs, pathMappings };
}

/** `1.2k`, `12k`, `3.4M`. */
export function compact(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1e6) return `${trim(n / 1e3)}k`;
  if (n < 1e9) return `${trim(n / 1e6)}M`;
  return `${trim(n / 1e9)}G`;
}

function trim(n: number): string {
  return n >= 100 ? String(Math.round(n)) : n.toFixed(1).replace(/\.0$/, '');
}

export function errorRate(calls: number, errors: number): string {
  if (calls <= 0) return '0%';
  const pct = (errors / calls) * 100;
  return `${pct >= 10 || pct === 0 ? Math.round(pct) : pct.toFixed(1)}%`;
}

export function duration(ms: number | null): string {
  if (ms === null) return '–';
  if (ms >= 1000) return `${(ms / 1000).toFixed(ms >= 10_000 ? 0 : 1)} s`;
  return `${ms >= 10 ? Math.round(ms) : ms.toFixed(1)} ms`;
}

/** The range as a lens says it (`24 h`, `7 d`). */
export function rangeLabel(range: string): string {
  return range.replace(/^(\d+)([a-z])$/, '$1 $2');
}
