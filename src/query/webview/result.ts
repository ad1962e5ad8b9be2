/** What the query results webview receives, and how it reads a column's type and shows a value. */

export interface Column {
  name: string;
  type: string;
}

export interface ResultMessage {
  type: 'result';
  seq: number;
  columns: Column[];
  rows: unknown[][];
  rowsJson?: string;
  meta: {
    service: string;
    sql: string;
    rowCount: number;
    truncated: 'rows' | 'bytes' | null;
    maxRows: number;
    maxBytes: number;
    elapsedMs: number;
    bytes: number;
    stats: { readRows?: number; readBytes?: number } | null;
    queryId: string | null;
    /** When a run had several statements: one label per statement, which one is shown, and a note saying so. */
    statements?: string[];
    statementIndex?: number;
    statementsNote?: string;
    /** The rows are still arriving: the count so far, no time or caps yet (a `done` message brings them). */
    streaming?: boolean;
  };
  labels: Record<string, string>;
}

export const baseType = (t: string): string =>
  t.replace(/^(Nullable|LowCardinality)\((.*)\)$/, '$2').replace(/^(Nullable|LowCardinality)\((.*)\)$/, '$2');
export const isNumeric = (t: string): boolean => /^(U?Int\d+|Float\d+|Decimal)/.test(baseType(t));
export const isTime = (t: string): boolean => /^(DateTime|Date)/.test(baseType(t));

/** A value as the table shows it (NULL, objects and arrays as JSON). */
export function text(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}
