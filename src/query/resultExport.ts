/**
 * The text of a whole result for Copy (CSV, JSON, Markdown) and Open as JSON. Plain TypeScript (no `vscode`).
 */
import { toCsv, toJsonObjects, toMarkdown, type QueryColumn, type ResultRows } from '../api/query';

/** The result as CSV (`csv`), Markdown (`markdown`) or, for any other format, JSON objects (one per row). */
export function resultText(format: string, columns: readonly QueryColumn[], rows: ResultRows): string {
  if (format === 'csv') return toCsv(columns, rows);
  if (format === 'markdown') return toMarkdown(columns, rows);
  return JSON.stringify(toJsonObjects(columns, rows), null, 2);
}
