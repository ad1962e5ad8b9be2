/**
 * Tile previews and alert backtests, wired to the explorer and the editors: Preview Tile (tree, CodeLens on each tile
 * of a dashboard document, unsaved edits included), Preview Dashboard (every tile on the dashboard's grid), Show
 * SQL (the rendered statement in a SQL document bound to the service, through `observability.newQuery`) and
 * Backtest Alert (tree, alert documents). The SQL runs on the service's query endpoint through the query feature's
 * client (same host, key and rate budget), given by the wiring as `runSql`. On a self-hosted deployment (no SQL in
 * its API) tiles and backtests go through its chart series and search API instead (`./series`).
 */
import * as vscode from 'vscode';
import { SELF_HOSTED_SERVICE_ID, SelfHostedServiceClient } from '../api/oss';
import { connectionFor } from '../connections/fileTarget';
import { QueryError, type QueryResult, type RunQueryOptions } from '../api/query';
import type { ConnectionManager } from '../connections/manager';
import type { Logger } from '../log';
import type { LiveData } from '../resources/live';
import { parseUri } from '../shared/uris';
import { errorMessage } from '../errors';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser/lib/esm/main';
import { PreviewPanel, type RenderedState } from './panel';
import {
  parseWebviewState,
  resolveRange,
  type DashboardTile,
  type PanelMode,
  type PreviewData,
  type RestoreArgs,
  type RestoreTarget,
  type TileData,
  type TimeRange,
} from './protocol';
import {
  columnsByTable,
  columnsFromDescribe,
  columnsOfTablesSql,
  describeSourceSql,
  renderTile,
  tableKey,
  tableOfSource,
  type DashboardLike,
  type RenderResult,
  type SourceLike,
  type TableName,
  type TileLike,
} from './render';
import { runTileStatements, type Settled } from './batch';
import { backtestQuery, evaluateBacktest, pointsFromRows, type BacktestAlert, type BacktestResult } from './backtest';
import { backtestDataOf, tileDataOf } from './data';
import { backtestBySeries, planTile, previewBySeries, SeriesBacktestRefused, type SeriesRoute } from './series';
import { registerRunSavedSearch } from './runSavedSearch';
import { recordsToResult, savedSearchTile, type SavedSearchLike } from './savedSearchRows';

export interface PreviewDeps {
  connections: ConnectionManager;
  live: LiveData;
  log: Logger;
  /** Runs SQL on a service's query endpoint (the query feature's client for the connection). */
  runSql(connectionId: string, opts: RunQueryOptions): Promise<QueryResult>;
  /** Shows rows in the SQL results panel (Run Saved Search). */
  showRows?(shown: { result: QueryResult; serviceName: string; sql: string }): Promise<unknown>;
}

/** What a preview command answers (tests read it). */
export interface PreviewOutcome {
  ok: boolean;
  rendered?: RenderedState['summary'] | undefined;
  sql?: string | undefined;
  /** Self-hosted deployments: the chart series or search request the preview sent (route and JSON body). */
  request?: string | undefined;
  error?: string | undefined;
  /** Backtests: how many windows fired, the last one's end, and the last window's state. */
  fired?: number | undefined;
  lastFiredAt?: number | undefined;
  lastState?: string | undefined;
  /** From the command until the panel reported everything drawn, ms. */
  elapsedMs?: number | undefined;
  /** Query endpoint requests the command made. */
  queries?: number | undefined;
  /** The time range the panel drew. */
  range?: TimeRange | undefined;
  /** Dashboards: the statement each tile ran (in tile order; tiles without a query have none). */
  statements?: string[] | undefined;
}

interface Scope {
  connectionId: string;
  serviceId: string;
}

/** Where a tile or dashboard comes from: the service (tree, IDs) or a dashboard document (its current text). */
interface DashboardSource extends Scope {
  dashboard: DashboardLike & { id?: string; name?: string; tiles?: unknown[] };
  uri?: vscode.Uri | undefined;
}

const SOURCE_TTL_MS = 60_000;
/**
 * Column types of a source's table change rarely; kept longer, so a dashboard previewed again spends its query budget
 * on its tiles, not on column types (the tables of a whole dashboard are one statement of the 10 per 10 s).
 */
const COLUMNS_TTL_MS = 10 * 60_000;
/**
 * Tiles of a dashboard queried at once when they run as their own statements (the batch failed with an SQL error);
 * the rate limiter spaces them further if the budget is short.
 */
const TILE_CONCURRENCY = 4;
/** Rows and bytes read per tile statement. */
const TILE_LIMITS = { maxRows: 10_000, maxBytes: 16 * 1024 * 1024 };
const FOLLOW_DELAY_MS = 800;
/** Events a saved search run shows (the search API's maximum per request is 2,000). */
const SAVED_SEARCH_ROWS = 1000;
/** How long a "would have fired" lens holds before it is computed again (the 24 h it covers move on). */
const FIRED_TTL_MS = 5 * 60_000;
/** A failed backtest is tried again on the next look after this long (or at once when the alert changes). */
const FAILED_TTL_MS = 60_000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** What the entry needs of the previews: drawing a panel VS Code restored after a window reload. */
export interface PreviewApi {
  restore(mode: PanelMode, panel: vscode.WebviewPanel, state: unknown): Promise<PreviewOutcome>;
  /** A saved tile's data, or a tile given whole (e.g. a search), for a range, without a panel (the agent's tools). */
  tileData(
    scope: Scope,
    tile: { readonly dashboardId: string; readonly tileId: string } | { readonly tile: Record<string, unknown> },
    range: { from: number; to: number },
  ): Promise<TileData>;
  /** An alert replayed over a range, without a panel (the agent's tools). */
  backtestSummary(
    scope: Scope,
    alertId: string,
    range: { from: number; to: number },
  ): Promise<{ evaluations: number; fired: number; lastFiredAt: number | undefined; lastState: string }>;
}

