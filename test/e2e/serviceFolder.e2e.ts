/**
 * UI test of the service-folder journey in a real workbench (code-server + headless Chromium), against the local
 * emulator, on Cloud: right-click the service in the tree → "Pull to Folder…" and accept the workspace folder in the
 * real folder dialog; type a new threshold into an alert's file and save; the Explorer decorates the file and the
 * Source Control view lists it; "Observability: Plan Service Folder" shows exactly that update; "Observability: Apply
 * Service Folder" asks in a modal dialog and, once answered, sends exactly one write (the alert's PUT); a second plan
 * shows no changes. Failure: out/service-folder-cloud.failed.png.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/serviceFolder.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator/server';
import type { Workbench } from '../host/runInCodeServer';
import {
  CLOUD,
  clickMenuItem,
  confirmDialog,
  dialog,
  editorLine,
  editorLines,
  exactly,
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
} from './ui';

const LABEL = 'Northwind (emulator)';
const ALERT = 'Request volume drop';
const FILE = `${ALERT}.alert.json`;

describe('Cloud', () => {
  const flavor = CLOUD;
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
    'Service folder: pull from the tree, edit a file, the Explorer and Source Control show it, plan, apply one update, plan again shows nothing',
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
    await page.keyboard.press('Control+Shift+e');
    const explorerRow = page.locator('.explorer-folders-view .monaco-list-row', { hasText: FILE });
    if (!(await explorerRow.isVisible())) {
      await page.locator('.explorer-folders-view .monaco-list-row', { hasText: /^alerts$/ }).click();
    }
    await explorerRow.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    // The letter badge (`M`) is drawn as the CSS content of the label's decoration.
    await page.waitForFunction(
      (name: string) => {
        interface El {
          textContent: string | null;
          querySelectorAll(selector: string): Iterable<El>;
        }
        const g = globalThis as unknown as {
          document: El;
          getComputedStyle(el: El, pseudo: string): { content: string };
        };
        const rows = [...g.document.querySelectorAll('.explorer-folders-view .monaco-list-row')];
        const row = rows.find((r) => (r.textContent ?? '').includes(name));
        if (!row) return false;
        return [...row.querySelectorAll('*')].some((el) => /\bM\b/.test(g.getComputedStyle(el, '::after').content));
      },
      FILE,
      { timeout: 60_000 },
    );
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
    const planTab = `${path.basename(workspace)}.md`;
    await page.locator('.tab.active', { hasText: planTab }).waitFor({ state: 'visible', timeout: 60_000 });
    await editorLine(page, /to\supdate/).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
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
  }
});
