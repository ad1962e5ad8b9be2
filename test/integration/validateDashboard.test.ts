/**
 * Validate with Service on dashboard documents, once per connection kind, against the emulator's dashboard
 * validation: a valid text (unsaved edits and unknown fields sent as typed) says so and leaves no problems; a text only
 * the service refuses gets the service's message at the field it concerns, until the next edit; a failing request
 * reports operation, status and message and leaves the text alone; the lenses of a dashboard document (Validate with
 * Service everywhere, Show SQL only where SQL runs).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ValidateResult } from '../../src/resourceDocuments/validateDashboard';
import { EXTENSION_ID, describeEachFlavor, exportedApi, replaceText, waitFor, waitForLog } from './support';

describeEachFlavor('Dashboard validation', (run) => {
  const validate = (uri: string, extra: Record<string, unknown> = {}) =>
    vscode.commands.executeCommand<ValidateResult>('observability.validateDashboard', { uri, ...extra });

  /** Opens the first seeded dashboard with tiles in its editor. */
  const openDashboard = async (): Promise<{ uri: string; doc: vscode.TextDocument; id: string }> => {
    const dashboard = [...run.data().dashboards.values()].find((d) => (d.tiles as unknown[]).length > 0)!;
    const uri = await vscode.commands.executeCommand<string>('observability.editResource', {
      connectionId: run.connectionId,
      serviceId: run.serviceId,
      dashboardId: dashboard.id,
    });
    const doc = await waitFor('the document', () =>
      vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri),
    );
    await vscode.window.showTextDocument(doc);
    return { uri, doc, id: dashboard.id };
  };

  const validateRequests = (since: number) =>
    run.emulator.requests.slice(since).filter((r) => r.method === 'POST' && r.path === run.path('dashboards/validate'));
  const writes = (since: number) =>
    run.emulator.requests.slice(since).filter((r) => r.method !== 'GET' && !r.path.endsWith('/validate'));
  const serviceProblems = (doc: vscode.TextDocument) =>
    vscode.languages.getDiagnostics(doc.uri).filter((d) => d.code === 'service');
  const lensTitles = async (doc: vscode.TextDocument): Promise<string[]> =>
    (
      (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri, 100)) ?? []
    ).map((l) => l.command?.title ?? '');

  it('says a valid dashboard is valid, sends the unsaved text with unknown fields, and shows the normalized body', async () => {
    const { doc } = await openDashboard();
    const value = JSON.parse(doc.getText()) as Record<string, unknown>;
    const typed = `${JSON.stringify({ ...value, name: 'Validated while unsaved', layoutHint: 'kept' }, null, 2)}\n`;
    await replaceText(doc, typed);
    const mark = run.emulator.requests.length;
    const result = await validate(doc.uri.toString(), { showNormalized: true });
    assert.equal(result.outcome, 'valid', JSON.stringify(result));
    assert.match(result.message ?? '', /Dashboard "Validated while unsaved" is valid on /);
    const sent = validateRequests(mark);
    assert.equal(sent.length, 1, 'one validation request');
    const body = sent[0]!.body as Record<string, unknown>;
    assert.equal(body.name, 'Validated while unsaved', 'the unsaved text was sent');
    assert.equal(body.layoutHint, 'kept', 'a field this version does not know was sent as typed');
    assert.equal(writes(mark).length, 0, 'nothing saved on the service');
    assert.deepEqual(serviceProblems(doc), []);
    assert.equal(doc.getText(), typed, 'the text is untouched');
    assert.ok(doc.isDirty, 'and still unsaved');
    await waitForLog(exportedApi(), /Validate dashboard "Validated while unsaved" on .+: valid/);
    // The normalized body opens read-only next to the text.
    assert.equal(result.normalized, true);
    const diff = await waitFor('the normalized diff', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find(
          (t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === result.normalizedUri,
        ),
    );
    const right = await vscode.workspace.openTextDocument((diff.input as vscode.TabInputTextDiff).modified);
    assert.equal((JSON.parse(right.getText()) as { name: string }).name, 'Validated while unsaved');
  });

  it("puts a problem only the service finds at the field it names, with the service's message, until the next edit", async () => {
    const { doc } = await openDashboard();
    const logSource = [...run.data().sources.values()].find((s) => s.kind === 'log') as { id: string } | undefined;
    assert.ok(logSource, 'a log source');
    const value = JSON.parse(doc.getText()) as { tiles: Record<string, unknown>[] };
    // A heatmap needs a trace source: the schema and the live checks of the editor cannot tell, the service can.
    value.tiles[0]!.config = {
      displayType: 'heatmap',
      sourceId: logSource.id,
      select: [{ valueExpression: 'Duration' }],
    };
    const typed = `${JSON.stringify(value, null, 2)}\n`;
    await replaceText(doc, typed);
    // The editor's own checks accept the text (Apply would send it).
    await new Promise((r) => setTimeout(r, 600));
    assert.deepEqual(
      vscode.languages
        .getDiagnostics(doc.uri)
        .filter((d) => d.severity === vscode.DiagnosticSeverity.Error)
        .map((d) => d.message),
      [],
    );
    const mark = run.emulator.requests.length;
    const result = await validate(doc.uri.toString());
    assert.equal(result.outcome, 'invalid', JSON.stringify(result));
    assert.equal(validateRequests(mark).length, 1);
    assert.equal(writes(mark).length, 0);
    assert.match(result.message ?? '', /The service found 1 problem in dashboard/);
    const problems = serviceProblems(doc);
    assert.equal(problems.length, 1, JSON.stringify(problems.map((d) => d.message)));
    const problem = problems[0]!;
    assert.match(
      problem.message,
      /Heatmap tiles require a Trace source\. The following source IDs are not Trace sources/,
    );
    assert.ok(problem.message.includes(logSource.id));
    assert.equal(problem.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(problem.source, 'Observability');
    // At the heatmap tile's sourceId, the value the user has to change.
    assert.equal(doc.getText(problem.range), JSON.stringify(logSource.id));
    assert.match(doc.lineAt(problem.range.start.line).text, /"sourceId":/);
    const tileLine = typed.split('\n').findIndex((l) => l.includes('"displayType": "heatmap"'));
    assert.ok(Math.abs(problem.range.start.line - tileLine) <= 2, 'in the heatmap tile');
    assert.equal(doc.getText(), typed, 'the text is untouched');
    await waitForLog(exportedApi(), /Validate dashboard ".+" on .+: 1 problem\(s\)/);

    // The next edit takes the service's problems away (they were about the older text).
    await replaceText(doc, typed.replace('"displayType": "heatmap"', '"displayType": "heatmap" '));
    await waitFor('the problems to go', () => (serviceProblems(doc).length === 0 ? true : undefined));
  });

  it('puts schema problems the service reports at their dotted paths', async () => {
    const { doc } = await openDashboard();
    const value = JSON.parse(doc.getText()) as { tiles: Record<string, unknown>[] };
    value.tiles[0]!.w = 40;
    const typed = `${JSON.stringify(value, null, 2)}\n`;
    await replaceText(doc, typed);
    const result = await validate(doc.uri.toString());
    assert.equal(result.outcome, 'invalid', JSON.stringify(result));
    const problem = serviceProblems(doc)[0];
    assert.ok(problem, 'a problem from the service');
    assert.match(problem.message, /tiles\.0\.w/);
    assert.equal(doc.getText(problem.range), '40');
  });

  it('reports a failed request with operation, status and message, and leaves the text alone', async () => {
    const { doc } = await openDashboard();
    const value = JSON.parse(doc.getText()) as { name: string; tiles: Record<string, unknown>[] };
    value.name = 'Kept through a failure';
    value.tiles[0]!.w = 40;
    const typed = `${JSON.stringify(value, null, 2)}\n`;
    await replaceText(doc, typed);
    // A first validation leaves a problem on the text.
    assert.equal((await validate(doc.uri.toString())).outcome, 'invalid');
    assert.equal(serviceProblems(doc).length, 1);
    const requestId = '00000000-0000-4000-8000-000000000501';
    run.emulator.faults.add({
      method: 'POST',
      path: run.path('dashboards/validate'),
      times: 10,
      status: 500,
      body:
        run.flavor.emulatorFlavor === 'cloud'
          ? { status: 500, error: 'Validator exploded', requestId }
          : { message: 'Validator exploded' },
    });
    const result = await validate(doc.uri.toString());
    assert.equal(result.outcome, 'failed', JSON.stringify(result));
    assert.match(result.error ?? '', /Validate dashboard failed/);
    assert.match(result.error ?? '', /HTTP 500/);
    assert.match(result.error ?? '', /Validator exploded/);
    if (run.flavor.emulatorFlavor === 'cloud') assert.match(result.error ?? '', new RegExp(requestId));
    assert.equal(doc.getText(), typed, 'the text exactly as typed');
    assert.ok(doc.isDirty, 'still unsaved');
    assert.deepEqual(serviceProblems(doc), [], 'the failed validation replaced the earlier one');
    await waitForLog(exportedApi(), /Validate dashboard failed/);
  });

  it('offers Validate with Service on dashboard documents, and Show SQL only where SQL runs', async () => {
    const { doc } = await openDashboard();
    const titles = await waitFor('the lenses', async () => {
      const t = await lensTitles(doc);
      return t.some((x) => /Preview Tile/.test(x)) ? t : undefined;
    });
    assert.ok(
      titles.some((t) => t === '$(checklist) Validate with Service'),
      titles.join(' | '),
    );
    const previews = titles.filter((t) => /Preview Tile/.test(t)).length;
    assert.ok(previews > 0, 'a Preview Tile lens per tile');
    const sql = titles.filter((t) => t === 'Show SQL').length;
    if (run.flavor.emulatorFlavor === 'cloud') assert.equal(sql, previews, 'Show SQL next to each Preview Tile');
    else assert.equal(sql, 0, 'no Show SQL on a self-hosted deployment');
    assert.ok(
      titles.some((t) => /Preview Dashboard/.test(t)),
      'the dashboard preview stays',
    );

    // The tree's context menu of a tile follows the same rule: Preview Tile on both, Show Tile SQL only on Cloud.
    const menus = (
      vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
        contributes: { menus: Record<string, { command: string; when?: string }[]> };
      }
    ).contributes.menus['view/item/context']!;
    const offered = (contextValue: string, command: string) =>
      menus.some(
        (m) =>
          m.command === command &&
          [...(m.when ?? '').matchAll(/viewItem =~ \/(.*?)\/(?: |$)/g)].every((re) =>
            new RegExp(re[1]!).test(contextValue),
          ),
      );
    const dashboards = await run.tree().getChildren(await run.folder('Dashboards'));
    const withTiles = await waitFor('a dashboard with tiles', async () => {
      for (const d of dashboards) {
        const tiles = await run.tree().getChildren(d);
        if (tiles.length > 0) return tiles;
      }
      return undefined;
    });
    const tileContext = String(run.tree().getTreeItem(withTiles[0]!).contextValue);
    assert.ok(offered(tileContext, 'observability.previewTile'), `Preview Tile on ${tileContext}`);
    assert.equal(
      offered(tileContext, 'observability.showTileSql'),
      run.flavor.emulatorFlavor === 'cloud',
      `Show Tile SQL only where SQL runs (${tileContext})`,
    );
  });
});
