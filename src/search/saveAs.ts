/**
 * "Save as Saved Search…" (no `vscode`): the fields of a new saved search taken from a search panel — its source, its
 * condition and language, the columns it shows and its order — as the saved-search request schema names them. A
 * field the panel leaves at the source's default is left empty, as the server reads "empty" (the source default).
 */
import type { SearchRequest } from './request';

export interface SavedSearchFields {
  sourceId: string;
  select: string;
  where: string;
  whereLanguage: 'lucene' | 'sql';
  orderBy: string;
}

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

export function savedSearchFields(req: SearchRequest): SavedSearchFields {
  const select = text(req.select);
  const orderBy = text(req.orderBy);
  return {
    sourceId: String(req.source.id ?? ''),
    select: select === text(req.source.defaultTableSelectExpression) ? '' : select,
    where: req.condition,
    whereLanguage: req.language,
    orderBy: orderBy === text(req.source.orderByExpression) ? '' : orderBy,
  };
}

/** A name for the new saved search: its condition (cut), else "<source> events". */
export function savedSearchName(req: SearchRequest): string {
  const condition = req.condition.replace(/\s+/g, ' ').trim();
  const source = text(req.source.name) || text(req.source.id) || 'Search';
  const name = condition ? `${source}: ${condition}` : `${source} events`;
  const max = 100;
  return name.length > max ? `${name.slice(0, max - 1)}…` : name;
}
