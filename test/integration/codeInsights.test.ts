/**
 * Code insights in VS Code against the emulator (frozen clock, a real embedded ClickHouse): the sample workspace of
 * test/fixtures/codeWorkspace (TypeScript, Python, Java) copied into the host's workspace folder; nothing is queried
 * before the folder's service pick; after it, one aggregate statement serves the lenses of every file opened, and
 * each lens's figures are those plain SQL written here gives for the span it names.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import { CODE_SERVICES } from '../emulator/clickhouse/codeSpans';
import { activate, configure, exportedApi as api, sleep, waitFor } from './support';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/codeWorkspace');
const FILES = {
  cart: 'src/checkout/cart.ts',
  charge: 'app/payments/charge.py',
  stock: 'src/main/java/com/shop/inventory/StockService.java',
};
/** Each lens (file, 0-based line of the definition's name) and the span name of the spans naming it. */
const EXPECTED: [keyof typeof FILES, number, string][] = [
  ['cart', 9, 'CartService.addItem'],
  ['cart', 15, 'CartService.removeItem'],
  ['cart', 20, 'CartService.total'],
  ['cart', 28, 'Invoice.total'],
  ['cart', 33, 'applyCoupon'],
  ['charge', 7, 'Charger.charge'],
  ['charge', 11, 'Charger.refund'],
  ['charge', 16, 'validate_amount'],
  ['stock', 8, 'StockService.reserve'],
  ['stock', 17, 'StockService.release'],
];

interface LensArg {
  figures: { calls: number; errors: number; p95Ms: number | null; definition: { name: string } };
  bounds: { from: number; to: number };
  plain: boolean;
}

async function ourLenses(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  const all = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
  return all.filter((l) => l.command?.command === 'observability.codeInsights.showFigures');
}

const compact = (n: number) => (n < 1000 ? String(n) : `${(n / 1000).toFixed(1).replace(/\.0$/, '')}k`);