export function registerPreview(context: vscode.ExtensionContext, deps: PreviewDeps): PreviewApi {
  const { connections, live, log } = deps;
  const previewPanel = new PreviewPanel(context.extensionUri, 'preview');
  const backtestPanel = new PreviewPanel(context.extensionUri, 'backtest');
  const sources = new Map<string, { at: number; value: Promise<readonly SourceLike[]> }>();
  /** Column types by connection, service and table (`db`.`table`). */
  const tableColumns = new Map<string, { at: number; value: Promise<Record<string, string> | undefined> }>();
  /** Draws the preview panel's tile or dashboard again; `reveal` false for the panel's own requests and edits. */
  let previewShown: ((reveal?: boolean) => Promise<PreviewOutcome>) | undefined;
  let previewDoc: string | undefined;
  let backtestShown: ((reveal?: boolean) => Promise<PreviewOutcome>) | undefined;
  let backtestDoc: string | undefined;
  let followTimer: ReturnType<typeof setTimeout> | undefined;
  let queries = 0;
  const lensChanged = new vscode.EventEmitter<void>();

  context.subscriptions.push(previewPanel, backtestPanel, lensChanged);
  context.subscriptions.push(
    connections.onDidChange(() => {
      sources.clear();
      tableColumns.clear();
    }),
    // A range picked or a refresh asked for in a panel: its answer must not bring the panel to the front if the user
    // has moved on to another tab meanwhile (the query budget can hold it for seconds).
    previewPanel.onDidRequest(() => void previewShown?.(false)),
    backtestPanel.onDidRequest(() => void backtestShown?.(false)),
  );

  async function run(
    scope: Scope,
    sql: string,
    maxRows = TILE_LIMITS.maxRows,
    maxBytes = TILE_LIMITS.maxBytes,
  ): Promise<QueryResult> {
    queries++;
    return deps.runSql(scope.connectionId, { serviceId: scope.serviceId, sql, maxRows, maxBytes });
  }

  /** The series route of a self-hosted deployment's connection; undefined for the Cloud (SQL route). */
  function seriesRouteOf(scope: Scope): SeriesRoute | undefined {
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
  async function columnsOf(scope: Scope, source: SourceLike): Promise<Record<string, string> | undefined> {
    const table = tableOfSource(source);
    return table ? (await columnsOfTables(scope, [table])).get(tableKey(table)) : undefined;
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
      const all = run(scope, columnsOfTablesSql(list)).then(
        (r) => columnsByTable(list, r.rows),
        (e: unknown) => {
          log.warn(`preview: column types of ${missing.map(([k]) => k).join(', ')} failed: ${errorMessage(e)}`);
          return e instanceof QueryError && e.reason === 'sql' ? undefined : new Map<string, Record<string, string>>();
        },
      );
      for (const [key, t] of missing) {
        const value: Promise<Record<string, string> | undefined> = all.then((m) =>
          m ? m.get(key) : describeTable(scope, t),
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
  function describeTable(scope: Scope, table: TableName): Promise<Record<string, string> | undefined> {
    const sql = describeSourceSql({ from: { databaseName: table.database ?? null, tableName: table.table } })!;
    return run(scope, sql).then(
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

  // ---- Finding the dashboard, tile and alert an argument names ------------------------------------------------------

  function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  }

  async function dashboardFrom(raw: unknown): Promise<DashboardSource> {
    const arg = isObject(raw) ? raw : {};
    const uriArg =
      raw instanceof vscode.Uri ? raw : typeof arg.uri === 'string' ? vscode.Uri.parse(arg.uri) : undefined;
    const uri =
      uriArg ?? (arg.connectionId || arg.dashboard ? undefined : vscode.window.activeTextEditor?.document.uri);
    if (uri) {
      const ref = parseUri(uri);
      if (!ref || ref.kind !== 'dashboard') throw new Error(vscode.l10n.t('This document is not a dashboard.'));
      const doc = openDocument(uri) ?? (await vscode.workspace.openTextDocument(uri));
      let value: unknown;
      try {
        value = JSON.parse(doc.getText());
      } catch {
        throw new Error(vscode.l10n.t('The dashboard document is not valid JSON; fix it to preview its tiles.'));
      }
      if (!isObject(value)) throw new Error(vscode.l10n.t('The dashboard document does not hold a dashboard.'));
      return {
        connectionId: ref.connectionId,
        serviceId: ref.serviceId,
        dashboard: value as DashboardSource['dashboard'],
        uri,
      };
    }
    const connectionId = str(arg.connectionId);
    const serviceId = str(arg.serviceId);
    if (!connectionId || !serviceId) throw new Error(vscode.l10n.t('Choose a dashboard or tile in the explorer.'));
    const parent = isObject(arg.parent) ? arg.parent : undefined;
    const given = isObject(arg.dashboard)
      ? arg.dashboard
      : parent && isObject(parent.dashboard)
        ? parent.dashboard
        : undefined;
    const dashboardId = str(arg.dashboardId) ?? (given ? str(given.id) : undefined);
    const list = await live.dashboards(connectionId, serviceId);
    const found = list?.find((d) => d.id === dashboardId) ?? given;
    if (!found) throw new Error(vscode.l10n.t('The dashboard {0} was not found.', dashboardId ?? ''));
    return { connectionId, serviceId, dashboard: found as unknown as DashboardSource['dashboard'] };
  }

  function tilesOf(d: DashboardSource): Record<string, unknown>[] {
    return (Array.isArray(d.dashboard.tiles) ? d.dashboard.tiles : []).filter(isObject);
  }

  function tileIdOf(raw: unknown): string | undefined {
    if (!isObject(raw)) return undefined;
    return str(raw.tileId) ?? (isObject(raw.tile) ? str(raw.tile.id) : undefined);
  }

  // ---- Rendering and running a tile ------------------------------------------------------------------------------

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
    const subtitle = source ? str(source.name) : undefined;
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
      const sub = [subtitle, rendered.granularity?.sql, notes].filter((x) => x).join(' · ');
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
    const sub = [source ? str(source.name) : undefined, ...notes].filter((x) => x).join(' · ');
    return {
      data: { ...data, ...(title ? { title } : {}), ...(sub ? { subtitle: sub } : {}) },
      ...(request ? { request } : {}),
    };
  }

  function now(range: TimeRange): { from: number; to: number } {
    return resolveRange(range, Date.now());
  }

  async function showData(
    panel: PreviewPanel,
    data: PreviewData,
    title: string,
    restore: RestoreTarget | undefined,
    reveal = true,
  ): Promise<RenderedState | undefined> {
    return panel.show(data, { title, reveal, ...(restore ? { restore } : {}) });
  }

  /** What a window reload needs to draw a panel again: the document, or the connection, service and IDs. */
  function restoreArgs(
    scope: Scope,
    uri: vscode.Uri | undefined,
    ids: Record<string, string | undefined>,
  ): RestoreArgs {
    const args: RestoreArgs = uri
      ? { uri: uri.toString() }
      : { connectionId: scope.connectionId, serviceId: scope.serviceId };
    for (const [k, v] of Object.entries(ids)) if (v !== undefined && (!uri || k === 'tileId')) args[k] = v;
    return args;
  }

  function follow(doc: vscode.Uri | undefined, which: 'preview' | 'backtest'): void {
    if (which === 'preview') previewDoc = doc?.toString();
    else backtestDoc = doc?.toString();
  }

  async function previewTile(raw: unknown, quiet = false): Promise<PreviewOutcome> {
    const started = Date.now();
    const before = queries;
    try {
      const d = await dashboardFrom(raw);
      const tileId = tileIdOf(raw);
      const tiles = tilesOf(d);
      const tile =
        tiles.find((t) => t.id === tileId) ?? (tileId === undefined && tiles.length === 1 ? tiles[0] : undefined);
      if (!tile) throw new Error(vscode.l10n.t('The tile {0} was not found in the dashboard.', tileId ?? ''));
      const again = async (reveal = true): Promise<PreviewOutcome> => {
        const t0 = Date.now();
        const q0 = queries;
        const fresh = d.uri ? await dashboardFrom({ uri: d.uri.toString() }) : d;
        const current = tilesOf(fresh).find((t) => t.id === tile.id) ?? tile;
        const { data, sql, request } = await tileData(fresh, current, now(previewPanel.range));
        const restore: RestoreTarget = {
          kind: 'tile',
          args: restoreArgs(d, d.uri, { dashboardId: str(d.dashboard.id), tileId: str(current.id) }),
        };
        const r = await showData(previewPanel, data, str(current.name) ?? String(current.id ?? ''), restore, reveal);
        return {
          ok: data.kind !== 'error',
          rendered: r?.summary,
          sql,
          request,
          elapsedMs: Date.now() - t0,
          range: previewPanel.range,
          queries: queries - q0,
        };
      };
      previewShown = again;
      follow(d.uri, 'preview');
      const out = await again();
      return { ...out, elapsedMs: Date.now() - started, queries: queries - before };
    } catch (e) {
      return failed(e, quiet);
    }
  }

  async function previewDashboard(raw: unknown, quiet = false): Promise<PreviewOutcome> {
    const started = Date.now();
    const before = queries;
    try {
      const first = await dashboardFrom(raw);
      const again = async (reveal = true): Promise<PreviewOutcome> => {
        const t0 = Date.now();
        const q0 = queries;
        const d = first.uri ? await dashboardFrom({ uri: first.uri.toString() }) : first;
        const range = now(previewPanel.range);
        const tiles = tilesOf(d);
        const out: DashboardTile[] = tiles.map((t, i) => ({
          id: str(t.id) ?? String(i),
          ...(str(t.name) ? { name: str(t.name) } : {}),
          x: num(t.x, 0),
          y: num(t.y, i * 4),
          w: num(t.w, 12),
          h: num(t.h, 4),
          data: { kind: 'loading' },
        }));
        const title = str(d.dashboard.name) ?? '';
        const restore: RestoreTarget = {
          kind: 'dashboard',
          args: restoreArgs(d, first.uri, { dashboardId: str(d.dashboard.id) }),
        };
        // A panel not open yet opens at once with its tiles loading: its webview starts while the data is fetched.
        const opened = !previewPanel.isOpen;
        if (opened) {
          const loading: PreviewData = { kind: 'dashboard', title, tiles: out.map((t) => ({ ...t })) };
          void showData(previewPanel, loading, title, restore, reveal).catch(() => undefined);
        }
        const sqls: (string | undefined)[] = [];
        try {
          if (seriesRouteOf(d)) {
            // Self-hosted: each tile through the series route, a few at a time (the limiter keeps them in the budget).
            let next = 0;
            const worker = async () => {
              while (next < tiles.length) {
                const i = next++;
                const got = await tileData(d, tiles[i]!, range);
                out[i]!.data = got.data;
                sqls[i] = got.sql;
              }
            };
            await Promise.all(Array.from({ length: Math.min(TILE_CONCURRENCY, tiles.length) }, worker));
          } else {
            (await dashboardData(d, tiles, range)).forEach((got, i) => {
              out[i]!.data = got.data;
              sqls[i] = got.sql;
            });
          }
        } catch (e) {
          // The panel opened for this preview says why it stays empty (the caller tells it too).
          if (opened && previewPanel.isOpen) {
            await showData(previewPanel, { kind: 'error', title, message: errorMessage(e) }, title, restore, false);
          }
          throw e;
        }
        const r = await showData(previewPanel, { kind: 'dashboard', title, tiles: out }, title, restore, reveal);
        return {
          ok: true,
          rendered: r?.summary,
          elapsedMs: Date.now() - t0,
          queries: queries - q0,
          range: previewPanel.range,
          statements: sqls.filter((x): x is string => x !== undefined),
        };
      };
      previewShown = again;
      follow(first.uri, 'preview');
      const out = await again();
      return { ...out, elapsedMs: Date.now() - started, queries: queries - before };
    } catch (e) {
      return failed(e, quiet);
    }
  }

  async function showTileSql(raw: unknown): Promise<string | undefined> {
    const d = await dashboardFrom(raw);
    const tileId = tileIdOf(raw);
    const tile = tilesOf(d).find((t) => t.id === tileId);
    if (!tile) {
      void vscode.window.showErrorMessage(vscode.l10n.t('The tile {0} was not found in the dashboard.', tileId ?? ''));
      return undefined;
    }
    if (seriesRouteOf(d)) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'A self-hosted deployment runs no SQL from its API: its previews go through the chart series and search API, so there is no SQL to show.',
        ),
      );
      return undefined;
    }
    const config = isObject(tile.config) ? tile.config : undefined;
    const sourceId = config ? str(config.sourceId) : undefined;
    const source = sourceId ? (await sourcesOf(d)).find((s) => s.id === sourceId) : undefined;
    const columns = source ? await columnsOf(d, source) : undefined;
    const rendered = renderTile(tile as TileLike, {
      range: now(previewPanel.range),
      source,
      columns,
      dashboard: d.dashboard,
    });
    if (!rendered.ok || rendered.shape === 'markdown') {
      const reason = rendered.ok ? vscode.l10n.t('a markdown tile has no query') : rendered.reason;
      void vscode.window.showWarningMessage(vscode.l10n.t('Cannot show the SQL of this tile: {0}.', reason));
      return undefined;
    }
    const header = `-- ${vscode.l10n.t('Tile "{0}" rendered for {1} to {2} (UTC).', str(tile.name) ?? String(tile.id ?? ''), iso(now(previewPanel.range).from), iso(now(previewPanel.range).to))}`;
    return vscode.commands.executeCommand<string>('observability.newQuery', {
      connectionId: d.connectionId,
      serviceId: d.serviceId,
      sql: `${header}\n${rendered.sql}\n`,
    });
  }

  // ---- Backtests -------------------------------------------------------------------------------------------------

  interface AlertSource extends Scope {
    alert: Record<string, unknown>;
    uri?: vscode.Uri | undefined;
  }

  async function alertFrom(raw: unknown): Promise<AlertSource> {
    const arg = isObject(raw) ? raw : {};
    const uriArg =
      raw instanceof vscode.Uri ? raw : typeof arg.uri === 'string' ? vscode.Uri.parse(arg.uri) : undefined;
    const uri = uriArg ?? (arg.connectionId || arg.alert ? undefined : vscode.window.activeTextEditor?.document.uri);
    if (uri) {
      const ref = parseUri(uri);
      if (ref && ref.kind !== 'alert') throw new Error(vscode.l10n.t('This document is not an alert.'));
      if (!ref && !uri.path.endsWith('.alert.json')) throw new Error(vscode.l10n.t('This document is not an alert.'));
      const doc = openDocument(uri) ?? (await vscode.workspace.openTextDocument(uri));
      // Alert files tolerate comments, as their own feature reads them.
      const value = parseAlertText(doc.getText());
      if (value === undefined) {
        throw new Error(vscode.l10n.t('The alert document is not valid JSON; fix it to backtest the alert.'));
      }
      if (!isObject(value)) throw new Error(vscode.l10n.t('The alert document does not hold an alert.'));
      if (ref) return { connectionId: ref.connectionId, serviceId: ref.serviceId, alert: value, uri };
      // An alert file names its service by organization and service ID, or its self-hosted deployment by base URL.
      const scope = scopeOfFile(value);
      if (!scope) {
        throw new Error(
          str(value.baseUrl) !== undefined
            ? vscode.l10n.t('No saved self-hosted connection has the address this alert file names.')
            : vscode.l10n.t('No saved connection reaches the organization and service this alert file names.'),
        );
      }
      return { ...scope, alert: value, uri };
    }
    const connectionId = str(arg.connectionId);
    const serviceId = str(arg.serviceId);
    if (!connectionId || !serviceId) throw new Error(vscode.l10n.t('Choose an alert in the explorer.'));
    const alertId = str(arg.alertId) ?? (isObject(arg.alert) ? str(arg.alert.id) : undefined);
    if (!alertId) throw new Error(vscode.l10n.t('Choose an alert in the explorer.'));
    const alert = (await live.alert(connectionId, serviceId, alertId)) ?? (isObject(arg.alert) ? arg.alert : undefined);
    if (!alert) throw new Error(vscode.l10n.t('The alert {0} was not found.', alertId));
    return { connectionId, serviceId, alert: alert as unknown as Record<string, unknown> };
  }

  /**
   * The connection an alert file's target names: a self-hosted deployment by its exact base URL, or a Cloud service
   * by organization and service (any Cloud connection to the organization, preferring one that shows the service).
   */
  function scopeOfFile(value: Record<string, unknown>): Scope | undefined {
    const baseUrl = str(value.baseUrl);
    const serviceId = str(value.serviceId);
    const target = connectionFor(connections, str(value.organizationId), serviceId, baseUrl);
    if (!target) return undefined;
    return {
      connectionId: target.connectionId,
      serviceId: baseUrl !== undefined ? SELF_HOSTED_SERVICE_ID : serviceId!,
    };
  }

  async function backtest(
    a: AlertSource,
    range: { from: number; to: number },
  ): Promise<{ result: BacktestResult; sql: string; data: TileData }> {
    const alert = a.alert;
    let target: Parameters<typeof backtestQuery>[1];
    let sourceId: string | undefined;
    if (alert.source === 'saved_search') {
      const id = str(alert.savedSearchId);
      const search = (await live.listSavedSearches(a.connectionId, a.serviceId))?.find((s) => s.id === id);
      if (!search) throw new Error(vscode.l10n.t('The saved search {0} of the alert was not found.', id ?? ''));
      const s = search as unknown as Record<string, unknown>;
      sourceId = str(s.sourceId) ?? str(s.source);
      target = {
        kind: 'savedSearch',
        savedSearch: {
          where: str(s.where) ?? '',
          whereLanguage: str(s.whereLanguage) ?? 'lucene',
          source: sourceId,
          filters: Array.isArray(s.filters) ? s.filters : [],
        },
        groupBy: str(alert.groupBy),
      };
    } else {
      const dashboard = (await live.dashboards(a.connectionId, a.serviceId))?.find((d) => d.id === alert.dashboardId);
      const tile = (dashboard?.tiles as unknown[] | undefined)?.filter(isObject).find((t) => t.id === alert.tileId);
      if (!tile) throw new Error(vscode.l10n.t('The tile {0} of the alert was not found.', str(alert.tileId) ?? ''));
      sourceId = isObject(tile.config) ? str(tile.config.sourceId) : undefined;
      target = { kind: 'tile', tile: tile as TileLike };
    }
    const source = sourceId ? (await sourcesOf(a)).find((s) => s.id === sourceId) : undefined;
    const seriesRoute = seriesRouteOf(a);
    if (seriesRoute) {
      const withGroup = { ...alert, groupBy: str(alert.groupBy) } as unknown as BacktestAlert;
      const { result, request } = await backtestBySeries(seriesRoute, withGroup, target, { source, range }).catch(
        (e: unknown) => {
          throw e instanceof SeriesBacktestRefused
            ? new Error(vscode.l10n.t('This alert cannot be backtested: {0}.', e.message))
            : e;
        },
      );
      return { result, sql: request, data: backtestDataOf(alert as unknown as BacktestAlert, result) };
    }
    const columns = source ? await columnsOf(a, source) : undefined;
    const q = backtestQuery(alert as unknown as BacktestAlert, target, { source, columns, range });
    if (!q.ok) throw new Error(vscode.l10n.t('This alert cannot be backtested: {0}.', q.reason));
    const rows = await run(a, q.sql, 200_000);
    const points = pointsFromRows(
      rows.rows,
      q.columns,
      rows.columns.map((c) => c.name),
    );
    const result = evaluateBacktest(alert as unknown as BacktestAlert, points, range, { grouped: q.grouped });
    return { result, sql: q.sql, data: backtestDataOf(alert as unknown as BacktestAlert, result) };
  }

  async function backtestAlert(raw: unknown, quiet = false): Promise<PreviewOutcome> {
    const started = Date.now();
    const before = queries;
    try {
      const first = await alertFrom(raw);
      const again = async (reveal = true): Promise<PreviewOutcome> => {
        const t0 = Date.now();
        const a = first.uri ? await alertFrom({ uri: first.uri.toString() }) : first;
        const title = str(a.alert.name) ?? str(a.alert.id) ?? '';
        const restore: RestoreTarget = { kind: 'alert', args: restoreArgs(a, first.uri, { alertId: str(a.alert.id) }) };
        try {
          const { result, sql, data } = await backtest(a, now(backtestPanel.range));
          const r = await showData(backtestPanel, { ...data, title }, title, restore, reveal);
          return {
            ok: true,
            rendered: r?.summary,
            sql,
            fired: result.fired.length,
            lastFiredAt: result.lastFiredAt,
            lastState: result.lastState,
            elapsedMs: Date.now() - t0,
            range: backtestPanel.range,
          };
        } catch (e) {
          const r = await showData(
            backtestPanel,
            { kind: 'error', title, message: errorMessage(e) },
            title,
            restore,
            reveal,
          );
          return { ok: false, rendered: r?.summary, error: errorMessage(e) };
        }
      };
      backtestShown = again;
      follow(first.uri, 'backtest');
      const out = await again();
      return { ...out, elapsedMs: Date.now() - started, queries: queries - before };
    } catch (e) {
      return failed(e, quiet);
    }
  }

  function failed(e: unknown, quiet = false): PreviewOutcome {
    const message = errorMessage(e);
    log.warn(`preview: ${message}`);
    if (!quiet) void vscode.window.showErrorMessage(message);
    return { ok: false, error: message };
  }

  // ---- Panels restored after a window reload -----------------------------------------------------------------------

  /**
   * Draws a panel VS Code restored after a reload (its serializer, registered by the entry, hands it over): the
   * tile, dashboard or alert and the range the webview kept in its state, fetched again. What cannot be drawn any
   * more (connection removed, alert deleted) says why inside the panel, without a notification.
   */
  async function restorePanel(
    mode: PanelMode,
    webviewPanel: vscode.WebviewPanel,
    raw: unknown,
  ): Promise<PreviewOutcome> {
    const state = parseWebviewState(raw);
    const panel = mode === 'backtest' ? backtestPanel : previewPanel;
    if (!panel.adopt(webviewPanel, state.range)) return { ok: false, error: 'already open' };
    const target = state.restore;
    let out: PreviewOutcome;
    if (!target) out = { ok: false, error: vscode.l10n.t('This panel cannot be restored; open the preview again.') };
    else if (mode === 'backtest' && target.kind === 'alert') out = await backtestAlert(target.args, true);
    else if (mode === 'preview' && target.kind === 'tile') out = await previewTile(target.args, true);
    else if (mode === 'preview' && target.kind === 'dashboard') out = await previewDashboard(target.args, true);
    else out = { ok: false, error: vscode.l10n.t('This panel cannot be restored; open the preview again.') };
    if (!out.ok && !out.rendered && panel.isOpen) {
      const title = mode === 'backtest' ? vscode.l10n.t('Alert Backtest') : vscode.l10n.t('Tile Preview');
      const r = await panel.show(
        { kind: 'error', title, message: out.error ?? '' },
        { title, ...(target ? { restore: target } : {}) },
      );
      return { ...out, rendered: r?.summary };
    }
    return out;
  }

  // ---- The panels follow their document (debounced) --------------------------------------------------------------

  context.subscriptions.push(
    vscode.workspace.onDidChangeTextDocument((e) => {
      const key = e.document.uri.toString();
      if (key !== previewDoc && key !== backtestDoc) return;
      if (followTimer) clearTimeout(followTimer);
      followTimer = setTimeout(() => {
        followTimer = undefined;
        if (key === previewDoc && previewPanel.isOpen) void previewShown?.(false).catch(() => undefined);
        if (key === backtestDoc && backtestPanel.isOpen) void backtestShown?.(false).catch(() => undefined);
      }, FOLLOW_DELAY_MS);
    }),
    { dispose: () => followTimer && clearTimeout(followTimer) },
  );

  // ---- CodeLens on each tile of a dashboard document -------------------------------------------------------------

  const lenses: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: lensChanged.event,
    provideCodeLenses(doc) {
      const ref = parseUri(doc.uri);
      if (!ref || ref.kind !== 'dashboard') return [];
      const text = doc.getText();
      const out: vscode.CodeLens[] = [];
      const top = new vscode.Range(0, 0, 0, 0);
      out.push(
        new vscode.CodeLens(top, {
          title: `$(graph) ${vscode.l10n.t('Preview Dashboard')}`,
          command: 'observability.previewDashboard',
          arguments: [{ uri: doc.uri.toString() }],
        }),
      );
      // Each tile object is found by its "id" key inside "tiles" (the document is formatted JSON).
      const tilesAt = text.indexOf('"tiles"');
      if (tilesAt < 0) return out;
      const re = /"id"\s*:\s*"([^"\\]{1,200})"/g;
      re.lastIndex = tilesAt;
      let parsed: Record<string, unknown> | undefined;
      try {
        const v: unknown = JSON.parse(text);
        parsed = isObject(v) ? v : undefined;
      } catch {
        parsed = undefined;
      }
      const tileIds = new Set(
        (Array.isArray(parsed?.tiles) ? parsed.tiles : [])
          .filter(isObject)
          .map((t) => str(t.id))
          .filter((x) => x),
      );
      // A self-hosted deployment runs no SQL from its API: no "Show SQL" there (its previews use the series API).
      const showSql = connections.get(ref.connectionId)?.kind !== 'selfHosted';
      for (let m = re.exec(text); m; m = re.exec(text)) {
        const id = m[1]!;
        if (!tileIds.has(id)) continue;
        tileIds.delete(id);
        const line = doc.positionAt(m.index).line;
        const range = new vscode.Range(line, 0, line, 0);
        out.push(
          new vscode.CodeLens(range, {
            title: `$(graph-line) ${vscode.l10n.t('Preview Tile')}`,
            command: 'observability.previewTile',
            arguments: [{ uri: doc.uri.toString(), tileId: id }],
          }),
        );
        if (showSql) {
          out.push(
            new vscode.CodeLens(range, {
              title: vscode.l10n.t('Show SQL'),
              command: 'observability.showTileSql',
              arguments: [{ uri: doc.uri.toString(), tileId: id }],
            }),
          );
        }
      }
      return out;
    },
  };

  // ---- CodeLens on alert documents and files: "would have fired N× in the last 24 h" --------------------------------
  //
  // The provider answers at once from a cache keyed by the document and what the backtest depends on (the target
  // connection and service, the alert's query, threshold and schedule fields). A key it has not computed shows a
  // "backtest…" lens and starts the backtest in the background: debounced while the fields change, one backtest at a
  // time (the query client's limiter keeps them within the rate budget); the result replaces the lens through
  // onDidChangeCodeLenses. A failure is a short lens that opens the log, never a thrown error.

  interface FiredLens {
    key: string;
    state: 'pending' | 'done' | 'failed';
    /** When the result was computed (results go stale: "the last 24 h" moves on). */
    at: number;
    title: string;
    tooltip?: string | undefined;
  }
  const firedLenses = new Map<string, FiredLens>();
  const firedTimers = new Map<string, ReturnType<typeof setTimeout>>();
  let firedQueue: Promise<void> = Promise.resolve();
  const alertLensChanged = new vscode.EventEmitter<void>();
  context.subscriptions.push(alertLensChanged, {
    dispose: () => {
      for (const t of firedTimers.values()) clearTimeout(t);
      firedTimers.clear();
    },
  });

  /** The fields that change what a backtest answers. */
  function backtestKey(scope: Scope, alert: Record<string, unknown>): string {
    const pick = [
      'source',
      'dashboardId',
      'tileId',
      'savedSearchId',
      'groupBy',
      'interval',
      'threshold',
      'thresholdType',
      'thresholdMax',
      'scheduleOffsetMinutes',
      'scheduleStartAt',
      'numConsecutiveWindows',
    ];
    return JSON.stringify([scope.connectionId, scope.serviceId, ...pick.map((k) => alert[k] ?? null)]);
  }

  async function firedSummary(a: AlertSource): Promise<string> {
    const to = Date.now();
    const { result } = await backtest(a, { from: to - 24 * 3_600_000, to });
    const count = result.fired.length;
    if (count === 0) return vscode.l10n.t('would not have fired in the last 24 h');
    const last = result.lastFiredAt !== undefined ? hhmm(result.lastFiredAt) : '?';
    return vscode.l10n.t('would have fired {0}× in the last 24 h (last at {1})', count, last);
  }

  /** Whether a document is an alert: the service's alert documents and the workspace's `*.alert.json` files. */
  function alertDocumentKind(uri: vscode.Uri): 'resource' | 'file' | undefined {
    const ref = parseUri(uri);
    if (ref) return ref.kind === 'alert' ? 'resource' : undefined;
    if (!uri.path.endsWith('.alert.json')) return undefined;
    // The extension's other documents (plans, the service side of comparisons, read-only copies) share the suffix.
    if (uri.scheme.startsWith('observability') || uri.scheme === 'git' || uri.scheme === 'output') return undefined;
    return 'file';
  }

  /** Runs the backtest of a document's lens (after the debounce, one at a time) and redraws the lenses. */
  function scheduleFired(docKey: string, key: string, delay: number): void {
    const prior = firedTimers.get(docKey);
    if (prior) clearTimeout(prior);
    firedLenses.set(docKey, { key, state: 'pending', at: Date.now(), title: '' });
    const timer = setTimeout(() => {
      firedTimers.delete(docKey);
      firedQueue = firedQueue.then(async () => {
        const entry = firedLenses.get(docKey);
        if (!entry || entry.key !== key || entry.state !== 'pending') return; // superseded or closed
        let next: FiredLens;
        try {
          const a = await alertFrom({ uri: docKey });
          // The key of what was actually computed: when the text moved on meanwhile, the lens asks again.
          next = { key: backtestKey(a, a.alert), state: 'done', at: Date.now(), title: await firedSummary(a) };
        } catch (e) {
          const message = errorMessage(e);
          log.warn(`backtest lens: ${message}`);
          next = {
            key,
            state: 'failed',
            at: Date.now(),
            title: vscode.l10n.t('backtest failed: {0}', shorten(message, 60)),
            tooltip: vscode.l10n.t('{0} (click to show the log)', shorten(message, 500)),
          };
        }
        if (firedLenses.get(docKey)?.key !== key) return;
        firedLenses.set(docKey, next);
        alertLensChanged.fire();
      });
    }, delay);
    firedTimers.set(docKey, timer);
  }

  const alertLenses: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: alertLensChanged.event,
    provideCodeLenses(doc) {
      const uri = doc.uri;
      const kind = alertDocumentKind(uri);
      if (!kind) return [];
      // An untrusted workspace's files send nothing on their own (their Validate lens stays).
      if (kind === 'file' && !vscode.workspace.isTrusted) return [];
      const value = parseAlertText(doc.getText());
      if (!isObject(value)) return [];
      const ref = parseUri(uri);
      const scope = ref ? { connectionId: ref.connectionId, serviceId: ref.serviceId } : scopeOfFile(value);
      // Without a connection, the alert file's own lens offers to add one.
      if (!scope) return [];
      const top = new vscode.Range(0, 0, 0, 0);
      const docKey = uri.toString();
      const key = backtestKey(scope, value);
      let entry = firedLenses.get(docKey);
      const age = entry ? Date.now() - entry.at : 0;
      const stale =
        (entry?.state === 'done' && age > FIRED_TTL_MS) || (entry?.state === 'failed' && age > FAILED_TTL_MS);
      if (!entry || entry.key !== key || stale) {
        // The first backtest of a document starts at once; a changed threshold or interval waits for typing to pause.
        scheduleFired(docKey, key, entry && entry.key !== key ? FOLLOW_DELAY_MS : 0);
        entry = firedLenses.get(docKey)!;
      }
      if (entry.state === 'pending') {
        return [
          new vscode.CodeLens(top, {
            title: `$(sync~spin) ${vscode.l10n.t('backtest…')}`,
            tooltip: vscode.l10n.t('Replaying the alert over the last 24 h'),
            command: 'observability.backtestAlert',
            arguments: [{ uri: docKey }],
          }),
        ];
      }
      if (entry.state === 'failed') {
        return [
          new vscode.CodeLens(top, {
            title: `$(warning) ${entry.title}`,
            ...(entry.tooltip ? { tooltip: entry.tooltip } : {}),
            command: 'observability.showLog',
          }),
        ];
      }
      return [
        new vscode.CodeLens(top, {
          title: `$(history) ${entry.title}`,
          tooltip: vscode.l10n.t('Open the backtest of this alert'),
          command: 'observability.backtestAlert',
          arguments: [{ uri: docKey }],
        }),
      ];
    },
  };

  const forgetLens = (docKey: string) => {
    const timer = firedTimers.get(docKey);
    if (timer) clearTimeout(timer);
    firedTimers.delete(docKey);
    firedLenses.delete(docKey);
  };

  context.subscriptions.push(
    vscode.languages.registerCodeLensProvider(
      // The service's alert documents and the workspace's alert files (local, remote or untitled); the provider picks
      // them by name and leaves out the extension's other documents that share the suffix. A catch-all selector ranks
      // below the alert files' own (Create/Update, Compare, Validate), so their lenses stay first and do not move when
      // this one's text changes.
      { scheme: '*', language: '*' },
      alertLenses,
    ),
    vscode.workspace.onDidCloseTextDocument((d) => forgetLens(d.uri.toString())),
    connections.onDidChange(() => {
      // A connection added, moved or removed may change (or give) a file its target.
      for (const key of [...firedLenses.keys()]) forgetLens(key);
      alertLensChanged.fire();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => alertLensChanged.fire()),
  );

  context.subscriptions.push(
    vscode.languages.registerCodeLensProvider({ scheme: 'observability', pattern: '**/*.dashboard.json' }, lenses),
    // Commands from menus get more arguments (the selection): only the first is the target.
    vscode.commands.registerCommand('observability.previewTile', (raw: unknown) => previewTile(raw)),
    vscode.commands.registerCommand('observability.previewDashboard', (raw: unknown) => previewDashboard(raw)),
    vscode.commands.registerCommand('observability.showTileSql', showTileSql),
    vscode.commands.registerCommand('observability.backtestAlert', (raw: unknown) => backtestAlert(raw)),
  );
  registerRunSavedSearch(context, {
    live,
    serviceName: (connectionId, serviceId) => {
      const c = connections.get(connectionId);
      return c?.services.find((s) => s.id === serviceId)?.name ?? c?.label ?? serviceId;
    },
    rows: savedSearchRows,
    show: (shown) => (deps.showRows ? deps.showRows(shown) : Promise.resolve()),
  });
  return {
    restore: restorePanel,
    async tileData(scope, which, range) {
      if ('tile' in which) {
        const d: DashboardSource = { ...scope, dashboard: { tiles: [which.tile] } as DashboardSource['dashboard'] };
        return (await tileData(d, which.tile, range)).data;
      }
      const d = await dashboardFrom({ ...scope, dashboardId: which.dashboardId });
      const tile = tilesOf(d).find((t) => t.id === which.tileId);
      if (!tile) throw new Error(vscode.l10n.t('The tile {0} was not found in the dashboard.', which.tileId));
      return (await tileData(d, tile, range)).data;
    },
    async backtestSummary(scope, alertId, range) {
      const { result } = await backtest(await alertFrom({ ...scope, alertId }), range);
      return {
        evaluations: result.evaluations.length,
        fired: result.fired.length,
        lastFiredAt: result.lastFiredAt,
        lastState: result.lastState,
      };
    },
  };

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
}

/** Parses an alert document or file (comments tolerated, as alert files allow); undefined on a syntax error. */
function parseAlertText(text: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: false, disallowComments: false });
  return errors.length === 0 ? value : undefined;
}

function shorten(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

function num(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : fallback;
}

function hhmm(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

function iso(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, '');
}
