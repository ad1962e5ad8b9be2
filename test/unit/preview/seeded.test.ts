/**
 * The emulator's seeded dashboards: every tile either renders SQL that runs on the emulator's ClickHouse (over its
 * sample data) or says exactly why it is not previewed. Seeded alerts get a backtest query that runs too.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backtestQuery, evaluateBacktest, pointsFromRows } from '../../../src/preview/backtest';
import { renderTile, type SourceLike } from '../../../src/render';
import { buildState } from '../../emulator/seed';
import { query } from './golden';

const KNOWN_REASONS = [
  /^formulas are not previewed yet$/,
  /metric series are not previewed yet \(gauge and sum only\)$/,
  /^metric tiles with more than one series are not previewed yet$/,
  /tiles on metric sources are not previewed yet$/,
  /^gauge series with a per-period delta are not previewed yet$/,
  /^tiles on session sources are not previewed yet$/,
  /^PromQL tiles are not previewed yet$/,
  /^tiles in the legacy "series" format are not previewed yet$/,
  /dashboard variable/,
  /sampling weights/,
];

describe('Previews of the seeded dashboards and alerts', () => {
  const state = buildState('sample', 0);
  const now = Date.now();
  const range = { from: now - 24 * 3600_000, to: now };

  it('every seeded tile renders SQL that runs, or names the part that is not previewed', async () => {
    let ran = 0;
    let withRows = 0;
    const skipped: string[] = [];
    for (const data of state.data.values()) {
      for (const dashboard of data.dashboards.values()) {
        for (const tile of dashboard.tiles as { id?: string; name?: string; config?: Record<string, unknown> }[]) {
          const sourceId = typeof tile.config?.sourceId === 'string' ? tile.config.sourceId : undefined;
          const source = sourceId ? (data.sources.get(sourceId) as SourceLike | undefined) : undefined;
          const res = renderTile(tile, { range, source, dashboard: dashboard as never });
          if (!res.ok) {
            assert.ok(
              KNOWN_REASONS.some((r) => r.test(res.reason)),
              `${dashboard.name} / ${tile.name}: ${res.reason}`,
            );
            skipped.push(`${tile.name}: ${res.reason}`);
            continue;
          }
          if (res.shape === 'markdown') continue;
          const db = typeof source?.from?.databaseName === 'string' ? source.from.databaseName : 'otel';
          const rows = await query(res.sql, db).catch((e: unknown) => {
            throw new Error(
              `${dashboard.name} / ${tile.name}: ${e instanceof Error ? e.message : String(e)}\n${res.sql}`,
            );
          });
          ran++;
          if (rows.length > 0) withRows++;
        }
      }
    }
    assert.ok(ran >= 5, `ran ${ran} tiles`);
    assert.ok(withRows >= 3, `${withRows} tiles returned rows`);
  });

  it('every seeded alert either gets a backtest that runs and evaluates its windows, or says why not', async () => {
    let evaluated = 0;
    const metricEvaluated = new Set<string>();
    const metricRefused = new Set<string>();
    for (const data of state.data.values()) {
      for (const alert of data.alerts.values()) {
        const a = alert as unknown as {
          source: string;
          dashboardId: string | null;
          tileId: string | null;
          savedSearchId: string | null;
          groupBy?: string | null;
          interval: string;
          threshold: number;
          thresholdType: string;
          name?: string | null;
        };
        let target;
        let source: SourceLike | undefined;
        if (a.source === 'tile') {
          const tile = data.dashboards.get(a.dashboardId ?? '')?.tiles.find((t) => t.id === a.tileId) as
            { config?: Record<string, unknown> } | undefined;
          if (!tile) continue;
          target = { kind: 'tile' as const, tile };
          source = data.sources.get(String(tile.config?.sourceId)) as SourceLike | undefined;
        } else {
          const search = data.savedSearches.get(a.savedSearchId ?? '');
          if (!search) continue;
          target = {
            kind: 'savedSearch' as const,
            savedSearch: {
              where: search.where as string,
              whereLanguage: search.whereLanguage as string,
              filters: search.filters as unknown[] | undefined,
            },
            groupBy: a.groupBy,
          };
          source = data.sources.get(search.sourceId) as SourceLike | undefined;
        }
        const q = backtestQuery(a, target, { source, range });
        if (!q.ok) {
          assert.ok(q.reason.length > 0);
          if (source?.kind === 'metric') metricRefused.add(`${a.name}: ${q.reason}`);
          continue;
        }
        const db = typeof source?.from?.databaseName === 'string' ? source.from.databaseName : 'otel';
        const rows = await query(q.sql, db);
        const result = evaluateBacktest(a, pointsFromRows(rows, q.columns), range, { grouped: q.grouped });
        assert.equal(result.evaluations.length, q.evaluations.length);
        evaluated++;
        if (source?.kind === 'metric') metricEvaluated.add(String(a.name));
      }
    }
    assert.ok(evaluated >= 2, `evaluated ${evaluated} alerts`);
    // Alerts on metric tiles run, the one off the interval grid too (one query per window, as the scheduler).
    assert.deepEqual([...metricEvaluated].sort(), ['Node CPU saturation', 'Ready nodes out of range']);
    assert.deepEqual([...metricRefused], []);
  });
});