describe('Code insights', function () {
  this.timeout(900_000);
  let emulator: Emulator;
  let connectionId: string;
  let serviceId: string;
  let root: vscode.Uri;
  let folder: vscode.WorkspaceFolder;
  const runs = () => emulator.requests.filter((r) => r.path.endsWith('/run')).length;
  const uriOf = (k: keyof typeof FILES) => vscode.Uri.joinPath(root, FILES[k]);

  before(async () => {
    await configure('rateLimit.requestsPerWindow', 1000);
    emulator = await startEmulator({ rateLimit: false, now: 'start' });
    await activate();
    serviceId = emulator.serviceIds[0]!;
    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: emulator.url,
      keyId: emulator.keyId,
      keySecret: emulator.keySecret,
      organizationId: emulator.organizationId,
      serviceIds: emulator.serviceIds.slice(0, 2),
      label: 'Code insights (emulator)',
      skipCheck: true,
    });
    await vscode.commands.executeCommand('observability.setQueryHost', { connectionId, queryUrl: emulator.queryUrl });
    emulator.state.data.get(serviceId)!.queryEndpoint = {
      id: 'c0de1a5e-3a4d-4e5f-8a6b-7c8d9e0f1a2b',
      roles: ['sql_console_read_only'],
      openApiKeys: [SAMPLE_KEY_UUID],
      allowedOrigins: '',
    };
    folder = vscode.workspace.workspaceFolders![0]!;
    assert.ok(folder, 'the test host opens a workspace folder');
    root = vscode.Uri.joinPath(folder.uri, `code-insights-${Date.now()}`);
    await vscode.workspace.fs.copy(vscode.Uri.file(FIXTURES), root, { overwrite: true });
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('observability.codeInsights.chooseService', {
      folder: folder.uri.toString(),
      clear: true,
    });
    if (root) await vscode.workspace.fs.delete(root, { recursive: true, useTrash: false });
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, noPrompt: true });
    }
    await configure('rateLimit.requestsPerWindow', undefined);
    await emulator?.close();
  });

  it('queries nothing and shows no lens before the folder has a service pick', async () => {
    for (const k of Object.keys(FILES) as (keyof typeof FILES)[]) {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uriOf(k)));
      assert.deepEqual(await ourLenses(uriOf(k)), []);
    }
    await sleep(500);
    assert.equal(runs(), 0, 'no statement before the pick');
  });

  it("after the pick, one aggregate serves every file's lenses, each with the figures plain SQL gives", async () => {
    const traces = [...emulator.state.data.get(serviceId)!.sources.values()].find((s) => s.kind === 'trace')!;
    const pick = await vscode.commands.executeCommand<{ sourceId: string }>(
      'observability.codeInsights.chooseService',
      { folder: folder.uri.toString(), connectionId, serviceId, sourceId: traces.id },
    );
    assert.equal(pick?.sourceId, traces.id);
    const lenses = new Map<keyof typeof FILES, vscode.CodeLens[]>();
    for (const k of Object.keys(FILES) as (keyof typeof FILES)[]) {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uriOf(k)));
      const want = EXPECTED.filter(([f]) => f === k).length;
      lenses.set(
        k,
        await waitFor(
          `the lenses of ${FILES[k]}`,
          async () => {
            const got = await ourLenses(uriOf(k));
            return got.length === want ? got : undefined;
          },
          120_000,
        ),
      );
    }
    // Beside the figures, one statement for the exceptions and one for the log counts (code insights' signals).
    await waitFor('the exception and log count statements', () => runs() === 3, 120_000);
    // Open them all again: still the same statements.
    for (const k of Object.keys(FILES) as (keyof typeof FILES)[]) {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uriOf(k)));
      assert.equal((await ourLenses(uriOf(k))).length, lenses.get(k)!.length);
    }
    assert.equal(runs(), 3, 'one aggregate (and one exception, one log count) statement for every file opened');

    const { bounds } = lenses.get('cart')![0]!.command!.arguments![0] as LensArg;
    const sql = `SELECT SpanName, count() AS calls, countIf(StatusCode = 'Error') AS errors,
        quantile(0.95)(Duration / 1e6) AS p95
      FROM otel_traces
      WHERE ServiceName IN (${CODE_SERVICES.map((s) => `'${s}'`).join(', ')})
        AND Timestamp >= fromUnixTimestamp64Milli(${bounds.from}) AND Timestamp < fromUnixTimestamp64Milli(${bounds.to})
      GROUP BY SpanName`;
    const result = await api().query.run(connectionId, { serviceId, sql });
    const want = new Map(
      result.rows.map((r) => [String(r[0]), { calls: Number(r[1]), errors: Number(r[2]), p95: Number(r[3]) }]),
    );
    for (const [k, line, spanName] of EXPECTED) {
      const lens = lenses.get(k)!.find((l) => l.range.start.line === line);
      assert.ok(lens, `a lens on ${FILES[k]}:${line + 1} (${spanName})`);
      const arg = lens.command!.arguments![0] as LensArg;
      const w = want.get(spanName)!;
      assert.ok(w.calls > 0, `spans of ${spanName} lie in the range`);
      assert.equal(arg.figures.calls, w.calls, `${spanName} calls`);
      assert.equal(arg.figures.errors, w.errors, `${spanName} errors`);
      assert.ok(
        Math.abs((arg.figures.p95Ms ?? NaN) - w.p95) < 1e-6,
        `${spanName} p95 ${arg.figures.p95Ms} vs ${w.p95}`,
      );
      assert.match(lens.command!.title, new RegExp(`^${compact(w.calls)} calls · [\\d.]+% errors · p95 .+ · 24 h`));
      if (k !== 'cart') {
        assert.match(lens.command!.title, /\(plain scan\)$/, 'no language server: the plain scan says so');
      }
      const lines = await vscode.commands.executeCommand<string[]>('observability.codeInsights.showFigures', arg, {
        show: false,
      });
      assert.ok(lines.includes(`Calls: ${w.calls}`), lines.join('\n'));
    }
    assert.equal(runs(), 4, 'only the test SQL was added');
  });

  it('lists the hottest, slowest and most failing functions and opens one at its line inside the workspace', async () => {
    const before = runs();
    type Item = { uri: vscode.Uri; row: { function: string; calls: number } };
    const byCalls = await vscode.commands.executeCommand<Item[]>('observability.codeInsights.showHottest', {
      order: 'calls',
      open: 0,
    });
    assert.equal(byCalls[0]?.row.function, 'CartService.addItem');
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), uriOf('cart').toString());
    assert.equal(vscode.window.activeTextEditor?.selection.active.line, 9);
    for (const i of byCalls) {
      assert.ok(i.uri.toString().startsWith(`${root.toString()}/`), `${i.uri} is in the workspace`);
    }
    const bySlowest = await vscode.commands.executeCommand<Item[]>('observability.codeInsights.showHottest', {
      order: 'p95',
      open: 0,
    });
    assert.equal(bySlowest[0]?.row.function, 'refund');
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), uriOf('charge').toString());
    assert.equal(vscode.window.activeTextEditor?.selection.active.line, 11);
    const byErrors = await vscode.commands.executeCommand<Item[]>('observability.codeInsights.showHottest', {
      order: 'errorRate',
      listOnly: true,
    });
    assert.equal(byErrors[0]?.row.function, 'refund');
    assert.equal(runs(), before, 'the list reads the kept aggregate');
  });

  it('weighs each span by its sample rate once the source names one', async () => {
    const traces = [...emulator.state.data.get(serviceId)!.sources.values()].find((s) => s.kind === 'trace')!;
    traces.sampleRateExpression = "SpanAttributes['SampleRate']";
    const before = runs();
    const [outcome] = await vscode.commands.executeCommand<
      { state: string; error?: string; range: { from: number; to: number } }[]
    >('observability.codeInsights.refresh');
    assert.equal(outcome?.state, 'done', outcome?.error);
    assert.equal(runs(), before + 3, 'one statement for the figures (and the exceptions and log counts) per refresh');
    const lens = await waitFor('the weighted lens of reserve', async () => {
      const got = (await ourLenses(uriOf('stock'))).find((l) => l.range.start.line === 8);
      const arg = got?.command?.arguments?.[0] as LensArg | undefined;
      return arg && arg.bounds.to === outcome!.range.to ? arg : undefined;
    });
    const { from, to } = outcome!.range;
    const rate = "greatest(toUInt64OrZero(SpanAttributes['SampleRate']), 1)";
    const sql = `SELECT sum(${rate}), sumIf(${rate}, StatusCode = 'Error'),
        quantileTDigestWeighted(0.95)(Duration / 1e6, toUInt32(${rate}))
      FROM otel_traces
      WHERE ServiceName = 'code-stock' AND SpanName = 'StockService.reserve'
        AND Timestamp >= fromUnixTimestamp64Milli(${from}) AND Timestamp < fromUnixTimestamp64Milli(${to})`;
    const [[calls, errors, p95]] = (await api().query.run(connectionId, { serviceId, sql })).rows as unknown[][] as [
      [unknown, unknown, unknown],
    ];
    assert.equal(lens.figures.calls, Number(calls));
    assert.equal(lens.figures.calls, 4 * 250, 'each span stands for 4 calls');
    assert.equal(lens.figures.errors, Number(errors));
    assert.ok(Math.abs((lens.figures.p95Ms ?? NaN) - Number(p95)) < 1e-6, `p95 ${lens.figures.p95Ms} vs ${p95}`);
    delete traces.sampleRateExpression;
  });

  it('never runs SQL for a service whose query endpoint is not set up', async () => {
    const other = emulator.serviceIds[1]!;
    const traces = [...emulator.state.data.get(other)!.sources.values()].find((s) => s.kind === 'trace')!;
    await vscode.commands.executeCommand('observability.codeInsights.chooseService', {
      folder: folder.uri.toString(),
      connectionId,
      serviceId: other,
      sourceId: traces.id,
    });
    const before = runs();
    const [outcome] = await vscode.commands.executeCommand<{ state: string; error?: string }[]>(
      'observability.codeInsights.refresh',
    );
    assert.equal(outcome?.state, 'failed');
    assert.match(outcome?.error ?? '', /no query endpoint/);
    assert.deepEqual(await ourLenses(uriOf('cart')), []);
    assert.equal(runs(), before, 'no statement was sent');
  });
});
