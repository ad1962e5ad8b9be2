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
import { groupPatterns } from '../../src/render/patterns';
import type { ApplyResult } from '../../src/resourceDocuments/apply';
import type { SearchOutcome } from '../../src/search';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import { startEmulator, type Emulator } from '../emulator/server';
import { activate, configure, docOf } from './support';

interface TreeNode {
  type: string;
  kind?: string;
  connection?: { id: string };
  item?: { id: string };
}

interface Api {
  readonly connections: ConnectionManager;
  readonly query: QueryApi;
  readonly tree: {
    readonly provider: {
      getChildren(node?: unknown): Promise<TreeNode[]>;
      folder(connectionId: string, serviceId: string, kind: string): unknown;
    };
  };
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

  const tableOf = (source: Source) => `\`${source.from.databaseName}\`.\`${source.from.tableName}\``;
  const rangeWhere = (range: { from: number; to: number }) =>
    `TimestampTime >= toDateTime(${Math.floor(range.from / 1000)}) AND TimestampTime <= toDateTime(${Math.floor(range.to / 1000)})`;

  it("Cloud: Save as Saved Search opens its document with the search's fields; Apply creates it", async () => {
    const source = await sourceOf(cloudId, cloudSvc, 'log');
    const now = cloud.now();
    const select = "Timestamp, ServiceName, Body, LogAttributes['payment.status']";
    const out = await vscode.commands.executeCommand<SearchOutcome>('observability.searchEvents', {
      connectionId: cloudId,
      serviceId: cloudSvc,
      sourceId: source.id,
      condition: 'ServiceName:payment',
      language: 'lucene',
      select,
      orderBy: 'Timestamp ASC',
      range: { from: now - 30 * MIN, to: now },
    });
    assert.ok(out?.ok, out?.error);
    // The columns and order asked for are the ones shown.
    const table = tableOf(source);
    const where = `${rangeWhere({ from: now - 30 * MIN, to: now })} AND ServiceName = 'payment'`;
    const want = await plain(
      cloudId,
      cloudSvc,
      `SELECT Timestamp, ServiceName, Body, LogAttributes['payment.status'] FROM ${table} WHERE ${where} ORDER BY Timestamp ASC LIMIT 1000`,
    );
    assert.equal(out.state!.view.columns.length, 4);
    const raw = out.state!.model!.raw;
    assert.ok(raw.length > 0, 'rows found');
    assert.deepEqual(
      raw.map((r) => r[0]),
      want.map((r) => r[0]),
      'timestamps oldest first, as the order asked',
    );
    const key = (rows: readonly (readonly unknown[])[]) => rows.map((r) => JSON.stringify(r)).sort();
    assert.deepEqual(key(raw), key(want), 'the rows of the columns asked');

    const writesBefore = cloud.requests.filter((r) => r.method !== 'GET' && r.path.includes('saved-searches')).length;
    const uri = await vscode.commands.executeCommand<string>('observability.saveSearchAs');
    assert.ok(uri, 'the command answers the new document');
    assert.match(uri, /\/saved-searches\/new-\d+\//);
    const body = JSON.parse(docOf(uri).getText()) as Record<string, unknown>;
    assert.deepEqual(
      { ...body, tags: undefined },
      {
        name: `${String((source as { name?: string }).name)}: ServiceName:payment`,
        sourceId: source.id,
        select,
        where: 'ServiceName:payment',
        whereLanguage: 'lucene',
        orderBy: 'Timestamp ASC',
        tags: undefined,
      },
    );
    assert.equal(
      cloud.requests.filter((r) => r.method !== 'GET' && r.path.includes('saved-searches')).length,
      writesBefore,
      'nothing is sent before Apply',
    );
    const applied = await vscode.commands.executeCommand<ApplyResult>('observability.applyResource', {
      uri,
      noPrompt: true,
    });
    assert.equal(applied.outcome, 'applied', JSON.stringify(applied));
    const saved = (cloud.state.data.get(cloudSvc)!.savedSearches as Map<string, Record<string, unknown>>).get(
      applied.id!,
    );
    assert.ok(saved, 'the service holds the saved search');
    assert.deepEqual(
      [saved.sourceId, saved.select, saved.where, saved.whereLanguage, saved.orderBy],
      [source.id, select, 'ServiceName:payment', 'lucene', 'Timestamp ASC'],
    );

    // Open in Search from the tree: the saved search's condition, columns and order.
    const provider = api.tree.provider;
    const roots = await provider.getChildren();
    await provider.getChildren(roots.find((n) => n.type === 'connection' && n.connection?.id === cloudId));
    const searches = await provider.getChildren(provider.folder(cloudId, cloudSvc, 'savedSearches'));
    const node = searches.find((n) => n.kind === 'savedSearch' && n.item?.id === applied.id);
    assert.ok(node, 'the saved search is in the tree');
    const reopened = await vscode.commands.executeCommand<SearchOutcome>('observability.searchEvents', node);
    assert.ok(reopened?.ok, reopened?.error);
    assert.equal(reopened.state!.view.condition, 'ServiceName:payment');
    assert.equal(reopened.state!.view.columns.length, 4, 'its columns');
    const shown = reopened.state!.model!.raw;
    const ascending = shown.map((r) => String(r[0]));
    assert.ok(ascending.length > 1, 'rows found');
    assert.deepEqual(ascending, [...ascending].sort(), 'its order: oldest first');
    assert.ok(
      shown.every((r) => r[1] === 'payment'),
      'its condition',
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Cloud: the Patterns tab mines the rows of the search as the pattern tiles do', async () => {
    const source = await sourceOf(cloudId, cloudSvc, 'log');
    const now = cloud.now();
    const range = { from: now - 30 * MIN, to: now };
    const out = await vscode.commands.executeCommand<SearchOutcome>('observability.searchEvents', {
      connectionId: cloudId,
      serviceId: cloudSvc,
      sourceId: source.id,
      condition: '-SeverityText:info',
      language: 'lucene',
      range,
      tab: 'patterns',
    });
    assert.ok(out?.ok, out?.error);
    const patterns = out.state!.patterns;
    assert.ok(patterns && !patterns.loading && !patterns.error, JSON.stringify(patterns));
    const where = `${rangeWhere(range)} AND lower(SeverityText) != 'info'`;
    const rows = await plain(
      cloudId,
      cloudSvc,
      `SELECT Body, toUnixTimestamp64Milli(toDateTime64(TimestampTime, 3)), SeverityText FROM ${tableOf(source)} WHERE ${where}`,
    );
    assert.ok(rows.length > 0 && rows.length <= 10_000, `every row is sampled (${rows.length})`);
    assert.equal(patterns.sampled, rows.length, 'rows mined');
    assert.equal(patterns.total, out.state!.view.histogram.total, "counts scaled to the search's count");
    const mined = groupPatterns(
      rows.map(([text, time, level]) => ({ text: String(text), time: Number(time), level: String(level) })),
      rows.length,
      range,
    );
    // A pattern's level is its last row's (HyperDX's rule): with rows in random order, it may differ when mixed.
    const key = (p: { pattern: string; count: number }) => `${p.count} ${p.pattern}`;
    assert.ok(mined.patterns.length > 1, 'several patterns');
    assert.deepEqual(patterns.rows.map(key).sort(), mined.patterns.map(key).sort(), 'the same patterns and counts');
    for (const p of patterns.rows) assert.ok(p.sample !== '', 'each pattern shows an event of it');
  });

  it('Cloud: completion offers the map keys and values of the recent data', async () => {
    const source = await sourceOf(cloudId, cloudSvc, 'log');
    const now = cloud.now();
    const range = { from: now - 15 * MIN, to: now };
    const out = await vscode.commands.executeCommand<SearchOutcome>('observability.searchEvents', {
      connectionId: cloudId,
      serviceId: cloudSvc,
      sourceId: source.id,
      range,
    });
    assert.ok(out?.ok, out?.error);
    const table = tableOf(source);
    const [[count]] = (await plain(cloudId, cloudSvc, `SELECT count() FROM ${table} WHERE ${rangeWhere(range)}`)) as [
      [unknown],
    ];
    assert.ok(Number(count) <= 10_000, 'every row of the range is read');
    const keys = await plain(
      cloudId,
      cloudSvc,
      `SELECT DISTINCT arrayJoin(mapKeys(LogAttributes)) AS k FROM ${table} WHERE ${rangeWhere(range)} ORDER BY k`,
    );
    assert.ok(
      keys.some(([k]) => k === 'http.method'),
      'the seeded data has map keys',
    );
    const offered = await vscode.commands.executeCommand<{ fields?: string[] }>('observability.searchCompletions');
    const fields = offered?.fields ?? [];
    assert.ok(fields.includes('ServiceName'), 'columns are offered');
    // Keys Lucene reads otherwise (`checkout.express?`: `?` is a wildcard there) are offered in SQL only.
    const lucene = keys.map(([k]) => String(k)).filter((k) => /^[A-Za-z0-9_][\w.\-/@]*$/.test(k));
    assert.ok(lucene.length < keys.length, 'the seeded data has a key Lucene cannot name');
    assert.deepEqual(
      fields.filter((f) => f.startsWith('LogAttributes.')),
      lucene.map((k) => `LogAttributes.${k}`),
      'the map keys of the recent data, in Lucene',
    );
    const sqlSearch = await vscode.commands.executeCommand<SearchOutcome>('observability.searchEvents', {
      connectionId: cloudId,
      serviceId: cloudSvc,
      sourceId: source.id,
      language: 'sql',
      range,
    });
    assert.ok(sqlSearch?.ok, sqlSearch?.error);
    const sqlFields = await vscode.commands.executeCommand<{ fields?: string[] }>('observability.searchCompletions');
    assert.deepEqual(
      (sqlFields?.fields ?? []).filter((f) => f.startsWith('LogAttributes[')),
      keys.map(([k]) => `LogAttributes['${String(k)}']`),
      'every map key of the recent data, in SQL',
    );
    const values = await plain(
      cloudId,
      cloudSvc,
      `SELECT LogAttributes['http.method'] AS v, count() AS n FROM ${table} WHERE ${rangeWhere(range)} AND v != '' GROUP BY v ORDER BY n DESC, v`,
    );
    assert.ok(values.length >= 2, 'the seeded data has several values');
    const got = await vscode.commands.executeCommand<{ values?: string[] }>('observability.searchCompletions', {
      field: 'LogAttributes.http.method',
    });
    assert.deepEqual(
      got?.values,
      values.map(([v]) => String(v)),
      'its values, most frequent first',
    );
    const sqlForm = await vscode.commands.executeCommand<{ values?: string[] }>('observability.searchCompletions', {
      field: "LogAttributes['http.method']",
    });
    assert.deepEqual(sqlForm?.values, got?.values, 'the same field written in SQL');
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
