/**
 * Traces in the editor, on a Cloud connection to the emulator (frozen clock): Observability: Open Trace with an
 * argument opens the failing showcase trace in the trace panel, and its model (span count, nesting, the error span
 * and its exception type, the logs of the trace) equals plain SQL written here; the orphan trace marks its orphan; a
 * malformed trace ID is refused before anything is sent; the Get Trace agent tool answers with the tree, the failed
 * span first; on a self-hosted connection it needs ClickHouse access and reads the trace there.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ClickHouseEngine } from '../emulator/clickhouse/engine';
import { SHOWCASE } from '../emulator/clickhouse/traces';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import { startEmulator, type Emulator } from '../emulator/server';
import { activate, closeAll, configure, exportedApi, waitFor } from './support';

interface TraceModelView {
  traceId: string;
  sourceName: string;
  tree: {
    spans: {
      spanId: string;
      parentSpanId: string;
      name: string;
      service: string;
      events: { name: string; attributes: Record<string, string> }[];
    }[];
    rows: { span: number; depth: number; parent: number; orphan: boolean; error: boolean }[];
    errors: number;
    orphans: number;
  };
  logs: { spanId: string; body: string }[];
  notes: string[];
}

const LABEL = 'Traces (Cloud)';

describe('Traces (Cloud)', function () {
  this.timeout(180_000);
  let emulator: Emulator;
  let connectionId = '';
  let serviceId = '';
  let database = '';

  /** Rows of plain SQL on the service's data, read as the emulator's frozen clock sees it. */
  async function plain(sql: string): Promise<Record<string, unknown>[]> {
    const engine = await ClickHouseEngine.shared();
    let text = '';
    await engine.run(
      sql,
      'JSONEachRow',
      database,
      new AbortController().signal,
      () => undefined,
      async (bytes) => {
        text += Buffer.from(bytes).toString('utf8');
        return true;
      },
      {},
      emulator.now(),
    );
    return text
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  const openTrace = (traceId: string) =>
    vscode.commands.executeCommand<TraceModelView | undefined>('observability.openTrace', {
      connectionId,
      serviceId,
      traceId,
    });

  before(async () => {
    await configure('rateLimit.requestsPerWindow', 1000);
    await configure('requestTimeoutSeconds', 120);
    emulator = await startEmulator({ rateLimit: false, now: 'start' });
    await activate();
    serviceId = emulator.serviceIds[0]!;
    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: emulator.url,
      keyId: emulator.keyId,
      keySecret: emulator.keySecret,
      organizationId: emulator.organizationId,
      serviceIds: [serviceId],
      label: LABEL,
      skipCheck: true,
    });
    await vscode.commands.executeCommand('observability.setQueryHost', { connectionId, queryUrl: emulator.queryUrl });
    const data = emulator.state.data.get(serviceId)!;
    data.queryEndpoint = {
      id: 'e1f0c8e2-3a4d-4e5f-8a6b-7c8d9e0f1a4d',
      roles: ['sql_console_read_only'],
      openApiKeys: [SAMPLE_KEY_UUID],
      allowedOrigins: '',
    };
    const traces = [...data.sources.values()].find((s) => s.kind === 'trace') as { from: { databaseName: string } };
    database = traces.from.databaseName;
  });

  after(async () => {
    await closeAll();
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, noPrompt: true });
    }
    await configure('rateLimit.requestsPerWindow', undefined);
    await configure('requestTimeoutSeconds', undefined);
    await emulator?.close();
  });

  it('opens the failing trace: spans, nesting, the error span with its exception and the logs equal plain SQL', async () => {
    const model = await openTrace(SHOWCASE.refund.toUpperCase());
    assert.ok(model, 'the trace opened');
    assert.equal(model.traceId, SHOWCASE.refund, 'the trace ID is read in lower case');
    const spans = await plain(
      `SELECT SpanId, ParentSpanId, SpanName, ServiceName, StatusCode, Events.Name AS events, Events.Attributes AS attrs
       FROM otel_traces WHERE TraceId = '${SHOWCASE.refund}' ORDER BY Timestamp`,
    );
    const { tree } = model;
    assert.equal(tree.rows.length, spans.length, 'one row a span');
    for (const p of spans) {
      const row = tree.rows.find((r) => tree.spans[r.span]!.spanId === p.SpanId);
      assert.ok(row, `span ${String(p.SpanId)} is shown`);
      const parent = row.parent >= 0 ? tree.spans[tree.rows[row.parent]!.span]!.spanId : '';
      assert.equal(parent, p.ParentSpanId, `span ${String(p.SpanId)} is nested under its parent`);
      assert.equal(tree.spans[row.span]!.name, p.SpanName);
      assert.equal(row.error, p.StatusCode === 'Error' || (p.events as string[]).includes('exception'));
    }
    const failed = spans.filter((p) => (p.events as string[]).includes('exception'));
    assert.equal(failed.length, 1);
    const expected = (failed[0]!.attrs as Record<string, string>[])[
      (failed[0]!.events as string[]).indexOf('exception')
    ]!;
    const span = tree.spans.find((s) => s.spanId === failed[0]!.SpanId)!;
    const exception = span.events.find((e) => e.name === 'exception')!;
    assert.equal(exception.attributes['exception.type'], expected['exception.type']);
    assert.equal(exception.attributes['exception.type'], 'java.lang.IllegalStateException');
    assert.match(exception.attributes['exception.stacktrace']!, /\n\tat com\.example\.orders/);
    assert.equal(
      tree.errors,
      spans.filter((p) => p.StatusCode === 'Error' || (p.events as string[]).includes('exception')).length,
    );
    assert.equal(tree.orphans, 0);

    const logs = await plain(
      `SELECT SpanId, Body FROM otel_logs WHERE TraceId = '${SHOWCASE.refund}' ORDER BY Timestamp`,
    );
    assert.ok(logs.length > 0, 'the trace has log lines');
    assert.deepEqual(
      model.logs.map((l) => [l.spanId, l.body]),
      logs.map((l) => [l.SpanId, l.Body]),
    );
    assert.deepEqual(model.notes, []);
    // The window's tab model reaches the extension host a moment after the panel is made.
    await waitFor('the trace panel is open', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => t.label === `Trace ${SHOWCASE.refund.slice(0, 8)}`),
    );
  });

  it('marks the orphan span (its parent was never exported)', async () => {
    const model = await openTrace(SHOWCASE.orphan);
    assert.ok(model);
    const orphans = model.tree.rows.filter((r) => r.orphan).map((r) => model.tree.spans[r.span]!.parentSpanId);
    assert.deepEqual(orphans, [SHOWCASE.missingParent]);
    const [count] = await plain(`SELECT count() AS n FROM otel_traces WHERE TraceId = '${SHOWCASE.orphan}'`);
    assert.equal(model.tree.rows.length, Number(count!.n));
  });

  /** The SQL of the query endpoint's runs since `from` (an index into the emulator's requests). */
  const sqlSince = (from: number) =>
    emulator.requests
      .slice(from)
      .filter((r) => /\/run\b/.test(r.path))
      .map((r) => String((r.body as { sql?: unknown } | undefined)?.sql ?? ''));
  const HOUR = 3_600_000;
  /** Epoch ms of a ClickHouse date text (UTC), to the millisecond. */
  const epochMs = (text: string) => Date.parse(`${text.replace(' ', 'T').replace(/(\.\d{3})\d*$/, '$1')}Z`);

  it("opens a trace from a SQL result's TraceId cell: on the result's service, an hour either side of the row's time", async () => {
    const sql = `SELECT Timestamp, TraceId, SpanName FROM otel_traces WHERE TraceId = '${SHOWCASE.refund}' ORDER BY Timestamp LIMIT 1`;
    await vscode.commands.executeCommand('observability.newQuery', { connectionId, serviceId, sql });
    const out = await vscode.commands.executeCommand<{ ok: boolean; firstRows?: unknown[][]; error?: string }>(
      'observability.runQuery',
      {},
    );
    assert.ok(out?.ok, out?.error);
    const [time, traceId] = out.firstRows![0] as [string, string];
    assert.equal(traceId, SHOWCASE.refund);
    const sentBefore = emulator.requests.length;
    // What the results panel does with the page's message for a click on the cell.
    const model = (await exportedApi<{
      query: { panel: { openTrace(cell: unknown): Thenable<unknown> } };
    }>().query.panel.openTrace({ traceId, time })) as
      (TraceModelView & { range?: { from: number; to: number } }) | undefined;
    assert.ok(model, 'the trace opened');
    const t = epochMs(time);
    assert.deepEqual(model.range, { from: t - HOUR, to: t + HOUR });
    const [count] = await plain(`SELECT count() AS n FROM otel_traces WHERE TraceId = '${SHOWCASE.refund}'`);
    assert.equal(model.tree.rows.length, Number(count!.n), 'every span of the trace is in the window');
    const sent = sqlSince(sentBefore).filter((q) => q.includes(SHOWCASE.refund));
    assert.equal(sent.length, 2, 'the spans and the logs, once each');
    for (const q of sent) {
      assert.ok(q.includes(`>= fromUnixTimestamp64Milli(toInt64(${t - HOUR}))`), `bounded below: ${q}`);
      assert.ok(q.includes(`<= fromUnixTimestamp64Milli(toInt64(${t + HOUR}))`), `bounded above: ${q}`);
    }
  });

  it("reads the whole table when the trace is not in the row time's window (a clock apart)", async () => {
    const sentBefore = emulator.requests.length;
    const yearAgo = emulator.now() - 365 * 24 * HOUR;
    const model = (await vscode.commands.executeCommand('observability.openTrace', {
      connectionId,
      serviceId,
      traceId: SHOWCASE.refund,
      time: yearAgo,
    })) as (TraceModelView & { range?: unknown }) | undefined;
    assert.ok(model && model.tree.rows.length > 0, 'the trace opened');
    assert.equal(model.range, undefined, 'read without a range');
    const spans = sqlSince(sentBefore).filter((q) => q.includes(SHOWCASE.refund) && /FROM .*otel_traces/.test(q));
    assert.equal(spans.length, 2, 'the window first, then the whole table');
    assert.match(spans[0]!, new RegExp(`toInt64\\(${yearAgo - HOUR}\\)`));
    assert.doesNotMatch(spans[1]!, /fromUnixTimestamp64Milli/);
  });

  it('comes back after a window reload: the restored panel reads its trace again in its range', async () => {
    const api = exportedApi<{ traces: { restore(p: vscode.WebviewPanel, s: unknown): Promise<unknown> } }>();
    await closeAll();
    const t = emulator.now();
    const range = { from: t - 48 * HOUR, to: t };
    const sentBefore = emulator.requests.length;
    // The panel VS Code hands the serializer, with the state the page kept.
    const panel = vscode.window.createWebviewPanel('observability.trace', 'Trace', vscode.ViewColumn.One, {});
    const model = (await api.traces.restore(panel, {
      connectionId,
      serviceId,
      traceId: SHOWCASE.refund,
      range,
    })) as (TraceModelView & { range?: unknown }) | undefined;
    assert.ok(model && model.tree.rows.length > 0, 'the trace is drawn again');
    assert.deepEqual(model.range, range);
    const sent = sqlSince(sentBefore).filter((q) => q.includes(SHOWCASE.refund));
    assert.ok(sent.length >= 1);
    assert.ok(sent[0]!.includes(`toInt64(${range.from})`), 'in the range it had');
    assert.equal(panel.title, `Trace ${SHOWCASE.refund.slice(0, 8)}`);

    // A state naming a connection that is gone: the panel says so, nothing is sent.
    const gone = vscode.window.createWebviewPanel('observability.trace', 'Trace', vscode.ViewColumn.One, {});
    const before = emulator.requests.length;
    const none = await api.traces.restore(gone, {
      connectionId: 'removed',
      serviceId,
      traceId: SHOWCASE.orphan,
    });
    assert.equal(none, undefined);
    assert.deepEqual(emulator.requests.slice(before), []);
    gone.dispose();
    await closeAll();
  });

  it('refuses a malformed trace ID before any SQL is sent', async () => {
    const sentBefore = emulator.requests.length;
    assert.equal(await openTrace("not-a-trace' OR 1=1"), undefined);
    const sent = emulator.requests.slice(sentBefore).filter((r) => /\/run\b/.test(r.path));
    assert.deepEqual(sent, []);
  });

  it('Get Trace answers with the tree: the failed span and its exception, orphans counted', async () => {
    const result = await vscode.lm.invokeTool(
      'observability_getTrace',
      { input: { connection: LABEL, traceId: SHOWCASE.refund }, toolInvocationToken: undefined },
      new vscode.CancellationTokenSource().token,
    );
    const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    const [count] = await plain(`SELECT count() AS n FROM otel_traces WHERE TraceId = '${SHOWCASE.refund}'`);
    assert.match(text, new RegExp(`Trace ${SHOWCASE.refund} of .*: ${Number(count!.n)} spans`));
    assert.match(text, /exception: java\.lang\.IllegalStateException: Refund amount/);
    assert.match(text, /\n {6}- RefundService\.refund \[orders\] .*ERROR java\.lang\.IllegalStateException/);
    // How the user sees it in the editor: the command and its argument, naming this trace on this service.
    assert.ok(
      text.includes(`observability.openTrace with {"connectionId":"${connectionId}","serviceId":"${serviceId}",`),
      text,
    );
    assert.ok(text.includes(`"traceId":"${SHOWCASE.refund}"}`));
  });
});

