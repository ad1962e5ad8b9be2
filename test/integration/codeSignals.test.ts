/**
 * Exceptions and log counts at the code, in VS Code against the emulator (frozen clock, a real embedded ClickHouse):
 * the sample workspace of test/fixtures/codeWorkspace copied into the host's workspace folder and picked for code
 * insights. Each line that threw recent exceptions has a hover whose counts equal plain SQL written here, with an
 * example trace that opens; Problems entries appear only when asked for; each logger call's lens counts the logs plain
 * SQL finds for its message. All from one exception and one log count statement for every file opened.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import { CellFrames } from '../../src/query/cellFrames';
import { activate, configure, exportedApi as api, waitFor } from './support';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/codeWorkspace');
const FILES = {
  cart: 'src/checkout/cart.ts',
  charge: 'app/payments/charge.py',
  stock: 'src/main/java/com/shop/inventory/StockService.java',
};
type File = keyof typeof FILES;

/** Marked lines (1-based): the span names whose exception events they count, and the stack trace line of logs. */
const MARKS: [File, number, string[], string | undefined][] = [
  ['cart', 17, ['CartService.removeItem'], undefined],
  ['cart', 36, ['applyCoupon'], undefined],
  ['charge', 14, ['Charger.refund'], undefined],
  ['charge', 19, ['Charger.charge'], '/usr/src/app/app/payments/charge.py", line 19,'],
  ['stock', 10, ['StockService.reserve'], undefined],
];

/** Logger calls (1-based line) and a regular expression for the bodies their message writes. */
const CALLS: [File, number, string][] = [
  ['cart', 42, '^placing order .* with .* in the cart$'],
  ['cart', 46, '^coupon .* rejected for order .*$'],
  ['charge', 28, '^settling order .* for .*$'],
  ['charge', 32, '^settlement of order .* failed$'],
  ['stock', 25, '^restocking .* units of .*$'],
  ['stock', 27, '^stock of .* went negative$'],
];

interface Outcome {
  state: string;
  error?: string;
  range: { from: number; to: number };
  exceptionGroups?: number;
  logPatterns?: number;
  signalsError?: string;
}

async function hoverText(uri: vscode.Uri, line: number): Promise<string | undefined> {
  const hovers =
    (await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      uri,
      new vscode.Position(line - 1, 2),
    )) ?? [];
  const texts = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)));
  // Server text is added as plain text: Markdown escapes its punctuation and keeps its spaces.
  return texts
    .find((t) => t.includes('Production exceptions thrown here'))
    ?.replace(/&nbsp;/g, ' ')
    .replace(/\\([^\\])/g, '$1');
}

async function logLenses(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  const all = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
  return all.filter((l) => l.command?.command === 'observability.searchEvents');
}

