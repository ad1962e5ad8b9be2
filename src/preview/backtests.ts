import * as vscode from 'vscode';
import { errorMessage } from '../errors';
import type { LiveData } from '../resources/live';
import { isObject, str, type AlertSource, type PreviewOutcome } from './context';
import type { PreviewPanels } from './panels';
import type { RestoreTarget, TileData } from './protocol';
import type { TileLike } from '../render';
import { backtestQuery, evaluateBacktest, pointsFromRows, type BacktestAlert, type BacktestResult } from './backtest';
import { backtestDataOf } from './data';
import { backtestBySeries, SeriesBacktestRefused } from './series';
import type { ReadOptions, ServiceReads } from './serviceReads';
import { SqlHeld } from '../sqlHold';
import { routeLabel, withClickHouseHint } from './routeNotes';
import type { PreviewTargets } from './targets';

/** Backtest Alert: an alert replayed over a range (its statement, or the series route), drawn in the backtest panel. */
export interface Backtests {
  /** `background`: not asked for by the user (the lens, the agent): refused with `SqlHeld` while the service is held. */
  backtest(
    a: AlertSource,
    range: { from: number; to: number },
    opts?: ReadOptions,
  ): Promise<{ result: BacktestResult; sql: string; data: TileData }>;
  backtestAlert(raw: unknown, quiet?: boolean): Promise<PreviewOutcome>;
}

export function createBacktests(
  live: LiveData,
  panels: PreviewPanels,
  targets: PreviewTargets,
  reads: ServiceReads,
): Backtests {
  const { backtestPanel, now, showData, restoreArgs, follow, failed } = panels;
  const { alertFrom } = targets;
  const { run, seriesRouteOf, selfHostedRouteOf, sourcesOf, columnsOf } = reads;

  async function backtest(
    a: AlertSource,
    range: { from: number; to: number },
    opts: ReadOptions = {},
  ): Promise<{ result: BacktestResult; sql: string; data: TileData }> {
    const held = opts.background ? reads.hold(a) : undefined;
    if (held) throw new SqlHeld(held); // before any request: nothing is read for a backtest that cannot run
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
            ? new Error(vscode.l10n.t('This alert cannot be backtested: {0}.', withClickHouseHint(e.message)))
            : e;
        },
      );
      return {
        result,
        sql: request,
        data: routed(backtestDataOf(alert as unknown as BacktestAlert, result), 'series'),
      };
    }
    const columns = source ? await columnsOf(a, source, opts) : undefined;
    const q = backtestQuery(alert as unknown as BacktestAlert, target, { source, columns, range });
    if (!q.ok) throw new Error(vscode.l10n.t('This alert cannot be backtested: {0}.', q.reason));
    const rows = await run(a, q.sql, 200_000, undefined, opts);
    const points = pointsFromRows(
      rows.rows,
      q.columns,
      rows.columns.map((c) => c.name),
    );
    const result = evaluateBacktest(alert as unknown as BacktestAlert, points, range, { grouped: q.grouped });
    return {
      result,
      sql: q.sql,
      data: routed(backtestDataOf(alert as unknown as BacktestAlert, result), selfHostedRouteOf(a)),
    };
  }

  /** The backtest's drawing with the route it was read by in its subtitle (self-hosted connections). */
  function routed(data: TileData, route: ReturnType<typeof selfHostedRouteOf>): TileData {
    const label = routeLabel(route);
    if (!label) return data;
    const sub = [data.subtitle, label].filter((x) => x).join(' · ');
    return { ...data, subtitle: sub };
  }

  async function backtestAlert(raw: unknown, quiet = false): Promise<PreviewOutcome> {
    const started = Date.now();
    const before = reads.queries;
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
      panels.backtestShown = again;
      follow(first.uri, 'backtest');
      const out = await again();
      return { ...out, elapsedMs: Date.now() - started, queries: reads.queries - before };
    } catch (e) {
      return failed(e, quiet);
    }
  }

  return { backtest, backtestAlert };
}
