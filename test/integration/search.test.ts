/**
 * Search Events… in VS Code against the emulator (frozen clock): the search panel on the Cloud connection's log and
 * trace sources (SQL on the query endpoint) and on a self-hosted deployment with ClickHouse access (SQL on its
 * ClickHouse HTTP interface), with Lucene and SQL conditions. The rows the page drew and the histogram's counts per
 * severity or status are compared with plain SQL written here; a self-hosted connection without ClickHouse access is
 * told it needs it.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { SELF_HOSTED_SERVICE_ID } from '../../src/api/oss';
import type { ConnectionManager } from '../../src/connections/manager';
import type { QueryApi } from '../../src/query';
import type { SearchOutcome } from '../../src/search';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import { startEmulator, type Emulator } from '../emulator/server';
import { activate, configure } from './support';

interface Api {
  readonly connections: ConnectionManager;
  readonly query: QueryApi;
}

type Source = { id: string; kind: string; from: { databaseName: string; tableName: string } };

const MIN = 60_000;

/** Cases: a condition in the search's language, and the same rows in plain SQL (ANDed with the range). */
const LOG_CASES = [
  { condition: '', language: 'lucene', sql: '1' },
  { condition: 'SeverityText:error', language: 'lucene', sql: "lower(SeverityText) = 'error'" },
  {
    condition: 'ServiceName:payment -SeverityText:info',
    language: 'lucene',
    sql: "ServiceName = 'payment' AND lower(SeverityText) != 'info'",
  },
  { condition: "ServiceName = 'checkout'", language: 'sql', sql: "ServiceName = 'checkout'" },
] as const;

