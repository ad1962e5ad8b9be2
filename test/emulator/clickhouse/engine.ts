/**
 * The embedded ClickHouse (npm `chdb`) behind the emulator's query host: one engine per process, created on first
 * use only. The sample data is generated once into an on-disk cache: MergeTree tables (one part each) on a local
 * disk under `~/.cache/observability-explorer/emulator-clickhouse/<data-version hash>/`, the hash covering the
 * generator SQL, the table definitions and the engine version. Each process attaches those tables to its own
 * temporary engine directory (an engine locks its directory, so emulators in several processes cannot share one)
 * and reads them through views that shift every time column by `now - anchor` at query time, so the data always
 * covers the last 7 days however old the cache is (see data.ts). The data database's tables are `Merge` tables over
 * those views with the schema's own column list, so a MATERIALIZED column (`SampleRate`, `__hdx_materialized_*`)
 * is selectable by name and left out of `SELECT *`, as on a table the collector's exporter created. Nothing writes to the cached tables after they
 * are generated. An emulator with a frozen clock (EmulatorOptions.now) runs its queries with a fixed "now" instead:
 * the views are redefined with that time before its query runs (queries run one at a time), and back to `now()`
 * before a query of an emulator whose clock moves.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Session } from 'chdb';
import { ANCHOR_SECONDS, DATA_VERSION, generators } from './data';
import { createTableSql, materializedColumns, TABLES, type TableSpec } from './schema';
import { showcaseGenerators } from './traces';
import { codeSpanGenerators } from './codeSpans';
import { codeLogGenerators } from './codeExceptions';

type ChdbModule = typeof import('chdb');

export interface EngineStats {
  /** Milliseconds spent generating the cache in this process (0 when it was reused). */
  generateMs: number;
  /** Milliseconds spent loading the cache into the engine. */
  loadMs: number;
  cacheDir: string;
}

/** Databases that get the sample data; other databases named by sources get the same tables, empty. */
export const DATA_DATABASE = 'otel';
/** Where the cached tables are attached; the data database holds views over them that shift time to now. */
const BASE_DATABASE = 'sample_base';
/** The views over the cached tables that shift time to now; the data database's Merge tables read them. */
export const SHIFTED_DATABASE = 'sample_shifted';
/** Suffix of the tables that hold rows a test inserted (insertRows), beside the shifted views. */
const INSERTED = '__inserted';

function cacheRoot(): string {
  const base =
    process.env.OBS_EMULATOR_CACHE_DIR ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'observability-explorer');
  return path.join(base, 'emulator-clickhouse');
}

function quoteString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function quoteIdent(s: string): string {
  return `\`${s.replace(/`/g, '``')}\``;
}

export class ClickHouseEngine {
  private readonly databases = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Where the data views end: a fixed time in whole seconds since the epoch, undefined for `now()`, null before. */
  private viewsNow: number | undefined | null = null;

  private constructor(
    private readonly session: Session,
    readonly stats: EngineStats,
  ) {}

  private static pending: Promise<ClickHouseEngine> | undefined;

  /** The process's engine, created (and the data loaded) on the first call. */
  static shared(): Promise<ClickHouseEngine> {
    ClickHouseEngine.pending ??= ClickHouseEngine.create().catch((e: unknown) => {
      ClickHouseEngine.pending = undefined;
      throw e;
    });
    return ClickHouseEngine.pending;
  }

