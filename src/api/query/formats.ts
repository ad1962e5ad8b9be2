/** A query result as text to copy or save: CSV, JSON objects, Markdown. */
import type { QueryColumn } from './client';

/** Rows as CSV (RFC 4180), with a header row. */
export function toCsv(columns: readonly QueryColumn[], rows: readonly unknown[][]): string {
  const cell = (v: unknown): string => {
    const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [columns.map((c) => cell(c.name)).join(','), ...rows.map((r) => r.map(cell).join(','))].join('\r\n') + '\r\n';
}

/** Rows as a JSON array of objects keyed by column name. */
export function toJsonObjects(columns: readonly QueryColumn[], rows: readonly unknown[][]): Record<string, unknown>[] {
  return rows.map((r) => Object.fromEntries(columns.map((c, i) => [c.name, r[i]])));
}

/** Rows as a Markdown table. */
export function toMarkdown(columns: readonly QueryColumn[], rows: readonly unknown[][]): string {
  const cell = (v: unknown): string => {
    const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  };
  const head = `| ${columns.map((c) => cell(c.name)).join(' | ')} |`;
  const sep = `| ${columns.map((c) => (/^(U?Int|Float|Decimal)/.test(c.type.replace(/^(Nullable|LowCardinality)\(/, '')) ? '---:' : '---')).join(' | ')} |`;
  return [head, sep, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n') + '\n';
}
