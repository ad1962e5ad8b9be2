/**
 * IDs are links, on a Cloud connection to the emulator (frozen clock): a span ID in a SQL result opens its trace with
 * the span selected (with the row's trace ID, or looked up by the span ID alone in the row's window; a span that is
 * not there opens nothing); a saved-search ID in a SQL result, an alert's tooltip and an alert document's name hint
 * opens the saved search in the search panel; the tooltip's one link is ours, its server text escaped.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { SHOWCASE } from '../emulator/clickhouse/traces';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import { startEmulator, type Emulator } from '../emulator/server';
import type { TreeHandle } from '../../src/tree';
import type { Node } from '../../src/tree/nodes';
import { uriFor } from '../../src/jsonDocuments/uris';
import { activate, closeAll, configure, exportedApi, labelOf, waitFor } from './support';

interface TraceModelView {
  traceId: string;
  tree: { spans: { spanId: string }[]; rows: { span: number }[] };
  range?: { from: number; to: number };
  selectedRow?: number;
}
interface SearchOutcomeView {
  ok: boolean;
  error?: string;
  state?: { view: { condition: string } };
}
interface QueryPanelApi {
  openTrace(cell: unknown): Thenable<unknown>;
  openSavedSearch(id: unknown): Thenable<unknown>;
}

const HOUR = 3_600_000;
const epochMs = (text: string) => Date.parse(`${text.replace(' ', 'T').replace(/(\.\d{3})\d*$/, '$1')}Z`);

describe('Links: span and saved-search IDs (Cloud)', function () {
  this.timeout(180_000);
  let emulator: Emulator;
  let connectionId = '';
  let serviceId = '';
  const panel = () => exportedApi<{ query: { panel: QueryPanelApi } }>().query.panel;
  const tree = () => exportedApi<{ tree: TreeHandle }>().tree.provider;
  const sqlSince = (from: number) =>
    emulator.requests
      .slice(from)
      .filter((r) => /\/run\b/.test(r.path))
      .map((r) => String((r.body as { sql?: unknown } | undefined)?.sql ?? ''));

  async function query(sql: string): Promise<unknown[][]> {
    await vscode.commands.executeCommand('observability.newQuery', { connectionId, serviceId, sql });
    const out = await vscode.commands.executeCommand<{ ok: boolean; firstRows?: unknown[][]; error?: string }>(
      'observability.runQuery',
      {},
    );
    assert.ok(out?.ok, out?.error);
    return out.firstRows!;
  }

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
      label: 'Links (Cloud)',
      skipCheck: true,
    });
    await vscode.commands.executeCommand('observability.setQueryHost', { connectionId, queryUrl: emulator.queryUrl });
    emulator.state.data.get(serviceId)!.queryEndpoint = {
      id: 'e1f0c8e2-3a4d-4e5f-8a6b-7c8d9e0f1a4d',
      roles: ['sql_console_read_only'],
      openApiKeys: [SAMPLE_KEY_UUID],
      allowedOrigins: '',
    };
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

  it("opens a SpanId cell's trace with that span selected, the row's trace ID read", async () => {
    // The root span: not the one the panel selects by itself (the span that threw).
    const [row] = await query(
      `SELECT Timestamp, TraceId, SpanId FROM otel_traces WHERE TraceId = '${SHOWCASE.refund}' AND ParentSpanId = '' LIMIT 1`,
    );
    const [time, traceId, spanId] = row as [string, string, string];
    const sentBefore = emulator.requests.length;
    const model = (await panel().openTrace({ traceId, spanId, time })) as TraceModelView | undefined;
    assert.ok(model, 'the trace opened');
    assert.equal(model.traceId, SHOWCASE.refund);
    assert.ok(model.selectedRow !== undefined && model.selectedRow >= 0, 'a row is selected');
    assert.equal(model.tree.spans[model.tree.rows[model.selectedRow]!.span]!.spanId, spanId, 'the span of the cell');
    assert.equal(
      sqlSince(sentBefore).filter((q) => /WHERE SpanId =/.test(q)).length,
      0,
      'the trace ID was known: no lookup',
    );
  });

  it('looks a span up by its ID alone in the hour around the row, opens its trace, and says when it is not there', async () => {
    const [row] = await query(
      `SELECT Timestamp, SpanId, SpanName FROM otel_traces WHERE TraceId = '${SHOWCASE.refund}' AND ParentSpanId != '' ORDER BY Timestamp DESC LIMIT 1`,
    );
    const [time, spanId] = row as [string, string];
    const t = epochMs(time);
    const sentBefore = emulator.requests.length;
    const model = (await panel().openTrace({ spanId, time })) as TraceModelView | undefined;
    assert.ok(model, 'the trace opened');
    assert.equal(model.traceId, SHOWCASE.refund, "the span's trace");
    assert.equal(model.tree.spans[model.tree.rows[model.selectedRow!]!.span]!.spanId, spanId, 'the span selected');
    const lookups = sqlSince(sentBefore).filter((q) => q.includes(`SpanId = '${spanId}'`));
    assert.equal(lookups.length, 1, 'one lookup statement');
    assert.match(lookups[0]!, /LIMIT 1$/);
    assert.ok(lookups[0]!.includes(`toInt64(${t - HOUR})`) && lookups[0]!.includes(`toInt64(${t + HOUR})`));

    const before = emulator.requests.length;
    const missing = await panel().openTrace({ spanId: 'ffffffffffffffff', time });
    assert.equal(missing, undefined, 'nothing opens');
    const sent = sqlSince(before);
    assert.equal(sent.length, 1, 'the lookup only');
    assert.match(sent[0]!, /SpanId = 'ffffffffffffffff'/);

    const refused = emulator.requests.length;
    assert.equal(await panel().openTrace({ spanId: "1' OR 1=1" }), undefined);
    assert.deepEqual(sqlSince(refused), [], 'a malformed span ID sends nothing');
  });

  it("opens a savedSearchId cell's saved search in the search panel", async () => {
    const data = emulator.state.data.get(serviceId)!;
    const search = [...data.savedSearches.values()].find((s) => s.where);
    assert.ok(search, 'a seeded saved search with a condition');
    const out = (await panel().openSavedSearch(search.id)) as SearchOutcomeView | undefined;
    assert.ok(out?.ok, out?.error);
    assert.equal(out.state!.view.condition, search.where, 'its condition');
    const gone = (await panel().openSavedSearch('000000000000000000000000')) as SearchOutcomeView | undefined;
    assert.equal(gone?.ok, false, 'a saved search that is not there opens nothing');
    assert.match(gone?.error ?? '', /404|not found/i);
    await closeAll();
  });

  it("links an alert's saved search in its tooltip: our one command link, the name escaped", async () => {
    const data = emulator.state.data.get(serviceId)!;
    const alert = [...data.alerts.values()].find((a) => a.savedSearchId && data.savedSearches.has(a.savedSearchId));
    assert.ok(alert, 'a seeded alert on a saved search');
    const search = data.savedSearches.get(alert.savedSearchId!)!;
    search.name = '[Phish](command:workbench.action.openSettings) <b>x</b>';
    const children = (n?: Node) => tree().getChildren(n);
    const root = (await children()).find((n) => n.type === 'connection' && n.connection.id === connectionId);
    assert.ok(root);
    const service = (await children(root)).find((n) => n.type === 'service' && n.serviceId === serviceId)!;
    const folder = (await children(service)).find((n) => labelOf(tree().getTreeItem(n)) === 'Alerts')!;
    const node = (await children(folder)).find((n) => n.type === 'alert' && n.alert.id === alert.id)!;
    const resolved = await tree().resolveTreeItem(tree().getTreeItem(node), node);
    const tip = resolved.tooltip;
    assert.ok(tip instanceof vscode.MarkdownString);
    assert.deepEqual(tip.isTrusted, { enabledCommands: ['observability.searchEvents'] }, 'the one command only');
    assert.ok(!tip.supportHtml);
    const links = [...tip.value.matchAll(/(?<!\\)\]\((command:[^ )]*)/g)].map((m) => m[1]!);
    assert.equal(links.length, 1, `one link: ${tip.value}`);
    assert.ok(tip.value.includes('\\[Phish\\]'), `the name is escaped text: ${tip.value}`);
    assert.doesNotMatch(tip.value, /(?<!\\)<b>/);
    const [, command, encoded] = /^command:([^?]+)\?(.*)$/.exec(links[0]!)!;
    assert.equal(command, 'observability.searchEvents');
    const args = JSON.parse(decodeURIComponent(encoded!)) as unknown[];
    assert.deepEqual(args, [{ connectionId, serviceId, savedSearchId: search.id }]);
    // What a click on the link runs.
    const out = await vscode.commands.executeCommand<SearchOutcomeView>(command!, ...args);
    assert.ok(out?.ok, out?.error);
    assert.equal(out.state!.view.condition, search.where ?? '');
    await closeAll();
  });

  it("makes the saved search's name beside an alert document's savedSearchId a link to Search", async () => {
    const data = emulator.state.data.get(serviceId)!;
    const alert = [...data.alerts.values()].find((a) => a.savedSearchId && data.savedSearches.has(a.savedSearchId));
    assert.ok(alert);
    const uri = uriFor({ connectionId, serviceId, kind: 'alert', id: alert.id }, alert.name);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const hint = await waitFor('the saved search name hint', async () => {
      const found = await vscode.commands.executeCommand<vscode.InlayHint[]>(
        'vscode.executeInlayHintProvider',
        doc.uri,
        new vscode.Range(0, 0, doc.lineCount, 0),
      );
      return found.find((h) => doc.lineAt(h.position.line).text.includes('"savedSearchId"'));
    });
    assert.ok(Array.isArray(hint.label), 'a label part');
    const part = hint.label[0]!;
    assert.equal(part.value, data.savedSearches.get(alert.savedSearchId!)!.name);
    // The part's command does not cross `vscode.executeInlayHintProvider` (it hands back labels and tooltips only):
    // its tooltip says the part is the link.
    assert.match(String(part.tooltip), / · Open in Search$/);
    await closeAll();
  });
});
