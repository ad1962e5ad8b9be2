import * as vscode from 'vscode';
import { isObject, str } from './context';
import type { PreviewPanels } from './panels';
import { renderTile, type TileLike } from '../render';
import type { ServiceReads } from './serviceReads';
import { tileIdOf, tilesOf, type PreviewTargets } from './targets';

/** Show SQL: a tile's statement, rendered for the preview panel's range, in a SQL document bound to the service. */
export function createShowTileSql(
  panels: PreviewPanels,
  targets: PreviewTargets,
  reads: ServiceReads,
): (raw: unknown) => Promise<string | undefined> {
  const { previewPanel, now } = panels;
  const { dashboardFrom } = targets;
  const { seriesRouteOf, sourcesOf, columnsOf } = reads;

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
          'A self-hosted deployment runs no SQL from its API: its previews go through the chart series and search API, so there is no SQL to show. With ClickHouse access for previews ("Observability: Set ClickHouse Access for Previews…") they run SQL, and Show SQL shows it.',
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

  return showTileSql;
}

function iso(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, '');
}
