/**
 * Alert files that name their webhook and saved search by name, against the in-process emulators: one body applied to
 * two Cloud services gets each service's own IDs; a missing, ambiguous or case-only name is refused before any write
 * is sent, with the message on the name field; completion offers the service's names and an inlay hint shows the ID a
 * name stands for; a self-hosted deployment resolves names the same way.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import { ossData } from '../emulator/oss/seed';
import type { ApplyPlanResult, FileResult } from '../../src/alertFiles/service';
import type { AlertPlan } from '../../src/alertFiles/plan';
import { activate, alertTarget, configure, readFile, waitFor, writeFile } from './support';

describe('Alert files: webhooks and saved searches by name', function () {
  this.timeout(120_000);
  let emulator: Emulator;
  let oss: Emulator;
  let connectionId: string;
  let ossConnectionId: string;
  let orgId: string;
  let serviceA: string;
  let serviceB: string;
  let root: vscode.Uri;
  let counter = 0;

  const data = (serviceId: string) => emulator.state.data.get(serviceId)!;
  const WEBHOOK = 'Ops relay';
  const SEARCH = 'Payment declines';
  const webhookIdOf = (serviceId: string, name = WEBHOOK) => {
    const found = [...data(serviceId).webhooks.values()].filter((w) => w.name === name);
    assert.equal(found.length, 1, `one webhook "${name}" on ${serviceId}`);
    return found[0]!.id;
  };
  const searchIdOf = (serviceId: string, name = SEARCH) => {
    const found = [...data(serviceId).savedSearches.values()].filter((s) => s.name === name);
    assert.equal(found.length, 1, `one saved search "${name}" on ${serviceId}`);
    return found[0]!.id as string;
  };
  /** Requests that change something (anything but a read). */
  const writes = (e: Emulator, from: number) => e.requests.slice(from).filter((r) => r.method !== 'GET');

  /** The body of a portable alert: everything on the service named by name. */
  function portable(extra: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      name: `Declines by name ${++counter}`,
      source: 'saved_search',
      savedSearchName: SEARCH,
      threshold: 10,
      thresholdType: 'above',
      interval: '5m',
      channel: { type: 'webhook', webhookName: WEBHOOK },
      ...extra,
    };
  }

  async function folder(name: string): Promise<vscode.Uri> {
    const uri = vscode.Uri.joinPath(root, name);
    await vscode.workspace.fs.createDirectory(uri);
    return uri;
  }

  const lineOf = (text: string, key: string) => text.split('\n').findIndex((l) => l.includes(`"${key}"`));

  before(async () => {
    await configure('rateLimit.requestsPerWindow', 1000);
    await configure('rateLimit.windowSeconds', 1);
    emulator = await startEmulator({ rateLimit: { requests: 100_000, windowMs: 1000 } });
    oss = await startEmulator({ flavor: 'oss', rateLimit: false });
    await activate();
    orgId = emulator.organizationId;
    [serviceA, serviceB] = emulator.serviceIds as [string, string];
    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: emulator.url,
      keyId: emulator.keyId,
      keySecret: emulator.keySecret,
      organizationId: orgId,
      serviceIds: [serviceA, serviceB],
      label: 'Alert file names (emulator)',
    });
    ossConnectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      kind: 'selfHosted',
      baseUrl: oss.url,
      apiKey: oss.ossApiKey,
    });
    const workspace = vscode.workspace.workspaceFolders?.[0];
    assert.ok(workspace, 'the test host opens a workspace folder');
    root = vscode.Uri.joinPath(workspace.uri, `alert-file-names-test-${Date.now()}`);
    await vscode.workspace.fs.createDirectory(root);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (root) await vscode.workspace.fs.delete(root, { recursive: true, useTrash: false });
    for (const id of [connectionId, ossConnectionId]) {
      if (id) {
        await vscode.commands.executeCommand('observability.removeConnection', { connectionId: id, noPrompt: true });
      }
    }
    await configure('rateLimit.requestsPerWindow', undefined);
    await configure('rateLimit.windowSeconds', undefined);
    await emulator?.close();
    await oss?.close();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("applies one body to two services, each alert with its own service's webhook and saved search IDs", async () => {
    assert.notEqual(webhookIdOf(serviceA), webhookIdOf(serviceB), 'the services have different webhook IDs');
    const dir = await folder('two-services');
    const body = portable();
    const fileA = vscode.Uri.joinPath(dir, 'a.alert.json');
    const fileB = vscode.Uri.joinPath(dir, 'b.alert.json');
    await writeFile(fileA, `${JSON.stringify({ organizationId: orgId, serviceId: serviceA, ...body }, null, 2)}\n`);
    await writeFile(fileB, `${JSON.stringify({ organizationId: orgId, serviceId: serviceB, ...body }, null, 2)}\n`);

    const plan = await vscode.commands.executeCommand<AlertPlan>('observability.planAlertFiles', {
      folder: dir.toString(),
    });
    assert.equal(plan.services.length, 2);
    for (const [serviceId, label] of [
      [serviceA, 'a.alert.json'],
      [serviceB, 'b.alert.json'],
    ] as const) {
      const entry = plan.services.find((s) => s.serviceId === serviceId)?.entries[0];
      assert.equal(entry?.action, 'create', JSON.stringify(entry));
      assert.ok(entry.label.endsWith(label));
      assert.deepEqual(entry.references, [
        { field: 'savedSearchName', name: SEARCH, id: searchIdOf(serviceId) },
        { field: 'channel.webhookName', name: WEBHOOK, id: webhookIdOf(serviceId) },
      ]);
    }
    const planDoc = vscode.window.activeTextEditor?.document;
    assert.ok(planDoc && planDoc.uri.path.endsWith('Alert plan.md'), 'the plan is shown');
    assert.ok(
      planDoc.getText().includes(`channel\\.webhookName \`${WEBHOOK}\` → id \`${webhookIdOf(serviceB)}\``),
      planDoc.getText(),
    );

    const mark = emulator.requests.length;
    const result = await vscode.commands.executeCommand<ApplyPlanResult>('observability.applyAlertPlan', {
      folder: dir.toString(),
      confirm: true,
    });
    assert.equal(result.outcome, 'applied', JSON.stringify(result));
    const posts = writes(emulator, mark);
    assert.equal(posts.length, 2);
    for (const post of posts) {
      assert.equal(post.method, 'POST');
      assert.ok(!/webhookName|savedSearchName/.test(JSON.stringify(post.body)), 'the service never sees a name');
    }
    for (const [serviceId, uri] of [
      [serviceA, fileA],
      [serviceB, fileB],
    ] as const) {
      const value = JSON.parse(await readFile(uri)) as Record<string, unknown>;
      assert.equal(typeof value.id, 'string', 'the ID was written back');
      assert.deepEqual(value.channel, { type: 'webhook', webhookName: WEBHOOK }, 'the file keeps the name');
      const created = data(serviceId).alerts.get(value.id as string);
      assert.ok(created, `alert created on ${serviceId}`);
      assert.equal(created.savedSearchId, searchIdOf(serviceId));
      assert.equal(created.channels[0]?.webhookId, webhookIdOf(serviceId));
    }

    // Compare with Service: the service's side names the webhook and saved search as the file does.
    assert.equal(
      await vscode.commands.executeCommand<boolean>('observability.compareAlertFile', { uri: fileB.toString() }),
      true,
    );
    const serviceSide = await waitFor('the service side of the comparison', () =>
      vscode.workspace.textDocuments.find(
        (d) =>
          d.uri.scheme === 'observability-alert-files' &&
          d.uri.path.includes(`${String(body.name)} (service)`) &&
          d.getText().includes(`"serviceId": "${serviceB}"`),
      ),
    );
    const shown = JSON.parse(serviceSide.getText()) as Record<string, unknown>;
    assert.equal(shown.savedSearchName, SEARCH);
    assert.ok(!('savedSearchId' in shown));
    assert.deepEqual(shown.channel, { type: 'webhook', webhookName: WEBHOOK });

    // Planned again: the names resolve to what the alerts hold, so nothing is left to do.
    const again = await vscode.commands.executeCommand<AlertPlan>('observability.planAlertFiles', {
      folder: dir.toString(),
      show: false,
    });
    assert.deepEqual(
      again.services.map((s) => s.entries.map((e) => e.action)),
      [['unchanged'], ['unchanged']],
    );
  });

  it('refuses a missing, case-only or ambiguous name before any write, with the message on the name field', async () => {
    const dir = await folder('refused');
    const missing = vscode.Uri.joinPath(dir, 'missing.alert.json');
    await writeFile(
      missing,
      `${JSON.stringify({ organizationId: orgId, serviceId: serviceA, ...portable({ channel: { type: 'webhook', webhookName: 'No such hook' } }) }, null, 2)}\n`,
    );
    const caseOnly = vscode.Uri.joinPath(dir, 'case.alert.json');
    await writeFile(
      caseOnly,
      `${JSON.stringify({ organizationId: orgId, serviceId: serviceA, ...portable({ savedSearchName: SEARCH.toUpperCase() }) }, null, 2)}\n`,
    );
    // A second webhook of the same name on service B.
    const original = [...data(serviceB).webhooks.values()].find((w) => w.name === WEBHOOK)!;
    const twin = { ...original, id: `${original.id.slice(0, -4)}beef` };
    data(serviceB).webhooks.set(twin.id, twin);
    const ambiguous = vscode.Uri.joinPath(dir, 'ambiguous.alert.json');
    await writeFile(
      ambiguous,
      `${JSON.stringify({ organizationId: orgId, serviceId: serviceB, ...portable() }, null, 2)}\n`,
    );
    try {
      const alertsBefore = data(serviceA).alerts.size + data(serviceB).alerts.size;
      const mark = emulator.requests.length;
      const expectations: [vscode.Uri, string, RegExp][] = [
        [
          missing,
          'webhookName',
          /^channel\.webhookName: no webhook named "No such hook" on service "checkout-prod" \(webhooks there: .*"Ops relay".*\)$/,
        ],
        [
          caseOnly,
          'savedSearchName',
          new RegExp(
            `^savedSearchName: no saved search named "${SEARCH.toUpperCase()}" on service "checkout-prod" \\(saved searches there: .*\\); did you mean "${SEARCH}"\\?`,
          ),
        ],
        [
          ambiguous,
          'webhookName',
          new RegExp(
            `^channel\\.webhookName: 2 webhooks named "Ops relay" on service "search-staging" \\(IDs (${original.id}, ${twin.id}|${twin.id}, ${original.id})\\): use webhookId$`,
          ),
        ],
      ];
      for (const [uri, field, message] of expectations) {
        const result = await vscode.commands.executeCommand<FileResult>('observability.applyAlertFile', {
          uri: uri.toString(),
          confirm: true,
        });
        assert.equal(result.outcome, 'invalid', JSON.stringify(result));
        const line = lineOf(await readFile(uri), field);
        const diagnostic = vscode.languages
          .getDiagnostics(uri)
          .find((d) => d.severity === vscode.DiagnosticSeverity.Error && message.test(d.message));
        assert.ok(
          diagnostic,
          `${uri.path}: ${JSON.stringify(vscode.languages.getDiagnostics(uri).map((d) => d.message))}`,
        );
        assert.equal(diagnostic.range.start.line, line, 'the diagnostic is on the name field');
        assert.ok(
          result.problems?.some((p) => p.startsWith(`${line + 1}: `) && message.test(p.slice(p.indexOf(' ') + 1))),
        );
      }
      // The plan refuses them too, naming the file and the field.
      const plan = await vscode.commands.executeCommand<AlertPlan>('observability.planAlertFiles', {
        folder: dir.toString(),
        show: false,
      });
      const entries = plan.services.flatMap((s) => s.entries);
      assert.deepEqual(entries.map((e) => [e.label.split('/').pop(), e.action]).sort(), [
        ['ambiguous.alert.json', 'invalid'],
        ['case.alert.json', 'invalid'],
        ['missing.alert.json', 'invalid'],
      ]);
      assert.match(
        entries.find((e) => e.label.endsWith('missing.alert.json'))!.detail!,
        /^channel\.webhookName: no webhook named/,
      );
      const applied = await vscode.commands.executeCommand<ApplyPlanResult>('observability.applyAlertPlan', {
        folder: dir.toString(),
        confirm: true,
      });
      assert.equal(applied.outcome, 'nothingToDo');
      assert.deepEqual(writes(emulator, mark), [], 'no write request was sent');
      assert.equal(data(serviceA).alerts.size + data(serviceB).alerts.size, alertsBefore);
    } finally {
      data(serviceB).webhooks.delete(twin.id);
    }
  });

  it('validates while typing and on request: the name problem is a diagnostic on the field', async () => {
    const dir = await folder('validate');
    const uri = vscode.Uri.joinPath(dir, 'typo.alert.json');
    await writeFile(
      uri,
      `${JSON.stringify({ organizationId: orgId, serviceId: serviceA, ...portable({ channel: { type: 'webhook', webhookName: 'ops relay' } }) }, null, 2)}\n`,
    );
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const line = lineOf(doc.getText(), 'webhookName');
    const live = await waitFor('a live diagnostic on webhookName', () =>
      vscode.languages.getDiagnostics(uri).find((d) => /did you mean "Ops relay"/.test(d.message)),
    );
    assert.equal(live.range.start.line, line);
    const problems = await vscode.commands.executeCommand<string[]>('observability.validateAlertFile', {
      uri: uri.toString(),
      quiet: true,
    });
    assert.ok(
      problems.some((p) => p.startsWith(`${line + 1}: channel.webhookName: no webhook named "ops relay"`)),
      problems.join('\n'),
    );
    // No "unknown field" warning for the by-name fields.
    assert.ok(!problems.some((p) => /Unknown field/.test(p)), problems.join('\n'));
  });

  it('applies with the lists as they are now: a webhook added since the checks last read the list is found', async () => {
    const dir = await folder('fresh');
    const uri = vscode.Uri.joinPath(dir, 'fresh.alert.json');
    const hookName = `Added later ${Date.now()}`;
    await writeFile(
      uri,
      `${JSON.stringify({ organizationId: orgId, serviceId: serviceA, ...portable({ channel: { type: 'webhook', webhookName: hookName } }) }, null, 2)}\n`,
    );
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    await waitFor('the live check, from the list read before the webhook existed', () =>
      vscode.languages.getDiagnostics(uri).find((d) => d.message.includes(`no webhook named "${hookName}"`)),
    );
    const template = [...data(serviceA).webhooks.values()].find((w) => w.name === WEBHOOK)!;
    const added = { ...template, id: `${template.id.slice(0, -4)}f00d`, name: hookName };
    data(serviceA).webhooks.set(added.id, added);
    try {
      const result = await vscode.commands.executeCommand<FileResult>('observability.applyAlertFile', {
        uri: uri.toString(),
        confirm: true,
      });
      assert.equal(result.outcome, 'created', JSON.stringify(result));
      assert.equal(data(serviceA).alerts.get(result.id!)?.channels[0]?.webhookId, added.id);
    } finally {
      const id = (JSON.parse(await readFile(uri)) as { id?: string }).id;
      if (id) data(serviceA).alerts.delete(id);
      data(serviceA).webhooks.delete(added.id);
    }
  });

  it("completes the service's webhook and saved search names, and shows the ID a name stands for", async () => {
    const dir = await folder('completion');
    const uri = vscode.Uri.joinPath(dir, 'complete.alert.json');
    await writeFile(
      uri,
      `${JSON.stringify({ organizationId: orgId, serviceId: serviceA, ...portable({ savedSearchName: '' }) }, null, 2)}\n`,
    );
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const line = lineOf(doc.getText(), 'savedSearchName');
    const position = new vscode.Position(line, doc.lineAt(line).text.indexOf('""') + 1);
    const names = [...data(serviceA).savedSearches.values()].map((s) => s.name as string);
    await waitFor('saved search name completion', async () => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        uri,
        position,
      );
      const found = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
      return names.every((n) => found.includes(n)) ? found : undefined;
    });
    const hookLine = lineOf(doc.getText(), 'webhookName');
    const hints = await waitFor('the ID beside the webhook name', async () => {
      const found = await vscode.commands.executeCommand<vscode.InlayHint[]>(
        'vscode.executeInlayHintProvider',
        uri,
        new vscode.Range(0, 0, doc.lineCount, 0),
      );
      return found.some((h) => h.position.line === hookLine) ? found : undefined;
    });
    const label = (h: vscode.InlayHint) =>
      typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('');
    assert.ok(hints.some((h) => h.position.line === hookLine && label(h) === webhookIdOf(serviceA)));
  });

  it('resolves names on a self-hosted deployment the same way', async () => {
    const dir = await folder('self-hosted');
    const serviceId = oss.serviceIds[0]!;
    const target = alertTarget(oss, serviceId);
    const hook = [...ossData(oss.state).webhooks.values()][0]!;
    const uri = vscode.Uri.joinPath(dir, 'deployment.alert.json');
    await writeFile(
      uri,
      `${JSON.stringify(
        {
          baseUrl: oss.url,
          name: 'Self-hosted by name',
          source: 'tile',
          dashboardId: target.dashboardId,
          tileId: target.tileId,
          threshold: 3,
          thresholdType: 'above',
          interval: '5m',
          channel: { type: 'webhook', webhookName: hook.name },
        },
        null,
        2,
      )}\n`,
    );
    const result = await vscode.commands.executeCommand<FileResult>('observability.applyAlertFile', {
      uri: uri.toString(),
      confirm: true,
    });
    assert.equal(result.outcome, 'created', JSON.stringify(result));
    const created = ossData(oss.state).alerts.get(result.id!);
    assert.equal(created?.channels[0]?.webhookId, hook.id);
  });
});
