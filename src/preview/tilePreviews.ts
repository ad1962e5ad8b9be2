import * as vscode from 'vscode';
import { errorMessage } from '../errors';
import { str, TILE_CONCURRENCY, type PreviewOutcome, type Scope } from './context';
import type { PreviewPanels } from './panels';
import type { DashboardTile, PreviewData, RestoreTarget } from './protocol';
import type { ServiceReads } from './serviceReads';
import { tileIdOf, tilesOf, type PreviewTargets } from './targets';
import { tileSearchOf } from './tileSearch';
import type { TileDataReader } from './tileData';

/** Preview Tile and Preview Dashboard: a tile or every tile on the dashboard's grid, drawn in the preview panel. */
export interface TilePreviews {
  previewTile(raw: unknown, quiet?: boolean): Promise<PreviewOutcome>;
  previewDashboard(raw: unknown, quiet?: boolean): Promise<PreviewOutcome>;
}

export function createTilePreviews(
  panels: PreviewPanels,
  targets: PreviewTargets,
  reads: ServiceReads,
  tiles: TileDataReader,
): TilePreviews {
  const { previewPanel, now, showData, restoreArgs, follow, failed } = panels;
  const { dashboardFrom } = targets;
  const { seriesRouteOf } = reads;
  const { tileData, dashboardData } = tiles;

  async function previewTile(raw: unknown, quiet = false): Promise<PreviewOutcome> {
    const started = Date.now();
    const before = reads.queries;
    try {
      const d = await dashboardFrom(raw);
      const tileId = tileIdOf(raw);
      const tiles = tilesOf(d);
      const tile =
        tiles.find((t) => t.id === tileId) ?? (tileId === undefined && tiles.length === 1 ? tiles[0] : undefined);
      if (!tile) throw new Error(vscode.l10n.t('The tile {0} was not found in the dashboard.', tileId ?? ''));
      const again = async (reveal = true): Promise<PreviewOutcome> => {
        const t0 = Date.now();
        const q0 = reads.queries;
        const fresh = d.uri ? await dashboardFrom({ uri: d.uri.toString() }) : d;
        const current = tilesOf(fresh).find((t) => t.id === tile.id) ?? tile;
        const range = now(previewPanel.range);
        const { data, sql, request } = await tileData(fresh, current, range);
        const search = searchArgs(d, current, range);
        const restore: RestoreTarget = {
          kind: 'tile',
          args: restoreArgs(d, d.uri, { dashboardId: str(d.dashboard.id), tileId: str(current.id) }),
        };
        const title = str(current.name) ?? String(current.id ?? '');
        const r = await showData(previewPanel, data, title, restore, reveal, search ? { '': search } : {});
        return {
          ok: data.kind !== 'error',
          rendered: r?.summary,
          sql,
          request,
          elapsedMs: Date.now() - t0,
          range: previewPanel.range,
          queries: reads.queries - q0,
        };
      };
      panels.previewShown = again;
      follow(d.uri, 'preview');
      const out = await again();
      return { ...out, elapsedMs: Date.now() - started, queries: reads.queries - before };
    } catch (e) {
      return failed(e, quiet);
    }
  }

  async function previewDashboard(raw: unknown, quiet = false): Promise<PreviewOutcome> {
    const started = Date.now();
    const before = reads.queries;
    try {
      const first = await dashboardFrom(raw);
      const again = async (reveal = true): Promise<PreviewOutcome> => {
        const t0 = Date.now();
        const q0 = reads.queries;
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
        const searches: Record<string, Record<string, unknown>> = {};
        tiles.forEach((t, i) => {
          const search = searchArgs(d, t, range);
          if (search) searches[out[i]!.id] = search;
        });
        const dashboard: PreviewData = { kind: 'dashboard', title, tiles: out };
        const r = await showData(previewPanel, dashboard, title, restore, reveal, searches);
        return {
          ok: true,
          rendered: r?.summary,
          elapsedMs: Date.now() - t0,
          queries: reads.queries - q0,
          range: previewPanel.range,
          statements: sqls.filter((x): x is string => x !== undefined),
        };
      };
      panels.previewShown = again;
      follow(first.uri, 'preview');
      const out = await again();
      return { ...out, elapsedMs: Date.now() - started, queries: reads.queries - before };
    } catch (e) {
      return failed(e, quiet);
    }
  }

  return { previewTile, previewDashboard };
}

/** The `observability.searchEvents` arguments of a tile's events over the range it was drawn for. */
function searchArgs(
  d: Scope,
  tile: Record<string, unknown>,
  range: { from: number; to: number },
): Record<string, unknown> | undefined {
  const search = tileSearchOf(tile);
  return search && { connectionId: d.connectionId, serviceId: d.serviceId, ...search, range };
}

function num(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : fallback;
}
