/**
 * The line decoder of a query result (JSONCompactEachRowWithNamesAndTypes): the body's chunks go in as they arrive,
 * column names and types come out first, then rows, up to the row cap and the byte cap; ClickHouse's errors in the
 * middle of a result (a `Code: N.` line, an `{"exception": …}` line, or the `__exception__<tag>` framing) come out as
 * `QueryError`s.
 *
 * What parsing can build is bounded before anything is parsed: the objects and arrays of every line are counted
 * first (per row and per result, see jsonBounds.ts), the unfinished line too, as its bytes arrive; the text of an
 * error is kept to `ERROR_SCAN` characters (its unfinished line to as many bytes), whatever the server sends after
 * it, and is read by the bounded error reader (errorText.ts).
 */
import { formatCount, MAX_RESULT_CONTAINERS, MAX_ROW_CONTAINERS, PartialLineScan, scanLines } from '../jsonBounds';
import { ERROR_SCAN, parseClickHouseError, withoutExceptionTrailer } from './errorText';
import type { Fail, QueryError, RequestBase } from './queryError';
import { TextRows, type ResultRows } from './resultRows';
import { isWideInteger, quoteUnsafeIntegers, readWideInteger } from './values';

export interface ResultDecoderOptions {
  /** What each error names (with the query ID as `requestId`, when there is one). */
  base: RequestBase & { requestId?: string };
  fail: Fail;
  maxRows: number;
  maxBytes: number;
  /** `X-ClickHouse-Exception-Tag`: the tag of ClickHouse's error framing, when the server announced one. */
  exceptionTag?: string | undefined;
  /** Called as rows arrive (at most every 1 000 rows). */
  onRows?: ((rowsSoFar: number) => void) | undefined;
  /** Called after each block that added rows, with every row read so far (read by range; it grows) and the columns. */
  onBatch?: ((rows: ResultRows, columns: readonly DecodedColumn[]) => void) | undefined;
  /**
   * Keep the rows as the text of their lines (`textRows`, parsed when a range is read) rather than parsed (`rows`):
   * about the body's size instead of about twice it. Every line is still scanned, bounds first, as it arrives, and a
   * block whose lines are not all rows (an error, a blank line) is read line by line as without it; a line of rows
   * that is not JSON is named when its range is read.
   */
  compactRows?: boolean | undefined;
}

export interface DecodedColumn {
  name: string;
  type: string;
}

export class ResultDecoder {
  columns: DecodedColumn[] = [];
  /** The rows read (empty with `compactRows`: they are in `textRows`). */
  readonly rows: unknown[][] = [];
  /** With `compactRows`: the rows read, as text. */
  readonly textRows: TextRows | undefined;
  /** Bytes of the body taken (at most the byte cap). */
  bytes = 0;
  /** Why reading stopped before the end of the result, if it did. */
  stop: 'rows' | 'bytes' | undefined;

  private readonly names: string[] = [];
  private wide: number[] = [];
  /** Whether any column can hold an integer beyond 2^53 (only then is the text scanned for bare ones). */
  private mayHoldWide = true;
  private lineNo = 0;
  private nextProgress = 1000;
  /** Rows handed to `onBatch` so far. */
  private handed = 0;
  /** Bytes after the last newline seen (an incomplete line; a newline byte never occurs inside a UTF-8 sequence). */
  private rest: Buffer[] = [];
  private restBytes = 0;
  /** The objects and arrays of the incomplete line, counted as its bytes arrive. */
  private readonly restScan = new PartialLineScan();
  /** Objects and arrays counted in the lines read so far (see `scanLines`). */
  private containers = 0;
  /** ClickHouse ≥ 25.11 frames an error in the middle of a result: `__exception__<tag>`, message lines, `<size> <tag>__exception__`. */
  private exceptionLines: string[] | undefined;
  /** Characters kept in `exceptionLines` (at most `ERROR_SCAN`). */
  private exceptionChars = 0;

  constructor(private readonly o: ResultDecoderOptions) {
    this.textRows = o.compactRows
      ? new TextRows((text, start, count) => this.parseKept(text, start, count))
      : undefined;
  }

  /** Rows read so far. */
  get rowCount(): number {
    return this.textRows ? this.textRows.length : this.rows.length;
  }

