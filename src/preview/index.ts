/**
 * Tile previews and alert backtests, wired to the explorer and the editors: Preview Tile (tree, CodeLens on each tile
 * of a dashboard document, unsaved edits included), Preview Dashboard (every tile on the dashboard's grid), Show
 * SQL (the rendered statement in a SQL document bound to the service, through `observability.newQuery`) and
 * Backtest Alert (tree, alert documents). The SQL runs on the service's query endpoint through the query feature's
 * client (same host, key and rate budget), given by the wiring as `runSql`. On a self-hosted deployment (no SQL in
 * its API) tiles and backtests go through its chart series and search API instead (`./series`).
 */
import * as vscode from 'vscode';
import type { DashboardSource, PreviewOutcome, PreviewDeps, Scope } from './context';
import type { TileData } from './protocol';
import type { PanelMode } from './protocol';
import { registerRunSavedSearch } from './runSavedSearch';
import { createServiceReads } from './serviceReads';
import { createPreviewTargets, tilesOf } from './targets';
import { createTileData } from './tileData';
import { createPreviewPanels } from './panels';
import { createTilePreviews } from './tilePreviews';
import { createShowTileSql } from './showTileSql';
import { createBacktests } from './backtests';
import { createRestorePanel } from './restore';
import { dashboardLenses } from './dashboardLenses';
import { registerFiredLenses } from './firedLenses';

export type { PreviewDeps, PreviewOutcome } from './context';

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
  /** Search Events on a tile of the preview panel, as its button does ('' or no ID: the single tile shown). */
  searchTile(tileId?: string): Promise<unknown>;
}

/**
 * Wires the previews' parts: what they read of a service, what a command is about, the tiles' data, the two panels,
 * the commands, the CodeLens providers and the restore of panels after a reload.
 */
export function registerPreview(context: vscode.ExtensionContext, deps: PreviewDeps): PreviewApi {
  const { connections, live, log } = deps;
  const reads = createServiceReads(connections, deps.runSql, log, deps.background);
  const targets = createPreviewTargets(connections, live);
  const tiles = createTileData(reads, log);
  const panels = createPreviewPanels(context, log);
  const previews = createTilePreviews(panels, targets, reads, tiles);
  const showTileSql = createShowTileSql(panels, targets, reads);
  const backtests = createBacktests(live, panels, targets, reads);
  const restorePanel = createRestorePanel(panels, previews, backtests);
  const { previewTile, previewDashboard } = previews;
  const { backtestAlert } = backtests;
  const savedSearchRows = tiles.savedSearchRows;
  const lensChanged = new vscode.EventEmitter<void>();

  context.subscriptions.push(lensChanged);
  context.subscriptions.push(
    connections.onDidChange(() => {
      reads.clear();
      // Show SQL follows a self-hosted connection's ClickHouse access.
      lensChanged.fire();
    }),
  );
  const lenses = dashboardLenses(connections, lensChanged);
  registerFiredLenses(context, connections, log, targets, backtests, deps.background?.onDidRelease);

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
    searchTile: (tileId) => panels.previewPanel.search(tileId || undefined),
    async tileData(scope, which, range) {
      if ('tile' in which) {
        const d: DashboardSource = { ...scope, dashboard: { tiles: [which.tile] } as DashboardSource['dashboard'] };
        return (await tiles.tileData(d, which.tile, range)).data;
      }
      const d = await targets.dashboardFrom({ ...scope, dashboardId: which.dashboardId });
      const tile = tilesOf(d).find((t) => t.id === which.tileId);
      if (!tile) throw new Error(vscode.l10n.t('The tile {0} was not found in the dashboard.', which.tileId));
      return (await tiles.tileData(d, tile, range)).data;
    },
    async backtestSummary(scope, alertId, range) {
      // The agent's Alert tool: not a backtest the user started, so it waits while the service is held.
      const { result } = await backtests.backtest(await targets.alertFrom({ ...scope, alertId }), range, {
        background: true,
      });
      return {
        evaluations: result.evaluations.length,
        fired: result.fired.length,
        lastFiredAt: result.lastFiredAt,
        lastState: result.lastState,
      };
    },
  };
}
