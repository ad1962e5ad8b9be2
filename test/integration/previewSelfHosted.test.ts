/**
 * Tile previews and alert backtests on a self-hosted ClickStack / HyperDX connection, in VS Code against the
 * emulator's OSS flavor: the same panels, fed by `POST /api/v2/charts/series` and `POST /api/v2/search` (its API runs
 * no SQL). A seeded tile from the tree, the whole dashboard, a backtest of the seeded alerts agreeing with their
 * states, a raw SQL tile refused with its reason, and the number tile's value checked against the emulator's
 * ClickHouse. Metric tiles: a gauge line tile drawn with the values the SQL route computes on the same data, the
 * metric dashboard with its refused tiles and their reasons, and backtests of the metric alerts.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { RateLimiter } from '../../src/api';
import { SELF_HOSTED_SERVICE_ID, SelfHostedClient } from '../../src/api/oss';
import { tileDataOf } from '../../src/preview/data';
import type { TreeApi as TreeHandle } from '../../src/features';
import type { PreviewOutcome } from '../../src/preview';
import { renderTile, type SourceLike, type TileLike } from '../../src/render';
import { seriesTileData, type SeriesRow } from '../../src/preview/series';
import { planTile } from '../../src/preview/series/plan';
import type { Node } from '../../src/tree/nodes';
import { ClickHouseEngine } from '../emulator/clickhouse/engine';
import { ossData } from '../emulator/oss/seed';
import { startEmulator, type Emulator } from '../emulator/server';
import { activate, configure } from './support';

interface Api {
  readonly tree: TreeHandle;
}

const preview = (cmd: string, arg: unknown) =>
  vscode.commands.executeCommand<PreviewOutcome>(cmd, arg) as Thenable<PreviewOutcome>;

describe('Previews and backtests on a self-hosted deployment (chart series API)', function () {
  this.timeout(240_000);
  let emulator: Emulator;
  let api: Api;
  let connectionId: string;
  const data = () => ossData(emulator.state);
  type SeededTile = TileLike & { id: string; name: string; config: Record<string, unknown> };
  type SeededDashboard = { id: string; name: string; tiles: SeededTile[] };
  const dashboards = () => [...data().dashboards.values()] as unknown as SeededDashboard[];
  const service = () => dashboards().find((d) => d.tiles.some((t) => t.config.displayType === 'search'))!;
  const tileOf = (type: string) => service().tiles.find((t) => t.config.displayType === type)!;
  const seriesRequests = (since: number) =>
    emulator.requests.filter((r) => r.path === '/api/v2/charts/series' && r.at >= since);

  /**
   * Runs SQL on the emulator's ClickHouse on the emulator's clock (times as Unix seconds): the SQL route's answer
   * over the data the chart series API reads.
   */
  async function query(sql: string, database: string): Promise<Record<string, unknown>[]> {
    const engine = await ClickHouseEngine.shared();
    engine.ensureDatabase(database);
    let out = '';
    await engine.run(
      sql,
      'JSONEachRow',
      database,
      new AbortController().signal,
      () => undefined,
      (bytes) => {
        out += Buffer.from(bytes).toString('utf8');
        return Promise.resolve(true);
      },
      { date_time_output_format: 'unix_timestamp', output_format_json_quote_64bit_integers: '0' },
      emulator.frozenNow,
    );
    return out
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  before(async () => {
    await configure('requestTimeoutSeconds', 10);
    emulator = await startEmulator({ flavor: 'oss', rateLimit: false });
    api = await activate<Api>();
    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      kind: 'selfHosted',
      baseUrl: emulator.url,
      apiKey: emulator.ossApiKey,
    });
    assert.ok(connectionId, 'the self-hosted connection was added');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, noPrompt: true });
    }
    await configure('requestTimeoutSeconds', undefined);
    await emulator?.close();
  });

  /** A node of the explorer below the connection, found by its kind and label. */
  async function nodeOf(type: string, label: string): Promise<Node> {
    const provider = api.tree.provider;
    const root = (await provider.getChildren()).find(
      (n) => n.type === 'connection' && n.connection.id === connectionId,
    );
    assert.ok(root, 'the connection node');
    const queue: Node[] = [root];
    for (let i = 0; i < queue.length && i < 500; i++) {
      const node = queue[i]!;
      const item = provider.getTreeItem(node);
      const text = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      if (node.type === type && text === label) return node;
      if (item.collapsibleState !== vscode.TreeItemCollapsibleState.None) {
        queue.push(...(await provider.getChildren(node)));
      }
    }
    assert.fail(`no ${type} "${label}" in the tree`);
  }

  it('previews a line tile from the tree through the chart series API, drawn as a chart', async () => {
    const tile = tileOf('line');
    const since = Date.now();
    const out = await preview('observability.previewTile', await nodeOf('tile', tile.name));
    assert.equal(out.ok, true, out.error);
    assert.ok(out.rendered, 'the panel reported the drawing');
    assert.equal(out.rendered.kind, 'timeseries');
    assert.equal(out.rendered.charts, 1);
    assert.ok(out.rendered.series >= 2, `series drawn: ${out.rendered.series}`);
    assert.ok(out.rendered.points > 0);
    assert.equal(out.sql, undefined, 'no SQL: the deployment runs none from its API');
    assert.match(out.request ?? '', /^POST \/api\/v2\/charts\/series\n/);
    const sent = seriesRequests(since);
    assert.equal(sent.length, 1);
    const body = sent[0]!.body as { series: Record<string, unknown>[] };
    assert.deepEqual(body.series[0], {
      sourceId: tile.config.sourceId,
      aggFn: 'quantile',
      level: 0.95,
      field: 'Duration / 1e6',
      where: 'ServiceName:checkout',
      whereLanguage: 'lucene',
      groupBy: ['SpanName'],
    });
  });

  it('shows the number tile with the count the emulator ClickHouse holds for the same range', async () => {
    const tile = tileOf('number');
    const source = data().sources.get(String(tile.config.sourceId)) as SourceLike;
    // The sample data's clock stands still during the comparison (it moves second by second otherwise), so the
    // panel's request and the query read the same rows whatever second each runs in.
    emulator.setClock('start');
    try {
      const since = Date.now();
      const out = await preview('observability.previewTile', {
        connectionId,
        serviceId: SELF_HOSTED_SERVICE_ID,
        dashboardId: service().id,
        tileId: tile.id,
      });
      assert.equal(out.ok, true, out.error);
      const sent = seriesRequests(since)[0];
      assert.ok(sent, 'the chart series request');
      const { startTime, endTime } = sent.body as { startTime: number; endTime: number };
      const rendered = renderTile(tile, { range: { from: startTime, to: endTime }, source });
      assert.ok(rendered.ok);
      const rows = await query(rendered.sql, String(source.from?.databaseName ?? 'otel'));
      const count = Number(Object.values(rows[0] ?? {})[0]);
      assert.ok(count > 0, 'the seeded data has errors in the range');
      const shown = /([\d,]+)$/.exec(out.rendered?.text ?? '')?.[1];
      assert.equal(out.rendered?.kind, 'number');
      assert.equal(Number((shown ?? '').replace(/,/g, '')), count, out.rendered?.text);
    } finally {
      emulator.setClock(false);
    }
  });

  it('previews the whole dashboard: every tile drawn through the series or search API, none failed', async () => {
    const dash = service();
    const out = await preview('observability.previewDashboard', await nodeOf('dashboard', dash.name));
    assert.equal(out.ok, true, out.error);
    const s = out.rendered!;
    assert.equal(s.kind, 'dashboard');
    assert.equal(s.tiles.length, dash.tiles.length);
    const kinds = Object.fromEntries(s.tiles.map((t) => [t.id, t.kind]));
    assert.equal(kinds[tileOf('line').id], 'timeseries');
    assert.equal(kinds[tileOf('stacked_bar').id], 'timeseries');
    assert.equal(kinds[tileOf('number').id], 'number');
    assert.equal(kinds[tileOf('table').id], 'table');
    assert.equal(kinds[tileOf('search').id], 'search');
    assert.equal(kinds[tileOf('markdown').id], 'markdown');
    assert.ok(!s.tiles.some((t) => t.kind === 'error'), JSON.stringify(s.tiles));
    assert.equal(s.charts, 2);
  });

  it('refuses a raw SQL tile with its reason in the panel, and Show SQL says there is no SQL', async () => {
    const dash = dashboards().find((d) => d.tiles.some((t) => t.config.configType === 'sql'));
    assert.ok(dash, 'a seeded dashboard with a raw SQL tile');
    const raw = dash.tiles.find((t) => t.config.configType === 'sql')!;
    const since = Date.now();
    const out = await preview('observability.previewTile', await nodeOf('tile', raw.name));
    assert.equal(out.rendered?.kind, 'unsupported');
    assert.match(
      out.rendered?.text ?? '',
      /Cannot preview: raw SQL tiles are not previewed on a self-hosted deployment: its API runs no SQL/,
    );
    assert.equal(seriesRequests(since).length, 0, 'nothing sent for it');
    const shown = await vscode.commands.executeCommand<string | undefined>(
      'observability.showTileSql',
      await nodeOf('tile', tileOf('number').name),
    );
    assert.equal(shown, undefined);
  });

  it('says in the panel why the heatmap tile is not previewed through the chart series API, and sends nothing', async () => {
    const dash = dashboards().find((d) => d.tiles.some((t) => t.config.displayType === 'heatmap'));
    assert.ok(dash, 'a seeded dashboard with a heatmap tile');
    const heatmap = dash.tiles.find((t) => t.config.displayType === 'heatmap')!;
    const since = Date.now();
    const out = await preview('observability.previewTile', {
      connectionId,
      serviceId: SELF_HOSTED_SERVICE_ID,
      dashboardId: dash.id,
      tileId: heatmap.id,
    });
    assert.equal(out.rendered?.kind, 'unsupported');
    assert.match(
      out.rendered?.text ?? '',
      /Cannot preview: heatmap tiles are not previewed through the chart series API: it has no 15-second buckets/,
    );
    assert.equal(seriesRequests(since).length, 0, 'nothing sent for it');
  });

  it('backtests the seeded alerts through the chart series API, agreeing with their states on the last window', async () => {
    const alerts = [...data().alerts.values()] as unknown as {
      id: string;
      name: string | null;
      state: string;
      interval: string;
      source: string;
      scheduleOffsetMinutes?: number | null;
      scheduleStartAt?: string | null;
      savedSearchId?: string | null;
    }[];
    const checked: string[] = [];
    const disagree: string[] = [];
    const refused: string[] = [];
    for (const a of alerts.filter((x) => x.state === 'ALERT' || x.state === 'OK')) {
      const since = Date.now();
      const out = await preview('observability.backtestAlert', {
        connectionId,
        serviceId: SELF_HOSTED_SERVICE_ID,
        alertId: a.id,
      });
      // A saved search whose pinned filters are in another language than its filter: the scheduler adds them to the
      // query, and one request of the chart series API cannot hold both, so the backtest says so.
      const search = a.savedSearchId ? data().savedSearches.get(a.savedSearchId) : undefined;
      const pinned = (search?.filters ?? []) as { type?: string }[];
      if (search && pinned.some((f) => f.type !== (search.whereLanguage === 'sql' ? 'sql' : 'lucene'))) {
        assert.equal(out.ok, false, `${a.name}: refused`);
        assert.match(out.error ?? '', /pinned filter 1 \(SQL\) cannot be combined with its Lucene filter/);
        refused.push(String(search.name));
        continue;
      }
      if (!out.ok) {
        disagree.push(`${a.name}: ${out.error ?? 'failed'}`);
        continue;
      }
      assert.equal(out.rendered?.kind, 'timeseries');
      assert.notEqual(out.rendered?.threshold, 'none');
      assert.equal(out.rendered?.firedWindows, out.fired);
      const sent = seriesRequests(since);
      assert.equal(sent.length, 1, 'one chart series request per backtest');
      const granularity = (sent[0]!.body as { granularity: string }).granularity;
      const minutes = (g: string) => Number(g.slice(0, -1)) * ({ m: 1, h: 60, d: 1440 }[g.slice(-1)] ?? NaN);
      if (a.scheduleStartAt || (a.scheduleOffsetMinutes ?? 0) % minutes(a.interval) !== 0) {
        // Windows off the bucket grid: finer buckets that divide the interval, added up into its partial buckets.
        assert.equal(minutes(a.interval) % minutes(granularity), 0, `${granularity} divides ${a.interval}`);
      } else {
        assert.equal(granularity, a.interval, 'buckets of the alert interval');
      }
      checked.push(`${a.name}: ${a.state}`);
      const last = out.lastState === 'ALERT' ? 'ALERT' : 'OK';
      if (last !== a.state) disagree.push(`${a.name}: seeded ${a.state}, backtest ${out.lastState}`);
    }
    assert.deepEqual(disagree, [], `checked ${checked.join('; ')}`);
    assert.ok(checked.length >= 2, checked.join('; '));
    assert.deepEqual(refused, ['Slow server spans (> 2 s)']);
  });

  const metricTile = (name: string) => {
    for (const d of dashboards()) {
      const t = d.tiles.find((x) => x.name === name);
      if (t) return { dashboard: d, tile: t };
    }
    assert.fail(`no seeded tile "${name}"`);
  };

  it('previews a gauge metric tile from the tree with the values the SQL route computes on the same data', async () => {
    const { tile } = metricTile('CPU utilization by node');
    const source = data().sources.get(String(tile.config.sourceId)) as SourceLike;
    const since = Date.now();
    const out = await preview('observability.previewTile', await nodeOf('tile', tile.name));
    assert.equal(out.ok, true, out.error);
    assert.match(out.request ?? '', /^POST \/api\/v2\/charts\/series\n/);
    const sent = seriesRequests(since);
    assert.equal(sent.length, 1);
    const body = sent[0]!.body as {
      series: Record<string, unknown>[];
      startTime: number;
      endTime: number;
      granularity: string;
    };
    assert.deepEqual(body.series, [
      {
        sourceId: tile.config.sourceId,
        aggFn: 'avg',
        where: '',
        groupBy: ["ResourceAttributes['k8s.node.name']"],
        metricName: 'k8s.node.cpu.utilization',
        metricDataType: 'gauge',
      },
    ]);
    const range = { from: body.startTime, to: body.endTime };
    const plan = planTile(tile, { range, source });
    assert.ok(plan.ok && plan.route === 'series');
    assert.equal(plan.body.granularity, body.granularity);
    // The same request again and the SQL route's query of the tile over the same range, on a clock that stands still
    // meanwhile (the sample data moves second by second otherwise): the values bucket by bucket, and what the panel
    // drew.
    const client = new SelfHostedClient({
      connection: { baseUrl: emulator.url },
      getSecret: () => emulator.ossApiKey,
      limiter: new RateLimiter({ requests: 1000, windowMs: 1000 }),
    });
    emulator.setClock('start');
    try {
      let compared = 0;
      const rendered = renderTile(tile, { range, source, granularity: `${plan.stepMs / 60_000} minute` });
      assert.ok(rendered.ok, !rendered.ok ? rendered.reason : '');
      const answer = await client.chartSeries(body as never);
      const rows = await query(rendered.sql, String(source.from?.databaseName ?? 'otel'));
      const names = rows[0] ? Object.keys(rows[0]) : [];
      const bySql = tileDataOf(
        rendered,
        { columns: names.map((name) => ({ name, type: 'String' })), rows: rows.map((r) => Object.values(r)) },
        { displayType: 'line', range },
      );
      const bySeries = seriesTileData(plan, answer.data as SeriesRow[], { displayType: 'line', range });
      assert.equal(bySql.kind, 'timeseries');
      assert.equal(bySeries.kind, 'timeseries');
      if (bySql.kind === 'timeseries' && bySeries.kind === 'timeseries') {
        assert.deepEqual(bySeries.times, bySql.times, 'the same buckets');
        assert.deepEqual(
          bySeries.series.map((x) => x.name).sort(),
          bySql.series.map((x) => x.name).sort(),
          'the same nodes',
        );
        for (const want of bySql.series) {
          const got = bySeries.series.find((x) => x.name === want.name)!;
          want.values.forEach((v, i) => {
            const g = got.values[i] ?? null;
            assert.ok(
              v === null ? g === null : g !== null && Math.abs(g - v) <= 1e-9,
              `${want.name} at ${new Date(bySql.times[i]!).toISOString()}: ${g} vs ${v}`,
            );
            if (v !== null) compared++;
          });
        }
        // What the panel drew: a chart of every node, over the same buckets.
        assert.equal(out.rendered?.kind, 'timeseries');
        assert.equal(out.rendered?.charts, 1);
        assert.equal(out.rendered?.series, bySql.series.length);
        assert.equal(out.rendered?.points, bySql.times.length * bySql.series.length);
        for (const s of bySql.series) assert.ok(out.rendered?.text.includes(s.name), `${s.name} in the legend`);
      }
      assert.ok(compared >= 6 * 30, `${compared} values compared`);
    } finally {
      emulator.setClock(false);
      await client.close();
    }
  });

  it('previews the metric dashboard: gauge charts drawn, the tiles the API cannot answer refused with their reasons', async () => {
    const { dashboard } = metricTile('CPU utilization by node');
    const since = Date.now();
    const out = await preview('observability.previewDashboard', await nodeOf('dashboard', dashboard.name));
    assert.equal(out.ok, true, out.error);
    const s = out.rendered!;
    assert.equal(s.kind, 'dashboard');
    const kinds = Object.fromEntries(s.tiles.map((t) => [t.id, t.kind]));
    const id = (name: string) => metricTile(name).tile.id;
    assert.equal(kinds[id('CPU utilization by node')], 'timeseries');
    assert.equal(kinds[id('Memory working set')], 'timeseries');
    assert.equal(kinds[id('Ready nodes')], 'unsupported');
    assert.equal(kinds[id('Pods by namespace')], 'unsupported');
    assert.equal(kinds[id('Restarts (raw SQL)')], 'unsupported');
    assert.ok(!s.tiles.some((t) => t.kind === 'error'), JSON.stringify(s.tiles));
    assert.equal(s.charts, 2);
    assert.match(s.text, /metric number, table, pie and bar tiles are not previewed through the chart series API/);
    assert.match(s.text, /holds a "\."/);
    const sent = seriesRequests(since).map(
      (r) => (r.body as { series: { metricName?: string }[] }).series[0]?.metricName,
    );
    assert.deepEqual(sent.sort(), ['k8s.node.cpu.utilization', 'k8s.node.memory.working_set']);
  });

  it('backtests the gauge alert on the ready-nodes tile through the chart series API, and says why the off-grid CPU alert is not', async () => {
    const alerts = [...data().alerts.values()];
    const ready = alerts.find((a) => a.name === 'Ready nodes out of range')!;
    const since = Date.now();
    const out = await preview('observability.backtestAlert', {
      connectionId,
      serviceId: SELF_HOSTED_SERVICE_ID,
      alertId: ready.id,
    });
    assert.equal(out.ok, true, out.error);
    assert.equal(out.rendered?.kind, 'timeseries');
    assert.equal(out.rendered?.threshold, 'band');
    const sent = seriesRequests(since);
    assert.equal(sent.length, 1);
    const body = sent[0]!.body as { granularity: string; series: Record<string, unknown>[] };
    assert.equal(body.granularity, '30m');
    assert.equal(body.series[0]?.metricName, 'k8s.node.condition_ready');
    assert.equal(body.series[0]?.metricDataType, 'gauge');
    // The ready condition reads 0 or 1, never within 3–12: every window of the not_between alert fires.
    assert.ok((out.fired ?? 0) >= 40, `fired ${out.fired}`);
    assert.equal(out.lastState, 'ALERT');
    const cpu = alerts.find((a) => a.name === 'Node CPU saturation')!;
    const since2 = Date.now();
    const refused = await preview('observability.backtestAlert', {
      connectionId,
      serviceId: SELF_HOSTED_SERVICE_ID,
      alertId: cpu.id,
    });
    assert.match(
      `${refused.error ?? ''} ${refused.rendered?.text ?? ''}`,
      /off the interval grid .* metric values per bucket that do not add up/,
    );
    assert.equal(seriesRequests(since2).length, 0, 'nothing sent for it');
  });

  it('backtests a workspace alert file that names the deployment by its base URL', async () => {
    const alert = [...data().alerts.values()].find((a) => a.state === 'ALERT') as unknown as Record<string, unknown>;
    assert.ok(alert, 'a firing seeded alert');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obs-selfhosted-'));
    const file = path.join(dir, 'firing.alert.json');
    fs.writeFileSync(file, `${JSON.stringify({ baseUrl: emulator.url, ...alert }, null, 2)}\n`);
    try {
      const since = Date.now();
      const out = await preview('observability.backtestAlert', { uri: vscode.Uri.file(file).toString() });
      assert.equal(out.ok, true, out.error);
      assert.equal(out.lastState, 'ALERT');
      assert.equal(seriesRequests(since).length, 1);
      // A file naming another address reaches no connection: nothing is sent with the stored key.
      const other = path.join(dir, 'elsewhere.alert.json');
      fs.writeFileSync(other, `${JSON.stringify({ baseUrl: 'https://elsewhere.example', ...alert }, null, 2)}\n`);
      const elsewhere = await preview('observability.backtestAlert', { uri: vscode.Uri.file(other).toString() });
      assert.equal(elsewhere.ok, false);
      assert.match(elsewhere.error ?? '', /No saved self-hosted connection has the address this alert file names/);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs a saved search through the search API and shows its events in the results panel of SQL', async () => {
    const search = [...data().savedSearches.values()].find((x) => x.name === 'Checkout errors');
    assert.ok(search, 'the seeded "Checkout errors" saved search');
    const since = Date.now();
    const out = await vscode.commands.executeCommand<{
      ok: boolean;
      rows?: number;
      statement?: string;
      error?: string;
    }>('observability.runSavedSearch', {
      connectionId,
      serviceId: SELF_HOSTED_SERVICE_ID,
      savedSearchId: search.id,
      range: '7d',
    });
    assert.equal(out.ok, true, out.error);
    assert.ok((out.rows ?? 0) > 0, 'rows came back');
    assert.match(out.statement ?? '', /^POST \/api\/v2\/search/);
    const searches = emulator.requests.filter((r) => r.path === '/api/v2/search' && r.at >= since);
    assert.equal(searches.length, 1, 'one search request');
    const shown = (
      api as unknown as { query: { panel: { current: { shown?: { sql: string; result: { rows: unknown[][] } } } } } }
    ).query.panel.current.shown;
    assert.ok(shown, 'the results panel shows it');
    assert.equal(shown.sql, out.statement);
    assert.equal(shown.result.rows.length, out.rows);
  });
});
