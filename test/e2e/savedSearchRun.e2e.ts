/**
 * UI test of Run Saved Search, once per connection kind: the ▷ action of a saved search in the tree asks for a time
 * range and shows the search's events in the results panel of SQL (Cloud: its statement on the query endpoint;
 * self-hosted: the deployment's search API).
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/savedSearchRun.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator/server';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import type { Workbench } from '../host/runInCodeServer';
import {
  exactly,
  forEachFlavor,
  openResourceFolder,
  openTestWorkbench,
  quickInput,
  quickInputRows,
  reportingFailure,
  runCommand,
  quickInputBox,
  treeRow,
  UI_TIMEOUT,
  widenSidebar,
  type UiFlavor,
} from './ui';

const LABEL = 'Northwind (emulator)';
const SEARCH = 'Checkout errors';

forEachFlavor((flavor: UiFlavor) => {
  let emulator: Emulator;
  let workbench: Workbench;
  let page: Page;

  before(async () => {
    emulator = await startEmulator({
      flavor: flavor.emulatorFlavor,
      rateLimit: { requests: 10_000, windowMs: 1000 },
    });
    if (flavor.emulatorFlavor === 'cloud') {
      emulator.state.data.get(emulator.serviceIds[0]!)!.queryEndpoint = {
        id: '0d5c2a8e-6f14-4b3a-9e7d-2c1b0a9f8e7d',
        roles: ['sql_console_read_only'],
        openApiKeys: [SAMPLE_KEY_UUID],
        allowedOrigins: '',
      };
    }
    workbench = await openTestWorkbench({ flavor, emulator, label: LABEL, mode: 'setup' });
    page = workbench.page;
  });

  after(async () => {
    await workbench?.close();
    await emulator?.close();
  });

  /** The results panel's document (VS Code nests the content in an inner frame). */
  function results(): FrameLocator {
    return page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame');
  }

  test("a saved search's events in the results panel", { timeout: 400_000 }, () =>
    reportingFailure(page, emulator, `saved-search-run-${flavor.emulatorFlavor}`, drive),
  );

  async function drive(): Promise<void> {
    if (flavor.emulatorFlavor === 'cloud') {
      await runCommand(page, 'Observability: Set Query Host');
      await quickInputBox(page).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await quickInputBox(page).fill(emulator.queryUrl);
      await page.keyboard.press('Enter');
      await quickInput(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    }
    await openResourceFolder(page, flavor, emulator, LABEL, 'Saved Searches');
    await widenSidebar(page, 520);
    const row = treeRow(page, exactly(SEARCH));
    await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await row.hover();
    await row.locator('.action-label[aria-label="Run Saved Search"]').click();
    await quickInputRows(page).filter({ hasText: 'Last 7 days' }).first().click();
    await quickInput(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    // The first SQL run starts the embedded engine (and on a fresh machine generates the sample data once).
    await results()
      .locator('.row', { hasText: /checkout/i })
      .first()
      .waitFor({ state: 'visible', timeout: 180_000 });
    const text = (await results().locator('#viewport').innerText()).replace(/\s+/g, ' ');
    assert.match(text, /error/i, 'its filter: error events');
    assert.match(await results().locator('#meta').innerText(), /\d+ rows?/);
  }
});