  /** Takes one chunk of the body; true when reading should stop (a cap was reached). Throws the result's errors. */
  push(chunk: Buffer): boolean {
    let usable = chunk;
    if (this.bytes + chunk.length > this.o.maxBytes) {
      usable = chunk.subarray(0, Math.max(0, this.o.maxBytes - this.bytes));
      this.stop = 'bytes';
    }
    this.bytes += usable.length;
    const last = usable.lastIndexOf(0x0a);
    if (last < 0) {
      this.keep(usable);
    } else {
      const head = usable.subarray(0, last);
      const text =
        this.restBytes > 0
          ? Buffer.concat([...this.rest, head], this.restBytes + head.length).toString('utf8')
          : head.toString('utf8');
      this.dropRest();
      this.handleBlock(text);
      this.keep(usable.subarray(last + 1));
    }
    return this.stop !== undefined;
  }

  /** The body ended: reads its last line, and fails when an error's framing was left open. */
  end(): void {
    if (!this.stop) {
      const tail = this.takeRest()?.toString('utf8').trimEnd();
      if (tail) this.handleBlock(tail);
    }
    if (this.exceptionLines && !this.stop) throw this.sqlFailure(this.exceptionLines.join('\n'));
  }

  /**
   * When the body broke off: the error that what is left unread holds (the host may drop the connection after
   * ClickHouse's error text), if it holds one. Only the first `ERROR_SCAN` bytes are looked at.
   */
  trailingError(): QueryError | undefined {
    const tail = this.takeRestPrefix(ERROR_SCAN);
    if (this.exceptionLines) {
      return this.sqlFailure(withoutExceptionTrailer([...this.exceptionLines, tail].join('\n')));
    }
    if (/^\s*Code: \d+\./.test(tail)) return this.sqlFailure(tail.trim());
    return undefined;
  }

  /**
   * Keeps the bytes of an incomplete line. A line of a result is counted as its bytes come (its objects and arrays,
   * against the bounds per row and per result); a line of an error's text is kept only to `ERROR_SCAN` bytes.
   */
  private keep(bytes: Buffer): void {
    // Once a cap is reached, the rest of the body is not read.
    if (bytes.length === 0 || this.stop) return;
    if (this.exceptionLines) {
      const room = ERROR_SCAN - this.restBytes;
      if (room > 0) this.keepBytes(bytes.length > room ? bytes.subarray(0, room) : bytes);
      return;
    }
    this.keepBytes(bytes);
    const inLine = this.restScan.add(bytes, MAX_ROW_CONTAINERS);
    if (inLine > MAX_ROW_CONTAINERS) throw this.boundFailure(this.lineNo + 1);
    if (this.containers + inLine > MAX_RESULT_CONTAINERS) throw this.boundFailure();
  }

  private keepBytes(bytes: Buffer): void {
    this.rest.push(bytes);
    this.restBytes += bytes.length;
  }

  /** The incomplete line, joined once (never re-joined per chunk: a long line would be copied again and again). */
  private takeRest(): Buffer | undefined {
    if (this.restBytes === 0) return undefined;
    const joined = this.rest.length === 1 ? (this.rest[0] as Buffer) : Buffer.concat(this.rest, this.restBytes);
    this.dropRest();
    return joined;
  }

  /** The first `max` bytes of the incomplete line, as text (the rest is dropped unread). */
  private takeRestPrefix(max: number): string {
    const parts: Buffer[] = [];
    let size = 0;
    for (const b of this.rest) {
      if (size >= max) break;
      const part = b.length > max - size ? b.subarray(0, max - size) : b;
      parts.push(part);
      size += part.length;
    }
    this.dropRest();
    return Buffer.concat(parts, size).toString('utf8');
  }

  private dropRest(): void {
    this.rest = [];
    this.restBytes = 0;
    this.restScan.reset();
  }

  /** A failure of the statement (ClickHouse's error text), after the rows read so far. */
  private sqlFailure(text: string): QueryError {
    const ch = parseClickHouseError(text);
    const rows = this.rowCount;
    return this.o.fail({
      ...this.o.base,
      kind: 'invalidRequest',
      reason: 'sql',
      status: 200,
      serverMessage: ch?.text ?? text.slice(0, ERROR_SCAN),
      ...(ch ? { clickHouse: ch } : {}),
      rowsBeforeError: rows,
      hint: `The statement failed after ${rows} row(s) had arrived.`,
    });
  }

  /** Line `line` holds more than the bound per row, or (without a line) the result more than the bound per result. */
  private boundFailure(line?: number): QueryError {
    return this.o.fail({
      ...this.o.base,
      kind: 'invalidResponse',
      reason: 'other',
      status: 200,
      detail:
        line !== undefined
          ? `line ${line} of the result holds more than ${formatCount(MAX_ROW_CONTAINERS)} objects and arrays (the bound per row)`
          : `the result holds more than ${formatCount(MAX_RESULT_CONTAINERS)} objects and arrays (the bound per result) and was not read further`,
      hint: 'The result holds more than the extension reads at once: select fewer rows or columns, or aggregate.',
      rowsBeforeError: this.rowCount,
    });
  }

