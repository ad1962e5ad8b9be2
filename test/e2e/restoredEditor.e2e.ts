/**
 * UI test (code-server + headless Chromium) of a resource document restored by a window reload, against the local
 * emulator, once per connection kind: an alert opened for editing from the Observability view stays open while the
 * sidebar shows the file Explorer, and the window is reloaded. The new window restores the tab before anything else of
 * the extension is used: the document's scheme (`observability`) starts the extension (`onFileSystem:observability`)
 * and its file system loads the alert from the service again, so the tab shows the alert's text, not an error.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/restoredEditor.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator/server';
import type { Workbench } from '../host/runInCodeServer';
import {
  editAlertFromTree,
  editorLine,
  forEachFlavor,
  openTestWorkbench,
  reloadWindow,
  reportingFailure,
  treeRow,
  UI_TIMEOUT,
  type UiFlavor,
} from './ui';

const LABEL = 'Northwind (emulator)';
/** Starting the workbench again takes longer than a step inside it. */
const RELOAD_TIMEOUT = 120_000;

forEachFlavor((flavor: UiFlavor) => {
  let emulator: Emulator;
  let workbench: Workbench;
  let page: Page;

  before(async () => {
    emulator = await startEmulator({ flavor: flavor.emulatorFlavor, rateLimit: { requests: 10_000, windowMs: 1000 } });
    workbench = await openTestWorkbench({ flavor, emulator, label: LABEL, mode: 'demo' });
    page = workbench.page;
  });

  after(async () => {
    await workbench?.close();
    await emulator?.close();
  });

  test(
    'A resource document left open comes back after a window reload, with the Observability view closed',
    { timeout: 300_000 },
    async () => {
      await reportingFailure(page, emulator, `restored-editor-${flavor.emulatorFlavor}`, async () => {
        const data = flavor.data(emulator);
        const alert = [...data.alerts.values()].find((a) => a.name && /^[\w .-]+$/.test(a.name));
        assert.ok(alert, 'a seeded alert with a plain name');
        const name = alert.name!;

        await editAlertFromTree(page, flavor, emulator, LABEL, name);
        const tab = page.locator('.tab.active', { hasText: `${name}.alert.json` });
        await editorLine(page, `"name": "${name}",`).waitFor({ state: 'visible', timeout: UI_TIMEOUT });

        // The sidebar shows the file Explorer, so the reloaded window does not open the Observability view.
        await page.keyboard.press('Control+Shift+E');
        await page
          .locator('.sidebar .composite.title', { hasText: /Explorer/i })
          .first()
          .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        const reads = (): number =>
          emulator.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/${alert.id}`)).length;
        const readsBefore = reads();

        // As a user reloads: the workbench saves what it shows (open editors, the sidebar) before it goes.
        await reloadWindow(page, RELOAD_TIMEOUT);
        await page.locator('.statusbar').first().waitFor({ state: 'visible', timeout: RELOAD_TIMEOUT });
        await tab.waitFor({ state: 'visible', timeout: RELOAD_TIMEOUT });
        await editorLine(page, `"name": "${name}",`).waitFor({ state: 'visible', timeout: RELOAD_TIMEOUT });
        assert.equal(
          await treeRow(page, LABEL).isVisible(),
          false,
          'the Observability view was opened to restore the document',
        );
        // The text came from the service again, not from a copy the window kept.
        assert.ok(reads() > readsBefore, 'the alert was not read from the service after the reload');
      });
    },
  );
});
