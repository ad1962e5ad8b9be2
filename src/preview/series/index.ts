/**
 * The series route of previews and backtests (no `vscode`): for a self-hosted ClickStack / HyperDX deployment, whose
 * API runs no SQL, tiles are fed by `POST /api/v2/charts/series` and `POST /api/v2/search` instead of rendered SQL on
 * the query endpoint. Same panels, same drawing code, same backtest evaluation; what the route cannot express is
 * refused with the reason shown in the panel (see `plan.ts`).
 *
 *   previewBySeries(route, tile, { range, source, dashboard }) → { data, request?, notes }
 *   backtestBySeries(route, alert, target, { source, range }) → { result, request }
 */
import type { SearchRequest, SeriesRequest } from '../../api/oss';
import { evaluateBacktest, type BacktestAlert, type BacktestResult } from '../backtest/evaluate';
import type { AlertQueryTarget } from '../backtest/query';
import type { NumberFormat, TileData } from '../protocol';
import type { DashboardLike } from '../../render/filters';
import type { SourceLike, TileLike } from '../../render/tile';
import { planSeriesBacktest, pointsFromSeries } from './backtest';
import { searchTileData, seriesTileData, type SeriesRow } from './data';
import { patternsBySeries } from './patterns';
import { planTile } from './plan';

export { planTile, seriesGranularity, singleBucket, NotOnSeriesRoute, type SeriesPlan } from './plan';
export { seriesTileData, searchTileData, SeriesAnswerError, type SeriesRow } from './data';
export { planSeriesBacktest, pointsFromSeries, type SeriesBacktestPlan } from './backtest';

/** The two requests of the series route (a self-hosted client's `chartSeries` and `search`, unwrapped). */
export interface SeriesRoute {
  chartSeries(body: SeriesRequest): Promise<readonly SeriesRow[]>;
  search(body: SearchRequest): Promise<readonly Record<string, unknown>[]>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The request as the panel's "SQL" line shows it: the route and its JSON body. */
function requestText(path: string, body: unknown): string {
  return `POST ${path}\n${JSON.stringify(body, null, 2)}`;
}

/**
 * A tile's drawing through the series route. A tile the route cannot take is `unsupported` with the reason; a
 * failed request is `error` with the operation, status, server message and request ID (the client's error text).
 */
export async function previewBySeries(
  route: SeriesRoute,
  tile: TileLike,
  opts: { range: { from: number; to: number }; source: SourceLike | undefined; dashboard?: DashboardLike | undefined },
  describeError: (e: unknown) => string = (e) => (e instanceof Error ? e.message : String(e)),
): Promise<{ data: TileData; request?: string; notes: string[] }> {
  const plan = planTile(tile, opts);
  const notes = plan.notes;
  if (!plan.ok) return { data: { kind: 'unsupported', reason: plan.reason }, notes };
  if (plan.route === 'markdown') return { data: { kind: 'markdown', text: plan.markdown }, notes };
  const config = isObject(tile.config) ? tile.config : {};
  if (plan.route === 'patterns') {
    const request = `${requestText('/api/v2/search', plan.search)}\n\n${requestText('/api/v2/charts/series', plan.count)}`;
    try {
      const { data, note } = await patternsBySeries(route, plan);
      return { data, request, notes: note ? [...notes, note] : notes };
    } catch (e) {
      return { data: { kind: 'error', message: describeError(e) }, request, notes };
    }
  }
  if (plan.route === 'search') {
    const request = requestText('/api/v2/search', plan.body);
    try {
      return { data: searchTileData(plan, await route.search(plan.body)), request, notes };
    } catch (e) {
      return { data: { kind: 'error', message: describeError(e) }, request, notes };
    }
  }
  const request = requestText('/api/v2/charts/series', plan.body);
  try {
    const rows = await route.chartSeries(plan.body);
    const numberFormat = isObject(config.numberFormat) ? (config.numberFormat as NumberFormat) : undefined;
    const data = seriesTileData(plan, rows, {
      displayType: typeof config.displayType === 'string' ? config.displayType : undefined,
      range: opts.range,
      numberFormat,
    });
    return { data, request, notes };
  } catch (e) {
    return { data: { kind: 'error', message: describeError(e) }, request, notes };
  }
}

/** Why an alert cannot be backtested through the series route. */
export class SeriesBacktestRefused extends Error {}

/** A backtest through the series route; refuses (SeriesBacktestRefused) with the reason, request errors pass. */
export async function backtestBySeries(
  route: SeriesRoute,
  alert: BacktestAlert & { groupBy?: string | null | undefined },
  target: AlertQueryTarget,
  options: { source: SourceLike | undefined; range: { from: number; to: number } },
): Promise<{ result: BacktestResult; request: string }> {
  const plan = planSeriesBacktest(alert, target, options);
  if (!plan.ok) throw new SeriesBacktestRefused(plan.reason);
  const rows = await route.chartSeries(plan.body);
  const points = pointsFromSeries(plan, rows);
  const result = evaluateBacktest(alert, points, options.range, { grouped: plan.grouped });
  return { result, request: requestText('/api/v2/charts/series', plan.body) };
}