describe('Traces (self-hosted)', function () {
  this.timeout(180_000);
  let oss: Emulator;
  let connectionId = '';
  let serviceId = '';

  before(async () => {
    await configure('rateLimit.requestsPerWindow', 1000);
    await configure('requestTimeoutSeconds', 120);
    oss = await startEmulator({ flavor: 'oss', rateLimit: false, now: 'start' });
    await activate();
    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      kind: 'selfHosted',
      baseUrl: oss.url,
      apiKey: oss.ossApiKey,
      label: 'Traces (self-hosted)',
    });
    const connections = exportedApi().connections as unknown as { get(id: string): { serviceIds: string[] } };
    serviceId = connections.get(connectionId).serviceIds[0]!;
  });

  after(async () => {
    await closeAll();
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, noPrompt: true });
    }
    await configure('rateLimit.requestsPerWindow', undefined);
    await configure('requestTimeoutSeconds', undefined);
    await oss?.close();
  });

  it('needs ClickHouse access (nothing is sent without it); with it, the trace is read there', async () => {
    const open = () =>
      vscode.commands.executeCommand<TraceModelView | undefined>('observability.openTrace', {
        connectionId,
        serviceId,
        traceId: SHOWCASE.refund,
      });
    const sentBefore = oss.requests.length;
    assert.equal(await open(), undefined, 'no ClickHouse access: nothing opens');
    assert.deepEqual(oss.requests.slice(sentBefore), [], 'and nothing is sent');
    await vscode.commands.executeCommand('observability.setClickHouseAccess', {
      connectionId,
      url: oss.clickHouseHttpUrl,
      user: oss.clickHouseUser,
      password: oss.clickHousePassword,
    });
    const model = await open();
    assert.ok(model, 'the trace opened on ClickHouse');
    assert.ok(model.tree.errors > 0);
    assert.ok(model.logs.length > 0);
    assert.ok(
      model.tree.spans.some((s) =>
        s.events.some((e) => e.attributes['exception.type'] === 'java.lang.IllegalStateException'),
      ),
    );
  });
});
