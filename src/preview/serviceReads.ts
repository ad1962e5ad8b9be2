import { SelfHostedServiceClient } from '../api/oss';
import { QueryError, type QueryResult } from '../api/query';
import type { ConnectionManager } from '../connections/manager';
import { isSelfHosted } from '../connections/types';
import { errorMessage } from '../errors';
import type { Logger } from '../log';
import type { SqlHold } from '../sqlHold';
import { COLUMNS_TTL_MS, SOURCE_TTL_MS, TILE_LIMITS, type PreviewDeps, type Scope } from './context';
import {
  columnsByTable,
  columnsFromDescribe,
  columnsOfTablesSql,
  describeSourceSql,
  tableKey,
  tableOfSource,
  type SourceLike,
  type TableName,
} from '../render';
import type { SeriesRoute } from './series';

/**
 * What the previews read of a service: SQL on its query endpoint, the series route of a self-hosted deployment, its
 * sources and the column types of their tables (both kept for a while), and how many requests they made.
 */
/** `background`: SQL the user did not ask for (see `PreviewDeps.background`). */
export interface ReadOptions {
  background?: boolean;
}

export interface ServiceReads {
  run(scope: Scope, sql: string, maxRows?: number, maxBytes?: number, opts?: ReadOptions): Promise<QueryResult>;
  /** Why SQL the user did not ask for may not go to a service now (none on a series route). */
  hold(scope: Scope): SqlHold | undefined;
  seriesRouteOf(scope: Scope): SeriesRoute | undefined;
  /**
   * Which route a self-hosted connection's previews take: `clickhouse` (SQL on its ClickHouse access) or `series` (the
   * chart series API); undefined for the Cloud (SQL on the query endpoint).
   */
  selfHostedRouteOf(scope: Scope): 'clickhouse' | 'series' | undefined;
  sourcesOf(scope: Scope): Promise<readonly SourceLike[]>;
  columnsOf(scope: Scope, source: SourceLike, opts?: ReadOptions): Promise<Record<string, string> | undefined>;
  columnsOfTables(
    scope: Scope,
    tables: readonly TableName[],
    opts?: ReadOptions,
  ): Promise<Map<string, Record<string, string> | undefined>>;
  /** Requests made so far (query endpoint statements and series requests). */
  readonly queries: number;
  /** Forgets the sources and column types kept (connections changed). */
  clear(): void;
}

