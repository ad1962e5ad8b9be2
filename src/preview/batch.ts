/**
 * The statements of a dashboard preview's tiles in one request to the query endpoint (pure: no `vscode`; the caller
 * gives the runner). The query budget counts statements (10 per 10 s by default), so a 12-tile dashboard sent tile by
 * tile waits for a second window; sent as one statement it does not.
 *
 * One statement: for each tile i, a UNION ALL branch of its rows and one of its header, each row one string in the
 * `JSONCompactEachRow` form of the tile's own result (ClickHouse's `formatRowNoNewline`, same output settings), so
 * every cell decodes exactly as the tile's own statement would (64-bit integers, Nullable, DateTime64, arrays, maps):
 *
 *   SELECT i, 0, <names line>\n<types line>  FROM (one row of defaults of the tile's result: WITH FILL over LIMIT 0)
 *   UNION ALL SELECT i, 1, formatRowNoNewline('JSONCompactEachRow', *) FROM (<tile i>) LIMIT <max rows>
 *
 * The header branch gives the tile's column names and exact types (`toTypeName`, LowCardinality kept) also when it
 * has no rows. Rows of one tile keep their order (each branch's rows come as one stream, as the tile's own would).
 * A tile the batch does not answer exactly (no header, the result cut at the byte cap) and every tile of a batch
 * that failed with an SQL error run as their own statements, so each tile shows its own rows or its own error.
 */
import { isWideInteger, quoteUnsafeIntegers, QueryError, readWideInteger, type QueryColumn } from '../api/query';

/** A tile's result, as its own statement gives it (what the drawing reads). */
export interface TileResult {
  columns: QueryColumn[];
  rows: unknown[][];
}

export interface BatchLimits {
  /** Rows kept per tile (the tile's own statement stops reading there). */
  maxRows: number;
  /** Bytes read per tile statement. */
  maxBytes: number;
}

/** What a runner answers: a result with the rows read, and whether reading stopped at a cap. */
export interface RunResult extends TileResult {
  truncated?: 'rows' | 'bytes' | undefined;
}

export type Settled = { ok: true; result: TileResult } | { ok: false; error: unknown };

const T = '__obs_tile';
const K = '__obs_kind';
const R = '__obs_row';
const H = '__obs_fill';

/** A tile statement as a subquery: a trailing `;` dropped, on lines of its own (a trailing `--` comment stays inside). */
function subquery(sql: string): string {
  return `(\n${sql.replace(/[\s;]+$/, '')}\n)`;
}

/** The one statement that answers every tile statement of `statements`, in order (see the module comment). */
export function batchSql(statements: readonly string[], maxRows: number): string {
  const limit = Math.max(1, Math.floor(maxRows));
  return statements
    .map((sql, i) => {
      const q = subquery(sql);
      const header =
        `SELECT ${i} AS ${T}, 0 AS ${K}, concat(formatRowNoNewline('JSONCompactEachRowWithNames', * EXCEPT (${H})), '\\n', ` +
        `formatRowNoNewline('JSONCompactEachRow', * EXCEPT (${H}) APPLY toTypeName)) AS ${R}\n` +
        `FROM (SELECT 0 AS ${H}, * FROM (SELECT * FROM ${q} LIMIT 0) ORDER BY ${H} WITH FILL FROM 0 TO 1)`;
      const rows = `SELECT ${i}, 1, formatRowNoNewline('JSONCompactEachRow', *) FROM ${q}\nLIMIT ${limit}`;
      return `${header}\nUNION ALL\n${rows}`;
    })
    .join('\nUNION ALL\n');
}

/** Integers beyond 2^53 may arrive bare: only columns that can hold them are scanned (as the query client does). */
const mayHoldWide = (types: readonly string[]): boolean => types.some((t) => /Int(64|128|256)\b|Decimal/.test(t));

/**
 * Each tile's result out of the batch's result, decoded as the query client decodes a tile's own result; undefined
 * for a tile the batch does not answer exactly (no header row, or the whole result cut at a cap).
 */
