/**
 * Server text in the explorer tree is shown as text: names, messages, execution errors, webhook names and error
 * messages that carry Markdown links (`[Re-enter your key](https://…)`, `command:` targets), autolinks, HTML, bidi
 * overrides or control characters reach labels, descriptions and Markdown tooltips without any of it taking effect.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import type { TreeHandle } from '../../src/tree';
import type { Node } from '../../src/tree/nodes';
import { activate, labelOf } from './support';

interface Api {
  readonly tree: TreeHandle;
}

const PHISH = '[Re-enter your key](https://evil.example/login)';
const COMMAND = '[Open settings](command:workbench.action.openSettings)';
const HOSTILE_NAME = `${PHISH} \u202Eexe.txt\u202C <img src=x onerror=alert(1)>\r\n**bold** \x1b[31mred $(zap)`;
const HOSTILE_MESSAGE = `${COMMAND} visit https://evil.example or www.evil.example \u2066isolated\u2069 <b>x</b>\u0007`;
// eslint-disable-next-line no-control-regex
const CONTROL_OR_BIDI = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;
/** The same, but line breaks are allowed: tooltips have lines of their own (server text never adds any). */
const CONTROL_OR_BIDI_IN_LINES =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;

/** The Markdown of a tooltip, with its code spans taken out (their content is literal). */
function markdownOutsideCode(tooltip: vscode.TreeItem['tooltip']): string {
  assert.ok(tooltip instanceof vscode.MarkdownString, 'a Markdown tooltip');
  return tooltip.value.replace(/`[^`\n]*`/g, '');
}

/** No link, autolink, HTML or theme icon can form from what the Markdown says outside code spans. */
function assertInert(markdown: string, what: string): void {
  assert.doesNotMatch(markdown, /(?<!\\)\]\s*\(/, `${what}: no [label](target) link`);
  assert.doesNotMatch(markdown, /(?<!\\)\[[^\]]*(?<!\\)\]/, `${what}: no unescaped [label]`);
  assert.doesNotMatch(markdown, /https?:\/\/|www\.evil/, `${what}: no autolink`);
  assert.doesNotMatch(markdown, /command:/, `${what}: no command link`);
  assert.doesNotMatch(markdown, /(?<!\\)<[a-z]/i, `${what}: no HTML`);
  assert.doesNotMatch(markdown, /(?<!\\)\$\((?!error\))/, `${what}: no theme icon from server text`);
  assert.doesNotMatch(markdown, CONTROL_OR_BIDI_IN_LINES, `${what}: no control or bidi character`);
}

function assertPlain(text: unknown, what: string, pattern = CONTROL_OR_BIDI): void {
  assert.equal(typeof text === 'string' ? pattern.test(text) : false, false, `${what}: no control or bidi character`);
}

function assertTooltipOptions(tooltip: vscode.TreeItem['tooltip'], what: string): void {
  assert.ok(tooltip instanceof vscode.MarkdownString);
  assert.ok(!tooltip.isTrusted, `${what}: not trusted`);
  assert.ok(!tooltip.supportHtml, `${what}: no HTML`);
}

describe('Hostile server text in the tree', function () {
  this.timeout(120_000);
  let emulator: Emulator;
  let api: Api;
  let connectionId: string;
  let orgId: string;
  let serviceId: string;
  let alertId: string;
  const tree = () => api.tree.provider;
  const item = (node: Node) => tree().getTreeItem(node);
  const children = (node?: Node) => tree().getChildren(node);

  async function folderNode(label: string): Promise<Node> {
    const roots = await children();
    const root = roots.find((n) => n.type === 'connection' && n.connection.id === connectionId);
    assert.ok(root);
    const service = (await children(root)).find((n) => n.type === 'service' && n.serviceId === serviceId);
    assert.ok(service);
    const folder = (await children(service)).find((n) => labelOf(item(n)) === label);
    assert.ok(folder, `folder ${label}`);
    return folder;
  }

  before(async () => {
    emulator = await startEmulator({ rateLimit: { requests: 100_000, windowMs: 1000 } });
    api = await activate<Api>();
    orgId = emulator.organizationId;
    serviceId = emulator.serviceIds[0]!;
    const data = emulator.state.data.get(serviceId)!;
    // One alert on a tile, notifying a webhook: every server string it shows is hostile.
    const alert = [...data.alerts.values()].find(
      (a) =>
        a.dashboardId &&
        a.tileId &&
        a.channels.some((c) => typeof c.webhookId === 'string' && data.webhooks.has(c.webhookId)),
    );
    assert.ok(alert, 'a seeded tile alert with a webhook');
    alertId = alert.id;
    alert.name = HOSTILE_NAME;
    alert.message = HOSTILE_MESSAGE;
    alert.state = 'ALERT';
    alert.silenced = { by: PHISH, at: new Date().toISOString(), until: new Date(Date.now() + 3_600_000).toISOString() };
    alert.executionErrors = [
      { timestamp: new Date().toISOString(), type: 'QUERY_ERROR', message: `${PHISH}\n${HOSTILE_MESSAGE}` },
    ];
    const webhookId = alert.channels.find((c) => typeof c.webhookId === 'string')!.webhookId as string;
    data.webhooks.get(webhookId)!.name = `${COMMAND}\u202E`;
    const dashboard = data.dashboards.get(alert.dashboardId!)!;
    dashboard.name = HOSTILE_NAME;
    dashboard.tags = [PHISH, 'a\u202Eb'];
    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: emulator.url,
      keyId: emulator.keyId,
      keySecret: emulator.keySecret,
      organizationId: orgId,
      serviceIds: [serviceId],
      label: 'Hostile text (emulator)',
      skipCheck: true,
    });
  });

  after(async () => {
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, skipConfirmation: true });
    }
    await emulator?.close();
  });

  afterEach(() => emulator.faults.clear());

  it('shows a hostile alert name, message, execution error and webhook name as inert text', async () => {
    const alerts = await children(await folderNode('Alerts'));
    const node = alerts.find((n) => n.type === 'alert' && n.alert.id === alertId);
    assert.ok(node, 'the hostile alert is listed');
    const drawn = item(node);
    const label = labelOf(drawn);
    assertPlain(label, 'label');
    assert.match(
      label,
      /^\[Re-enter your key\] \(https:\/\/evil\.example\/login\) exe\.txt <img/,
      'the label is the name as plain text',
    );
    assertPlain(drawn.description, 'description');
    assert.match(String(drawn.description), /\[Open settings\] \(command :workbench/, 'the webhook name is plain text');

    const resolved = await tree().resolveTreeItem(drawn, node);
    assertTooltipOptions(resolved.tooltip, 'alert tooltip');
    const markdown = markdownOutsideCode(resolved.tooltip);
    assertInert(markdown, 'alert tooltip');
    assert.match(
      markdown,
      /\\\[Re\\-enter your key\\\] \\\(https\\:\/\/evil\\\.example\/login\\\)/,
      'the name is escaped, still readable',
    );
    assert.match(markdown, /\\\[Open settings\\\] \\\(command :workbench/, 'message and webhook name escaped');
    assert.match(markdown, /\$\(error\)/, "the extension's own icon stays");
    assert.match(markdown, /\\<img src=x/, 'HTML is escaped');
  });

  it('shows hostile dashboard names and tags as plain labels, descriptions and tooltips', async () => {
    const dashboards = await children(await folderNode('Dashboards'));
    const hostile = dashboards.filter((n) => n.type === 'dashboard' && /Re-enter your key/.test(labelOf(item(n))));
    assert.equal(hostile.length, 1);
    const drawn = item(hostile[0]!);
    assertPlain(labelOf(drawn), 'label');
    assertPlain(drawn.description, 'description');
    assertPlain(drawn.tooltip, 'tooltip', CONTROL_OR_BIDI_IN_LINES);
    assert.equal(String(drawn.tooltip).split('\n').length, 3, 'name, ID and tags: one line each, the name adds none');
    assert.doesNotMatch(String(drawn.description), /\]\(/, 'tags lose link syntax');
  });

  it('shows a hostile server error message as inert text in the error node', async () => {
    const folder = await folderNode('Sources');
    emulator.faults.add({
      path: `/v1/organizations/${orgId}/services/${serviceId}/observability/sources`,
      status: 500,
      body: {
        status: 500,
        error: `${PHISH} ${COMMAND}\u202E\x1b[2J`,
        requestId: '00000000-0000-4000-8000-000000000500',
      },
    });
    const failed = await children(folder);
    assert.equal(failed.length, 1);
    const drawn = item(failed[0]!);
    assertPlain(labelOf(drawn), 'label');
    assert.doesNotMatch(labelOf(drawn), /\]\(/, 'the label loses link syntax');
    assertTooltipOptions(drawn.tooltip, 'error tooltip');
    const markdown = markdownOutsideCode(drawn.tooltip);
    assertInert(markdown, 'error tooltip');
    assert.match(markdown, /Server message/);
    assert.match(markdown, /\\\[Re\\-enter your key\\\]/, 'the server message is shown, escaped');
    emulator.faults.clear();
    await vscode.commands.executeCommand('observability.retry', failed[0]);
  });
});
