/**
 * The search panel after a window reload (no `vscode`): what its page keeps in its webview state (the service, the
 * source, the condition and its language, the columns, the range or its preset), and the arguments of the search
 * that opens it again.
 */
import type { SearchArgs } from './args';

export type { SearchRestore } from './protocol';

const text = (v: unknown): v is string => typeof v === 'string' && v !== '';
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The search a restored panel opens, when its state names one. */
export function searchArgsOfState(raw: unknown): SearchArgs | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const s = raw as Record<string, unknown>;
  if (!text(s.connectionId) || !text(s.serviceId) || !text(s.sourceId)) return undefined;
  const r = (s.range ?? {}) as { from?: unknown; to?: unknown };
  const range = finite(r.from) && finite(r.to) && r.from < r.to ? { from: r.from, to: r.to } : undefined;
  return {
    connectionId: s.connectionId,
    serviceId: s.serviceId,
    sourceId: s.sourceId,
    condition: typeof s.condition === 'string' ? s.condition : '',
    language: s.language === 'sql' ? 'sql' : 'lucene',
    ...(text(s.select) ? { select: s.select } : {}),
    ...(text(s.preset) ? { range: s.preset } : range ? { range } : {}),
  };
}