  /** A line of the result that is not what JSONCompactEachRow writes. */
  private badLine(what: string, cause?: unknown): QueryError {
    return this.o.fail({
      ...this.o.base,
      kind: 'invalidResponse',
      reason: 'other',
      status: 200,
      detail: `line ${this.lineNo} of the result is ${what}`,
      ...(cause === undefined ? {} : { cause }),
    });
  }

  private progress(): void {
    this.handBatch();
    const count = this.rowCount;
    if (count < this.nextProgress) return;
    this.nextProgress = (Math.floor(count / 1000) + 1) * 1000;
    try {
      this.o.onRows?.(count);
    } catch {
      // A listener cannot stop the read.
    }
  }

  /** Tells `onBatch` that rows were added (never more than the row cap: no more are read). */
  private handBatch(): void {
    if (!this.o.onBatch || this.rowCount === this.handed) return;
    this.handed = this.rowCount;
    try {
      this.o.onBatch(this.textRows ?? this.rows, this.columns);
    } catch {
      // A listener cannot stop the read.
    }
  }

  /** A row read line by line. */
  private addRow(value: unknown[]): void {
    for (const i of this.wide) value[i] = readWideInteger(value[i]);
    if (this.textRows) this.textRows.addRows([value]);
    else this.rows.push(value);
  }

