/**
 * Running a saved search (no `vscode`): the saved search as the search tile ClickStack draws for it (its source,
 * columns, filter and filter language), and the rows of the self-hosted search API as a query result for the
 * results panel.
 */
import type { QueryResult } from '../api/query';
import type { TileLike } from '../render';

/** The fields of a saved search that say what it reads. */
export interface SavedSearchLike {
  readonly id: string;
  readonly name?: string | null | undefined;
  readonly sourceId?: string | undefined;
  readonly select?: string | null | undefined;
  readonly where?: string | null | undefined;
  readonly whereLanguage?: string | null | undefined;
}

/** The search tile of a saved search: previews render (Cloud) or plan (self-hosted) it as they do a dashboard's. */
export function savedSearchTile(search: SavedSearchLike): TileLike {
  return {
    id: search.id,
    name: search.name ?? search.id,
    config: {
      displayType: 'search',
      sourceId: search.sourceId ?? '',
      select: search.select ?? '',
      where: search.where ?? '',
      whereLanguage: search.whereLanguage || 'lucene',
    },
  };
}

/** Rows of the search API (objects) as a table: the columns in the order they first appear, values as sent. */
export function recordsToResult(records: readonly Record<string, unknown>[], elapsedMs: number): QueryResult {
  const names: string[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    for (const key of Object.keys(record)) {
      if (!seen.has(key)) {
        seen.add(key);
        names.push(key);
      }
    }
  }
  const rows = records.map((record) =>
    names.map((name) => (Object.hasOwn(record, name) ? (record[name] ?? null) : null)),
  );
  return {
    columns: names.map((name) => ({ name, type: '' })),
    rows,
    bytes: JSON.stringify(records).length,
    elapsedMs,
    firstByteMs: elapsedMs,
  };
}
