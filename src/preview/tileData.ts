import type { QueryResult } from '../api/query';
import { errorMessage } from '../errors';
import type { Logger } from '../log';
import {
  isObject,
  SAVED_SEARCH_ROWS,
  str,
  TILE_CONCURRENCY,
  TILE_LIMITS,
  type DashboardSource,
  type Scope,
} from './context';
import type { TileData } from './protocol';
import { renderTile, tableKey, tableOfSource, type RenderResult, type SourceLike, type TileLike } from '../render';
import { runTileStatements, type Settled } from './batch';
import { tileDataOf } from './data';
import { planTile, previewBySeries, type SeriesRoute } from './series';
import { recordsToResult, savedSearchTile, type SavedSearchLike } from './savedSearchRows';
import type { ServiceReads } from './serviceReads';
import { routeLabel, withClickHouseHint } from './routeNotes';

/**
 * Rendering and running tiles: one tile (its statement on the query endpoint, or the series route of a self-hosted
 * deployment), every tile of a dashboard in one batch, and a saved search's events as its search tile is drawn.
 */
export interface TileDataReader {
  tileData(
    d: DashboardSource,
    tile: Record<string, unknown>,
    range: { from: number; to: number },
  ): Promise<{ data: TileData; sql?: string; request?: string }>;
  dashboardData(
    d: DashboardSource,
    tiles: readonly Record<string, unknown>[],
    range: { from: number; to: number },
  ): Promise<{ data: TileData; sql?: string }[]>;
  savedSearchRows(
    scope: Scope,
    search: SavedSearchLike,
    range: { from: number; to: number },
  ): Promise<{ result: QueryResult; statement: string }>;
}

