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
  p95Approx: boolean;
  sourceId: string;
}

interface Example {
  at: number;
  traceId: string;
  durationMs: number;
}

/** What observability.codeInsights.figuresOverTime answers. */
interface OverTime {
  ok: boolean;
  error?: string;
  detail: {
    stepSeconds: number;
    buckets: { at: number; calls: number; errors: number }[];
    slowest: Example[];
    failing: Example[];
  };
  search: { all: { condition: string }; failing: { condition: string } };
  markdown: string;
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
            // Lenses drawn from the plain scan while the symbols are asked for are replaced when they come.
            const final = got.every((l) => !/until the language server answers/.test(l.command?.tooltip ?? ''));
            return got.length === want && final ? got : undefined;
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

  it('draws lenses from the plain scan until the symbol provider answers, then the symbol-based ones at the same functions', async () => {
    const uri = uriOf('cart');
    const lines = EXPECTED.filter(([f]) => f === 'cart').map(([, line, span]) => [line, span] as const);
    // A symbol provider that answers only when the test lets it: the lenses cannot have the symbols before.
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let asked = 0;
    const slow = vscode.languages.registerDocumentSymbolProvider(
      { scheme: 'file', pattern: new vscode.RelativePattern(root, FILES.cart) },
      {
        provideDocumentSymbols: async () => {
          asked++;
          await gate;
          return [];
        },
      },
    );
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const summary = (lenses: vscode.CodeLens[]) =>
      lenses
        .map((l) => {
          const arg = l.command!.arguments![0] as LensArg;
          return `${l.range.start.line}:${arg.figures.definition.name}:${arg.figures.calls}`;
        })
        .sort();
    try {
      // A new version of the file (a blank line added at its end): its symbols are not known yet.
      const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
      assert.ok(await editor.edit((e) => e.insert(end, '\n')));
      const before = await ourLenses(uri);
      assert.ok(asked > 0, 'the symbols were asked for');
      assert.deepEqual(
        before.map((l) => l.range.start.line).sort((a, b) => a - b),
        lines.map(([line]) => line),
        'one lens per function, at its line, before the symbols',
      );
      for (const l of before) {
        assert.match(l.command!.tooltip ?? '', /plain scan until the language server answers/);
        assert.doesNotMatch(l.command!.title, /plain scan/, 'no "no language server" note meanwhile');
        assert.equal((l.command!.arguments![0] as LensArg).plain, false);
      }
      release();
      const after = await waitFor(
        'the lenses from the symbols',
        async () => {
          const got = await ourLenses(uri);
          return got.length > 0 && got.every((l) => !/plain scan/.test(l.command!.tooltip ?? '')) ? got : undefined;
        },
        120_000,
      );
      assert.deepEqual(summary(after), summary(before), 'the same functions at the same lines, with the same figures');
      for (const l of after) assert.doesNotMatch(l.command!.title, /plain scan/);
    } finally {
      release();
      slow.dispose();
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it("shows a lens's figures over time on demand, each bucket and example what plain SQL gives", async () => {
    const cases: [keyof typeof FILES, number, string][] = [
      ['cart', 9, 'CartService.addItem'],
      ['charge', 11, 'Charger.refund'],
    ];
    for (const [k, line, spanName] of cases) {
      const lens = (await ourLenses(uriOf(k))).find((l) => l.range.start.line === line);
      assert.ok(lens, `a lens on ${FILES[k]}:${line + 1}`);
      const arg = lens.command!.arguments![0] as LensArg;
      const before = runs();
      const out = await vscode.commands.executeCommand<OverTime>('observability.codeInsights.figuresOverTime', arg);
      assert.ok(out.ok, out.error);
      assert.equal(runs(), before + 1, 'one statement when asked');
      await vscode.commands.executeCommand('observability.codeInsights.figuresOverTime', arg);
      assert.equal(runs(), before + 1, 'asking again reuses it');
      const { from, to } = arg.bounds;
      const where = `ServiceName IN (${CODE_SERVICES.map((x) => `'${x}'`).join(', ')}) AND SpanName = '${spanName}'
        AND Timestamp >= fromUnixTimestamp64Milli(${from}) AND Timestamp < fromUnixTimestamp64Milli(${to})`;
      assert.equal(out.detail.stepSeconds, 3600, '24 h in hourly buckets');
      const buckets = await api().query.run(connectionId, {
        serviceId,
        sql: `SELECT toUnixTimestamp(toStartOfHour(Timestamp)) * 1000 AS at, count(), countIf(StatusCode = 'Error')
          FROM otel_traces WHERE ${where} GROUP BY at ORDER BY at`,
      });
      assert.deepEqual(
        out.detail.buckets.filter((b) => b.calls > 0).map((b) => [b.at, b.calls, b.errors]),
        buckets.rows.map((r) => r.map(Number)),
        `${spanName} per hour`,
      );
      assert.equal(
        out.detail.buckets.reduce((n, b) => n + b.calls, 0),
        arg.figures.calls,
        'the buckets add up to the lens',
      );
      const slow = await api().query.run(connectionId, {
        serviceId,
        sql: `SELECT TraceId, Duration / 1e6 FROM otel_traces WHERE ${where}
          ORDER BY Duration DESC, Timestamp DESC, SpanId LIMIT 5`,
      });
      assert.deepEqual(
        out.detail.slowest.map((e) => [e.traceId, e.durationMs]),
        slow.rows.map((r) => [String(r[0]), Number(r[1])]),
        `the slowest spans of ${spanName}`,
      );
      const failing = await api().query.run(connectionId, {
        serviceId,
        sql: `SELECT TraceId FROM otel_traces WHERE ${where} AND StatusCode = 'Error'
          ORDER BY Timestamp DESC, SpanId LIMIT 5`,
      });
      assert.deepEqual(
        out.detail.failing.map((e) => e.traceId),
        failing.rows.map((r) => String(r[0])),
        `the failing spans of ${spanName}`,
      );
      // Each example opens its trace; the links search the same spans.
      for (const e of [...out.detail.slowest, ...out.detail.failing]) {
        const open = encodeURIComponent(
          JSON.stringify([
            {
              connectionId,
              serviceId,
              sourceId: arg.sourceId,
              traceId: e.traceId,
            },
          ]),
        );
        assert.ok(out.markdown.includes(`(command:observability.openTrace?${open})`), `a link to ${e.traceId}`);
      }
      assert.ok(out.markdown.includes('command:observability.searchEvents?'), 'a link to the search');
      const [[count]] = (
        await api().query.run(connectionId, {
          serviceId,
          sql: `SELECT count() FROM otel_traces WHERE (${out.search.all.condition})
            AND Timestamp >= fromUnixTimestamp64Milli(${from}) AND Timestamp < fromUnixTimestamp64Milli(${to})`,
        })
      ).rows as [[unknown]];
      assert.equal(Number(count), arg.figures.calls, "the search's condition selects the lens's spans");
      const searched = await vscode.commands.executeCommand<{
        ok: boolean;
        error?: string;
        state?: { view: { histogram: { total: number } } };
      }>('observability.searchEvents', out.search.all);
      assert.ok(searched?.ok, searched?.error);
      assert.ok((searched.state?.view.histogram.total ?? 0) > 0, `the search of ${spanName} spans finds them`);
    }
    const refund = (await ourLenses(uriOf('charge'))).find((l) => l.range.start.line === 11)!;
    const arg = refund.command!.arguments![0] as LensArg;
    const out = await vscode.commands.executeCommand<OverTime>('observability.codeInsights.figuresOverTime', arg);
    assert.ok(out.detail.failing.length > 0, 'refund fails in the sample data');
    const trace = await vscode.commands.executeCommand<{ traceId: string; tree: { spans: unknown[] } }>(
      'observability.openTrace',
      {
        connectionId,
        serviceId,
        sourceId: arg.sourceId,
        traceId: out.detail.failing[0]!.traceId,
      },
    );
    assert.equal(trace?.traceId, out.detail.failing[0]!.traceId);
    assert.ok((trace?.tree.spans.length ?? 0) > 0, 'the trace of a failing example opens with its spans');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
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
    // The exporter's materialized column, as HyperDX's default trace source names it.
    traces.sampleRateExpression = 'SampleRate';
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
    assert.equal(lens.p95Approx, true, 'a weighted p95 is a t-digest estimate');
    const lensTitle = (await ourLenses(uriOf('stock'))).find((l) => l.range.start.line === 8)?.command?.title;
    assert.match(lensTitle ?? '', /· p95 \(approx\.\) /);
    const overTime = await vscode.commands.executeCommand<OverTime>('observability.codeInsights.figuresOverTime', lens);
    assert.equal(
      overTime.detail.buckets.reduce((n, b) => n + b.calls, 0),
      Number(calls),
      'the buckets are weighted alike',
    );
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