export function decodeBatch(result: RunResult, count: number): (TileResult | undefined)[] {
  const out: (TileResult | undefined)[] = Array.from({ length: count }, () => undefined);
  if (result.truncated) return out;
  const t = result.columns.findIndex((c) => c.name === T);
  const k = result.columns.findIndex((c) => c.name === K);
  const r = result.columns.findIndex((c) => c.name === R);
  if (t < 0 || k < 0 || r < 0) return out;
  const headers: ({ names: string[]; types: string[] } | undefined)[] = Array.from({ length: count }, () => undefined);
  const rows: string[][] = Array.from({ length: count }, () => []);
  for (const row of result.rows) {
    const i = Number(row[t]);
    const text = row[r];
    if (!Number.isInteger(i) || i < 0 || i >= count || typeof text !== 'string') return out.map(() => undefined);
    if (Number(row[k]) === 0) {
      const lines = text.split('\n');
      let names: unknown;
      let types: unknown;
      try {
        names = JSON.parse(lines[0] ?? 'null');
        types = JSON.parse(lines[2] ?? 'null');
      } catch {
        continue;
      }
      const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
      if (strings(names) && strings(types) && names.length === types.length) headers[i] = { names, types };
    } else rows[i]!.push(text);
  }
  for (let i = 0; i < count; i++) {
    const h = headers[i];
    if (!h) continue;
    const scan = mayHoldWide(h.types);
    const wide = h.types.flatMap((type, j) => (isWideInteger(type) ? [j] : []));
    const decoded: unknown[][] = [];
    let good = true;
    for (const line of rows[i]!) {
      let value: unknown;
      try {
        value = JSON.parse(scan ? quoteUnsafeIntegers(line) : line);
      } catch {
        value = undefined;
      }
      if (!Array.isArray(value) || value.length !== h.names.length) {
        good = false;
        break;
      }
      for (const j of wide) value[j] = readWideInteger(value[j]);
      decoded.push(value as unknown[]);
    }
    if (good) out[i] = { columns: h.names.map((name, j) => ({ name, type: h.types[j]! })), rows: decoded };
  }
  return out;
}

/**
 * Runs tile statements in as few requests as it can: one statement (the batch) when there are several, each tile's
 * own statement for a tile the batch did not answer (a few at a time), and each tile's own statement for every tile
 * when the batch failed with an SQL error (one tile's error must not hide the others' rows). Any other failure of the
 * batch (network, key, idle service) is every tile's answer: their own statements would meet it too.
 */
export async function runTileStatements(
  statements: readonly string[],
  run: (sql: string, limits: BatchLimits) => Promise<RunResult>,
  opts: BatchLimits & { concurrency: number; onBatchFailed?: (error: unknown) => void },
): Promise<Settled[]> {
  const out: (Settled | undefined)[] = statements.map(() => undefined);
  const own = (sql: string): Promise<Settled> =>
    run(sql, opts).then(
      (result) => ({ ok: true, result }),
      (error: unknown) => ({ ok: false, error }),
    );
  if (statements.length > 1) {
    try {
      const result = await run(batchSql(statements, opts.maxRows), {
        maxRows: statements.length * (opts.maxRows + 1),
        maxBytes: Math.min(statements.length * opts.maxBytes, 64 * 1024 * 1024),
      });
      decodeBatch(result, statements.length).forEach((r, i) => {
        if (r) out[i] = { ok: true, result: r };
      });
    } catch (error) {
      if (!(error instanceof QueryError && error.reason === 'sql')) return statements.map(() => ({ ok: false, error }));
      opts.onBatchFailed?.(error);
    }
  }
  const left = statements.flatMap((_, i) => (out[i] ? [] : [i]));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < left.length) {
      const i = left[next++]!;
      out[i] = await own(statements[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency, left.length) }, worker));
  return out as Settled[];
}
