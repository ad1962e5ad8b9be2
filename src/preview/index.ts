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
import type { QueryResult, RunQueryOptions } from '../api/query';
import type { ConnectionManager } from '../connections/manager';
import type { Logger } from '../log';
import type { LiveData } from '../resources/live';
import { parseUri } from '../shared/uris';
import { errorMessage } from '../errors';
import { PreviewPanel, type RenderedState } from './panel';
import { resolveRange, type DashboardTile, type PreviewData, type TileData, type TimeRange } from './protocol';
import {
  columnsFromDescribe,
  describeSourceSql,
  renderTile,
  type DashboardLike,
  type SourceLike,
  type TileLike,
} from './render';
import { backtestQuery, evaluateBacktest, pointsFromRows, type BacktestAlert, type BacktestResult } from './backtest';
import { backtestDataOf, tileDataOf } from './data';
import { backtestBySeries, previewBySeries, SeriesBacktestRefused, type SeriesRoute } from './series';

export interface PreviewDeps {
  connections: ConnectionManager;
  live: LiveData;
  log: Logger;
  /** Runs SQL on a service's query endpoint (the query feature's client for the connection). */
  runSql(connectionId: string, opts: RunQueryOptions): Promise<QueryResult>;
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
/** Tiles of a dashboard queried at once (the rate limiter spaces them further if the budget is short). */
const TILE_CONCURRENCY = 4;
const FOLLOW_DELAY_MS = 800;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export function registerPreview(context: vscode.ExtensionContext, deps: PreviewDeps): void {
  const { connections, live, log } = deps;
  const previewPanel = new PreviewPanel(context.extensionUri, 'preview');
  const backtestPanel = new PreviewPanel(context.extensionUri, 'backtest');
  const sources = new Map<string, { at: number; value: Promise<readonly SourceLike[]> }>();
  const describes = new Map<string, { at: number; value: Promise<Record<string, string> | undefined> }>();
  let previewShown: (() => Promise<PreviewOutcome>) | undefined;
  let previewDoc: string | undefined;
  let backtestShown: (() => Promise<PreviewOutcome>) | undefined;
  let backtestDoc: string | undefined;
  let followTimer: ReturnType<typeof setTimeout> | undefined;
  let queries = 0;
  const lensChanged = new vscode.EventEmitter<void>();

  context.subscriptions.push(previewPanel, backtestPanel, lensChanged);
  context.subscriptions.push(
    connections.onDidChange(() => {
      sources.clear();
      describes.clear();
    }),
    previewPanel.onDidRequest(() => void previewShown?.()),
    backtestPanel.onDidRequest(() => void backtestShown?.()),
  );

  async function run(scope: Scope, sql: string, maxRows = 10_000): Promise<QueryResult> {
    queries++;
    return deps.runSql(scope.connectionId, { serviceId: scope.serviceId, sql, maxRows, maxBytes: 16 * 1024 * 1024 });
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

  /** Column types of a source's table (Lucene fields map to columns by them); undefined when DESCRIBE fails. */
  function columnsOf(scope: Scope, source: SourceLike): Promise<Record<string, string> | undefined> {
    const sql = describeSourceSql(source);
    if (!sql) return Promise.resolve(undefined);
    const key = `${scope.connectionId}/${scope.serviceId}/${sql}`;
    const hit = describes.get(key);
    if (hit && Date.now() - hit.at < SOURCE_TTL_MS) return hit.value;
    const value = run(scope, sql).then(
      (r) => {
        const name = r.columns.findIndex((c) => c.name === 'name');
        const type = r.columns.findIndex((c) => c.name === 'type');
        return columnsFromDescribe(r.rows.map((row) => ({ name: row[name], type: row[type] })));
      },
      (e: unknown) => {
        log.warn(`preview: DESCRIBE of ${source.from?.tableName ?? ''} failed: ${errorMessage(e)}`);
        describes.delete(key);
        return undefined;
      },
    );
    describes.set(key, { at: Date.now(), value });
    return value;
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
    const config = isObject(tile.config) ? tile.config : undefined;
    const sourceId = config ? str(config.sourceId) : undefined;
    let source: SourceLike | undefined;
    let columns: Record<string, string> | undefined;
    const seriesRoute = seriesRouteOf(d);
    if (sourceId && config?.displayType !== 'markdown') {
      source = (await sourcesOf(d)).find((s) => s.id === sourceId);
      if (source && !seriesRoute) columns = await columnsOf(d, source);
    }
    if (seriesRoute) return seriesTileData(seriesRoute, d, tile, range, source);
    const rendered = renderTile(tile as TileLike, { range, source, columns, dashboard: d.dashboard });
    const title = str(tile.name);
    const subtitle = source ? str(source.name) : undefined;
    const titled = { ...(title ? { title } : {}), ...(subtitle ? { subtitle } : {}) };
    if (!rendered.ok) return { data: { kind: 'unsupported', reason: rendered.reason, ...titled } };
    if (rendered.shape === 'markdown') return { data: { kind: 'markdown', text: rendered.markdown ?? '', ...titled } };
    try {
      const result = await run(d, rendered.sql);
      const numberFormat = config && isObject(config.numberFormat) ? config.numberFormat : undefined;
      const data = tileDataOf(rendered, result, {
        displayType: config ? str(config.displayType) : undefined,
        range,
        ...(numberFormat ? { numberFormat } : {}),
      });
      const notes = rendered.notes.length ? rendered.notes.join('; ') : undefined;
      const sub = [subtitle, rendered.granularity?.sql, notes].filter((x) => x).join(' · ');
      return { data: { ...data, ...(title ? { title } : {}), ...(sub ? { subtitle: sub } : {}) }, sql: rendered.sql };
    } catch (e) {
      return { data: { kind: 'error', message: errorMessage(e), ...titled }, sql: rendered.sql };
    }
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

  async function showData(panel: PreviewPanel, data: PreviewData, title: string): Promise<RenderedState | undefined> {
    return panel.show(data, { title });
  }

  function follow(doc: vscode.Uri | undefined, which: 'preview' | 'backtest'): void {
    if (which === 'preview') previewDoc = doc?.toString();
    else backtestDoc = doc?.toString();
  }

  async function previewTile(raw: unknown): Promise<PreviewOutcome> {
    const started = Date.now();
    const before = queries;
    try {
      const d = await dashboardFrom(raw);
      const tileId = tileIdOf(raw);
      const tiles = tilesOf(d);
      const tile =
        tiles.find((t) => t.id === tileId) ?? (tileId === undefined && tiles.length === 1 ? tiles[0] : undefined);
      if (!tile) throw new Error(vscode.l10n.t('The tile {0} was not found in the dashboard.', tileId ?? ''));
      const again = async (): Promise<PreviewOutcome> => {
        const t0 = Date.now();
        const q0 = queries;
        const fresh = d.uri ? await dashboardFrom({ uri: d.uri.toString() }) : d;
        const current = tilesOf(fresh).find((t) => t.id === tile.id) ?? tile;
        const { data, sql, request } = await tileData(fresh, current, now(previewPanel.range));
        const r = await showData(previewPanel, data, str(current.name) ?? String(current.id ?? ''));
        return {
          ok: data.kind !== 'error',
          rendered: r?.summary,
          sql,
          request,
          elapsedMs: Date.now() - t0,
          queries: queries - q0,
        };
      };
      previewShown = again;
      follow(d.uri, 'preview');
      const out = await again();
      return { ...out, elapsedMs: Date.now() - started, queries: queries - before };
    } catch (e) {
      return failed(e);
    }
  }

  async function previewDashboard(raw: unknown): Promise<PreviewOutcome> {
    const started = Date.now();
    const before = queries;
    try {
      const first = await dashboardFrom(raw);
      const again = async (): Promise<PreviewOutcome> => {
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
        // Runs the tiles a few at a time; the query client's limiter keeps them within the rate budget.
        let next = 0;
        const worker = async () => {
          while (next < tiles.length) {
            const i = next++;
            out[i]!.data = (await tileData(d, tiles[i]!, range)).data;
          }
        };
        await Promise.all(Array.from({ length: Math.min(TILE_CONCURRENCY, tiles.length) }, worker));
        const title = str(d.dashboard.name) ?? '';
        const r = await showData(previewPanel, { kind: 'dashboard', title, tiles: out }, title);
        return { ok: true, rendered: r?.summary, elapsedMs: Date.now() - t0, queries: queries - q0 };
      };
      previewShown = again;
      follow(first.uri, 'preview');
      const out = await again();
      return { ...out, elapsedMs: Date.now() - started, queries: queries - before };
    } catch (e) {
      return failed(e);
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
      let value: unknown;
      try {
        value = JSON.parse(doc.getText());
      } catch {
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

  function scopeOfFile(value: Record<string, unknown>): Scope | undefined {
    const baseUrl = str(value.baseUrl);
    if (baseUrl !== undefined) {
      // A self-hosted deployment: only a connection added for exactly this address.
      const address = deploymentAddress(baseUrl);
      const match =
        address === undefined
          ? undefined
          : connections.list().find((c) => c.kind === 'selfHosted' && deploymentAddress(c.baseUrl) === address);
      return match ? { connectionId: match.id, serviceId: SELF_HOSTED_SERVICE_ID } : undefined;
    }
    const organizationId = str(value.organizationId)?.toLowerCase();
    const serviceId = str(value.serviceId);
    if (!organizationId || !serviceId) return undefined;
    const all = connections.list().filter((c) => c.organizationId.toLowerCase() === organizationId);
    const chosen =
      all.find((c) => c.serviceIds.includes(serviceId)) ?? all.find((c) => c.services.some((x) => x.id === serviceId));
    return chosen ? { connectionId: chosen.id, serviceId } : undefined;
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
        savedSearch: { where: str(s.where) ?? '', whereLanguage: str(s.whereLanguage) ?? 'lucene', source: sourceId },
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

  async function backtestAlert(raw: unknown): Promise<PreviewOutcome> {
    const started = Date.now();
    const before = queries;
    try {
      const first = await alertFrom(raw);
      const again = async (): Promise<PreviewOutcome> => {
        const t0 = Date.now();
        const a = first.uri ? await alertFrom({ uri: first.uri.toString() }) : first;
        const title = str(a.alert.name) ?? str(a.alert.id) ?? '';
        try {
          const { result, sql, data } = await backtest(a, now(backtestPanel.range));
          const r = await showData(backtestPanel, { ...data, title }, title);
          return {
            ok: true,
            rendered: r?.summary,
            sql,
            fired: result.fired.length,
            lastFiredAt: result.lastFiredAt,
            lastState: result.lastState,
            elapsedMs: Date.now() - t0,
          };
        } catch (e) {
          const r = await showData(backtestPanel, { kind: 'error', title, message: errorMessage(e) }, title);
          return { ok: false, rendered: r?.summary, error: errorMessage(e) };
        }
      };
      backtestShown = again;
      follow(first.uri, 'backtest');
      const out = await again();
      return { ...out, elapsedMs: Date.now() - started, queries: queries - before };
    } catch (e) {
      return failed(e);
    }
  }

  function failed(e: unknown): PreviewOutcome {
    const message = errorMessage(e);
    log.warn(`preview: ${message}`);
    void vscode.window.showErrorMessage(message);
    return { ok: false, error: message };
  }

  // ---- The panels follow their document (debounced) --------------------------------------------------------------

  context.subscriptions.push(
    vscode.workspace.onDidChangeTextDocument((e) => {
      const key = e.document.uri.toString();
      if (key !== previewDoc && key !== backtestDoc) return;
      if (followTimer) clearTimeout(followTimer);
      followTimer = setTimeout(() => {
        followTimer = undefined;
        if (key === previewDoc && previewPanel.isOpen) void previewShown?.().catch(() => undefined);
        if (key === backtestDoc && backtestPanel.isOpen) void backtestShown?.().catch(() => undefined);
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
          new vscode.CodeLens(range, {
            title: vscode.l10n.t('Show SQL'),
            command: 'observability.showTileSql',
            arguments: [{ uri: doc.uri.toString(), tileId: id }],
          }),
        );
      }
      return out;
    },
  };

  // ---- CodeLens on alert documents and files: "would have fired N× in the last 24 h" --------------------------------

  /** Last backtest summary by document and the alert fields it was computed from (recomputed when they change). */
  const firedCache = new Map<string, { key: string; value: Promise<string> }>();
  const firedTimers = new Map<string, { key: string; timer: ReturnType<typeof setTimeout> }>();
  const alertLensChanged = new vscode.EventEmitter<void>();
  context.subscriptions.push(alertLensChanged, {
    dispose: () => {
      for (const t of firedTimers.values()) clearTimeout(t.timer);
    },
  });

  /** The fields that change what a backtest answers. */
  function backtestKey(alert: Record<string, unknown>): string {
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
    return JSON.stringify(pick.map((k) => alert[k] ?? null));
  }

  async function firedSummary(a: AlertSource): Promise<string> {
    const to = Date.now();
    const { result } = await backtest(a, { from: to - 24 * 3_600_000, to });
    const count = result.fired.length;
    if (count === 0) return vscode.l10n.t('would not have fired in the last 24 h');
    const last = result.lastFiredAt !== undefined ? hhmm(result.lastFiredAt) : '?';
    return vscode.l10n.t('would have fired {0}× in the last 24 h (last at {1})', count, last);
  }

  const alertLenses: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: alertLensChanged.event,
    async provideCodeLenses(doc) {
      const uri = doc.uri;
      const ref = parseUri(uri);
      if (ref ? ref.kind !== 'alert' : !uri.path.endsWith('.alert.json')) return [];
      const top = new vscode.Range(0, 0, 0, 0);
      const lens = (title: string) =>
        new vscode.CodeLens(top, {
          title,
          command: 'observability.backtestAlert',
          arguments: [{ uri: uri.toString() }],
        });
      let a: AlertSource;
      try {
        a = await alertFrom({ uri: uri.toString() });
      } catch {
        return [lens(`$(history) ${vscode.l10n.t('Backtest Alert')}`)];
      }
      const docKey = uri.toString();
      const key = backtestKey(a.alert);
      const cached = firedCache.get(docKey);
      if (!cached) {
        firedCache.set(docKey, { key, value: firedSummary(a).catch((e: unknown) => failedSummary(e)) });
      } else if (cached.key !== key) {
        // Debounced: a threshold or interval being typed is recomputed once the edits pause (within the rate budget).
        const pending = firedTimers.get(docKey);
        if (!pending || pending.key !== key) {
          if (pending) clearTimeout(pending.timer);
          firedTimers.set(docKey, {
            key,
            timer: setTimeout(() => {
              firedTimers.delete(docKey);
              firedCache.set(docKey, { key, value: firedSummary(a).catch((e: unknown) => failedSummary(e)) });
              alertLensChanged.fire();
            }, FOLLOW_DELAY_MS),
          });
        }
        return [lens(`$(history) ${vscode.l10n.t('Backtest: recomputing…')}`)];
      }
      const summary = await firedCache.get(docKey)!.value;
      return [lens(`$(history) ${summary}`)];
    },
  };

  function failedSummary(e: unknown): string {
    log.warn(`backtest: ${errorMessage(e)}`);
    return vscode.l10n.t('Backtest unavailable: {0}', errorMessage(e).slice(0, 120));
  }

  context.subscriptions.push(
    vscode.languages.registerCodeLensProvider(
      // Alert documents of the service. Workspace alert files reach Backtest Alert from the palette and editor; their
      // CodeLens row (Create/Update, Compare, Validate) is the alert-file feature's.
      { scheme: 'observability', pattern: '**/*.alert.json' },
      alertLenses,
    ),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (firedCache.has(e.document.uri.toString())) alertLensChanged.fire();
    }),
  );

  context.subscriptions.push(
    vscode.languages.registerCodeLensProvider({ scheme: 'observability', pattern: '**/*.dashboard.json' }, lenses),
    vscode.commands.registerCommand('observability.previewTile', previewTile),
    vscode.commands.registerCommand('observability.previewDashboard', previewDashboard),
    vscode.commands.registerCommand('observability.showTileSql', showTileSql),
    vscode.commands.registerCommand('observability.backtestAlert', backtestAlert),
  );
}

function num(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : fallback;
}

/** A deployment's address as alert files compare it: origin and path, without trailing slashes. */
function deploymentAddress(baseUrl: string): string | undefined {
  try {
    const url = new URL(baseUrl.trim());
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return undefined;
  }
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