  private static async create(): Promise<ClickHouseEngine> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const chdb = require('chdb') as ChdbModule;
    const version = chdb.version();
    const gens = [...generators(), ...showcaseGenerators(), ...codeSpanGenerators(), ...codeLogGenerators()];
    const key = createHash('sha256')
      .update(JSON.stringify({ DATA_VERSION, ANCHOR_SECONDS, gens, tables: TABLES, engine: version.libchdb }))
      .digest('hex')
      .slice(0, 16);
    const root = cacheRoot();
    const dir = path.join(root, key);
    const args = { connectionArgs: ['--', `--custom_local_disks_base_directory=${root}/`] };
    let generateMs = 0;
    if (!fs.existsSync(path.join(dir, 'complete'))) generateMs = await generateCache(chdb, root, dir, key, gens, args);
    const started = Date.now();
    const session = new chdb.Session(undefined, args);
    process.once('exit', () => {
      try {
        session.cleanup();
      } catch {
        // The process is ending; removing the temporary directory is best effort.
      }
    });
    // One thread per query: ClickHouse's sampling aggregates (`quantile` keeps a reservoir of 8,192 values) then give
    // the same answer every run, whichever thread reads which rows; tests compare them value for value.
    session.query('SET max_threads = 1');
    session.query(`CREATE DATABASE IF NOT EXISTS ${quoteIdent(BASE_DATABASE)}`);
    session.query(`CREATE DATABASE IF NOT EXISTS ${quoteIdent(DATA_DATABASE)}`);
    session.query(`CREATE DATABASE IF NOT EXISTS ${quoteIdent(SHIFTED_DATABASE)}`);
    for (const t of TABLES) {
      session.query(
        `ATTACH TABLE ${quoteIdent(BASE_DATABASE)}.${quoteIdent(t.name)} ${baseTableDefinition(t, dir, key)}`,
      );
    }
    const engine = new ClickHouseEngine(session, { generateMs, loadMs: 0, cacheDir: dir });
    engine.defineViews(undefined);
    for (const t of TABLES) {
      // The shifted view and, once a test inserts rows (insertRows), the table of those rows.
      const merge = `Merge(${quoteString(SHIFTED_DATABASE)}, ${quoteString(`^${t.name}(${INSERTED})?$`)})`;
      session.query(
        `CREATE TABLE ${quoteIdent(DATA_DATABASE)}.${quoteIdent(t.name)} (\n  ${t.columns}\n) ENGINE = ${merge}`,
      );
    }
    engine.stats.loadMs = Date.now() - started;
    engine.databases.add(DATA_DATABASE);
    return engine;
  }

  /** (Re)defines the shifting views so the data ends at `nowSeconds` (undefined: at `now()` of each query). */
  private defineViews(nowSeconds: number | undefined): void {
    if (nowSeconds === this.viewsNow) return;
    const now = nowSeconds === undefined ? 'toInt64(toUnixTimestamp(now()))' : `toInt64(${nowSeconds})`;
    const shift = `(${now} - ${ANCHOR_SECONDS})`;
    for (const t of TABLES) {
      const cols = [...t.insertColumns, ...materializedColumns(t)].map((c) =>
        t.timeColumns.includes(c)
          ? `addSeconds(${quoteIdent(c)}, ${shift}) AS ${quoteIdent(c)}`
          : t.timeArrayColumns?.includes(c)
            ? `arrayMap(x -> addSeconds(x, ${shift}), ${quoteIdent(c)}) AS ${quoteIdent(c)}`
            : quoteIdent(c),
      );
      this.session.query(
        `CREATE OR REPLACE VIEW ${quoteIdent(SHIFTED_DATABASE)}.${quoteIdent(t.name)} AS SELECT ${cols.join(', ')} FROM ${quoteIdent(BASE_DATABASE)}.${quoteIdent(t.name)}`,
      );
    }
    this.viewsNow = nowSeconds;
  }

  /**
   * Adds rows to a sample table (tests: an event arriving now), as JSON objects of its columns (the rest take their
   * defaults). They go to a table of their own beside the shifted view, read through the same Merge table: their
   * times are kept as given (not shifted), and the cached tables stay untouched.
   */
  insertRows(table: string, rows: Record<string, unknown>[]): Promise<void> {
    const spec = TABLES.find((t) => t.name === table);
    if (!spec) return Promise.reject(new Error(`Unknown table ${table}`));
    const task = async (): Promise<void> => {
      const target = `${quoteIdent(SHIFTED_DATABASE)}.${quoteIdent(table + INSERTED)}`;
      const view = `${quoteIdent(SHIFTED_DATABASE)}.${quoteIdent(table)}`;
      this.session.query(
        `CREATE TABLE IF NOT EXISTS ${target} ENGINE = MergeTree ORDER BY tuple() AS SELECT * FROM ${view} LIMIT 0`,
      );
      await this.session.queryAsync(
        `INSERT INTO ${target} SETTINGS date_time_input_format = 'best_effort' FORMAT JSONEachRow ${rows.map((r) => JSON.stringify(r)).join('\n')}`,
      );
    };
    const result = this.queue.then(task, task);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Creates `database` with the schema's tables (empty) unless it exists. */
  ensureDatabase(database: string): void {
    if (this.databases.has(database)) return;
    this.session.query(`CREATE DATABASE IF NOT EXISTS ${quoteIdent(database)}`);
    for (const t of TABLES) this.session.query(createTableSql(database, t));
    this.databases.add(database);
  }

  /**
   * Runs a query in `database`, handing each chunk of its output to `onChunk` (which returns false to stop).
   * `onStart` is called once the engine accepted the statement, before the first chunk; errors of the statement
   * itself reject before it. One query runs at a time: an engine session holds one stream (and one current
   * database), so queries queue. `frozenNowMs` is the asking emulator's frozen clock (EmulatorOptions.now): the
   * sample data ends at that time for this query; without it the data ends at the query's `now()`.
   */
  run(
    sql: string,
    format: string,
    database: string,
    signal: AbortSignal,
    onStart: () => void,
    onChunk: (bytes: Uint8Array) => Promise<boolean>,
    settings: Record<string, string> = {},
    frozenNowMs?: number,
  ): Promise<void> {
    const task = async (): Promise<void> => {
      if (signal.aborted) return;
      this.defineViews(frozenNowMs === undefined ? undefined : Math.floor(frozenNowMs / 1000));
      this.session.query(`USE ${quoteIdent(database)}`);
      // Settings of this query only (ClickHouse takes them from the URL of an HTTP request); reset afterwards.
      const names = Object.keys(settings);
      for (const name of names) this.session.query(`SET ${name} = ${quoteString(settings[name] as string)}`);
      let stream: ReturnType<Session['queryStream']> | undefined;
      let it: AsyncIterator<{ raw(): Uint8Array }>;
      let next: IteratorResult<{ raw(): Uint8Array }>;
      try {
        stream = this.session.queryStream(sql, { format, signal });
        it = stream[Symbol.asyncIterator]();
        next = await it.next();
      } catch (e) {
        if (stream && !stream.closed) stream.cancel();
        // The embedded engine streams only some statements (not DESCRIBE, for one); those are answered in one piece.
        if (!/Streaming query is not supported/.test(e instanceof Error ? e.message : String(e))) {
          for (const name of names) this.session.query(`SET ${name} = DEFAULT`);
          throw e;
        }
        try {
          const whole = this.session.query(sql, format);
          onStart();
          await onChunk(new TextEncoder().encode(whole));
        } finally {
          for (const name of names) this.session.query(`SET ${name} = DEFAULT`);
        }
        return;
      }
      // The embedded engine formats each streamed chunk on its own, header lines included; ClickHouse writes a
      // format's names (and types) once, at the top: later chunks go without them.
      const headerLines = /WithNamesAndTypes$/.test(format) ? 2 : /WithNames$/.test(format) ? 1 : 0;
      try {
        onStart();
        for (let first = true; !next.done; first = false) {
          if (!(await onChunk(first ? next.value.raw() : withoutLines(next.value.raw(), headerLines)))) return;
          next = await it.next();
        }
      } finally {
        if (!stream.closed) stream.cancel();
        for (const name of names) this.session.query(`SET ${name} = DEFAULT`);
      }
    };
    const result = this.queue.then(task, task);
    this.queue = result.catch(() => undefined);
    return result;
  }
}

