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
