/**
 * Result cells that hold a stack trace (an `exception.stacktrace` attribute, a log `Body`): text cells of several
 * lines with at least one frame line that names a file and a line (`frameLines`, every runtime the parser reads).
 * Bounded: the first `MAX_SCANNED_ROWS` rows, `MAX_SCANNED_CHARS` characters in all, at most `MAX_STACK_CELLS` cells.
 * Plain TypeScript (no `vscode`).
 */
import { frameLines, MAX_TRACE_CHARS } from '../codeModel';

export const MAX_SCANNED_ROWS = 5000;
export const MAX_STACK_CELLS = 500;
/** Most characters of text cells read in all (a cell counts at most `MAX_TRACE_CHARS`). */
export const MAX_SCANNED_CHARS = 4_000_000;

export interface StackCell {
  row: number;
  col: number;
  text: string;
}

/** The cells of `rows` that hold a stack trace, row by row. */
export function stackCells(rows: readonly (readonly unknown[] | undefined)[]): StackCell[] {
  const out: StackCell[] = [];
  const last = Math.min(rows.length, MAX_SCANNED_ROWS);
  let budget = MAX_SCANNED_CHARS;
  for (let row = 0; row < last && out.length < MAX_STACK_CELLS && budget > 0; row++) {
    const values = rows[row] ?? [];
    for (let col = 0; col < values.length && out.length < MAX_STACK_CELLS && budget > 0; col++) {
      const v = values[col];
      if (typeof v !== 'string' || !v.includes('\n')) continue;
      budget -= Math.min(v.length, MAX_TRACE_CHARS);
      if (frameLines(v).length > 0) out.push({ row, col, text: v });
    }
  }
  return out;
}
