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