/** `bytes` without its first `count` lines. */
function withoutLines(bytes: Uint8Array, count: number): Uint8Array {
  let at = 0;
  for (let i = 0; i < count; i++) {
    const nl = bytes.indexOf(0x0a, at);
    if (nl < 0) return bytes.subarray(bytes.length);
    at = nl + 1;
  }
  return bytes.subarray(at);
}

/** A stable UUID for a cached table (the engine finds a table's parts on its disk by UUID). */
function tableUuid(key: string, table: string): string {
  const h = createHash('sha256').update(`${key}/${table}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Columns, engine and on-disk place of a cached table (one part, stored under the cache directory). */
function baseTableDefinition(t: TableSpec, dir: string, key: string): string {
  const order = /ORDER BY (.*)$/.exec(t.engine)?.[1] ?? 'tuple()';
  return `UUID '${tableUuid(key, t.name)}' (\n  ${t.columns}\n) ENGINE = MergeTree ORDER BY ${order} SETTINGS disk = disk(type = 'local', path = ${quoteString(`${dir}/`)})`;
}

async function generateCache(
  chdb: ChdbModule,
  root: string,
  dir: string,
  key: string,
  gens: { table: string; sql: string }[],
  args: { connectionArgs: string[] },
): Promise<number> {
  const started = Date.now();
  fs.mkdirSync(root, { recursive: true });
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  fs.mkdirSync(tmp, { recursive: true });
  const session = new chdb.Session(undefined, args);
  try {
    session.query(`CREATE DATABASE ${quoteIdent(BASE_DATABASE)}`);
    for (const t of TABLES) {
      const name = `${quoteIdent(BASE_DATABASE)}.${quoteIdent(t.name)}`;
      session.query(`CREATE TABLE ${name} ${baseTableDefinition(t, tmp, key)}`);
      const own = gens.filter((x) => x.table === t.name);
      if (own.length === 0) continue;
      for (const g of own) {
        await session.queryAsync(`INSERT INTO ${name} (${t.insertColumns.map(quoteIdent).join(', ')}) ${g.sql}`);
      }
      await session.queryAsync(`OPTIMIZE TABLE ${name} FINAL`);
    }
    // Detach so the parts are final on disk before the directory moves.
    for (const t of TABLES) session.query(`DETACH TABLE ${quoteIdent(BASE_DATABASE)}.${quoteIdent(t.name)}`);
  } finally {
    session.cleanup();
  }
  fs.writeFileSync(path.join(tmp, 'complete'), new Date().toISOString());
  try {
    fs.renameSync(tmp, dir);
  } catch {
    // Another process finished first: its copy holds the same data.
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return Date.now() - started;
}
