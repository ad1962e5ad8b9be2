/**
 * UI test of the service-folder journey in a real workbench (code-server + headless Chromium), against the local
 * emulator, once per connection kind (Cloud, self-hosted): right-click the service in the tree (the connection on
 * self-hosted) → "Pull to Folder…" and accept the workspace folder in the real folder dialog; "Observability: Plan
 * Service Folder" shows no changes; type a new threshold into an alert's file and save; the Explorer decorates the
 * file and the Source Control view lists it; the plan shows exactly that update; "Observability: Apply Service
 * Folder" asks in a modal dialog and, once answered, sends exactly one write (the alert's PUT); a second plan shows no
 * changes. Then a dashboard changed on the service: the Observability view's Refresh marks its file in the Explorer,
 * lists it in Source Control and marks the dashboard and its service in the Observability tree; Apply then names the
 * field it would revert on the service (Cancel sends nothing); "Pull to Folder…"
 * again brings the change into the file and every mark goes. Failure: out/service-folder-<cloud|oss>.failed.png.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/serviceFolder.e2e.js` (`OBS_E2E_FLAVOR=cloud|oss`
 * for one kind).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator/server';
import type { Workbench } from '../host/runInCodeServer';
import {
  clearNotifications,
  clickMenuItem,
  confirmDialog,
  dialog,
  editorLine,
  editorLines,
  exactly,
  expand,
  forEachFlavor,
  notification,
  openFile,
  openTestWorkbench,
  quickInput,
  reportingFailure,
  runCommand,
  selectToLineEnd,
  showFolders,
  showObservabilityView,
  treeRow,
  UI_TIMEOUT,
  until,
  type UiFlavor,
} from './ui';

/** The page's own function, for the code run in the workbench (`evaluate`); the tests compile without the DOM types. */
declare function getComputedStyle(element: unknown, pseudo?: string): { content: string };

const LABEL = 'Northwind (emulator)';
const ALERT = 'Request volume drop';
const FILE = `${ALERT}.alert.json`;

