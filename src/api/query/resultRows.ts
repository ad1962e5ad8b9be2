/**
 * The rows of a result, read a range at a time. A plain array of rows is one; `TextRows` is the other: a large result
 * kept as the text of its lines (about the body's size) instead of parsed values (row arrays, strings, the objects of
 * maps and arrays: about twice the body), and parsed, a block at a time, when a range is read (to show, copy or save).
 */

/** Rows read by range: `slice` gives them parsed (a new array; the values are the same as a parsed result's). */
export interface ResultRows {
  readonly length: number;
  slice(start?: number, end?: number): unknown[][];
}

/** Rows taken from `rows` a range at a time, at most `size` parsed at once. */
export function* rowRanges(rows: ResultRows, size = 5000): Generator<unknown[][]> {
  for (let at = 0; at < rows.length; at += size) yield rows.slice(at, at + size);
}

/** A block: the text of its lines (parsed when read) or, for a block read line by line, its parsed rows. */
type Block = { text: string; count: number } | { rows: unknown[][] };

/**
 * Rows kept as text. `parse` turns a block's text into its rows exactly as the decoder did when it read them (the
 * text was read and checked then, bounds included); only the block's first `count` rows are its rows.
 */
export class TextRows implements ResultRows {
  length = 0;
  private readonly blocks: Block[] = [];
  /** Rows before each block. */
  private readonly starts: number[] = [];
  /** The last block parsed, so reading a range that ends inside it and the next one does not parse it twice. */
  private last: { index: number; rows: unknown[][] } | undefined;

  constructor(private readonly parse: (text: string, start: number, count: number) => unknown[][]) {}

  /** `count` rows: the first lines of `text`. */
  addText(text: string, count: number): void {
    if (count > 0) this.push({ text, count }, count);
  }

  /** Rows already parsed (a block read line by line). */
  addRows(rows: unknown[][]): void {
    const tail = this.blocks.at(-1);
    if (tail && 'rows' in tail) {
      tail.rows.push(...rows);
      this.length += rows.length;
    } else if (rows.length > 0) this.push({ rows: [...rows] }, rows.length);
  }

  slice(start = 0, end = this.length): unknown[][] {
    const from = clamp(start, this.length);
    const to = clamp(end, this.length);
    const out: unknown[][] = [];
    for (let b = this.blockAt(from); b < this.blocks.length && (this.starts[b] as number) < to; b++) {
      const first = this.starts[b] as number;
      const rows = this.rowsOf(b);
      const upTo = Math.min(rows.length, to - first);
      for (let i = Math.max(from, first) - first; i < upTo; i++) out.push(rows[i] as unknown[]);
    }
    return out;
  }

  private push(block: Block, count: number): void {
    this.blocks.push(block);
    this.starts.push(this.length);
    this.length += count;
  }

  /** The block holding row `row` (binary search over the blocks' first rows). */
  private blockAt(row: number): number {
    let lo = 0;
    let hi = this.blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] as number) <= row) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private rowsOf(index: number): unknown[][] {
    const block = this.blocks[index] as Block;
    if ('rows' in block) return block.rows;
    if (this.last?.index === index) return this.last.rows;
    const rows = this.parse(block.text, this.starts[index] as number, block.count);
    if (rows.length > block.count) rows.length = block.count;
    this.last = { index, rows };
    return rows;
  }
}

function clamp(i: number, length: number): number {
  const n = Math.trunc(Number.isNaN(i) ? 0 : i);
  return n < 0 ? Math.max(0, length + n) : Math.min(n, length);
}
