/**
 * Where SQL may go without the user naming it, in VS Code against the emulator: a connection whose base URL is not
 * ClickHouse Cloud's API address has no query host until one is set, so opening alert documents (their "would have
 * fired" lens), completion in a SQL document and the agent's Alert tool send nothing anywhere but that base URL. Every
 * request that leaves for another host is seen by a recording proxy set in `http.proxy` (loopback, where the emulator
 * listens, is never proxied); every request the emulator's API and query host get is recorded. The lens says what is
 * missing and offers the command; once the query host is set it runs there. A query endpoint that refuses the key,
 * or an idle service, holds the lens after one statement: nothing more is sent, and the idle service is not woken.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import type { TestProxy } from '../support/proxy';
import {
  activate,
  closeAll,
  configure,
  readLog,
  replaceText,
  routeThroughProxy,
  waitFor,
  type ExtensionApi,
  type RoutedThroughProxy,
} from './support';

const RUN_PATH = /^\/service\/[^/]+\/run$/;

describe('Query host: SQL goes only where the user said', function () {
  this.timeout(180_000);
  let api: ExtensionApi;
  let emulator: Emulator;
  let routed: RoutedThroughProxy | undefined;
  let proxy: TestProxy;
  let connectionId: string;
  let serviceId: string;
  const label = 'Local API (no query host)';

  const queryRuns = (since: number) => emulator.requests.slice(since).filter((r) => RUN_PATH.test(r.path));
  const endpoint = (keys: string[]) => {
    emulator.state.data.get(serviceId)!.queryEndpoint = {
      id: 'e1f0c8e2-3a4d-4e5f-8a6b-7c8d9e0f1a2d',
      roles: ['sql_console_read_only'],
      openApiKeys: keys,
      allowedOrigins: '',
    };
  };

  /** The alert document of a seeded tile alert, opened as the user opens it from the tree. */
  async function openAlert(): Promise<{ doc: vscode.TextDocument; alertId: string }> {
    const alerts = [...emulator.state.data.get(serviceId)!.alerts.values()] as unknown as {
      id: string;
      source: string;
    }[];
    const target = alerts.find((a) => a.source === 'tile')!;
    const uri = await vscode.commands.executeCommand<string>('observability.editResource', {
      connectionId,
      serviceId,
      alertId: target.id,
    });
    const doc = await waitFor('the alert document', () =>
      vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri),
    );
    return { doc, alertId: target.id };
  }

  /** A new threshold in the alert document: what the lens shows is computed again (a result is kept a while). */
  async function newThreshold(doc: vscode.TextDocument, threshold: number): Promise<void> {
    const value = JSON.parse(doc.getText()) as Record<string, unknown>;
    value.threshold = threshold;
    await replaceText(doc, JSON.stringify(value, null, 2));
  }

  /** The "would have fired" lens of a document once it is no longer computing. */
  async function backtestLens(doc: vscode.TextDocument, pattern: RegExp): Promise<vscode.Command> {
    return waitFor(
      `the backtest lens matching ${pattern}`,
      async () => {
        const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
          'vscode.executeCodeLensProvider',
          doc.uri,
          10,
        );
        const lens = lenses
          .map((l) => l.command)
          .find((c) => c && /backtest|would (have|not have) fired/.test(c.title));
        return lens && pattern.test(lens.title) ? lens : undefined;
      },
      60_000,
    );
  }

  before(async () => {
    api = await activate();
    await configure('rateLimit.requestsPerWindow', 1000);
    emulator = await startEmulator({ rateLimit: false });
    serviceId = emulator.serviceIds[0]!;
    routed = await routeThroughProxy();
    proxy = routed.proxy;
    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: emulator.url,
      keyId: emulator.keyId,
      keySecret: emulator.keySecret,
      organizationId: emulator.organizationId,
      serviceIds: [serviceId],
      label,
      skipCheck: true,
    });
    // Were SQL sent to the emulator's query host, it would answer: only the missing query host keeps it away.
    endpoint([SAMPLE_KEY_UUID]);
  });

  after(async () => {
    await closeAll();
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, skipConfirmation: true });
    }
    await routed?.restore();
    await configure('rateLimit.requestsPerWindow', undefined);
    await emulator?.close();
  });

  it('gives a connection to another address no query host, and sends nothing but to its base URL', async () => {
    const mark = emulator.requests.length;
    const logMark = (await readLog(api)).length;

    // Opening alert documents (and changing one's fields): the lens settles without sending SQL anywhere.
    const { doc, alertId } = await openAlert();
    const settled = /backtest not run|backtest failed|would (have|not have) fired/;
    await backtestLens(doc, settled);
    const value = JSON.parse(doc.getText()) as Record<string, unknown>;
    value.threshold = 123456;
    await replaceText(doc, JSON.stringify(value, null, 2));
    const lens = await backtestLens(doc, settled);

    // The agent's Alert tool: the alert is read from the base URL; its backtest cannot run.
    const result = await vscode.lm.invokeTool(
      'observability_getAlert',
      { input: { connection: label, alert: alertId }, toolInvocationToken: undefined },
      new vscode.CancellationTokenSource().token,
    );
    const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');

    // Completion in a SQL document bound to the service: tables from the sources list, no column read.
    const sql = await vscode.workspace.openTextDocument({ language: 'sql', content: 'SELECT  FROM otel_logs' });
    await vscode.commands.executeCommand('observability.chooseQueryTarget', {
      uri: sql.uri.toString(),
      connectionId,
      serviceId,
    });
    await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      sql.uri,
      new vscode.Position(0, 7),
    );

    // Run Query, which the user starts: refused before anything is sent.
    const run = await vscode.commands.executeCommand<{ ok: boolean; reason?: string; error?: string }>(
      'observability.runQuery',
      { uri: sql.uri.toString(), sql: 'SELECT 1' },
    );

    assert.deepEqual(proxy.records, [], 'no request left for any other host');
    assert.deepEqual(queryRuns(mark), [], 'no SQL reached a query host');
    assert.ok(emulator.requests.length > mark, 'the base URL was asked (the alert, its dashboards)');
    assert.doesNotMatch((await readLog(api)).slice(logMark), /queries\.clickhouse\.cloud/);

    // What each says: the lens why it did not run, with Set Query Host; the tool and Run Query the same.
    assert.equal(api.query.targets.queryHost(connectionId), undefined, 'no query host without one set');
    assert.match(lens.title, /backtest not run: .*no query host/);
    assert.equal(lens.command, 'observability.setQueryHost');
    assert.deepEqual(lens.arguments, [{ connectionId }]);
    assert.match(text, /backtest: could not be computed: .*no query host/);
    assert.equal(run.ok, false);
    assert.equal(run.reason, 'noQueryHost');
    assert.match(String(run.error), /Set Query Host/);
  });

  it('runs the lens on the query host once it is set', async () => {
    await closeAll();
    const host = await vscode.commands.executeCommand<string>('observability.setQueryHost', {
      connectionId,
      queryUrl: emulator.queryUrl,
    });
    assert.equal(host, emulator.queryUrl);
    const mark = emulator.requests.length;
    const { doc } = await openAlert();
    await backtestLens(doc, /would (have|not have) fired/);
    assert.ok(queryRuns(mark).length > 0, 'the backtest ran on the query host');
    assert.deepEqual(proxy.records, []);
  });

  it('holds the lens after the query endpoint refuses the key: one statement, then nothing until the key is enabled', async () => {
    await closeAll();
    endpoint([]);
    // A change of the query host lifts every hold; the lens starts from nothing.
    await vscode.commands.executeCommand('observability.setQueryHost', { connectionId, queryUrl: emulator.queryUrl });
    const { doc } = await openAlert();
    const mark = emulator.requests.length;
    await newThreshold(doc, 111111);
    const lens = await backtestLens(doc, /backtest not run/);
    assert.match(lens.title, /not enabled on the query endpoint/);
    assert.equal(lens.command, 'observability.enableQueryKey');
    assert.deepEqual(lens.arguments, [{ connectionId, serviceId }]);
    const refused = queryRuns(mark).length;
    assert.equal(refused, 1, 'one statement met the refusal; the rest were held');
    await newThreshold(doc, 654321);
    await backtestLens(doc, /backtest not run/);
    assert.equal(queryRuns(mark).length, refused, 'a changed alert sends nothing while the key is not enabled');

    const enabled = await vscode.commands.executeCommand<{ enabled: boolean }>('observability.enableQueryKey', {
      connectionId,
      serviceId,
      noPrompt: true,
    });
    assert.equal(enabled.enabled, true);
    await backtestLens(doc, /would (have|not have) fired/);
  });

  it('never wakes an idle service in the background: the lens waits for the user', async () => {
    await closeAll();
    const service = emulator.state.services.find((s) => s.id === serviceId)!;
    const before = service.state;
    service.state = 'idle';
    try {
      await vscode.commands.executeCommand('observability.setQueryHost', {
        connectionId,
        queryUrl: emulator.queryUrl,
      });
      const { doc } = await openAlert();
      const mark = emulator.requests.length;
      await newThreshold(doc, 222222);
      const lens = await backtestLens(doc, /backtest not run/);
      assert.match(lens.title, /is idle/);
      assert.equal(lens.command, 'observability.backtestAlert', 'clicking it runs the backtest by hand');
      assert.equal(service.state, 'idle', 'the service was not woken');
      assert.equal(queryRuns(mark).length, 1, 'one statement met the idle service; the rest were held');
    } finally {
      service.state = before;
    }
  });

  it('does not use the query host set for a connection once the connection moves to another address', async () => {
    await vscode.commands.executeCommand('observability.setQueryHost', { connectionId, queryUrl: emulator.queryUrl });
    assert.equal(api.query.targets.queryHost(connectionId), emulator.queryUrl);
    await api.connections.update(connectionId, { baseUrl: 'http://127.0.0.1:9' }, emulator.keySecret);
    try {
      assert.equal(api.query.targets.queryHost(connectionId), undefined, 'the host was set for the old address');
    } finally {
      await api.connections.update(connectionId, { baseUrl: emulator.url }, emulator.keySecret);
    }
  });

  it('keeps ClickHouse Cloud’s query host for a connection to ClickHouse Cloud’s API address', async () => {
    // Checked last: the tree may read this connection's folders (through the proxy, which refuses them).
    const id = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: 'https://api.clickhouse.cloud',
      keyId: emulator.keyId,
      keySecret: emulator.keySecret,
      organizationId: emulator.organizationId,
      serviceIds: [serviceId],
      label: 'ClickHouse Cloud (default query host)',
      skipCheck: true,
    });
    try {
      assert.equal(api.query.targets.queryHost(id), 'https://queries.clickhouse.cloud');
    } finally {
      await vscode.commands.executeCommand('observability.removeConnection', {
        connectionId: id,
        skipConfirmation: true,
      });
    }
  });
});