export function createServiceReads(
  connections: ConnectionManager,
  runSql: PreviewDeps['runSql'],
  log: Logger,
  background?: PreviewDeps['background'],
): ServiceReads {
  const deps = { runSql };
  const sources = new Map<string, { at: number; value: Promise<readonly SourceLike[]> }>();
  /** Column types by connection, service and table (`db`.`table`). */
  const tableColumns = new Map<string, { at: number; value: Promise<Record<string, string> | undefined> }>();
  let queries = 0;

  async function run(
    scope: Scope,
    sql: string,
    maxRows = TILE_LIMITS.maxRows,
    maxBytes = TILE_LIMITS.maxBytes,
    opts: ReadOptions = {},
  ): Promise<QueryResult> {
    const query = { serviceId: scope.serviceId, sql, maxRows, maxBytes };
    if (opts.background && !background) throw new Error('SQL in the background is not available');
    queries++;
    return opts.background ? background!.run(scope.connectionId, query) : deps.runSql(scope.connectionId, query);
  }

  function hold(scope: Scope): SqlHold | undefined {
    if (selfHostedRouteOf(scope) !== undefined) return undefined;
    return background?.hold(scope.connectionId, scope.serviceId);
  }

  function selfHostedRouteOf(scope: Scope): 'clickhouse' | 'series' | undefined {
    const connection = connections.get(scope.connectionId);
    if (!connection || !isSelfHosted(connection)) return undefined;
    return connection.clickHouse ? 'clickhouse' : 'series';
  }

  /**
   * The series route of a self-hosted deployment's connection; undefined for the Cloud and for a self-hosted
   * connection with ClickHouse access (both take the SQL route).
   */
  function seriesRouteOf(scope: Scope): SeriesRoute | undefined {
    if (selfHostedRouteOf(scope) === 'clickhouse') return undefined;
    let client: unknown;
    try {
      client = connections.clientFor(scope.connectionId);
    } catch {
      return undefined; // a removed connection: the SQL route reports it as before
    }
    if (!(client instanceof SelfHostedServiceClient)) return undefined;
    const api = client.selfHosted;
    return {
      chartSeries: async (body) => {
        queries++;
        return (await api.chartSeries(body)).data;
      },
      search: async (body) => {
        queries++;
        return (await api.search(body)).data;
      },
    };
  }

  function sourcesOf(scope: Scope): Promise<readonly SourceLike[]> {
    const key = `${scope.connectionId}/${scope.serviceId}`;
    const hit = sources.get(key);
    if (hit && Date.now() - hit.at < SOURCE_TTL_MS) return hit.value;
    const value = connections
      .clientFor(scope.connectionId)
      .listSources(scope.serviceId)
      .then((r) => r.data as unknown as readonly SourceLike[]);
    value.catch(() => sources.delete(key));
    sources.set(key, { at: Date.now(), value });
    return value;
  }

  /** Column types of a source's table (Lucene fields map to columns by them); undefined when they are not known. */
  async function columnsOf(
    scope: Scope,
    source: SourceLike,
    opts: ReadOptions = {},
  ): Promise<Record<string, string> | undefined> {
    const table = tableOfSource(source);
    return table ? (await columnsOfTables(scope, [table], opts)).get(tableKey(table)) : undefined;
  }

  /**
   * Column types of several tables, by table key: the ones not kept yet in one statement (`system.columns`), the same
   * names and types DESCRIBE gives. Should that statement fail with an SQL error (a key that may not read
   * `system.columns`), each table is described on its own. A table without columns (it does not exist) is undefined
   * and not kept, as a failed DESCRIBE was: its tiles render as before and their own statements say the table is
   * missing.
   */
  async function columnsOfTables(
    scope: Scope,
    tables: readonly TableName[],
    opts: ReadOptions = {},
  ): Promise<Map<string, Record<string, string> | undefined>> {
    const prefix = `${scope.connectionId}/${scope.serviceId}/`;
    const wanted = new Map<string, TableName>();
    for (const t of tables) wanted.set(tableKey(t), t);
    const missing = [...wanted].filter(([key]) => {
      const hit = tableColumns.get(prefix + key);
      return !hit || Date.now() - hit.at >= COLUMNS_TTL_MS;
    });
    if (missing.length > 0) {
      const list = missing.map(([, t]) => t);
      const all = run(scope, columnsOfTablesSql(list), undefined, undefined, opts).then(
        (r) => columnsByTable(list, r.rows),
        (e: unknown) => {
          log.warn(`preview: column types of ${missing.map(([k]) => k).join(', ')} failed: ${errorMessage(e)}`);
          return e instanceof QueryError && e.reason === 'sql' ? undefined : new Map<string, Record<string, string>>();
        },
      );
      for (const [key, t] of missing) {
        const value: Promise<Record<string, string> | undefined> = all.then((m) =>
          m ? m.get(key) : describeTable(scope, t, opts),
        );
        tableColumns.set(prefix + key, { at: Date.now(), value });
        void value.then((v) => {
          if (v === undefined && tableColumns.get(prefix + key)?.value === value) tableColumns.delete(prefix + key);
        });
      }
    }
    const entries = [...wanted.keys()].map((key) => [key, tableColumns.get(prefix + key)!.value] as const);
    return new Map(await Promise.all(entries.map(async ([key, value]) => [key, await value] as const)));
  }

  /** DESCRIBE of one table; undefined when it fails. */
  function describeTable(
    scope: Scope,
    table: TableName,
    opts: ReadOptions,
  ): Promise<Record<string, string> | undefined> {
    const sql = describeSourceSql({ from: { databaseName: table.database ?? null, tableName: table.table } })!;
    return run(scope, sql, undefined, undefined, opts).then(
      (r) => {
        const name = r.columns.findIndex((c) => c.name === 'name');
        const type = r.columns.findIndex((c) => c.name === 'type');
        return columnsFromDescribe(r.rows.map((row) => ({ name: row[name], type: row[type] })));
      },
      (e: unknown) => {
        log.warn(`preview: DESCRIBE of ${table.table} failed: ${errorMessage(e)}`);
        return undefined;
      },
    );
  }

  return {
    run,
    hold,
    seriesRouteOf,
    selfHostedRouteOf,
    sourcesOf,
    columnsOf,
    columnsOfTables,
    get queries() {
      return queries;
    },
    clear() {
      sources.clear();
      tableColumns.clear();
    },
  };
}