forEachFlavor((flavor: UiFlavor) => {
  let emulator: Emulator;
  let workbench: Workbench;
  let page: Page;
  let workspace: string;

  before(async () => {
    emulator = await startEmulator({ flavor: flavor.emulatorFlavor, rateLimit: { requests: 10_000, windowMs: 1000 } });
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'obs-service-folder-'));
    workbench = await openTestWorkbench({ flavor, emulator, label: LABEL, mode: 'demo', workspace });
    page = workbench.page;
  });

  after(async () => {
    await workbench?.close();
    await emulator?.close();
    if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
  });

  test(
    'Service folder: pull from the tree, plan shows nothing, edit a file, the Explorer and Source Control show it, plan, apply one update, plan again shows nothing; a change on the service is marked in the Explorer, Source Control and the tree on Refresh, and pulls back',
    { timeout: 300_000 },
    async () => {
      await reportingFailure(page, emulator, `service-folder-${flavor.emulatorFlavor}`, drive);
    },
  );

  async function drive(): Promise<void> {
    const data = flavor.data(emulator);
    const alert = [...data.alerts.values()].find((a) => a.name === ALERT);
    assert.ok(alert, `the sample service has the alert "${ALERT}"`);
    const oldThreshold = alert.threshold;
    const newThreshold = Number(oldThreshold) + 7;
    const file = path.join(workspace, 'alerts', FILE);
    const onDisk = () => fs.readFileSync(file, 'utf8');

    // Pull: the service's context menu, then the real folder dialog (it starts at the workspace folder).
    await showObservabilityView(page, LABEL);
    await showFolders(page, flavor, emulator, LABEL);
    const path0 = flavor.folderPath(emulator, LABEL);
    await treeRow(page, exactly(path0[path0.length - 1]!)).click({ button: 'right' });
    await clickMenuItem(page, 'Pull to Folder…');
    const ok = quickInput(page).locator('.monaco-button', { hasText: 'Pull into This Folder' });
    await ok.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await ok.click();
    await notification(page, /Pulled into .*file\(s\) written/).waitFor({ state: 'visible', timeout: 60_000 });
    await until(() => fs.existsSync(file), `the pull wrote alerts/${FILE}`);
    assert.equal(flavor.writes(emulator.requests).length, 0, 'the pull sends no write');

    // A plan right after the pull: nothing to change.
    await runCommand(page, 'Observability: Plan Service Folder');
    const planTab = `${path.basename(workspace)}.md`;
    await page.locator('.tab.active', { hasText: planTab }).waitFor({ state: 'visible', timeout: 60_000 });
    await editorLine(page, /^0\sto\screate,\s0\sto\supdate,\s\d+\sunchanged$/).waitFor({
      state: 'visible',
      timeout: 60_000,
    });
    assert.equal(flavor.writes(emulator.requests).length, 0, 'the plan sends no write');

    // Edit the threshold in the editor and save.
    await openFile(page, FILE);
    const lines = onDisk().split('\n');
    const line = lines.findIndex((l) => l.includes('"threshold":'));
    assert.ok(line >= 0, 'the file has a threshold line');
    const text = String(oldThreshold);
    const column = lines[line]!.indexOf(text) + 1;
    await selectToLineEnd(page, line + 1, column, lines[line]!.endsWith(',') ? 1 : 0, text.length);
    await page.keyboard.type(String(newThreshold));
    await editorLine(page, `"threshold": ${newThreshold}`).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await page.keyboard.press('Control+s');
    await until(
      () => (JSON.parse(onDisk()) as { threshold?: number }).threshold === newThreshold,
      'the edited threshold is saved to disk',
    );

    // The Explorer marks the file as differing from the service; the Source Control view lists it.
    const explorerRow = await showInExplorer('alerts', FILE);
    await waitForMark(explorerRow, true, `the Explorer marks ${FILE}`);
    await page.keyboard.press('Control+Shift+g');
    const scmRow = page.locator('.scm-view .monaco-list-row', { hasText: FILE });
    await scmRow.first().waitFor({ state: 'visible', timeout: 60_000 });
    await page.locator('.scm-view .monaco-list-row', { hasText: 'Differs from the service' }).first().waitFor({
      state: 'visible',
      timeout: UI_TIMEOUT,
    });

    // Plan: exactly that update.
    const marker = emulator.requests.length;
    await runCommand(page, 'Observability: Plan Service Folder');
    await page.locator('.tab.active', { hasText: planTab }).waitFor({ state: 'visible', timeout: 60_000 });
    await editorLine(page, /1\sto\supdate/).waitFor({ state: 'visible', timeout: 60_000 });
    const plan = (await editorLines(page)).join('\n');
    assert.match(plan, /^0 to create, 1 to update, \d+ unchanged$/m, plan);
    const updates = plan.split('\n').filter((l) => l.startsWith('- **update**'));
    assert.equal(updates.length, 1, plan);
    assert.ok(updates[0]!.includes(ALERT), plan);
    assert.match(plan, new RegExp(`threshold\`?: \`?${oldThreshold}\`? → \`?${newThreshold}\``), plan);
    assert.equal(flavor.writes(emulator.requests.slice(marker)).length, 0, 'the plan sends no write');

    // Apply: the modal names the change; nothing is sent before it is answered; then exactly one PUT.
    await openFile(page, FILE);
    await runCommand(page, 'Observability: Apply Service Folder');
    const box = dialog(page);
    await box.waitFor({ state: 'visible', timeout: 60_000 });
    assert.match(await box.locator('.dialog-message-text').innerText(), /Apply 1 change\(s\) to /);
    assert.equal(flavor.writes(emulator.requests.slice(marker)).length, 0, 'nothing is sent before confirming');
    await confirmDialog(page, 'Apply');
    await until(() => flavor.writes(emulator.requests.slice(marker)).length >= 1, 'the apply sent its write', 60_000);
    await until(() => data.alerts.get(alert.id)?.threshold === newThreshold, 'the live alert has the new threshold');
    const writes = flavor.writes(emulator.requests.slice(marker));
    assert.equal(writes.length, 1, `one write: ${writes.map((r) => `${r.method} ${r.path} ${r.status}`).join(', ')}`);
    assert.equal(writes[0]!.method, 'PUT');
    assert.equal(writes[0]!.path, `${flavor.path(emulator, 'alerts')}/${alert.id}`);

    // A second plan: nothing to change.
    const again = emulator.requests.length;
    await runCommand(page, 'Observability: Plan Service Folder');
    await editorLine(page, /^0\sto\screate,\s0\sto\supdate,\s\d+\sunchanged$/).waitFor({
      state: 'visible',
      timeout: 60_000,
    });
    assert.equal(flavor.writes(emulator.requests.slice(again)).length, 0, 'the second plan sends no write');

    // A dashboard changed on the service shows as drift on the Observability view's Refresh: in the tree (the
    // dashboard and its service), in the Explorer and in the Source Control list.
    const dashboards = [...data.dashboards.values()];
    const dashboard = dashboards.find(
      (d) =>
        dashboards.filter((o) => o.name === d.name).length === 1 &&
        fs.existsSync(path.join(workspace, 'dashboards', `${d.name}.dashboard.json`)),
    );
    assert.ok(dashboard, 'a pulled dashboard with a name of its own');
    const dashboardFileName = `${dashboard.name}.dashboard.json`;
    const dashboardFile = path.join(workspace, 'dashboards', dashboardFileName);
    const changedTags = ['changed-on-the-service'];
    dashboard.tags = [...changedTags];

    await showObservabilityView(page, LABEL);
    await expand(page, exactly('Dashboards'));
    const serviceRow = treeRow(page, exactly(path0[path0.length - 1]!));
    const dashboardRow = treeRow(page, exactly(dashboard.name));
    await dashboardRow.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await waitForMark(serviceRow, false, 'once applied, nothing differs: the service is not marked');
    assert.equal(await marked(dashboardRow), false, 'the dashboard is not marked before the Refresh');
    await page
      .locator('#workbench\\.parts\\.sidebar .title-actions .action-label[aria-label^="Refresh"]')
      .first()
      .click();
    await waitForMark(dashboardRow, true, 'the Refresh marks the dashboard in the Observability tree');
    await waitForMark(serviceRow, true, 'the Refresh marks its service in the Observability tree');
    // The mark is all that changes: the row keeps its own icon, no file icon comes with the mark.
    assert.equal(await dashboardRow.locator('.codicon-dashboard').count(), 1, 'the dashboard keeps its icon');
    assert.equal(await dashboardRow.locator('.file-icon').count(), 0, 'no file icon on the dashboard row');
    assert.equal(await serviceRow.locator('.file-icon').count(), 0, 'no file icon on the service row');
    // Its hover ends with the Explorer's words.
    await dashboardRow.hover();
    await page
      .locator('.workbench-hover, .monaco-hover')
      .filter({ hasText: /Differs from .+: tags/ })
      .first()
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await page.mouse.move(0, 0);

    const dashboardExplorerRow = await showInExplorer('dashboards', dashboardFileName);
    await waitForMark(dashboardExplorerRow, true, `the Explorer marks ${dashboardFileName}`);
    await waitForMark(explorerRow, false, `the applied ${FILE} is no longer marked`);
    await page.keyboard.press('Control+Shift+g');
    const scmDashboardRow = page.locator('.scm-view .monaco-list-row', { hasText: dashboardFileName });
    await scmDashboardRow.first().waitFor({ state: 'visible', timeout: 60_000 });
    assert.equal(await scmRow.count(), 0, `the applied ${FILE} is no longer listed`);

    // Apply now would put the file's old tags back over the service's: the modal names the field, offers to take the
    // service's value into the file, and Cancel sends nothing.
    const beforeRevert = emulator.requests.length;
    await runCommand(page, 'Observability: Apply Service Folder');
    const revert = dialog(page);
    await revert.waitFor({ state: 'visible', timeout: 60_000 });
    assert.match(
      await revert.locator('.dialog-message-text').innerText(),
      /revert 1 field\(s\) changed on the service since the last pull/,
    );
    const detail = await revert.locator('.dialog-message-detail').innerText();
    assert.ok(
      detail.includes(`dashboards/${dashboardFileName}: tags: ["changed-on-the-service"] on the service → `),
      detail,
    );
    for (const button of ['Apply Anyway', "Take the Service's Values into the Files", 'Cancel']) {
      assert.equal(await revert.locator('.dialog-buttons .monaco-button', { hasText: button }).count(), 1, button);
    }
    await confirmDialog(page, 'Cancel');
    assert.equal(flavor.writes(emulator.requests.slice(beforeRevert)).length, 0, 'Cancel sends nothing');

    // Pull again from the tree: the service's change comes into the file and every mark goes.
    await showObservabilityView(page, LABEL);
    await clearNotifications(page);
    await serviceRow.click({ button: 'right' });
    await clickMenuItem(page, 'Pull to Folder…');
    const pullAgain = quickInput(page).locator('.monaco-button', { hasText: 'Pull into This Folder' });
    await pullAgain.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await pullAgain.click();
    await notification(page, /Pulled into .*: 1 file\(s\) written\./).waitFor({ state: 'visible', timeout: 60_000 });
    await until(
      () =>
        JSON.stringify((JSON.parse(fs.readFileSync(dashboardFile, 'utf8')) as { tags?: unknown }).tags) ===
        JSON.stringify(changedTags),
      'the pull wrote the tags changed on the service into the file',
    );
    await waitForMark(dashboardRow, false, 'the pulled dashboard is no longer marked in the tree');
    await waitForMark(serviceRow, false, 'its service is no longer marked in the tree');
    await showInExplorer('dashboards', dashboardFileName);
    await waitForMark(dashboardExplorerRow, false, `the pulled ${dashboardFileName} is no longer marked`);
    await page.keyboard.press('Control+Shift+g');
    await scmDashboardRow.first().waitFor({ state: 'detached', timeout: 60_000 });
  }

  /** Shows the Explorer, opens the folder `folder` of the workspace unless its file `name` shows, and returns its row. */
  async function showInExplorer(folder: string, name: string): Promise<Locator> {
    await page.keyboard.press('Control+Shift+e');
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: name });
    if (!(await row.isVisible())) {
      await page.locator('.explorer-folders-view .monaco-list-row', { hasText: exactly(folder) }).click();
    }
    await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    return row;
  }
});

/** Whether a row of a tree or list shows the letter badge `M`: drawn as the CSS content of its label's decoration. */
async function marked(row: Locator): Promise<boolean> {
  return row.evaluate((el) =>
    [el, ...el.querySelectorAll('*')].some((e) => /\bM\b/.test(getComputedStyle(e, '::after').content)),
  );
}

/** Waits until the row shows the mark (or no longer does); the row is found afresh each time (rows are re-rendered). */
async function waitForMark(row: Locator, shown: boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if ((await marked(row).catch(() => undefined)) === shown) return;
    if (Date.now() > deadline) throw new Error(`${what} (waited 60 s)`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