  /**
   * Lines of rows parsed as one array (the lines of JSONCompactEachRow joined), wide integers read; undefined when
   * that is not an array of one array per line (the block is then read line by line).
   */
  private parseRows(block: string): unknown[] | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(`[${(this.mayHoldWide ? quoteUnsafeIntegers(block) : block).replaceAll('\n', ',')}]`);
    } catch {
      return undefined;
    }
    if (!Array.isArray(parsed) || !parsed.every(Array.isArray)) return undefined;
    if (this.wide.length > 0) {
      for (const row of parsed as unknown[][]) for (const i of this.wide) row[i] = readWideInteger(row[i]);
    }
    return parsed;
  }

  /** Whether `line` opens ClickHouse's error framing (the tag, when announced, must match). */
  private opensException(marker: string): boolean {
    return !this.o.exceptionTag || marker.trim() === `__exception__${this.o.exceptionTag}`;
  }

  /** Starts keeping an error's text. */
  private openException(): void {
    this.exceptionLines = [];
    this.exceptionChars = 0;
  }

  /** One line of an error's text, kept while the text is under `ERROR_SCAN` characters; or the closing line. */
  private exceptionLine(lines: string[], line: string): void {
    const end = /^(\d+) (\S+)__exception__\s*$/.exec(line);
    if (end && (!this.o.exceptionTag || end[2] === this.o.exceptionTag)) throw this.sqlFailure(lines.join('\n'));
    const room = ERROR_SCAN - this.exceptionChars;
    if (room <= 0) return;
    const kept = line.length > room ? line.slice(0, room) : line;
    lines.push(kept);
    this.exceptionChars += kept.length + 1;
  }

  /** One line of the result (without its newline). */
  private handleLine(line: string): void {
    if (this.exceptionLines) return this.exceptionLine(this.exceptionLines, line);
    if (line.length === 0) return;
    if (line.startsWith('__exception__') && this.opensException(line)) return this.openException();
    if (line.startsWith('Code: ') || (line[0] !== '[' && /^\s*Code: \d+\./.test(line))) throw this.sqlFailure(line);
    if (this.lineNo >= 2 && this.rowCount >= this.o.maxRows) {
      // A row past the cap: the result is longer than what is read.
      this.stop = 'rows';
      return;
    }
    this.lineNo++;
    let value: unknown;
    try {
      value = JSON.parse(this.lineNo > 2 && this.mayHoldWide ? quoteUnsafeIntegers(line) : line);
    } catch (e) {
      // An error can cut a row short: the framing then starts in the middle of the line.
      const at = line.indexOf('__exception__');
      if (at > 0 && this.opensException(line.slice(at))) return this.openException();
      throw this.badLine('not JSON', e);
    }
    // With `http_write_exception_in_output_format`, ClickHouse writes an error as a JSON object in the format's place.
    const exception =
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as { exception?: unknown }).exception
        : undefined;
    if (typeof exception === 'string' && exception) throw this.sqlFailure(exception);
    if (!Array.isArray(value)) throw this.badLine('not a JSON array');
    if (this.lineNo === 1) this.names.push(...value.map(String));
    else if (this.lineNo === 2) {
      this.columns = this.names.map((name, i) => ({ name, type: String(value[i] ?? '') }));
      this.wide = this.columns.flatMap((c, i) => (isWideInteger(c.type) ? [i] : []));
      this.mayHoldWide = this.columns.some((c) => /Int(64|128|256)\b|Decimal/.test(c.type));
    } else this.addRow(value);
  }

  /**
   * Complete lines (the text up to, not including, a newline). Rows are parsed a block at a time with one
   * `JSON.parse` — the lines of JSONCompactEachRow joined as one array — and line by line only when that fails
   * (an error line, a blank line, a line that is not a row), so every failure is still found and named by line.
   */
  private handleBlock(text: string): void {
    // What parsing can build is bounded before anything is parsed: per row, and per result.
    const scan = scanLines(text, MAX_ROW_CONTAINERS, MAX_RESULT_CONTAINERS - this.containers);
    this.containers += scan.containers;
    if (scan.overLine !== undefined) throw this.boundFailure(this.lineNo + scan.overLine + 1);
    if (this.containers > MAX_RESULT_CONTAINERS) throw this.boundFailure();
    let lines = scan.lines;
    let from = 0;
    while (this.lineNo < 2 || this.exceptionLines) {
      const nl = text.indexOf('\n', from);
      this.handleLine(text.slice(from, nl < 0 ? text.length : nl));
      if (nl < 0) return;
      from = nl + 1;
      lines--;
    }
    const block = from === 0 ? text : text.slice(from);
    if (block.length === 0) return;
    this.handleRows(block, lines);
    this.progress();
  }

  /**
   * Rows kept as text whose block was not parsed on arrival (`keepUnparsed`): parsed when read; a line that is not a
   * row of JSON is named then (`start`: the block's first row; `count`: its rows).
   */
  private parseKept(text: string, start: number, count: number): unknown[][] {
    const parsed = this.parseRows(text);
    if (parsed?.length === count) return parsed as unknown[][];
    const lines = text.split('\n');
    const bad = lines.findIndex((l) => this.parseRows(l)?.length !== 1);
    throw this.o.fail({
      ...this.o.base,
      kind: 'invalidResponse',
      reason: 'other',
      status: 200,
      detail: `line ${start + 3 + Math.max(0, bad)} of the result is not a row of JSON`,
      rowsBeforeError: start + Math.max(0, bad),
    });
  }

  /**
   * With `compactRows`, a block whose every line starts a row (and holds no error framing) is kept as text without
   * being parsed now: Run Query parses only the rows it shows. Returns false for any other block.
   */
  private keepUnparsed(block: string, lines: number): boolean {
    if (!this.textRows || block[0] !== '[' || /\n(?!\[)/.test(block) || block.includes('__exception__')) return false;
    const take = Math.min(lines, this.o.maxRows - this.rowCount);
    this.textRows.addText(firstLines(block, take, lines), take);
    this.lineNo += take;
    if (take < lines) this.stop = 'rows';
    return true;
  }

  /** Lines of rows (`lines` of them), parsed as one array when they are rows, else line by line. */
  private handleRows(block: string, lines: number): void {
    if (this.keepUnparsed(block, lines)) return;
    const parsed = this.parseRows(block);
    // One row per line: a line holding two rows (`[1],[2]`) is not what the format writes and is read line by line.
    if (parsed && parsed.length === lines) {
      const take = Math.min(parsed.length, this.o.maxRows - this.rowCount);
      const rows = (take < parsed.length ? parsed.slice(0, take) : parsed) as unknown[][];
      // Kept as text, the rows parsed here are only handed over (and then let go).
      if (this.textRows) this.textRows.addText(firstLines(block, take, parsed.length), take);
      else for (const row of rows) this.rows.push(row);
      this.lineNo += take;
      if (take < parsed.length) this.stop = 'rows';
      return;
    }
    let at = 0;
    while (at <= block.length && !this.stop) {
      const nl = block.indexOf('\n', at);
      this.handleLine(block.slice(at, nl < 0 ? block.length : nl));
      if (nl < 0) break;
      at = nl + 1;
    }
  }
}

/** The first `n` of the `lines` lines of `text` (all of it when `n` is `lines`). */
function firstLines(text: string, n: number, lines: number): string {
  if (n >= lines) return text;
  let end = -1;
  for (let i = 0; i < n; i++) end = text.indexOf('\n', end + 1);
  return text.slice(0, Math.max(0, end));
}
