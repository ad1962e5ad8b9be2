/**
 * The arguments of `observability.searchEvents`: an argument object (automation, tests), or the explorer's node — a
 * service, a source, or a saved search (its source, condition and language, columns and order).
 */
import { commandArgument } from '../commandArgs';
import { PRESETS } from './protocol';

/** Arguments of `observability.searchEvents` from automation (the explorer passes its service or source node). */
export interface SearchArgs {
  connectionId?: string;
  serviceId?: string;
  sourceId?: string;
  condition?: string;
  language?: 'lucene' | 'sql';
  /** Columns shown (default: the source's `defaultTableSelectExpression`). */
  select?: string;
  /** Row order (default: the source's `orderByExpression`, else its time columns, newest first). */
  orderBy?: string;
  /** A preset (`15m`, `1h`, `6h`, `24h`, `7d`) or an explicit range in epoch ms. */
  range?: string | { from: number; to: number };
  /** The tab shown first: the events (default) or their patterns. */
  tab?: 'events' | 'patterns';
  /** A saved search of the service, by ID: it opens with its source, condition, columns and order. */
  savedSearchId?: string;
}

export interface SavedSearchItem {
  sourceId?: string;
  select?: string | null;
  where?: string | null;
  whereLanguage?: string | null;
  orderBy?: string | null;
}

export function searchArgsOf(raw: unknown): SearchArgs {
  const a = commandArgument<SearchArgs>(raw);
  if (a.kind === 'args') return a.args;
  if (a.kind !== 'node') return {};
  const node = a.node as {
    type: string;
    kind?: string;
    connectionId?: string;
    serviceId?: string;
    source?: { id: string };
    item?: SavedSearchItem;
  };
  const args: SearchArgs = { connectionId: node.connectionId, serviceId: node.serviceId, sourceId: node.source?.id };
  // A saved search opens on its source with its condition, columns and order.
  if (node.type === 'item' && node.kind === 'savedSearch' && node.item) {
    return { ...args, ...savedSearchArgs(node.item) };
  }
  return args;
}

/** What a saved search sets of a search (its empty columns and order stay the source's defaults). */
export function savedSearchArgs(item: SavedSearchItem): SearchArgs {
  const args: SearchArgs = {
    condition: item.where ?? '',
    language: item.whereLanguage === 'sql' ? 'sql' : 'lucene',
  };
  if (item.sourceId) args.sourceId = item.sourceId;
  if (item.select?.trim()) args.select = item.select;
  if (item.orderBy?.trim()) args.orderBy = item.orderBy;
  return args;
}

export function rangeOf(
  r: SearchArgs['range'],
  now = Date.now(),
): { range: { from: number; to: number }; preset: string } {
  if (r && typeof r === 'object' && Number.isFinite(r.from) && Number.isFinite(r.to) && r.from < r.to) {
    return { range: { from: r.from, to: r.to }, preset: '' };
  }
  const preset = PRESETS.find((p) => p.id === r) ?? PRESETS[0]!;
  return { range: { from: now - preset.ms, to: now }, preset: preset.id };
}