export function createTileData(reads: ServiceReads, log: Logger): TileDataReader {
  const { run, seriesRouteOf, selfHostedRouteOf, sourcesOf, columnsOf, columnsOfTables } = reads;

  async function tileData(
    d: DashboardSource,
    tile: Record<string, unknown>,
    range: { from: number; to: number },
  ): Promise<{ data: TileData; sql?: string; request?: string }> {
    const seriesRoute = seriesRouteOf(d);
    const sourceId = sourceIdOf(tile);
    const source = sourceId ? (await sourcesOf(d)).find((s) => s.id === sourceId) : undefined;
    if (seriesRoute) return seriesTileData(seriesRoute, d, tile, range, source);
    const columns = source ? await columnsOf(d, source) : undefined;
    const p = prepareTile(d, tile, range, source, columns);
    if (!p.query) return p;
    try {
      return p.query.finish({ ok: true, result: await run(d, p.query.sql) });
    } catch (error) {
      return p.query.finish({ ok: false, error });
    }
  }

  /** The source a tile reads, when it reads one (markdown tiles read none). */
  function sourceIdOf(tile: Record<string, unknown>): string | undefined {
    const config = isObject(tile.config) ? tile.config : undefined;
    return config && config.displayType !== 'markdown' ? str(config.sourceId) : undefined;
  }

  /**
   * A tile rendered: its drawing when it needs no query (markdown, or what cannot be previewed), else its statement
   * and how its answer (rows or error) is drawn.
   */
  function prepareTile(
    d: DashboardSource,
    tile: Record<string, unknown>,
    range: { from: number; to: number },
    source: SourceLike | undefined,
    columns: Record<string, string> | undefined,
  ):
    | { data: TileData; query?: undefined }
    | { query: { sql: string; finish(r: Settled): { data: TileData; sql: string } } } {
    const config = isObject(tile.config) ? tile.config : undefined;
    const rendered: RenderResult = renderTile(tile as TileLike, { range, source, columns, dashboard: d.dashboard });
    const title = str(tile.name);
    const subtitle = [source ? str(source.name) : undefined, routeLabel(selfHostedRouteOf(d))]
      .filter((x) => x)
      .join(' · ');
    const titled = { ...(title ? { title } : {}), ...(subtitle ? { subtitle } : {}) };
    if (!rendered.ok) return { data: { kind: 'unsupported', reason: rendered.reason, ...titled } };
    if (rendered.shape === 'markdown') return { data: { kind: 'markdown', text: rendered.markdown ?? '', ...titled } };
    const finish = (r: Settled): { data: TileData; sql: string } => {
      if (!r.ok) return { data: { kind: 'error', message: errorMessage(r.error), ...titled }, sql: rendered.sql };
      const numberFormat = config && isObject(config.numberFormat) ? config.numberFormat : undefined;
      const data = tileDataOf(rendered, r.result, {
        displayType: config ? str(config.displayType) : undefined,
        range: rendered.range ?? range,
        ...(numberFormat ? { numberFormat } : {}),
      });
      const notes = rendered.notes.length ? rendered.notes.join('; ') : undefined;
      const sub = [subtitle, rendered.granularity?.sql, notes, data.subtitle].filter((x) => x).join(' · ');
      return { data: { ...data, ...(title ? { title } : {}), ...(sub ? { subtitle: sub } : {}) }, sql: rendered.sql };
    };
    return { query: { sql: rendered.sql, finish } };
  }

  /**
   * Every tile of a dashboard (SQL route): the column types of all their sources' tables in one statement, then
   * every tile's statement in one batch (tiles with the same statement share its answer); tiles the batch cannot
   * answer run on their own (see `runTileStatements`).
   */
  async function dashboardData(
    d: DashboardSource,
    tiles: readonly Record<string, unknown>[],
    range: { from: number; to: number },
  ): Promise<{ data: TileData; sql?: string }[]> {
    const ids = tiles.map(sourceIdOf);
    const list = ids.some((x) => x) ? await sourcesOf(d) : [];
    const tileSources = ids.map((id) => (id ? list.find((s) => s.id === id) : undefined));
    const tables = tileSources.flatMap((s) => {
      const t = s ? tableOfSource(s) : undefined;
      return t ? [t] : [];
    });
    const columns = tables.length > 0 ? await columnsOfTables(d, tables) : new Map<string, Record<string, string>>();
    const prepared = tiles.map((tile, i) => {
      const source = tileSources[i];
      const table = source ? tableOfSource(source) : undefined;
      return prepareTile(d, tile, range, source, table ? columns.get(tableKey(table)) : undefined);
    });
    const statements = [...new Set(prepared.flatMap((p) => (p.query ? [p.query.sql] : [])))];
    const answers = await runTileStatements(statements, (sql, limits) => run(d, sql, limits.maxRows, limits.maxBytes), {
      ...TILE_LIMITS,
      concurrency: TILE_CONCURRENCY,
      onBatchFailed: (e) =>
        log.info(`preview: the tiles' batch failed (${errorMessage(e)}); each tile runs on its own to show its error`),
    });
    const bySql = new Map(statements.map((sql, i) => [sql, answers[i]!]));
    return prepared.map((p) => (p.query ? p.query.finish(bySql.get(p.query.sql)!) : p));
  }

  /** A tile through the series route (self-hosted), titled as the SQL route titles it. */
  async function seriesTileData(
    route: SeriesRoute,
    d: DashboardSource,
    tile: Record<string, unknown>,
    range: { from: number; to: number },
    source: SourceLike | undefined,
  ): Promise<{ data: TileData; request?: string }> {
    const { data, request, notes } = await previewBySeries(
      route,
      tile as TileLike,
      { range, source, dashboard: d.dashboard },
      errorMessage,
    );
    const title = str(tile.name);
    const sub = [source ? str(source.name) : undefined, routeLabel('series'), ...notes].filter((x) => x).join(' · ');
    const drawn = data.kind === 'unsupported' ? { ...data, reason: withClickHouseHint(data.reason) } : data;
    return {
      data: { ...drawn, ...(title ? { title } : {}), ...(sub ? { subtitle: sub } : {}) },
      ...(request ? { request } : {}),
    };
  }

  /**
   * A saved search's events for a range, as its search tile is drawn (up to SAVED_SEARCH_ROWS rows, newest first):
   * the tile's statement on the query endpoint (Cloud), or the search API (self-hosted).
   */
  async function savedSearchRows(
    scope: Scope,
    search: SavedSearchLike,
    range: { from: number; to: number },
  ): Promise<{ result: QueryResult; statement: string }> {
    const tile = savedSearchTile(search);
    const source = search.sourceId ? (await sourcesOf(scope)).find((s) => s.id === search.sourceId) : undefined;
    if (!source) {
      throw new Error(`the saved search's source ${search.sourceId ?? '(none)'} is not a source of this service`);
    }
    const route = seriesRouteOf(scope);
    if (route) {
      const plan = planTile(tile, { range, source, searchLimit: SAVED_SEARCH_ROWS });
      if (!plan.ok) throw new Error(plan.reason);
      if (plan.route !== 'search') throw new Error('the saved search is not a search of logs or traces');
      const started = performance.now();
      const records = await route.search(plan.body);
      return {
        result: recordsToResult(records, performance.now() - started),
        statement: `POST /api/v2/search\n${JSON.stringify(plan.body, null, 2)}`,
      };
    }
    const columns = await columnsOf(scope, source);
    const rendered = renderTile(tile, { range, source, columns, searchLimit: SAVED_SEARCH_ROWS });
    if (!rendered.ok) throw new Error(rendered.reason);
    return { result: await run(scope, rendered.sql, SAVED_SEARCH_ROWS), statement: rendered.sql };
  }

  return { tileData, dashboardData, savedSearchRows };
}