describe('Search Events… (the search panel)', function () {
  this.timeout(600_000);
  let cloud: Emulator;
  let oss: Emulator;
  let api: Api;
  let cloudId = '';
  let ossId = '';
  let cloudSvc = '';

  before(async () => {
    await configure('rateLimit.requestsPerWindow', 1000);
    cloud = await startEmulator({ rateLimit: false, now: 'start' });
    oss = await startEmulator({ flavor: 'oss', rateLimit: false, now: 'start' });
    api = await activate<Api>();
    cloudSvc = cloud.serviceIds[0]!;
    cloudId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: cloud.url,
      keyId: cloud.keyId,
      keySecret: cloud.keySecret,
      organizationId: cloud.organizationId,
      serviceIds: [cloudSvc],
      label: 'Cloud search',
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
    ossId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      kind: 'selfHosted',
      baseUrl: oss.url,
      apiKey: oss.ossApiKey,
    });
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const connectionId of [cloudId, ossId].filter((x) => x)) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, noPrompt: true });
    }
    await configure('rateLimit.requestsPerWindow', undefined);
    await cloud?.close();
    await oss?.close();
  });

  const sourceOf = async (connectionId: string, serviceId: string, kind: string): Promise<Source> => {
    const sources = (await api.connections.clientFor(connectionId).listSources(serviceId)).data as unknown as Source[];
    const s = sources.find((x) => x.kind === kind);
    assert.ok(s, `a ${kind} source`);
    return s;
  };

  const plain = async (connectionId: string, serviceId: string, sql: string) =>
    (await api.query.run(connectionId, { serviceId, sql, maxRows: 100_000, maxBytes: 64 * 1024 * 1024 })).rows;

  /** Opens the search and checks rows and histogram against plain SQL. */
  async function check(
    connectionId: string,
    serviceId: string,
    now: number,
    c: { condition: string; language: 'lucene' | 'sql'; sql: string },
  ): Promise<SearchOutcome> {
    const source = await sourceOf(connectionId, serviceId, 'log');
    const range = { from: now - 30 * MIN, to: now };
    const out = await vscode.commands.executeCommand<SearchOutcome>('observability.searchEvents', {
      connectionId,
      serviceId,
      sourceId: source.id,
      condition: c.condition,
      language: c.language,
      range,
    });
    assert.ok(out?.ok, `the search "${c.condition}" ran: ${out?.error}`);
    const state = out.state!;
    const table = `\`${source.from.databaseName}\`.\`${source.from.tableName}\``;
    const where =
      `TimestampTime >= toDateTime(${Math.floor(range.from / 1000)}) AND TimestampTime <= toDateTime(${Math.floor(range.to / 1000)})` +
      ` AND (${c.sql})`;
    const [[count]] = (await plain(connectionId, serviceId, `SELECT count() FROM ${table} WHERE ${where}`)) as [
      [unknown],
    ];
    const total = Number(count);
    assert.ok(total > 0, `"${c.condition}" finds events in the range`);
    assert.equal(state.view.histogram.total, total, `histogram total of "${c.condition}"`);
    const bySeverity = await plain(
      connectionId,
      serviceId,
      `SELECT SeverityText, count() FROM ${table} WHERE ${where} GROUP BY SeverityText ORDER BY SeverityText`,
    );
    const drawn = Object.fromEntries(
      state.view.histogram.groups.map((g, i) => [g, state.view.histogram.counts[i]!.reduce((a, b) => a + b, 0)]),
    );
    assert.deepEqual(
      drawn,
      Object.fromEntries(bySeverity.map(([s, n]) => [String(s), Number(n)])),
      'counts by severity',
    );
    // Rows: the source's default columns, newest first, the first 1,000.
    assert.deepEqual(state.view.columns, ['Timestamp', 'ServiceName', 'SeverityText', 'Body']);
    const want = await plain(
      connectionId,
      serviceId,
      `SELECT Timestamp, ServiceName, SeverityText, Body FROM ${table} WHERE ${where} ORDER BY TimestampTime DESC, Timestamp DESC LIMIT 1000`,
    );
    const raw = state.model!.raw;
    assert.equal(raw.length, Math.min(total, 1000), 'rows found');
    assert.deepEqual(
      raw.map((r) => r[0]),
      want.map((r) => r[0]),
      'timestamps, newest first',
    );
    const key = (rows: readonly (readonly unknown[])[]) => rows.map((r) => JSON.stringify(r)).sort();
    if (total <= 1000) assert.deepEqual(key(raw), key(want), 'the same rows');
    assert.equal(state.rendered?.rows, raw.length, 'the page drew every row');
    assert.equal(state.rendered?.total, total, 'the page drew the histogram total');
    assert.deepEqual(state.view.rows[0]?.[3], String(raw[0]![3]).slice(0, 500), 'cells are drawn as text');
    return out;
  }

  for (const c of LOG_CASES) {
    it(`Cloud: "${c.condition}" (${c.language}) gives the rows and counts of plain SQL`, async () => {
      await check(cloudId, cloudSvc, cloud.now(), c);
    });
  }

  it('Cloud: a trace search stacks its histogram by status code', async () => {
    const source = await sourceOf(cloudId, cloudSvc, 'trace');
    const now = cloud.now();
    const out = await vscode.commands.executeCommand<SearchOutcome>('observability.searchEvents', {
      connectionId: cloudId,
      serviceId: cloudSvc,
      sourceId: source.id,
      range: { from: now - 30 * MIN, to: now },
    });
    assert.ok(out?.ok, out?.error);
    const table = `\`${source.from.databaseName}\`.\`${source.from.tableName}\``;
    const byStatus = await plain(
      cloudId,
      cloudSvc,
      `SELECT StatusCode, count() FROM ${table} WHERE Timestamp >= toDateTime64(${(now - 30 * MIN) / 1000}, 9) AND Timestamp <= toDateTime64(${now / 1000}, 9) GROUP BY StatusCode`,
    );
    const h = out.state!.view.histogram;
    const drawn = Object.fromEntries(h.groups.map((g, i) => [g, h.counts[i]!.reduce((a, b) => a + b, 0)]));
    assert.deepEqual(drawn, Object.fromEntries(byStatus.map(([s, n]) => [String(s), Number(n)])), 'counts by status');
  });

  it('Cloud: a search panel VS Code restores after a window reload searches again what it kept', async () => {
    const source = await sourceOf(cloudId, cloudSvc, 'log');
    const now = cloud.now();
    const range = { from: now - 30 * MIN, to: now };
    const api = (await activate()) as unknown as {
      search: { restore(p: vscode.WebviewPanel, s: unknown): Promise<SearchOutcome | undefined> };
    };
    // The panel VS Code hands the serializer, with the state the page kept.
    const panel = vscode.window.createWebviewPanel('observability.search', 'Search', vscode.ViewColumn.One, {});
    const kept = { connectionId: cloudId, serviceId: cloudSvc, sourceId: source.id, language: 'lucene', preset: '' };
    const out = await api.search.restore(panel, { ...kept, condition: 'SeverityText:error', range });
    assert.ok(out?.ok, out?.error);
    const view = out.state!.view;
    assert.equal(view.condition, 'SeverityText:error');
    assert.deepEqual(view.range, range);
    const fresh = await vscode.commands.executeCommand<SearchOutcome>('observability.searchEvents', {
      ...kept,
      condition: 'SeverityText:error',
      range,
    });
    assert.ok(fresh.state!.view.histogram.total > 0);
    assert.equal(view.histogram.total, fresh.state!.view.histogram.total, 'the counts of the same search');
    assert.deepEqual(out.state!.model!.raw, fresh.state!.model!.raw, 'the rows of the same search');

    // A state that names no search: the panel goes, nothing is searched.
    const empty = vscode.window.createWebviewPanel('observability.search', 'Search', vscode.ViewColumn.One, {});
    let disposed = false;
    empty.onDidDispose(() => (disposed = true));
    const none = await api.search.restore(empty, { condition: 'x' });
    assert.equal(none?.ok, false);
    assert.ok(disposed, 'the empty panel is closed');
  });

  it('Cloud: a 1 MB body with ANSI and markup and a map of 10,000 keys are drawn cut and as text', async () => {
    const source = await sourceOf(cloudId, cloudSvc, 'log');
    const now = cloud.now();
    const body = "concat('\\x1b[31m<img src=x onerror=alert(1)>\\x07', repeat('xxxxxxxxxxxxxxxx', 65536)) AS Body";
    const map =
      "mapFromArrays(arrayMap(i -> concat('k', toString(i)), range(10000)), arrayMap(i -> 'v', range(10000))) AS Attrs";
    const out = await vscode.commands.executeCommand<SearchOutcome>('observability.searchEvents', {
      connectionId: cloudId,
      serviceId: cloudSvc,
      sourceId: source.id,
      select: `Timestamp, ${body}, ${map}`,
      range: { from: now - 3000, to: now },
    });
    assert.ok(out?.ok, out?.error);
    const view = out.state!.view;
    assert.ok(view.rows.length > 0, 'rows found');
    assert.equal(out.state!.rendered?.rows, view.rows.length, 'the page drew them');
    for (const row of view.rows) {
      assert.ok(row[1]!.startsWith('<img src=x onerror=alert(1)>xxx'), 'markup kept as text, ANSI and BEL removed');
      assert.ok(row[1]!.length <= 501, 'the body is cut');
      assert.ok(row[2]!.length <= 501, 'the map is cut');
    }
  });

  it('self-hosted without ClickHouse access: says it needs ClickHouse access', async () => {
    const out = await vscode.commands.executeCommand<SearchOutcome>('observability.searchEvents', {
      connectionId: ossId,
      serviceId: SELF_HOSTED_SERVICE_ID,
    });
    assert.equal(out?.ok, false);
    assert.match(out?.error ?? '', /ClickHouse access/);
  });

  it('self-hosted with ClickHouse access: SQL on its ClickHouse gives the rows and counts of plain SQL', async () => {
    await vscode.commands.executeCommand('observability.setClickHouseAccess', {
      connectionId: ossId,
      url: oss.clickHouseHttpUrl,
      user: oss.clickHouseUser,
      password: oss.clickHousePassword,
    });
    const since = Date.now();
    for (const c of LOG_CASES.slice(1, 3)) await check(ossId, SELF_HOSTED_SERVICE_ID, oss.now(), c);
    assert.ok(
      oss.requests.some((r) => r.path.startsWith('clickhouse:') && r.at >= since),
      'the statements went to ClickHouse',
    );
  });
});