describe('Code insights: exceptions and log counts', function () {
  this.timeout(900_000);
  let emulator: Emulator;
  let connectionId: string;
  let serviceId: string;
  let root: vscode.Uri;
  let folder: vscode.WorkspaceFolder;
  let outcome: Outcome;
  const runs = () => emulator.requests.filter((r) => r.path.endsWith('/run')).length;
  const uriOf = (k: File) => vscode.Uri.joinPath(root, FILES[k]);
  const sql = async (text: string) => (await api().query.run(connectionId, { serviceId, sql: text })).rows;

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
      serviceIds: emulator.serviceIds.slice(0, 1),
      label: 'Code signals (emulator)',
      skipCheck: true,
    });
    await vscode.commands.executeCommand('observability.setQueryHost', { connectionId, queryUrl: emulator.queryUrl });
    emulator.state.data.get(serviceId)!.queryEndpoint = {
      id: 'c0de1a5e-3a4d-4e5f-8a6b-7c8d9e0f1a2c',
      roles: ['sql_console_read_only'],
      openApiKeys: [SAMPLE_KEY_UUID],
      allowedOrigins: '',
    };
    folder = vscode.workspace.workspaceFolders![0]!;
    root = vscode.Uri.joinPath(folder.uri, `code-signals-${Date.now()}`);
    await vscode.workspace.fs.copy(vscode.Uri.file(FIXTURES), root, { overwrite: true });
    const traces = [...emulator.state.data.get(serviceId)!.sources.values()].find((s) => s.kind === 'trace')!;
    await vscode.commands.executeCommand('observability.codeInsights.chooseService', {
      folder: folder.uri.toString(),
      connectionId,
      serviceId,
      sourceId: traces.id,
    });
    const before = runs();
    [outcome] = (await vscode.commands.executeCommand<Outcome[]>('observability.codeInsights.refresh')) as [Outcome];
    assert.equal(outcome.state, 'done', outcome.error);
    assert.equal(outcome.signalsError, undefined);
    assert.equal(runs(), before + 3, 'the figures, the exceptions and the log counts: one statement each');
  });

  after(async () => {
    await configure('codeInsights.problems', undefined);
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

  it('marks the lines that threw with the counts plain SQL gives, and an example trace that opens', async () => {
    const { from, to } = outcome.range;
    const range = (ts: string) =>
      `${ts} >= fromUnixTimestamp64Milli(${from}) AND ${ts} < fromUnixTimestamp64Milli(${to})`;
    const perSpan = new Map(
      (
        await sql(`SELECT SpanName, sum(arrayCount(n -> n = 'exception', Events.Name)) FROM otel_traces
          WHERE ServiceName LIKE 'code-%' AND ${range('Timestamp')} GROUP BY SpanName`)
      ).map((r) => [String(r[0]), Number(r[1])]),
    );
    for (const [k, line, spans, logged] of MARKS) {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uriOf(k)));
      const text = await waitFor(`the hover on ${FILES[k]}:${line}`, () => hoverText(uriOf(k), line), 60_000);
      const spanCount = spans.reduce((n, s) => n + (perSpan.get(s) ?? 0), 0);
      const logCount = logged
        ? Number(
            (
              await sql(`SELECT count() FROM otel_logs
                WHERE positionCaseInsensitive(LogAttributes['exception.stacktrace'], '${logged.replace(/'/g, "\\'")}') > 0
                  AND ${range('TimestampTime')}`)
            )[0]?.[0],
          )
        : 0;
      assert.ok(spanCount > 0, `${spans.join(', ')} recorded exceptions`);
      const m = /(\d+) in all: (\d+) span events, (\d+) logs/.exec(text);
      assert.ok(m, text);
      assert.deepEqual([Number(m[1]), Number(m[2]), Number(m[3])], [spanCount + logCount, spanCount, logCount]);
      assert.match(text, /first seen \d{4}-\d\d-\d\d \d\d:\d\d UTC, last seen \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    }
    assert.equal(await hoverText(uriOf('cart'), 11), undefined, 'no hover on a line that threw nothing');

    const text = (await hoverText(uriOf('charge'), 19))!;
    assert.match(text, /ValueError/);
    assert.match(text, /amount must be positive, got/);
    const link = /\(command:observability\.openTrace\?([^)]+)\)/.exec(text);
    assert.ok(link, 'the hover links an example trace');
    const [args] = JSON.parse(decodeURIComponent(link[1]!)) as [{ traceId: string; connectionId: string }];
    assert.equal(args.connectionId, connectionId);
    const spans = await sql(`SELECT count() FROM otel_traces WHERE TraceId = '${args.traceId}'`);
    assert.ok(Number(spans[0]?.[0]) > 0, 'the example trace has spans');
    const model = await vscode.commands.executeCommand<{ traceId: string; tree: { spans: { name: string }[] } }>(
      'observability.openTrace',
      args,
    );
    assert.equal(model?.traceId, args.traceId, 'the example trace opens');
    assert.ok(
      model.tree.spans.some((s) => s.name === 'Charger.charge'),
      'the trace holds the failing charge',
    );
    assert.equal(
      emulator.requests.filter((r) => r.path.endsWith('/run') && JSON.stringify(r.body).includes('AS exception_type'))
        .length,
      1,
      'the hovers read the one exception statement',
    );
  });

  it("links the hover's and the SQL cells' in-workspace stack frames to the line, never outside the folder", async () => {
    const active = () => vscode.window.activeTextEditor;
    const charge = uriOf('charge');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(charge));
    const text = (await waitFor('the hover on charge.py:19', () => hoverText(charge, 19), 60_000))!;
    const rel = vscode.workspace.asRelativePath(charge, false);
    const frames = [...text.matchAll(/\[([^\]]+)\]\(command:observability\.openFrame\?([^)]+)\)/g)];
    assert.ok(
      frames.every((f) => f[1]!.startsWith(`${rel}:`)),
      `only frames of the workspace file are links: ${text}`,
    );
    const frame = frames.find((f) => f[1] === `${rel}:19`);
    assert.ok(frame, `the hover links the top frame: ${text}`);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const [arg] = JSON.parse(decodeURIComponent(frame[2]!)) as [Record<string, unknown>];
    assert.equal(await vscode.commands.executeCommand('observability.openFrame', arg), true);
    let editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.toString(), charge.toString(), 'the frame opens the file');
    assert.equal(editor.selection.active.line, 18, 'at the frame line (19, 1-based)');
    assert.match(editor.document.lineAt(18).text, /raise ValueError/);

    const escapes = [
      { ...arg, path: `../${String(arg.path)}` },
      { ...arg, path: `${String(arg.path).split('/')[0]}/../../etc/hosts` },
      { ...arg, path: '/etc/hosts' },
      { ...arg, path: 'C:\\Windows\\win.ini' },
      { ...arg, folder: vscode.Uri.file('/etc').toString(), path: 'hosts' },
      { ...arg, line: 0 },
      'app/payments/charge.py',
    ];
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const bad of escapes) {
      assert.equal(await vscode.commands.executeCommand('observability.openFrame', bad), false, JSON.stringify(bad));
    }
    assert.equal(active(), undefined, 'nothing opened');

    // The same stack traces as SQL result cells (log attributes): their in-workspace frame is a link.
    const rows = await sql(`SELECT Timestamp, LogAttributes['exception.stacktrace'] AS stack FROM otel_logs
      WHERE LogAttributes['exception.stacktrace'] LIKE '%payments/charge.py%' ORDER BY Timestamp LIMIT 3`);
    assert.ok(rows.length > 0, 'logs carry the stack trace');
    const cellFrames = new CellFrames();
    const cells = await cellFrames.of(rows);
    assert.deepEqual(
      cells.map((c) => [c.row, c.col]),
      rows.map((_, i) => [i, 1]),
      'each stack-trace cell, not the time',
    );
    const first = cells[0]!;
    const lines = String(rows[0]![1]).split('\n');
    assert.ok(first.links.length >= 1);
    assert.ok(
      first.links.every((l) => /app\/payments\/charge\.py", line \d+/.test(lines[l.index]!)),
      'only the frames of the workspace file are links',
    );
    const at19 = first.links.find((l) => l.title.endsWith(`${rel}:19`));
    assert.ok(at19, `a link to ${rel}:19: ${JSON.stringify(first.links)}`);
    await cellFrames.open(at19.id, vscode.ViewColumn.Two);
    editor = active();
    assert.equal(editor?.document.uri.toString(), charge.toString());
    assert.equal(editor.selection.active.line, 18);
  });

  it('lists the marked lines in Problems only when asked for', async () => {
    const ours = (k: File) => vscode.languages.getDiagnostics(uriOf(k)).filter((d) => d.source === 'Observability');
    assert.deepEqual(ours('cart'), [], 'off by default');
    await configure('codeInsights.problems', true);
    const cart = await waitFor('the Problems entries of cart.ts', () =>
      ours('cart').length === 2 ? ours('cart') : undefined,
    );
    assert.deepEqual(
      cart.map((d) => [d.range.start.line + 1, d.severity]),
      [
        [17, vscode.DiagnosticSeverity.Information],
        [36, vscode.DiagnosticSeverity.Information],
      ],
    );
    assert.match(cart[1]!.message, /^Error thrown here \d+ times in production in the last 24 h: unknown coupon /);
    assert.deepEqual(
      ours('stock').map((d) => d.range.start.line + 1),
      [10],
    );
    await configure('codeInsights.problems', false);
    await waitFor('the Problems entries gone', () => ours('cart').length === 0 && ours('charge').length === 0);
  });

  it("counts each logger call's logs as plain SQL does, and opens their search", async () => {
    const { from, to } = outcome.range;
    const exprs = CALLS.map(([, , re], i) => `countIf(match(Body, '${re}')) AS c${i}`).join(', ');
    const [row] = await sql(`SELECT ${exprs} FROM otel_logs
      WHERE TimestampTime >= fromUnixTimestamp64Milli(${from}) AND TimestampTime < fromUnixTimestamp64Milli(${to})`);
    const before = runs();
    for (const [i, [k, line, re]] of CALLS.entries()) {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uriOf(k)));
      const lenses = await waitFor(`the log lenses of ${FILES[k]}`, async () => {
        const got = await logLenses(uriOf(k));
        return got.length > 0 ? got : undefined;
      });
      const lens = lenses.find((l) => l.range.start.line === line - 1);
      assert.ok(lens, `a log lens on ${FILES[k]}:${line}`);
      const want = Number(row?.[i]);
      assert.ok(want < 1000);
      assert.equal(lens.command!.title, `${want} logs · 24 h`, re);
      if (re.startsWith('^stock of')) assert.equal(want, 0, 'a call that never logged says 0');
      else assert.ok(want > 0, `${re} was logged`);
    }
    assert.equal(runs(), before, 'the lenses read the kept counts');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uriOf('cart')));
    const [search] = (await logLenses(uriOf('cart'))).find((l) => l.range.start.line === 41)!.command!.arguments as [
      { sourceId: string; condition: string; language: string; range: { from: number; to: number } },
    ];
    assert.equal(search.language, 'sql');
    assert.equal(search.condition, "Body LIKE '%placing order % with % in the cart%'");
    assert.deepEqual(search.range, outcome.range);
    const logs = [...emulator.state.data.get(serviceId)!.sources.values()].find((s) => s.kind === 'log')!;
    assert.equal(search.sourceId, logs.id, "the trace source's log source");
  });
});
