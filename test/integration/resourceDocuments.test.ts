/**
 * Webhooks, saved searches, sources and roles as JSON documents against the emulator: Create opens a template that
 * applies as it is, Edit opens the service's version, Apply shows the diff and sends the body, unknown fields travel
 * as typed, bodies the live rules refuse are never sent, a failed request keeps the typed text, the webhook URL's
 * secret never appears in the document, the diffs or the log (and an unchanged mask keeps the stored URL), predefined
 * roles are refused, and Create Alert on a service without webhooks creates one first and comes back to the alert.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import type { ApplyResult } from '../../src/resourceDocuments/apply';
import type { DeleteResult } from '../../src/tree/commands';
import {
  activate,
  configure,
  isAlertableTile,
  type StoredTile,
  docOf,
  logText,
  replaceText,
  setField,
  waitFor,
} from './support';

interface Api {
  readonly logUri: vscode.Uri;
}

const SLACK_SECRET = 'hZ4kq8Wm2RtYpV6nX1sC0bJd';

describe('Resource documents: webhooks, saved searches, sources and roles', function () {
  this.timeout(120_000);
  let emulator: Emulator;
  let api: Api;
  let connectionId: string;
  let orgId: string;
  let serviceId: string;
  /** A service whose webhooks are removed before anything reads them. */
  let bareServiceId: string;

  const data = (id = serviceId) => emulator.state.data.get(id)!;
  const apply = (uri: string, extra: Record<string, unknown> = {}) =>
    vscode.commands.executeCommand<ApplyResult>('observability.applyResource', { uri, noPrompt: true, ...extra });
  const base = (id = serviceId) => `/v1/organizations/${orgId}/services/${id}/observability`;
  const sentSince = (mark: number, method: string) =>
    emulator.requests.slice(mark).filter((r) => r.method === method && r.path.includes('/observability/'));
  const serverTexts = () =>
    vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'observability-server').map((d) => d.getText());

  before(async () => {
    await configure('rateLimit.requestsPerWindow', 1000);
    await configure('rateLimit.windowSeconds', 1);
    await configure('autoSave', 'off', 'files');
    emulator = await startEmulator({ rateLimit: { requests: 100_000, windowMs: 1000 } });
    api = await activate<Api>();
    orgId = emulator.organizationId;
    [serviceId, bareServiceId] = emulator.serviceIds as [string, string];
    // The second service has no webhook (and so no alert that could use one).
    data(bareServiceId).webhooks.clear();
    data(bareServiceId).alerts.clear();
    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: emulator.url,
      keyId: emulator.keyId,
      keySecret: emulator.keySecret,
      organizationId: orgId,
      serviceIds: [serviceId, bareServiceId],
      label: 'Resource documents (emulator)',
      skipCheck: true,
    });
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, skipConfirmation: true });
    }
    await configure('rateLimit.requestsPerWindow', undefined);
    await configure('rateLimit.windowSeconds', undefined);
    await configure('autoSave', undefined, 'files');
    await emulator?.close();
  });

  afterEach(async () => {
    emulator.faults.clear();
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme === 'observability' && doc.isDirty) {
        await vscode.window.showTextDocument(doc);
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      }
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  /** Opens the Create document of a kind and returns it. */
  async function createDocument(command: string, args: Record<string, unknown> = {}) {
    const uri = await vscode.commands.executeCommand<string>(command, { connectionId, serviceId, ...args });
    assert.ok(uri, `${command} returns the document address`);
    return { uri, doc: docOf(uri) };
  }

  const cases = [
    {
      kind: 'webhook',
      command: 'observability.createWebhook',
      folder: 'webhooks',
      suffix: '.webhook.json',
      store: () => data().webhooks as Map<string, { name: string }>,
      path: 'webhooks',
      deleteArgs: (id: string) => ({ webhookId: id }),
      deleteCommand: 'observability.deleteWebhook',
    },
    {
      kind: 'savedSearch',
      command: 'observability.createSavedSearch',
      folder: 'saved-searches',
      suffix: '.saved-search.json',
      store: () => data().savedSearches as Map<string, { name: string }>,
      path: 'saved-searches',
      deleteArgs: (id: string) => ({ savedSearchId: id }),
      deleteCommand: 'observability.deleteSavedSearch',
    },
    {
      kind: 'source',
      command: 'observability.createSource',
      folder: 'sources',
      suffix: '.source.json',
      store: () => data().sources as unknown as Map<string, { name: string }>,
      path: 'sources',
      deleteArgs: (id: string) => ({ sourceId: id }),
      deleteCommand: 'observability.deleteSource',
    },
    {
      kind: 'role',
      command: 'observability.createRole',
      folder: 'roles',
      suffix: '.new-role.json',
      store: () => data().roles as unknown as Map<string, { name: string }>,
      path: 'roles',
      deleteArgs: (id: string) => ({ roleId: id }),
      deleteCommand: 'observability.deleteRole',
    },
  ] as const;

  for (const c of cases) {
    it(`${c.kind}: Create applies the template, Edit shows the diff and updates, Delete removes it`, async () => {
      const name = `Docs ${c.kind} ${Date.now()}`;
      const { uri, doc } = await createDocument(c.command, { name, sourceKind: 'log' });
      assert.match(uri, new RegExp(`/${c.folder}/new-\\d+/.+${c.suffix.replace(/\./g, '\\.')}$`));
      assert.equal((JSON.parse(doc.getText()) as { name: string }).name, name);

      const created = await apply(uri);
      assert.equal(created.outcome, 'applied', JSON.stringify(created));
      const id = created.id!;
      assert.equal(c.store().get(id)?.name, name, 'the service holds the new resource');
      assert.ok(created.uri && created.uri.includes(`/${c.folder}/${id}/`), 'the document moved to its ID');
      assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), created.uri);

      // Edit from an argument object opens the same document; a change is applied after the diff.
      const edited = await vscode.commands.executeCommand<string>('observability.editResource', {
        connectionId,
        serviceId,
        kind: c.kind,
        id,
      });
      assert.equal(edited, created.uri);
      const doc2 = docOf(edited);
      // Every field of the service's version goes back (a newer server's unknown fields included).
      const shownKeys = Object.keys(JSON.parse(doc2.getText()) as object);
      if (process.env.OBS_EMULATOR_FUTURE === '1') {
        assert.ok(
          shownKeys.some((k) => k.startsWith('futureField')),
          `the document keeps the newer server's fields: ${shownKeys.join(', ')}`,
        );
      }
      await setField(doc2, 'name', `${name} (renamed)`);
      const mark = emulator.requests.length;
      const updated = await apply(edited);
      assert.equal(updated.outcome, 'applied', JSON.stringify(updated));
      assert.equal(updated.diffShown, true);
      assert.equal(c.store().get(id)?.name, `${name} (renamed)`);
      const put = sentSince(mark, 'PUT').find((r) => r.path === `${base()}/${c.path}/${id}`);
      assert.ok(put, 'one PUT of the resource');
      for (const key of shownKeys) assert.ok(key in (put.body as object), `the update sends "${key}"`);
      assert.equal(doc2.isDirty, false, 'the document is the saved resource');

      // Nothing changed: nothing sent.
      const again = await apply(edited);
      assert.equal(again.outcome, 'unchanged');

      const deleted = await vscode.commands.executeCommand<DeleteResult>(c.deleteCommand, {
        connectionId,
        serviceId,
        ...c.deleteArgs(id),
        noPrompt: true,
      });
      assert.equal(deleted.deleted, true, JSON.stringify(deleted));
      assert.equal(c.store().has(id), false);
    });
  }

  it('source: Create asks nothing when the kind is given, and each kind starts with its required expressions', async () => {
    for (const sourceKind of ['log', 'trace', 'metric', 'session'] as const) {
      const { doc } = await createDocument('observability.createSource', { sourceKind });
      const body = JSON.parse(doc.getText()) as Record<string, unknown>;
      assert.equal(body.kind, sourceKind);
      assert.ok(typeof body.connection === 'string' && body.connection !== '', 'connection taken from the service');
      const required: Record<typeof sourceKind, string[]> = {
        log: ['timestampValueExpression', 'defaultTableSelectExpression'],
        trace: [
          'durationExpression',
          'traceIdExpression',
          'spanIdExpression',
          'parentSpanIdExpression',
          'spanNameExpression',
          'spanKindExpression',
        ],
        metric: ['metricTables', 'resourceAttributesExpression'],
        session: ['traceSourceId'],
      };
      for (const field of required[sourceKind]) assert.ok(body[field], `${sourceKind}: ${field} filled`);
      if (sourceKind === 'session') {
        const trace = [...data().sources.values()].find((s) => s.kind === 'trace');
        assert.equal(body.traceSourceId, trace?.id);
      }
    }
  });

  it('refuses a body the live rules refuse before sending, with the rule in Problems', async () => {
    const { uri, doc } = await createDocument('observability.createWebhook', { name: 'Not slack' });
    const body = JSON.parse(doc.getText()) as Record<string, unknown>;
    delete body.headers;
    delete body.body;
    await replaceText(doc, `${JSON.stringify({ ...body, service: 'slack', url: 'https://example.com/x' }, null, 2)}\n`);
    const mark = emulator.requests.length;
    const result = await apply(uri);
    assert.equal(result.outcome, 'invalid');
    assert.match((result.problems ?? []).join('\n'), /slack\.com/);
    assert.equal(sentSince(mark, 'POST').length, 0, 'nothing sent');
    const diagnostics = vscode.languages.getDiagnostics(doc.uri);
    assert.ok(diagnostics.some((d) => /slack\.com/.test(d.message)));

    const search = await createDocument('observability.createSavedSearch', { name: 'Bad source' });
    await setField(search.doc, 'sourceId', '000000000000000000000000');
    const refused = await apply(search.uri);
    assert.equal(refused.outcome, 'invalid');
    assert.match((refused.problems ?? []).join('\n'), /Source "000000000000000000000000" does not exist/);
  });

  it('keeps the typed text, dirty, when the service answers 4xx; names status, message and request ID', async () => {
    const { uri, doc } = await createDocument('observability.createSavedSearch', { name: 'Refused by the service' });
    await setField(doc, 'where', 'level:error');
    const typed = doc.getText();
    emulator.faults.add({
      method: 'POST',
      path: `${base()}/saved-searches`,
      times: 1,
      status: 400,
      body: { message: 'Saved search refused', requestId: '00000000-0000-4000-8000-000000000400' },
    });
    const before = data().savedSearches.size;
    const result = await apply(uri);
    assert.equal(result.outcome, 'failed', JSON.stringify(result));
    assert.match(result.error ?? '', /HTTP 400/);
    assert.match(result.error ?? '', /Saved search refused/);
    assert.match(result.error ?? '', /00000000-0000-4000-8000-000000000400/);
    assert.equal(doc.getText(), typed);
    assert.ok(doc.isDirty);
    assert.equal(data().savedSearches.size, before);
  });

  it('a saved search just created is known at once to the checks of an alert on it', async () => {
    const search = await createDocument('observability.createSavedSearch', { name: 'Errors for alerting' });
    await setField(search.doc, 'where', 'level:error');
    const created = await apply(search.uri);
    assert.equal(created.outcome, 'applied', JSON.stringify(created));
    const webhookId = [...data().webhooks.values()][0]!.id;
    const dashboard = [...data().dashboards.values()].find((d) =>
      (d.tiles as unknown as StoredTile[]).some(isAlertableTile),
    )!;
    const alertUri = await vscode.commands.executeCommand<string>('observability.createAlert', {
      connectionId,
      serviceId,
      dashboardId: dashboard.id,
      tileId: (dashboard.tiles as unknown as StoredTile[]).find(isAlertableTile)!.id,
      webhookId,
      name: 'On the new saved search',
    });
    const alertDoc = docOf(alertUri);
    const body = {
      name: 'On the new saved search',
      source: 'saved_search',
      savedSearchId: created.id,
      threshold: 5,
      thresholdType: 'above',
      interval: '5m',
      channel: { type: 'webhook', webhookId },
    };
    await replaceText(alertDoc, `${JSON.stringify(body, null, 2)}\n`);
    const alert = await apply(alertUri);
    assert.equal(alert.outcome, 'applied', JSON.stringify(alert));
    assert.equal(data().alerts.get(alert.id!)?.savedSearchId, created.id);
  });

  it('unknown fields travel as typed in the body', async () => {
    const { uri, doc } = await createDocument('observability.createRole', { name: 'Role with extra' });
    await setField(doc, 'futureSetting', { keep: true });
    const mark = emulator.requests.length;
    const result = await apply(uri);
    assert.equal(result.outcome, 'applied', JSON.stringify(result));
    const post = sentSince(mark, 'POST').find((r) => r.path === `${base()}/roles`);
    assert.deepEqual((post?.body as Record<string, unknown>).futureSetting, { keep: true });
  });

  it('webhook: the URL secret is masked in the document and the diff, never logged; an unchanged mask keeps it', async () => {
    const slack = [...data().webhooks.values()].find((w) => w.url.includes(SLACK_SECRET))!;
    const uri = await vscode.commands.executeCommand<string>('observability.editResource', {
      connectionId,
      serviceId,
      kind: 'webhook',
      id: slack.id,
    });
    const doc = docOf(uri);
    const shown = JSON.parse(doc.getText()) as Record<string, unknown>;
    assert.match(String(shown.url), /hooks\.slack\.com/);
    assert.ok(!doc.getText().includes(SLACK_SECRET), 'the document does not show the secret');

    await setField(doc, 'description', 'Pages the on-call channel');
    const compared = await vscode.commands.executeCommand<boolean>('observability.compareWithService', { uri });
    assert.equal(compared, true);
    const mark = emulator.requests.length;
    const result = await apply(uri);
    assert.equal(result.outcome, 'applied', JSON.stringify(result));
    const put = sentSince(mark, 'PUT').find((r) => r.path === `${base()}/webhooks/${slack.id}`);
    assert.equal((put?.body as { url?: string }).url, slack.url, 'the stored URL is sent, not the mask');
    assert.equal(data().webhooks.get(slack.id)?.url, slack.url);
    assert.equal(data().webhooks.get(slack.id)?.description, 'Pages the on-call channel');
    for (const text of serverTexts()) assert.ok(!text.includes(SLACK_SECRET), 'no diff shows the secret');
    assert.ok(!(await logText(api)).includes(SLACK_SECRET), 'the log does not hold the secret');

    // A changed URL that still holds the mask cannot be sent.
    const masked = String((JSON.parse(doc.getText()) as { url: string }).url);
    await setField(doc, 'url', masked.replace('hooks.slack.com', 'hooks.slack.com/x'));
    const before = emulator.requests.length;
    const refused = await apply(uri);
    assert.equal(refused.outcome, 'invalid');
    assert.match((refused.problems ?? []).join('\n'), /masked parts/);
    assert.equal(sentSince(before, 'PUT').length, 0);
  });

  it('webhook: header values are masked in the diff before an update', async () => {
    const generic = [...data().webhooks.values()].find((w) => w.service === 'generic')!;
    const uri = await vscode.commands.executeCommand<string>('observability.editResource', {
      connectionId,
      serviceId,
      kind: 'webhook',
      id: generic.id,
    });
    const doc = docOf(uri);
    await setField(doc, 'headers', { Authorization: 'Bearer sEcReT-tOkEn-12345' });
    const mark = emulator.requests.length;
    const result = await apply(uri);
    assert.equal(result.outcome, 'applied', JSON.stringify(result));
    const put = sentSince(mark, 'PUT').find((r) => r.path === `${base()}/webhooks/${generic.id}`);
    assert.deepEqual((put?.body as { headers?: unknown }).headers, { Authorization: 'Bearer sEcReT-tOkEn-12345' });
    for (const text of serverTexts()) assert.ok(!text.includes('sEcReT-tOkEn-12345'), 'no diff shows the header');
    assert.ok(!(await logText(api)).includes('sEcReT-tOkEn-12345'));
  });

  it('webhook: a new URL that would clear the stored headers and query parameters is said first and needs its own confirmation', async () => {
    const generic = [...data().webhooks.values()].find((w) => w.service === 'generic')!;
    const stored = data().webhooks.get(generic.id)!;
    stored.headers = { 'X-Api-Key': 'stored-key-9876' };
    stored.queryParams = { token: 'stored-token-5432' };
    const uri = await vscode.commands.executeCommand<string>('observability.editResource', {
      connectionId,
      serviceId,
      kind: 'webhook',
      id: generic.id,
    });
    const doc = docOf(uri);
    assert.ok(!doc.getText().includes('"headers"'), 'write-only fields are not in the document');

    // Same destination: the service keeps what it stores, nothing more is asked.
    await setField(doc, 'description', 'Same destination');
    const kept = await apply(uri);
    assert.equal(kept.outcome, 'applied', JSON.stringify(kept));
    assert.deepEqual(data().webhooks.get(generic.id)?.headers, { 'X-Api-Key': 'stored-key-9876' });

    // A new URL with the write-only fields left out: the service would clear them; automation is refused.
    await setField(doc, 'url', 'https://hooks.example.com/incoming/new-destination');
    const typed = doc.getText();
    const mark = emulator.requests.length;
    const refused = await apply(uri);
    assert.equal(refused.outcome, 'secretsWouldBeCleared', JSON.stringify(refused));
    assert.deepEqual(refused.cleared, ['headers', 'queryParams']);
    assert.equal(sentSince(mark, 'PUT').length, 0, 'nothing is sent');
    assert.equal(doc.getText(), typed, 'the typed text stays');
    assert.ok(doc.isDirty);
    assert.deepEqual(data().webhooks.get(generic.id)?.headers, { 'X-Api-Key': 'stored-key-9876' });

    // Confirmed: sent, and the service holds the new URL without the old secrets.
    const applied = await apply(uri, { confirmSecretRemoval: true });
    assert.equal(applied.outcome, 'applied', JSON.stringify(applied));
    const put = sentSince(mark, 'PUT').find((r) => r.path === `${base()}/webhooks/${generic.id}`);
    assert.equal((put?.body as { url?: string }).url, 'https://hooks.example.com/incoming/new-destination');
    assert.equal(data().webhooks.get(generic.id)?.headers, undefined);
    assert.equal(data().webhooks.get(generic.id)?.queryParams, undefined);
    assert.ok(!(await logText(api)).includes('stored-key-9876'));
  });

  it('role: a predefined role is refused before anything is sent', async () => {
    const predefined = [...data().roles.values()].find((r) => r.isPredefined)!;
    const uri = await vscode.commands.executeCommand<string>('observability.editResource', {
      connectionId,
      serviceId,
      kind: 'role',
      id: predefined.id,
    });
    const doc = docOf(uri);
    await setField(doc, 'description', 'changed');
    const mark = emulator.requests.length;
    const result = await apply(uri);
    assert.equal(result.outcome, 'invalid');
    assert.match((result.problems ?? []).join('\n'), /Predefined roles cannot be changed/);
    assert.equal(sentSince(mark, 'PUT').length, 0);
  });

  it('Create Alert on a service without webhooks creates one first and fills its ID in the alert', async () => {
    const dashboard = [...data(bareServiceId).dashboards.values()].find((d) =>
      (d.tiles as unknown as StoredTile[]).some(isAlertableTile),
    )!;
    const target = {
      dashboardId: dashboard.id as string,
      tileId: (dashboard.tiles as unknown as StoredTile[]).find(isAlertableTile)!.id,
    };
    const alertUri = await vscode.commands.executeCommand<string>('observability.createAlert', {
      connectionId,
      serviceId: bareServiceId,
      dashboardId: target.dashboardId,
      tileId: target.tileId,
      name: 'First alert',
      createWebhookFirst: true,
    });
    assert.ok(alertUri);
    const webhookDoc = vscode.window.activeTextEditor?.document;
    assert.ok(webhookDoc && /\/webhooks\/new-\d+\//.test(webhookDoc.uri.path), 'the webhook document is open');
    const created = await apply(webhookDoc.uri.toString());
    assert.equal(created.outcome, 'applied', JSON.stringify(created));
    const alertDoc = docOf(alertUri);
    await waitFor(
      'the webhook ID filled in the alert',
      () => (JSON.parse(alertDoc.getText()) as { channel: { webhookId: string } }).channel.webhookId === created.id,
    );
    await waitFor('the alert editor back in front', () => vscode.window.activeTextEditor?.document === alertDoc);
    const alert = await apply(alertUri);
    assert.equal(alert.outcome, 'applied', JSON.stringify(alert));
    const stored = data(bareServiceId).alerts.get(alert.id!)!;
    assert.ok(
      (stored.channels as { webhookId?: string }[]).some((ch) => ch.webhookId === created.id),
      'the alert notifies the new webhook',
    );
  });
});
