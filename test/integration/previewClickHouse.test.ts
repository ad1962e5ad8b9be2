/**
 * Previews and backtests of a self-hosted connection with ClickHouse access (Set ClickHouse Access for Previews…), in
 * VS Code against the emulator's OSS flavor and its ClickHouse HTTP interface: the access is checked and saved (the
 * password in SecretStorage only), every tile of every seeded dashboard is previewed through the SQL route on ClickHouse
 * and gives the rows the Cloud SQL route gives for the same tile on the same data (a Cloud emulator on the same
 * embedded ClickHouse, both clocks frozen), a backtest the chart series API refuses evaluates, Show SQL opens the
 * statement, and Remove ClickHouse Access falls back to the chart series API.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { SELF_HOSTED_SERVICE_ID } from '../../src/api/oss';
import { CONNECTIONS_STATE_KEY } from '../../src/constants';
import type { ConnectionManager } from '../../src/connections/manager';
import type { TreeApi as TreeHandle } from '../../src/features';
import type { PreviewApi, PreviewOutcome } from '../../src/preview';
import type { RunOutcome } from '../../src/query';
import type { TileData } from '../../src/preview/protocol';
import { ossData } from '../emulator/oss/seed';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import { startEmulator, type Emulator } from '../emulator/server';
import { NOW } from '../unit/preview/patternsSeeded';
import { activate, configure, logText, rejection } from './support';

interface Api {
  readonly tree: TreeHandle;
  readonly connections: ConnectionManager;
  readonly preview: PreviewApi;
  readonly logUri: vscode.Uri;
}

type SeededTile = { id: string; name: string; config: Record<string, unknown> };
type SeededDashboard = { id: string; name: string; tiles: SeededTile[] };

const MIN = 60_000;
const RANGES = [
  { name: '15 m', ms: 15 * MIN },
  { name: '1 h', ms: 60 * MIN },
  { name: '6 h', ms: 360 * MIN },
  { name: '24 h', ms: 1440 * MIN },
  { name: '7 d', ms: 7 * 1440 * MIN },
] as const;

const ROUTE = 'SQL on ClickHouse';

/** Numbers equal to 1e-9 relative; everything else deeply equal. */
function assertSame(got: unknown, want: unknown, at: string): void {
  if (typeof want === 'number' && typeof got === 'number') {
    const scale = Math.max(Math.abs(want), Math.abs(got));
    assert.ok(got === want || Math.abs(got - want) <= 1e-9 * scale, `${at}: ${got} vs ${want}`);
    return;
  }
  if (Array.isArray(want)) {
    assert.ok(Array.isArray(got), `${at}: not an array`);
    assert.equal(got.length, want.length, `${at}: length`);
    want.forEach((w, i) => assertSame(got[i], w, `${at}[${i}]`));
    return;
  }
  if (typeof want === 'object' && want !== null) {
    assert.ok(typeof got === 'object' && got !== null, `${at}: not an object`);
    const g = got as Record<string, unknown>;
    const w = want as Record<string, unknown>;
    assert.deepEqual(Object.keys(g).sort(), Object.keys(w).sort(), `${at}: keys`);
    for (const k of Object.keys(w)) assertSame(g[k], w[k], `${at}.${k}`);
    return;
  }
  assert.deepEqual(got, want, at);
}

/**
 * A tile's drawing as compared across the two routes: the subtitle without the route, search lines and pattern tiles
 * made independent of the order of ties and of the random sample (compared as the pattern test does).
 */
