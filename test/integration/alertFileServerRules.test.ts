/**
 * Alert files follow the server they target, in a real VS Code against the emulator: an inline alert (`source:
 * "inline"` with a `chartConfig`) and an alert `displayName` / `tags` are accepted by newer self-hosted HyperDX only.
 * A self-hosted file shows a warning, is planned and sent as written, and the server's answer decides: the newest
 * HyperDX creates the inline alert (its id written back) and keeps the display name and tags; an older deployment
 * (the emulator's `hyperdxVersion: 'older'`) refuses the inline alert, shown with operation, status and the server's
 * message, the file kept as typed, and drops the display name and tags. A Cloud file shows an error and nothing is sent.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AlertPlan } from '../../src/alertFiles/plan';
import type { FileResult } from '../../src/alertFiles/service';
import { describeEachFlavor, readFile, SELF_HOSTED_FLAVOR, waitFor, writeFile, type FlavorRun } from './support';

type Json = Record<string, unknown>;

describeEachFlavor('Alert files that follow the server', (run) => rules(run, 'newest'));
describeEachFlavor('Alert files that follow the server', (run) => rules(run, 'older'), {
  flavors: [SELF_HOSTED_FLAVOR],
  hyperdxVersion: 'older',
});

/** The journeys, on the newest HyperDX (and Cloud) or on an older self-hosted deployment. */
function rules(run: FlavorRun, deployment: 'newest' | 'older'): void {
  let dir: vscode.Uri;
  let counter = 0;
  const selfHosted = () => run.flavor.emulatorFlavor === 'oss';
  // Writes only: a self-hosted deployment's reads of data (the fired-count lens's chart series, searches) are POSTs too.
  const writes = (from: number) =>
    run.emulator.requests
      .slice(from)
      .filter((r) => r.method !== 'GET' && !/\/(charts\/series|search)$/.test(r.path))
      .map((r) => `${r.method} ${r.path}`);

  before(async () => {
    const workspace = vscode.workspace.workspaceFolders?.[0];
    assert.ok(workspace, 'the test host opens a workspace folder');
    dir = vscode.Uri.joinPath(
      workspace.uri,
      `alert-file-rules-${run.flavor.emulatorFlavor}-${deployment}-${Date.now()}`,
    );
    await vscode.workspace.fs.createDirectory(dir);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (dir) await vscode.workspace.fs.delete(dir, { recursive: true, useTrash: false });
  });

  /** A new alert file on the run's service (no id), its target as the connection kind writes it. */
  function alertFile(extra: Json): Json {
    // A tile that carries an alert already can carry another one.
    const tileAlert = [...run.data().alerts.values()].find((a) => a.source === 'tile')!;
    const t = {
      dashboardId: tileAlert.dashboardId,
      tileId: tileAlert.tileId,
      webhookId: [...run.data().webhooks.values()][0]!.id,
    };
    const where = selfHosted()
      ? { baseUrl: run.emulator.url }
      : { organizationId: run.emulator.organizationId, serviceId: run.serviceId };
    return {
      ...where,
      name: `Rules alert ${++counter}`,
      source: 'tile',
      dashboardId: t.dashboardId,
      tileId: t.tileId,
      threshold: 10,
      thresholdType: 'above',
      interval: '5m',
      channel: { type: 'webhook', webhookId: t.webhookId },
      ...extra,
    };
  }

  function inlineFile(): Json {
    const { dashboardId: _d, tileId: _t, ...rest } = alertFile({});
    const sourceId = [...run.data().sources.values()][0]!.id as string;
    return {
      ...rest,
      source: 'inline',
      chartConfig: {
        displayType: 'line',
        sourceId,
        select: [{ aggFn: 'count', where: '', whereLanguage: 'lucene' }],
      },
    };
  }

  async function diagnosticsOf(uri: vscode.Uri): Promise<vscode.Diagnostic[]> {
    await vscode.commands.executeCommand<string[]>('observability.validateAlertFile', {
      uri: uri.toString(),
      noPrompt: true,
    });
    return vscode.languages.getDiagnostics(uri);
  }

  const inlineTitle =
    deployment === 'older'
      ? 'an inline alert: a warning, planned and sent; an older deployment refuses it, shown in full, and the file is kept'
      : 'an inline alert: a warning, planned, sent and created on a self-hosted deployment; an error and nothing sent on Cloud';
  it(inlineTitle, async () => {
    const uri = vscode.Uri.joinPath(dir, 'inline.alert.json');
    const typed = `${JSON.stringify(inlineFile(), null, 2)}\n`;
    await writeFile(uri, typed);
    const sourceLine = typed.split('\n').findIndex((l) => l.includes('"source": "inline"'));

    // As you type (the file open in an editor, no Validate): the same finding at the same place.
    await vscode.window.showTextDocument(uri);
    const typing = await waitFor('the check made while typing', () =>
      vscode.languages.getDiagnostics(uri).find((d) => /inline alert/.test(d.message)),
    );
    assert.equal(typing.range.start.line, sourceLine);
    assert.equal(typing.severity, selfHosted() ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error);

    const diagnostics = await diagnosticsOf(uri);
    const about = diagnostics.filter((d) => /inline alert/.test(d.message));
    assert.equal(about.length, 1, diagnostics.map((d) => d.message).join('\n'));
    assert.equal(about[0]!.range.start.line, sourceLine);
    assert.ok(
      !diagnostics.some((d) => /Unknown field "chartConfig"/.test(d.message)),
      'chartConfig is not taken for a typo',
    );

    const plan = await vscode.commands.executeCommand<AlertPlan>('observability.planAlertFiles', {
      folder: dir.toString(),
    });
    const entry = [...plan.services.flatMap((s) => s.entries), ...plan.untargeted].find((e) =>
      e.label.endsWith('inline.alert.json'),
    );
    assert.ok(entry, JSON.stringify(plan));

    const before = run.data().alerts.size;
    const mark = run.emulator.requests.length;
    const result = await vscode.commands.executeCommand<FileResult>('observability.applyAlertFile', {
      uri: uri.toString(),
    });
    if (selfHosted()) {
      assert.equal(about[0]!.severity, vscode.DiagnosticSeverity.Warning);
      assert.match(about[0]!.message, /accepted by newer HyperDX versions only/);
      assert.equal(entry.action, 'create');
      assert.ok(
        entry.warnings?.some((w) => /newer HyperDX versions only/.test(w)),
        JSON.stringify(entry),
      );
      // Sent once as written; the server's answer decides.
      assert.deepEqual(writes(mark), [`POST ${run.path('alerts')}`]);
      const sent = run.emulator.requests.slice(mark).find((r) => r.method === 'POST');
      assert.equal((sent?.body as Json | undefined)?.source, 'inline');
      assert.ok((sent?.body as Json | undefined)?.chartConfig, 'the chartConfig is sent as written');
      if (deployment === 'newest') {
        // The newest HyperDX creates it; the id is written back to the file.
        assert.equal(result.outcome, 'created', JSON.stringify(result));
        const stored = run.data().alerts.get(result.id ?? '');
        assert.equal(stored?.source, 'inline');
        assert.deepEqual(stored?.chartConfig, (sent?.body as Json).chartConfig);
        assert.equal(run.data().alerts.size, before + 1);
        await waitFor('the id written back', async () => (JSON.parse(await readFile(uri)) as Json).id === result.id);
        return;
      }
      // An older deployment refuses it.
      assert.equal(result.outcome, 'failed', JSON.stringify(result));
      assert.match(result.error ?? '', /^Create alert failed: HTTP 400/);
      // HyperDX answers `{message}` and no request ID: the message is shown as the server wrote it.
      assert.match(result.error ?? '', /Body validation failed: source: must be one of "saved_search", "tile"/);
    } else {
      assert.equal(about[0]!.severity, vscode.DiagnosticSeverity.Error);
      assert.match(about[0]!.message, /not accepted by ClickHouse Cloud/);
      assert.equal(entry.action, 'invalid');
      assert.equal(result.outcome, 'invalid', JSON.stringify(result));
      assert.deepEqual(writes(mark), [], 'nothing is sent');
    }
    assert.equal(run.data().alerts.size, before);
    assert.equal(await readFile(uri), typed, 'the file is left as typed (no id written)');
  });

  it('an alert displayName and tags: warnings and created on both kinds (a server that does not know them drops them)', async () => {
    const uri = vscode.Uri.joinPath(dir, 'named.alert.json');
    const typed = `${JSON.stringify(alertFile({ displayName: 'Checkout latency', tags: ['checkout'] }), null, 2)}\n`;
    await writeFile(uri, typed);
    const diagnostics = await diagnosticsOf(uri);
    const about = diagnostics.filter((d) => /an alert "(displayName|tags)"/.test(d.message));
    assert.equal(about.length, 2, diagnostics.map((d) => d.message).join('\n'));
    assert.ok(!diagnostics.some((d) => /Unknown field/.test(d.message)), 'not taken for typos');

    const before = run.data().alerts.size;
    const mark = run.emulator.requests.length;
    const result = await vscode.commands.executeCommand<FileResult>('observability.applyAlertFile', {
      uri: uri.toString(),
    });
    assert.ok(about.every((d) => d.severity === vscode.DiagnosticSeverity.Warning));
    assert.ok(
      about.every((d) =>
        selfHosted()
          ? /kept by newer HyperDX versions only: an older deployment drops it/.test(d.message)
          : /not in ClickHouse Cloud's API: the service may drop it/.test(d.message),
      ),
      about.map((d) => d.message).join('\n'),
    );
    assert.equal(result.outcome, 'created', JSON.stringify(result));
    assert.deepEqual(writes(mark), [`POST ${run.path('alerts')}`]);
    const sent = run.emulator.requests.slice(mark).find((r) => r.method === 'POST')?.body as Json;
    assert.equal(sent.displayName, 'Checkout latency', 'sent as written');
    assert.deepEqual(sent.tags, ['checkout']);
    assert.equal(run.data().alerts.size, before + 1);
    await waitFor('the id written back', async () => (JSON.parse(await readFile(uri)) as Json).id === result.id);
    const stored = run.data().alerts.get(result.id ?? '');
    if (selfHosted() && deployment === 'newest') {
      assert.equal(stored?.displayName, 'Checkout latency', 'the newest HyperDX keeps them');
      assert.deepEqual(stored?.tags, ['checkout']);
    } else {
      assert.equal(stored?.displayName, undefined, 'a server that does not know them drops them');
      assert.equal(stored?.tags, undefined);
    }
  });
}
