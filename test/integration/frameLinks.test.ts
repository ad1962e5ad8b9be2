/**
 * Stack-trace frames that open the source, in VS Code against the emulator (frozen clock): the seeded failing trace's
 * exception stack trace, read through Observability: Open Trace, with the sample workspace of test/fixtures/codeWorkspace
 * copied into the host's workspace folder and the Java service's file the trace names added to it. The frame whose
 * file is in the workspace is a link that opens that file at the frame's line; the frames of files outside the
 * workspace (the JDK's, Spring's, a controller the workspace lacks) and paths that climb out of it are not links.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SHOWCASE } from '../emulator/clickhouse/traces';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import { startEmulator, type Emulator } from '../emulator/server';
import { FrameLinks } from '../../src/panels/frameLinks';
import { activate, closeAll, configure } from './support';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/codeWorkspace');
const REFUND = 'src/main/java/com/example/orders/refund/RefundService.java';

interface TraceModelView {
  tree: { spans: { events: { name: string; attributes: Record<string, string> }[] }[] };
}

describe('Stack-trace frame links', function () {
  this.timeout(180_000);
  let emulator: Emulator;
  let connectionId = '';
  let root: vscode.Uri;

  before(async () => {
    await configure('rateLimit.requestsPerWindow', 1000);
    emulator = await startEmulator({ rateLimit: false, now: 'start' });
    await activate();
    const serviceId = emulator.serviceIds[0]!;
    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: emulator.url,
      keyId: emulator.keyId,
      keySecret: emulator.keySecret,
      organizationId: emulator.organizationId,
      serviceIds: [serviceId],
      label: 'Frame links (emulator)',
      skipCheck: true,
    });
    await vscode.commands.executeCommand('observability.setQueryHost', { connectionId, queryUrl: emulator.queryUrl });
    emulator.state.data.get(serviceId)!.queryEndpoint = {
      id: 'f4a3e1b2-3a4d-4e5f-8a6b-7c8d9e0f1a5e',
      roles: ['sql_console_read_only'],
      openApiKeys: [SAMPLE_KEY_UUID],
      allowedOrigins: '',
    };
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the test host opens a workspace folder');
    root = vscode.Uri.joinPath(folder.uri, `frame-links-${Date.now()}`);
    await vscode.workspace.fs.copy(vscode.Uri.file(FIXTURES), root, { overwrite: true });
    const lines = Array.from({ length: 120 }, (_, i) => `    // line ${i + 1}`);
    lines[86] = '        throw new IllegalStateException("refund window closed");';
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, REFUND), new TextEncoder().encode(lines.join('\n')));
  });

  after(async () => {
    await closeAll();
    if (root) await vscode.workspace.fs.delete(root, { recursive: true, useTrash: false });
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, noPrompt: true });
    }
    await configure('rateLimit.requestsPerWindow', undefined);
    await emulator?.close();
  });

  it("the failing trace's in-workspace frame opens its file at the line; the other frames are not links", async () => {
    const model = await vscode.commands.executeCommand<TraceModelView | undefined>('observability.openTrace', {
      connectionId,
      serviceId: emulator.serviceIds[0],
      traceId: SHOWCASE.refund,
    });
    assert.ok(model, 'the trace opened');
    const exception = model.tree.spans.flatMap((s) => s.events).find((e) => e.name === 'exception');
    const stack = exception?.attributes['exception.stacktrace'];
    assert.ok(stack, 'the failing span carries a stack trace');
    const lines = stack.split('\n');

    const frames = new FrameLinks();
    const links = await frames.links(stack);
    assert.deepEqual(
      links.map((l) => lines[l.index]),
      ['\tat com.example.orders.refund.RefundService.refund(RefundService.java:87)'],
      'only the frame of the workspace file is a link',
    );
    const link = links[0]!;
    assert.match(link.title, /RefundService\.java:87$/);
    assert.ok(
      lines.some((l) => l.includes('OrderController.java:142')),
      'a frame of a file the workspace lacks',
    );
    assert.ok(
      lines.some((l) => l.includes('Thread.java:1583')),
      'a frame of the JDK',
    );

    await frames.open(link.id, vscode.ViewColumn.Two);
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'an editor opened');
    assert.equal(editor.document.uri.toString(), vscode.Uri.joinPath(root, REFUND).toString());
    assert.equal(editor.selection.active.line, 86, 'at the frame line (87, 1-based)');
    assert.match(editor.document.lineAt(editor.selection.active.line).text, /refund window closed/);

    const before = vscode.window.activeTextEditor;
    await frames.open(9999, vscode.ViewColumn.Two);
    await frames.open('1' as unknown as number, vscode.ViewColumn.Two);
    assert.equal(vscode.window.activeTextEditor, before, 'an unknown id opens nothing');
  });

  it('a frame of a path outside the workspace or climbing out of it is not a link', async () => {
    const stack = [
      'Error: declined',
      '    at charge (/app/src/checkout/cart.ts:10:3)',
      '    at read (/etc/hosts:1:1)',
      '    at climb (/app/../../../src/checkout/cart.ts:10:3)',
      '    at node:internal/process/task_queues:95:5',
    ].join('\n');
    const links = await new FrameLinks().links(stack);
    assert.deepEqual(
      links.map((l) => l.index),
      [1],
      'only the container path that maps onto the workspace file',
    );
    assert.match(links[0]!.title, /src\/checkout\/cart\.ts:10$/);
  });
});