function comparable(data: TileData, route: string): Record<string, unknown> {
  const d = { ...data } as Record<string, unknown>;
  if (typeof d.subtitle === 'string') {
    d.subtitle = d.subtitle
      .split(' · ')
      .filter((part) => part !== route)
      .join(' · ');
    if (d.subtitle === '') delete d.subtitle;
  }
  // An error names its transport's operation and query ID: the same kind of tile, not the same words.
  if (data.kind === 'error') return { kind: data.kind, title: data.title };
  // Series in name order: groups that tie come back in either order.
  if (data.kind === 'timeseries') {
    d.series = [...data.series].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
  if (data.kind === 'search') d.lines = data.lines.map((l) => JSON.stringify(l)).sort();
  if (data.kind === 'patterns') {
    // A random sample of the events: the same counts and buckets; the patterns themselves only when all rows fit.
    const all = data.sampled === data.total;
    const key = (p: { pattern: string; count: number; level?: string | undefined; trend: number[] }) =>
      JSON.stringify([p.pattern, p.count, p.level, p.trend]);
    return {
      kind: data.kind,
      times: data.times,
      total: data.total,
      sampled: data.sampled,
      ...(all ? { patterns: data.patterns.map(key).sort() } : {}),
    };
  }
  return d;
}

describe('Previews on a self-hosted deployment with ClickHouse access (SQL on its ClickHouse HTTP interface)', function () {
  this.timeout(1_200_000);
  let oss: Emulator;
  let cloud: Emulator;
  let api: Api;
  let ossId = '';
  let cloudId = '';
  let cloudSvc = '';
  const ossScope = () => ({ connectionId: ossId, serviceId: SELF_HOSTED_SERVICE_ID });
  const dashboards = () => [...ossData(oss.state).dashboards.values()] as unknown as SeededDashboard[];
  const seriesRequests = (since: number) =>
    oss.requests.filter((r) => r.path === '/api/v2/charts/series' && r.at >= since);
  const clickHouseRequests = (since: number) =>
    oss.requests.filter((r) => r.path.startsWith('clickhouse:') && r.at >= since);
  const tileNamed = (name: string) => {
    for (const d of dashboards()) {
      const t = d.tiles.find((x) => x.name === name);
      if (t) return { dashboard: d, tile: t };
    }
    assert.fail(`no seeded tile "${name}"`);
  };
  /** The connection row's contextValue (what its context menu offers). */
  const contextValue = async () => {
    const provider = api.tree.provider;
    const root = (await provider.getChildren()).find((n) => n.type === 'connection' && n.connection.id === ossId);
    assert.ok(root, 'the connection row');
    return String(provider.getTreeItem(root).contextValue);
  };
  const setAccess = (extra: Record<string, unknown> = {}) =>
    vscode.commands.executeCommand<string>('observability.setClickHouseAccess', {
      connectionId: ossId,
      url: oss.clickHouseHttpUrl,
      user: oss.clickHouseUser,
      password: oss.clickHousePassword,
      ...extra,
    });

  before(async () => {
    await configure('rateLimit.requestsPerWindow', 1000);
    await configure('requestTimeoutSeconds', 120);
    oss = await startEmulator({ flavor: 'oss', rateLimit: false, now: NOW });
    cloud = await startEmulator({ rateLimit: false, now: NOW });
    api = await activate<Api>();
    ossId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      kind: 'selfHosted',
      baseUrl: oss.url,
      apiKey: oss.ossApiKey,
    });
    assert.ok(ossId, 'the self-hosted connection was added');
    cloudSvc = cloud.serviceIds[0]!;
    cloudId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: cloud.url,
      keyId: cloud.keyId,
      keySecret: cloud.keySecret,
      organizationId: cloud.organizationId,
      serviceIds: [cloudSvc],
      label: 'Cloud (same data)',
      skipCheck: true,
    });
    await vscode.commands.executeCommand('observability.setQueryHost', {
      connectionId: cloudId,
      queryUrl: cloud.queryUrl,
    });
    cloud.state.data.get(cloudSvc)!.queryEndpoint = {
      id: 'e1f0c8e2-3a4d-4e5f-8a6b-7c8d9e0f1a3c',
      roles: ['sql_console_read_only'],
      openApiKeys: [SAMPLE_KEY_UUID],
      allowedOrigins: '',
    };
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const connectionId of [ossId, cloudId].filter((x) => x)) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, noPrompt: true });
    }
    await configure('rateLimit.requestsPerWindow', undefined);
    await configure('requestTimeoutSeconds', undefined);
    await oss?.close();
    await cloud?.close();
  });

  it("refuses a wrong password with ClickHouse's error and saves nothing; a good one is checked and saved, the password in SecretStorage only", async () => {
    const wrong = 'not-the-Reader-pa55';
    const since = Date.now();
    const refused = await rejection(setAccess({ password: wrong }));
    assert.match(refused.message, /^Check ClickHouse access at .+ failed: .*403/);
    assert.match(refused.message, /Authentication failed/);
    assert.ok(!refused.message.includes(wrong), refused.message);
    assert.equal(api.connections.get(ossId)?.clickHouse, undefined, 'nothing saved');
    assert.equal(await api.connections.getClickHousePassword(ossId), undefined);
    // Plain http to another machine is refused before anything is sent.
    const elsewhere = await rejection(setAccess({ url: 'http://clickhouse.example:8123' }));
    assert.match(
      elsewhere.message,
      /Plain http to clickhouse\.example:8123 would send the ClickHouse password unencrypted/,
    );
    assert.equal(clickHouseRequests(since).length, 1, 'one check, for the wrong password');

    const since2 = Date.now();
    assert.equal(await setAccess(), ossId);
    const checks = clickHouseRequests(since2);
    assert.equal(checks.length, 1, 'the check');
    assert.equal(checks[0]!.authorized, true);
    assert.match(await contextValue(), /\bconnection selfHosted\b.*\bclickHouse\b/, 'Remove ClickHouse Access offered');
    const record = api.connections.get(ossId)!;
    assert.deepEqual(record.clickHouse, { url: oss.clickHouseHttpUrl, user: oss.clickHouseUser });
    assert.equal(await api.connections.getClickHousePassword(ossId), oss.clickHousePassword);
    const state = api.connections.globalState;
    const stored = state.get<Record<string, unknown>[]>(CONNECTIONS_STATE_KEY)!.find((c) => c.id === ossId)!;
    assert.deepEqual(stored.clickHouse, { url: oss.clickHouseHttpUrl, user: oss.clickHouseUser });
    const places: [string, string][] = [
      ['global state', JSON.stringify(state.keys().map((key) => [key, state.get<unknown>(key)]))],
      ['settings (observability)', JSON.stringify(vscode.workspace.getConfiguration('observability'))],
      ['log', await logText(api)],
      ['errors', `${refused.message}\n${elsewhere.message}`],
    ];
    for (const [where, text] of places) {
      assert.ok(!text.includes(oss.clickHousePassword), `no ClickHouse password in ${where}`);
      assert.ok(!text.includes(wrong), `no refused password in ${where}`);
    }
  });

  for (const range of RANGES) {
    it(`previews every tile of every dashboard through ClickHouse with the Cloud SQL route's rows (${range.name})`, async () => {
      const r = { from: NOW - range.ms, to: NOW };
      const since = Date.now();
      const kinds = new Map<string, string>();
      let tiles = 0;
      for (const d of dashboards()) {
        for (const tile of d.tiles) {
          const which = { dashboardId: d.id, tileId: tile.id };
          const [got, want] = await Promise.all([
            api.preview.tileData(ossScope(), which, r),
            api.preview.tileData({ connectionId: cloudId, serviceId: cloudSvc }, which, r),
          ]);
          const at = `${d.name} / ${tile.name} (${range.name})`;
          if (got.kind !== 'markdown') {
            assert.ok(got.subtitle?.split(' · ').includes(ROUTE), `${at}: route in the subtitle "${got.subtitle}"`);
          }
          // Quantile tiles too: the emulator's ClickHouse runs each query on one thread, so `quantile`'s sample is
          // the same on both routes.
          assertSame(comparable(got, ROUTE), comparable(want, ''), at);
          kinds.set(`${tile.name}`, got.kind);
          tiles++;
        }
      }
      assert.equal(seriesRequests(since).length, 0, 'nothing through the chart series API');
      assert.ok(clickHouseRequests(since).length > 0, 'SQL on the ClickHouse HTTP interface');
      // What the chart series API refuses is drawn now.
      assert.equal(kinds.get('Restarts (raw SQL)'), 'table');
      assert.ok([...kinds.values()].includes('heatmap'), `a heatmap among ${[...new Set(kinds.values())].join(', ')}`);
      assert.ok(
        !['unsupported', 'error'].includes(kinds.get('Ready nodes') ?? ''),
        `Ready nodes: ${kinds.get('Ready nodes')}`,
      );
      assert.equal(
        tiles,
        dashboards().reduce((n, d) => n + d.tiles.length, 0),
      );
      assert.ok(tiles >= 15, `${tiles} tiles compared`);
      console.log(
        `ClickHouse route, ${range.name}: ${tiles} tiles value for value, kinds ${JSON.stringify([...kinds.values()].sort())}`,
      );
    });
  }

  it('previews the metric dashboard in its panel through ClickHouse, no tile refused', async () => {
    const { dashboard } = tileNamed('Ready nodes');
    const since = Date.now();
    const out = await vscode.commands.executeCommand<PreviewOutcome>('observability.previewDashboard', {
      ...ossScope(),
      dashboardId: dashboard.id,
    });
    assert.equal(out.ok, true, out.error);
    const s = out.rendered!;
    assert.equal(s.kind, 'dashboard');
    assert.ok(!s.tiles.some((t) => t.kind === 'unsupported' || t.kind === 'error'), JSON.stringify(s.tiles));
    assert.equal(seriesRequests(since).length, 0);
  });

  it("backtests the off-grid CPU alert the chart series API refuses, and Show SQL opens a tile's statement", async () => {
    const cpu = [...ossData(oss.state).alerts.values()].find((a) => a.name === 'Node CPU saturation')!;
    assert.ok(cpu, 'the seeded off-grid alert');
    const since = Date.now();
    const out = await vscode.commands.executeCommand<PreviewOutcome>('observability.backtestAlert', {
      ...ossScope(),
      alertId: cpu.id,
    });
    assert.equal(out.ok, true, out.error);
    assert.equal(out.rendered?.kind, 'timeseries');
    assert.match(out.sql ?? '', /SELECT/);
    assert.ok(typeof out.lastState === 'string');
    assert.equal(seriesRequests(since).length, 0, 'nothing through the chart series API');
    assert.ok(clickHouseRequests(since).length > 0);

    const { dashboard, tile } = tileNamed('Restarts (raw SQL)');
    await vscode.commands.executeCommand('observability.showTileSql', {
      ...ossScope(),
      dashboardId: dashboard.id,
      tileId: tile.id,
    });
    const text = vscode.window.activeTextEditor?.document.getText() ?? '';
    assert.match(text, /^-- Tile "Restarts \(raw SQL\)" rendered for /);
    assert.match(text, /SELECT/i);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("runs a SQL document bound to the deployment on its ClickHouse, with the ClickHouse user's password, the statement never sent to its API", async () => {
    const doc = await vscode.workspace.openTextDocument({
      language: 'sql',
      content: 'SELECT count() AS n FROM otel.otel_logs',
    });
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('observability.chooseQueryTarget', {
      uri: doc.uri.toString(),
      connectionId: ossId,
      serviceId: SELF_HOSTED_SERVICE_ID,
    });
    const since = Date.now();
    const apiMark = oss.requests.length;
    const outcome = await vscode.commands.executeCommand<RunOutcome>('observability.runQuery', {
      uri: doc.uri.toString(),
    });
    assert.equal(outcome?.ok, true, outcome?.error);
    assert.deepEqual(
      outcome.columns?.map((c) => c.name),
      ['n'],
    );
    assert.ok(Number(outcome.firstRows?.[0]?.[0]) > 0, `rows counted: ${JSON.stringify(outcome.firstRows)}`);
    const sent = clickHouseRequests(since);
    assert.ok(sent.length >= 1 && sent.every((r) => r.authorized), 'SQL on the ClickHouse HTTP interface, authorized');
    // The deployment's API may be read meanwhile (the tree, alert states: POSTs on a self-hosted deployment), but the
    // statement never goes there.
    const toApi = oss.requests.slice(apiMark).filter((r) => !r.path.startsWith('clickhouse:'));
    assert.deepEqual(
      toApi.filter((r) => JSON.stringify([r.body ?? null, r.query]).includes('otel.otel_logs')),
      [],
      `the statement is not sent to the deployment's API (${toApi.map((r) => `${r.method} ${r.path}`).join(', ')})`,
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Remove ClickHouse Access forgets the address, user and password; previews use the chart series API again', async () => {
    assert.equal(
      await vscode.commands.executeCommand('observability.removeClickHouseAccess', {
        connectionId: ossId,
        noPrompt: true,
      }),
      true,
    );
    assert.equal(api.connections.get(ossId)?.clickHouse, undefined);
    assert.equal(await api.connections.getClickHousePassword(ossId), undefined);
    assert.doesNotMatch(await contextValue(), /\bclickHouse\b/);
    const state = api.connections.globalState;
    const stored = state.get<Record<string, unknown>[]>(CONNECTIONS_STATE_KEY)!.find((c) => c.id === ossId)!;
    assert.equal('clickHouse' in stored, false);
    const since = Date.now();
    const r = { from: NOW - 60 * MIN, to: NOW };
    const raw = tileNamed('Restarts (raw SQL)');
    const refused = await api.preview.tileData(ossScope(), { dashboardId: raw.dashboard.id, tileId: raw.tile.id }, r);
    assert.equal(refused.kind, 'unsupported');
    assert.match(
      refused.kind === 'unsupported' ? refused.reason : '',
      /ClickHouse access for previews would draw it: "Observability: Set ClickHouse Access for Previews…"/,
    );
    const line = dashboards()
      .flatMap((d) => d.tiles.map((t) => ({ d, t })))
      .find(({ t }) => t.config.displayType === 'line')!;
    const drawn = await api.preview.tileData(ossScope(), { dashboardId: line.d.id, tileId: line.t.id }, r);
    assert.match(drawn.subtitle ?? '', /chart series API/);
    assert.ok(seriesRequests(since).length >= 1, 'through the chart series API');
    assert.equal(clickHouseRequests(since).length, 0, 'nothing to ClickHouse');
  });
});
