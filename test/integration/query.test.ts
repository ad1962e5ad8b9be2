/**
 * Run Query in VS Code against the emulator's query host (a real embedded ClickHouse): from the palette on a New
 * Query document, from the CodeLens, the results panel (rows rendered, chart tab), the read-only guard, the
 * enable-key flow, the idle-service offer and ClickHouse errors.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import type { RunOutcome } from '../../src/query';
import { applyDemoQueryHost, parseDemoConnection, type DemoApi } from '../demo/connection';
import { activate, configure, exportedApi as api } from './support';

const OTHER_KEY = '9e2b6d4f-1a3c-4e5b-8d7f-6a0c2e4b8d19';

async function run(args: Record<string, unknown> = {}): Promise<RunOutcome> {
  return (await vscode.commands.executeCommand<RunOutcome>('observability.runQuery', args)) as RunOutcome;
}

describe('Run Query', function () {
  this.timeout(240_000);
  let emulator: Emulator;
  let connectionId: string;
  let serviceA: string;
  let serviceB: string;
  const endpointOf = (serviceId: string) => emulator.state.data.get(serviceId)!;
  const queryRuns = () => emulator.requests.filter((r) => r.path.endsWith('/run'));

  before(async () => {
    await configure('rateLimit.requestsPerWindow', 1000);
    emulator = await startEmulator({ rateLimit: false });
    await activate();
    [serviceA, serviceB] = emulator.serviceIds as [string, string];
    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: emulator.url,
      keyId: emulator.keyId,
      keySecret: emulator.keySecret,
      organizationId: emulator.organizationId,
      serviceIds: [serviceA, serviceB],
      label: 'Query (emulator)',
      skipCheck: true,
    });
    const host = await vscode.commands.executeCommand<string>('observability.setQueryHost', {
      connectionId,
      queryUrl: emulator.queryUrl,
    });
    assert.equal(host, emulator.queryUrl);
    endpointOf(serviceA).queryEndpoint = {
      id: 'e1f0c8e2-3a4d-4e5f-8a6b-7c8d9e0f1a2b',
      roles: ['sql_console_read_only'],
      openApiKeys: [SAMPLE_KEY_UUID],
      allowedOrigins: '',
    };
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, skipConfirmation: true });
    }
    await configure('rateLimit.requestsPerWindow', undefined);
    await emulator?.close();
  });

  afterEach(async () => {
    emulator.faults.clear();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('runs a New Query document from the palette and shows the real counts in the results panel', async () => {
    const sql = 'SELECT ServiceName, count() AS n FROM otel_logs GROUP BY ServiceName ORDER BY n DESC';
    const uri = await vscode.commands.executeCommand<string>('observability.newQuery', {
      connectionId,
      serviceId: serviceA,
      sql,
    });
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), uri);
    assert.equal(vscode.window.activeTextEditor?.document.languageId, 'sql');
    // Named after the service, not after its first line.
    assert.equal(
      vscode.Uri.parse(uri).path,
      `${api().query.targets.serviceName({ connectionId, serviceId: serviceA })}.sql`,
    );
    assert.equal(vscode.window.activeTextEditor?.document.getText(), sql);
    const out = await run();
    assert.ok(out.ok, out.error);
    assert.deepEqual(out.columns, [
      { name: 'ServiceName', type: 'LowCardinality(String)' },
      { name: 'n', type: 'UInt64' },
    ]);
    assert.equal(out.rows, 15, "the shop services and the sample workspace's three");
    assert.equal(
      out.firstRows?.reduce((s, r) => s + Number(r[1]), 0),
      1_002_220,
    );
    assert.deepEqual(out.firstRows?.[0], ['frontend', 231052]);
    assert.equal(out.rendered?.rows, 15, 'the panel rendered the rows');
    assert.equal(out.rendered?.chart, false, 'no time column, no chart');
    const sent = queryRuns().at(-1);
    assert.deepEqual(sent?.body, { sql });
  });

  it('runs the statement under a CodeLens and offers a chart for a time-bucketed query', async () => {
    const text =
      'SELECT 1 AS one;\n\nSELECT toStartOfInterval(Timestamp, INTERVAL 1 HOUR) AS t, ServiceName, count() AS n\nFROM otel_logs\nWHERE Timestamp > now() - INTERVAL 1 DAY\nGROUP BY t, ServiceName\nORDER BY t;\n';
    const doc = await vscode.workspace.openTextDocument({ language: 'sql', content: text });
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('observability.chooseQueryTarget', {
      uri: doc.uri.toString(),
      connectionId,
      serviceId: serviceA,
    });
    const lenses =
      (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri, 10)) ?? [];
    const ours = lenses.filter((l) => l.command?.command === 'observability.runQuery');
    assert.equal(ours.length, 2, 'one lens per statement');
    assert.match(ours[0]?.command?.title ?? '', /Run on /);
    const second = ours.find((l) => l.range.start.line === 2);
    assert.ok(second?.command);
    const out = (await vscode.commands.executeCommand<RunOutcome>(
      second.command.command,
      ...(second.command.arguments ?? []),
    )) as RunOutcome;
    assert.ok(out.ok, out.error);
    assert.deepEqual(
      out.columns?.map((c) => c.type),
      ['DateTime', 'LowCardinality(String)', 'UInt64'],
    );
    assert.ok((out.rows ?? 0) >= 7 * 24, `hourly rows for 7 services: ${out.rows}`);
    assert.equal(out.rendered?.chart, true, 'the chart tab is offered');
    assert.ok((out.rendered?.visibleRows ?? 0) < (out.rows ?? 0), 'the table renders only the rows in view');
    const csv = await vscode.commands.executeCommand<string>('observability.copyQueryResult', 'csv');
    assert.match(csv ?? '', /^t,ServiceName,n\r\n/);
  });

  it('stops at the row limit and says so', async () => {
    await configure('query.maxRows', 10_000);
    const doc = await vscode.workspace.openTextDocument({ language: 'sql', content: 'SELECT * FROM otel_logs' });
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('observability.chooseQueryTarget', {
      uri: doc.uri.toString(),
      connectionId,
      serviceId: serviceA,
    });
    const out = await run();
    await configure('query.maxRows', undefined);
    assert.ok(out.ok, out.error);
    assert.equal(out.rows, 10_000);
    assert.equal(out.truncated, 'rows');
    assert.equal(out.rendered?.rows, 10_000);
    assert.ok((out.rendered?.visibleRows ?? 0) < 200, `DOM rows: ${out.rendered?.visibleRows}`);
    // The first screens paint first; the rest of the rows follow into the same table.
    const until = Date.now() + 20_000;
    while (api().query.panel.current.loadedRows !== 10_000 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(api().query.panel.current.loadedRows, 10_000);
    const md = await vscode.commands.executeCommand<string>('observability.copyQueryResult', 'markdown');
    assert.equal(md?.trim().split('\n').length, 10_002, 'header, separator and every row');
  });

  it('asks before a statement that can change data, and sends nothing when declined', async () => {
    const doc = await vscode.workspace.openTextDocument({ language: 'sql', content: 'DROP TABLE otel_logs' });
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('observability.chooseQueryTarget', {
      uri: doc.uri.toString(),
      connectionId,
      serviceId: serviceA,
    });
    const before = queryRuns().length;
    const declined = await run({ confirm: false });
    assert.equal(declined.declined, 'write');
    assert.equal(queryRuns().length, before, 'nothing was sent');
    const confirmed = await run({ confirm: true });
    assert.equal(confirmed.ok, false);
    assert.match(
      confirmed.error ?? '',
      /Code: 164\. DB::Exception: Cannot execute query in readonly mode\. \(READONLY\)/,
    );
    assert.match(confirmed.error ?? '', /HTTP 400/);
    const unprompted = await run({ noPrompt: true });
    assert.notEqual(unprompted.declined, 'write', 'noPrompt runs it without asking, as the old confirm: true did');
    assert.match(unprompted.error ?? '', /\(READONLY\)/);
  });

  it('shows a ClickHouse error with its code, name and query ID', async () => {
    const out = await run({ sql: 'SELECT * FROM no_such_table', ...(await bound()) });
    assert.equal(out.ok, false);
    assert.match(out.error ?? '', /^Run query failed: HTTP 400 — Code: 60\. DB::Exception: .*\(UNKNOWN_TABLE\)/);
    assert.match(out.error ?? '', /requestId [0-9a-f-]{36}/);
    assert.ok(!(out.error ?? '').includes(emulator.keySecret));
  });

  it('names a stopped service, an error after the first rows and a dropped connection, and keeps the SQL document', async () => {
    const target = await bound();
    const path = `/service/${serviceA}/run`;
    emulator.faults.add({
      path,
      status: 404,
      body: { error: 'ClickHouse service is currently unavailable. Please try again later.' },
      times: 1,
    });
    const stopped = await run({ sql: 'SELECT 1', ...target });
    assert.equal(stopped.ok, false);
    assert.equal(stopped.reason, 'serviceStopped');
    assert.match(stopped.error ?? '', /^Run query failed: HTTP 404 — ClickHouse service is currently unavailable\./);
    assert.match(stopped.error ?? '', /Start it in the ClickHouse Cloud console/);

    const typed = 'SELECT throwIf(number = 5000) FROM numbers(8000) SETTINGS max_block_size = 1000';
    const doc = await vscode.workspace.openTextDocument({ language: 'sql', content: typed });
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('observability.chooseQueryTarget', {
      uri: doc.uri.toString(),
      connectionId,
      serviceId: serviceA,
    });
    const mid = await run({ uri: doc.uri.toString() });
    assert.equal(mid.reason, 'sql', mid.error);
    assert.equal(doc.getText(), typed, 'the SQL stays in its document');
    assert.equal(vscode.window.activeTextEditor?.document, doc);
    assert.match(mid.error ?? '', /Code: 395\. DB::Exception: .*\(FUNCTION_THROW_IF_VALUE_IS_NON_ZERO\)/);
    assert.match(mid.error ?? '', /The statement failed after \d+ row\(s\) had arrived\./);
    assert.ok(!(mid.error ?? '').includes('__exception__'));

    emulator.faults.add({ path, reset: 'mid-body', times: 1 });
    const dropped = await run({ sql: 'SELECT number FROM numbers(1000000)', ...target });
    assert.equal(dropped.ok, false);
    assert.match(dropped.error ?? '', /^Run query failed/);
    assert.notEqual(dropped.reason, 'sql');
  });

  it('names a line of rows that is not JSON: the run fails when it is in the first rows, copying fails when it is later', async () => {
    const target = await bound();
    const path = `/service/${serviceA}/run`;
    const body = (rows: number, bad: number): string =>
      [
        '["n","s"]',
        '["UInt32","String"]',
        ...Array.from({ length: rows }, (_, i) => (i === bad ? `[${i},"cut` : `[${i},"x"]`)),
      ].join('\n') + '\n';
    assert.equal((await run({ sql: 'SELECT 42 AS answer', ...target })).ok, true);
    emulator.faults.add({ path, status: 200, body: body(300, 30), times: 1 });
    const early = await run({ sql: 'SELECT 1', ...target });
    assert.equal(early.ok, false);
    assert.match(early.error ?? '', /^Run query failed: HTTP 200 — .*line 33 of the result is not a row of JSON/);
    const kept = await vscode.commands.executeCommand<string>('observability.copyQueryResult', 'csv');
    assert.match(kept ?? '', /^answer\r?\n42/, "the result shown before is still the panel's");

    // Far enough into a larger body that the first rows arrive in another block of it.
    emulator.faults.add({ path, status: 200, body: body(10_000, 9_500), times: 1 });
    const late = await run({ sql: 'SELECT 1', ...target });
    assert.equal(late.ok, true, late.error);
    assert.equal(late.rows, 10_000, 'every line of rows is counted');
    assert.deepEqual(late.firstRows?.[49], [49, 'x'], 'the first rows are shown');
    assert.equal(await vscode.commands.executeCommand('observability.copyQueryResult', 'csv'), undefined, 'not copied');
  });

  it('enables the key on the query endpoint when the query host says it is not enabled, keeping the other keys', async () => {
    endpointOf(serviceA).queryEndpoint = {
      id: 'e1f0c8e2-3a4d-4e5f-8a6b-7c8d9e0f1a2b',
      roles: ['sql_console_read_only'],
      openApiKeys: [OTHER_KEY],
      allowedOrigins: '',
    };
    const declined = await run({ sql: 'SELECT 1', enableKey: false, ...(await bound()) });
    assert.equal(declined.ok, false);
    assert.equal(declined.reason, 'keyNotEnabled');
    assert.match(declined.error ?? '', /not enabled on the service's query endpoint/);
    const out = await run({ sql: 'SELECT 42 AS answer', enableKey: true, confirm: true, ...(await bound()) });
    assert.ok(out.ok, out.error);
    assert.equal(out.keyEnabled, true);
    assert.deepEqual(out.firstRows, [[42]]);
    assert.deepEqual(endpointOf(serviceA).queryEndpoint?.openApiKeys, [OTHER_KEY, SAMPLE_KEY_UUID]);
    assert.deepEqual(endpointOf(serviceA).queryEndpoint?.roles, ['sql_console_read_only']);
    const upsert = emulator.requests.find((r) => r.method === 'POST' && r.path.endsWith('/serviceQueryEndpoint'));
    assert.deepEqual(upsert?.body, { roles: ['sql_console_read_only'], openApiKeys: [OTHER_KEY, SAMPLE_KEY_UUID] });
  });

  it('never wakes an idle service without asking', async () => {
    endpointOf(serviceB).queryEndpoint = {
      id: 'f1f0c8e2-3a4d-4e5f-8a6b-7c8d9e0f1a2b',
      roles: ['sql_console_read_only'],
      openApiKeys: [SAMPLE_KEY_UUID],
      allowedOrigins: '',
    };
    const doc = await vscode.workspace.openTextDocument({ language: 'sql', content: 'SELECT 1 AS awake' });
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('observability.chooseQueryTarget', {
      uri: doc.uri.toString(),
      connectionId,
      serviceId: serviceB,
    });
    const declined = await run({ wake: false });
    assert.equal(declined.declined, 'wake');
    assert.equal(emulator.state.services[1]?.state, 'idle');
    const out = await run({ wake: true });
    assert.ok(out.ok, out.error);
    assert.deepEqual(out.firstRows, [[1]]);
    assert.equal(emulator.state.services[1]?.state, 'running');
  });

  it('shows the last of several statements and lets the user pick each earlier one', async () => {
    const out = await run({
      sql: "SELECT 1 AS one;\nSELECT number AS n FROM numbers(3);\nSELECT 'x' AS a, 'y' AS b",
      ...(await bound()),
    });
    assert.ok(out.ok, out.error);
    assert.equal(out.statements, 3);
    assert.deepEqual(
      out.columns?.map((c) => c.name),
      ['a', 'b'],
    );
    assert.deepEqual(
      out.rendered && { statements: out.rendered.statements, statement: out.rendered.statement },
      { statements: 3, statement: 2 },
      'the panel offers the 3 statements, the last shown',
    );
    const panel = api().query.panel;
    const second = await panel.showStatement(1);
    assert.deepEqual(
      second?.rendered && {
        rows: second.rendered.rows,
        columns: second.rendered.columns,
        statement: second.rendered.statement,
      },
      { rows: 3, columns: 1, statement: 1 },
    );
    assert.equal(
      await vscode.commands.executeCommand<string>('observability.copyQueryResult', 'csv'),
      'n\r\n0\r\n1\r\n2\r\n',
      'copy takes the statement shown',
    );
    const first = await panel.showStatement(0);
    assert.equal(first?.rendered?.statement, 0);
    assert.equal(await vscode.commands.executeCommand<string>('observability.copyQueryResult', 'csv'), 'one\r\n1\r\n');
  });

  it('shows a UInt64 beyond 2^53 exactly, as its decimal text', async () => {
    const out = await run({
      sql: 'SELECT toUInt64(18446744073709551615) AS big, toUInt64(7) AS small',
      ...(await bound()),
    });
    assert.ok(out.ok, out.error);
    assert.deepEqual(out.firstRows, [['18446744073709551615', 7]]);
    assert.deepEqual(Object.keys(queryRuns().at(-1)?.query ?? {}), ['format']);
    assert.equal(out.rendered?.rows, 1);
    const csv = await vscode.commands.executeCommand<string>('observability.copyQueryResult', 'csv');
    assert.equal(csv, 'big,small\r\n18446744073709551615,7\r\n');
  });

  it('shows, copies and saves every row of a long result with maps and arrays as the query gave them', async () => {
    // More rows than the first screens and than one batch: the rows after them are read back from the result kept.
    await configure('query.maxRows', 20_000);
    const out = await run({
      sql: "SELECT number AS n, toUInt64(number) * 4000000000000 AS big, map('k', toString(number), 'q', '\"') AS m, [toUInt32(number), 2] AS a FROM numbers(12345)",
      ...(await bound()),
    });
    await configure('query.maxRows', undefined);
    assert.ok(out.ok, out.error);
    assert.equal(out.rows, 12_345);
    assert.equal(out.rendered?.rows, 12_345);
    assert.deepEqual(out.firstRows?.[3], [3, 12_000_000_000_000, { k: '3', q: '"' }, [3, 2]]);
    const until = Date.now() + 20_000;
    while (api().query.panel.current.loadedRows !== 12_345 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(api().query.panel.current.loadedRows, 12_345, 'every row reached the table');
    const json = JSON.parse(
      (await vscode.commands.executeCommand<string>('observability.copyQueryResult', 'json')) ?? '',
    );
    assert.equal(json.length, 12_345);
    assert.deepEqual(json[12_344], { n: 12_344, big: '49376000000000000', m: { k: '12344', q: '"' }, a: [12_344, 2] });
    const csv = (await vscode.commands.executeCommand<string>('observability.copyQueryResult', 'csv')) ?? '';
    const lines = csv.split('\r\n');
    assert.equal(lines.length, 12_347, 'header, every row and the final line break');
    assert.equal(lines[6000], '5999,23996000000000000,"{""k"":""5999"",""q"":""\\""""}","[5999,2]"');
  });

  it('completes the tables of the service and the columns of the table a statement names, asking DESCRIBE once', async () => {
    const describes = () =>
      queryRuns().filter((r) =>
        /^DESCRIBE TABLE\b.*`otel_logs`/.test(String((r.body as { sql?: unknown } | undefined)?.sql ?? '')),
      );
    const before = describes().length;
    const doc = await vscode.workspace.openTextDocument({ language: 'sql', content: 'SELECT  FROM otel_logs' });
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('observability.chooseQueryTarget', {
      uri: doc.uri.toString(),
      connectionId,
      serviceId: serviceA,
    });
    const labels = async (): Promise<string[]> => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        doc.uri,
        new vscode.Position(0, 7),
      );
      return list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    };
    const first = await labels();
    for (const table of ['otel_logs', 'otel_traces', 'hyperdx_sessions']) {
      assert.ok(first.includes(table), `table ${table} offered`);
    }
    for (const column of ['Timestamp', 'ServiceName', 'SeverityText', 'Body', 'LogAttributes']) {
      assert.ok(first.includes(column), `column ${column} offered`);
    }
    assert.ok(!first.includes('SpanName'), 'no column of a table the statement does not name');
    assert.equal(describes().length - before, 1, 'DESCRIBE asked once');
    const again = await labels();
    assert.ok(again.includes('ServiceName'));
    assert.equal(describes().length - before, 1, 'the columns come from the cache the second time');
  });

  it('gives the demo connection the query host named in OBS_DEMO_CONNECTION', async () => {
    await vscode.commands.executeCommand('observability.setQueryHost', {
      connectionId,
      queryUrl: 'http://127.0.0.1:9',
    });
    const targets = api().query.targets;
    assert.equal(targets.queryHost(connectionId), 'http://127.0.0.1:9');
    const demo = {
      baseUrl: `${emulator.url}/`,
      keyId: emulator.keyId,
      organizationId: emulator.organizationId,
      queryUrl: emulator.queryUrl,
    };
    const demoApi = api() as unknown as DemoApi;
    const parsed = (raw: object) => {
      const args = parseDemoConnection(JSON.stringify(raw));
      if (typeof args === 'string') assert.fail(args);
      return args;
    };
    const sub = applyDemoQueryHost(demoApi, parsed(demo));
    try {
      const until = Date.now() + 20_000;
      while (targets.queryHost(connectionId) !== emulator.queryUrl && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(targets.queryHost(connectionId), emulator.queryUrl);
      const out = await run({ sql: 'SELECT 5 AS five', ...(await bound()) });
      assert.ok(out.ok, out.error);
      assert.deepEqual(out.firstRows, [[5]]);
    } finally {
      sub.dispose();
      await vscode.commands.executeCommand('observability.setQueryHost', { connectionId, queryUrl: emulator.queryUrl });
    }
    const ignored = applyDemoQueryHost(
      demoApi,
      parsed({ ...demo, baseUrl: 'http://127.0.0.1:1', queryUrl: 'http://127.0.0.1:9' }),
    );
    ignored.dispose();
    assert.equal(
      targets.queryHost(connectionId),
      emulator.queryUrl,
      'a connection to another address keeps its query host',
    );
  });

  async function bound(): Promise<{ uri: string }> {
    const doc = await vscode.workspace.openTextDocument({ language: 'sql', content: '' });
    await vscode.commands.executeCommand('observability.chooseQueryTarget', {
      uri: doc.uri.toString(),
      connectionId,
      serviceId: serviceA,
    });
    return { uri: doc.uri.toString() };
  }
});
