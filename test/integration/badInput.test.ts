/**
 * Bad input is refused before any request, with a message that points at the problem: documents that are not JSON,
 * of the wrong types, with unknown enum values, empty or oversize strings, or IDs with `/`, `..`, `%` or spaces;
 * command arguments with such IDs or with non-UUID organization or service IDs; connections whose base URL carries
 * credentials or uses plain `http://` to a host that is not loopback.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import type { ApplyResult } from '../../src/resourceDocuments/apply';
import type { DeleteResult } from '../../src/tree/commands';
import { activate, alertTarget, closeAll, configure, logText, rejection, replaceText } from './support';

interface Api {
  readonly logUri: vscode.Uri;
  readonly connections: { list(): readonly { id: string }[] };
}

describe('Bad input', function () {
  this.timeout(120_000);
  let emulator: Emulator;
  let api: Api;
  let connectionId: string;
  let orgId: string;
  let serviceA: string;

  const data = (serviceId: string) => emulator.state.data.get(serviceId)!;
  /** Requests since `mark`, less the alert list the firing-alerts status polls in the background on its own. */
  const sentSince = (mark: number) =>
    emulator.requests
      .slice(mark)
      .filter(
        (r) =>
          !(r.method === 'GET' && r.path === `/v1/organizations/${orgId}/services/${serviceA}/observability/alerts`),
      )
      .map((r) => `${r.method} ${r.path}`);

  /** A valid new alert document; the live data its checks need is loaded before the test takes its mark. */
  async function draft(): Promise<{ uri: string; doc: vscode.TextDocument; body: Record<string, unknown> }> {
    const t = alertTarget(emulator, serviceA);
    const uri = await vscode.commands.executeCommand<string>('observability.createAlert', {
      connectionId,
      serviceId: serviceA,
      dashboardId: t.dashboardId,
      tileId: t.tileId,
      webhookId: t.webhookId,
      threshold: 10,
      name: 'Bad input',
      message: 'Value {{value}}',
    });
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
    assert.ok(doc);
    // A valid document passes every check, so the live data is cached before any bad input is tried.
    emulator.faults.add({
      method: 'POST',
      path: /\/alerts$/,
      status: 418,
      body: { status: 418, error: 'not sent in this test', requestId: 'x' },
    });
    await vscode.commands.executeCommand<ApplyResult>('observability.applyResource', { uri });
    emulator.faults.clear();
    return { uri, doc, body: JSON.parse(doc.getText()) as Record<string, unknown> };
  }

  before(async () => {
    await configure('rateLimit.requestsPerWindow', 1000);
    await configure('rateLimit.windowSeconds', 1);
    await configure('autoSave', 'off', 'files');
    emulator = await startEmulator({ rateLimit: false });
    api = await activate<Api>();
    orgId = emulator.organizationId;
    serviceA = emulator.serviceIds[0]!;
    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: emulator.url,
      keyId: emulator.keyId,
      keySecret: emulator.keySecret,
      organizationId: orgId,
      serviceIds: [serviceA],
      label: 'Bad input (emulator)',
      skipCheck: true,
    });
  });

  after(async () => {
    await closeAll();
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, skipConfirmation: true });
    }
    await configure('rateLimit.requestsPerWindow', undefined);
    await configure('rateLimit.windowSeconds', undefined);
    await configure('autoSave', undefined, 'files');
    await emulator?.close();
  });

  const oversize = 'x'.repeat(513);
  const documents: { name: string; edit: (body: Record<string, unknown>) => string; problem: RegExp }[] = [
    {
      name: 'invalid JSON',
      edit: (b) => JSON.stringify(b, null, 2).replace(/\}\s*$/, ',\n  "threshold" 5\n}'),
      problem: /syntax|expected|colon/i,
    },
    { name: 'a wrong type', edit: (b) => JSON.stringify({ ...b, threshold: 'high' }, null, 2), problem: /threshold/ },
    {
      name: 'an unknown enum value',
      edit: (b) => JSON.stringify({ ...b, thresholdType: 'sideways' }, null, 2),
      problem: /thresholdType|sideways/,
    },
    {
      name: 'an unknown interval',
      edit: (b) => JSON.stringify({ ...b, interval: '2h' }, null, 2),
      problem: /interval|2h/,
    },
    { name: 'an empty string', edit: (b) => JSON.stringify({ ...b, name: '' }, null, 2), problem: /name|empty/i },
    { name: 'an oversize string', edit: (b) => JSON.stringify({ ...b, name: oversize }, null, 2), problem: /512/ },
    {
      name: 'a dashboard ID with ".."',
      edit: (b) => JSON.stringify({ ...b, dashboardId: '../../organizations' }, null, 2),
      problem: /dashboardId|ID/,
    },
    {
      name: 'a tile ID with "/"',
      edit: (b) => JSON.stringify({ ...b, tileId: 'a/b' }, null, 2),
      problem: /tileId|ID|Tile/,
    },
    {
      name: 'a webhook ID with "%"',
      edit: (b) => JSON.stringify({ ...b, channel: { type: 'webhook', webhookId: '50%2F' } }, null, 2),
      problem: /webhookId|ID|Webhook/,
    },
    {
      name: 'a tile ID with spaces',
      edit: (b) => JSON.stringify({ ...b, tileId: 'my tile' }, null, 2),
      problem: /tileId|ID|Tile/,
    },
  ];

  for (const c of documents) {
    it(`an alert document with ${c.name} is not sent, and the problem is named`, async () => {
      const { uri, doc, body } = await draft();
      const text = `${c.edit(body)}\n`;
      await replaceText(doc, text);
      const mark = emulator.requests.length;
      const result = await vscode.commands.executeCommand<ApplyResult>('observability.applyResource', { uri });
      assert.equal(result.outcome, 'invalid', JSON.stringify(result));
      assert.deepEqual(sentSince(mark), [], 'no request');
      const problems = (result.problems ?? []).join('\n');
      assert.match(problems, c.problem);
      assert.equal(doc.getText(), text, 'the text is kept');
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    });
  }

  const badIds = ['a/b', '..', '50%', 'my alert', '../../../v1/organizations'];
  for (const id of badIds) {
    it(`commands refuse the resource ID ${JSON.stringify(id)} before any request`, async () => {
      const mark = emulator.requests.length;
      const deleted = await vscode.commands.executeCommand<DeleteResult>('observability.deleteAlert', {
        connectionId,
        serviceId: serviceA,
        alertId: id,
        skipConfirmation: true,
      });
      assert.equal(deleted.deleted, false);
      assert.match(deleted.error ?? '', /Delete alert failed/);
      assert.match(deleted.error ?? '', /alertId/);
      const dashboard = await vscode.commands.executeCommand<DeleteResult>('observability.deleteDashboard', {
        connectionId,
        serviceId: serviceA,
        dashboardId: id,
        skipConfirmation: true,
      });
      assert.equal(dashboard.deleted, false);
      assert.match(dashboard.error ?? '', /dashboardId/);
      const logMark = (await logText(api)).length;
      const opened = await vscode.commands.executeCommand<string | undefined>('observability.editResource', {
        connectionId,
        serviceId: serviceA,
        alertId: id,
        name: 'Bad ID',
      });
      if (opened !== undefined) {
        // The ID may be refused as a document address already; then nothing may have been requested either.
        assert.fail(`a document was opened for the alert ID ${JSON.stringify(id)}: ${opened}`);
      }
      // The log is written asynchronously, later on a busy host: wait for the line, not for a fixed time.
      let logged = '';
      for (let until = Date.now() + 20_000; !/Could not open/.test(logged) && Date.now() < until;) {
        await new Promise((r) => setTimeout(r, 100));
        logged = (await logText(api)).slice(logMark);
      }
      assert.match(logged, /Could not open the alert/);
      assert.deepEqual(sentSince(mark), [], 'no request');
    });
  }

  it('commands refuse a service ID that is not a UUID before any request', async () => {
    const alertId = [...data(serviceA).alerts.keys()][0]!;
    const mark = emulator.requests.length;
    for (const serviceId of ['checkout-prod', `${serviceA}/../x`, '']) {
      const deleted = await vscode.commands.executeCommand<DeleteResult | undefined>('observability.deleteAlert', {
        connectionId,
        serviceId,
        alertId,
        skipConfirmation: true,
      });
      assert.equal(deleted?.deleted ?? false, false);
      if (serviceId !== '') assert.match(deleted?.error ?? '', /serviceId|service ID|UUID/i);
    }
    assert.deepEqual(sentSince(mark), [], 'no request');
    assert.ok(data(serviceA).alerts.has(alertId));
  });

  const connections: { name: string; args: Record<string, unknown>; problem: RegExp; secret?: string }[] = [
    { name: 'a non-UUID organization ID', args: { organizationId: 'northwind' }, problem: /organizationId.*UUID/ },
    { name: 'a non-UUID service ID', args: { serviceIds: ['checkout-prod'] }, problem: /serviceIds.*UUID/ },
    { name: 'no service', args: { serviceIds: [] }, problem: /serviceIds/ },
    {
      name: 'credentials in the base URL',
      args: { baseUrl: 'http://emuUser:hunter2-in-url@127.0.0.1:1' },
      problem: /baseUrl.*(credential|user|password)/i,
      secret: 'hunter2-in-url',
    },
    {
      name: 'plain http to a host that is not loopback',
      args: { baseUrl: 'http://api.example.com' },
      problem: /baseUrl.*(https|HTTPS)/,
    },
    { name: 'a query string in the base URL', args: { baseUrl: 'https://api.example.com/?key=1' }, problem: /baseUrl/ },
    { name: 'an empty key ID', args: { keyId: '' }, problem: /keyId/ },
    { name: 'an empty key secret', args: { keySecret: '' }, problem: /keySecret/ },
    { name: 'a path segment with "/"', args: { pathSegment: 'observability/../x' }, problem: /pathSegment/ },
  ];
  for (const c of connections) {
    it(`Add Connection refuses ${c.name} before any request`, async () => {
      const before = api.connections.list().length;
      const mark = emulator.requests.length;
      const { message } = await rejection(
        vscode.commands.executeCommand('observability.addConnection', {
          baseUrl: emulator.url,
          keyId: emulator.keyId,
          keySecret: emulator.keySecret,
          organizationId: orgId,
          serviceIds: [serviceA],
          label: 'Refused',
          ...c.args,
        }),
        'the command was not refused',
      );
      assert.match(message, c.problem);
      if (c.secret) assert.ok(!message.includes(c.secret), `the message repeats the password: ${message}`);
      assert.equal(api.connections.list().length, before, 'nothing saved');
      assert.deepEqual(sentSince(mark), [], 'no request');
    });
  }
});
