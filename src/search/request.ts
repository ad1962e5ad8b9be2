/**
 * What a search asks (no `vscode`): the source, condition, range, columns and order, and its two statements as
 * `renderSearch` writes them.
 */
import type { QueryResult, RunQueryOptions } from '../api/query';
import { renderSearch, type SourceLike } from '../render';

/** Rows a search fetches (the newest first) and bytes it reads at most. */
export const SEARCH_ROWS = 1000;
export const SEARCH_BYTES = 32 * 1024 * 1024;

export type RunSql = (connectionId: string, opts: RunQueryOptions) => Promise<QueryResult>;
export type Run = (sql: string) => Promise<QueryResult>;

export interface SearchScope {
  connectionId: string;
  serviceId: string;
}

export interface SearchRequest {
  source: SourceLike & { id?: string; name?: string };
  condition: string;
  language: 'lucene' | 'sql';
  range: { from: number; to: number };
  columns?: Record<string, string> | undefined;
  sortingKey?: string | undefined;
  limit?: number | undefined;
  /** Columns shown (default: the source's `defaultTableSelectExpression`). */
  select?: string | undefined;
  /** Row order (default: the source's `orderByExpression`, else its time columns, newest first). */
  orderBy?: string | undefined;
}

/** The rows and histogram statements of a request; throws what cannot be searched (a Lucene error…). */
export function rendered(req: SearchRequest) {
  const r = renderSearch({
    source: req.source,
    condition: req.condition,
    language: req.language,
    range: req.range,
    columns: req.columns,
    sortingKey: req.sortingKey,
    limit: req.limit ?? SEARCH_ROWS,
    select: req.select,
    orderBy: req.orderBy,
  });
  if (!r.ok) throw new Error(r.reason);
  return r;
}
