/**
 * A query result as text to copy or save: CSV, JSON objects, Markdown. Rows kept as text (`ResultRows`) are parsed a
 * range at a time.
 */
import type { QueryColumn } from './client';
import { rowRanges, type ResultRows } from './resultRows';

/** `line` of every row, in order. */
function rowLines(rows: ResultRows, line: (row: unknown[]) => string): string[] {
  const out: string[] = [];
  for (const range of rowRanges(rows)) for (const r of range) out.push(line(r));
  return out;
}

/** Rows as CSV (RFC 4180), with a header row. */
export function toCsv(columns: readonly QueryColumn[], rows: ResultRows): string {
  const cell = (v: unknown): string => {
    const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = rowLines(rows, (r) => r.map(cell).join(','));
  return [columns.map((c) => cell(c.name)).join(','), ...lines].join('\r\n') + '\r\n';
}

/** Rows as a JSON array of objects keyed by column name. */
export function toJsonObjects(columns: readonly QueryColumn[], rows: ResultRows): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const range of rowRanges(rows)) {
    for (const r of range) out.push(Object.fromEntries(columns.map((c, i) => [c.name, r[i]])));
  }
  return out;
}

/** Rows as a Markdown table. */
export function toMarkdown(columns: readonly QueryColumn[], rows: ResultRows): string {
  const cell = (v: unknown): string => {
    const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  };
  const head = `| ${columns.map((c) => cell(c.name)).join(' | ')} |`;
  const sep = `| ${columns.map((c) => (/^(U?Int|Float|Decimal)/.test(c.type.replace(/^(Nullable|LowCardinality)\(/, '')) ? '---:' : '---')).join(' | ')} |`;
  return [head, sep, ...rowLines(rows, (r) => `| ${r.map(cell).join(' | ')} |`)].join('\n') + '\n';
}
