/**
 * UI test of the resource folders in a real workbench (code-server + headless Chromium), against the local emulator,
 * once per connection kind: Webhooks, Saved Searches and the kind's own folder (Roles on Cloud, Team on self-hosted)
 * show; right-click a webhook that alerts send to → "Delete Webhook…": the modal says the service keeps it while those
 * alerts use it and names them, and nothing is sent; the webhook stays. Screenshot of the folders (Cloud):
 * media/screenshot-resources.png (self-hosted: out/self-hosted/; failure: out/resources-<cloud|oss>.failed.png).
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/resourceFolders.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator/server';
import type { Workbench } from '../host/runInCodeServer';
import {
  clickMenuItem,
  expand as expandRow,
  forEachFlavor,
  openServiceInTree,
  reportingFailure,
  treeRow as row,
  UI_TIMEOUT,
  type UiFlavor,
} from './ui';

const LABEL = 'Northwind (emulator)';

forEachFlavor((flavor: UiFlavor) => {
  let emulator: Emulator;
  let workbench: Workbench;
  let page: Page;

  const treeRow = (name: string | RegExp) => row(page, name);
  const expand = (name: string | RegExp) => expandRow(page, name);

  before(async () => {
    emulator = await startEmulator({ flavor: flavor.emulatorFlavor, rateLimit: { requests: 10_000, windowMs: 1000 } });
    workbench = await openServiceInTree(flavor, emulator, LABEL);
    page = workbench.page;
  });

  after(async () => {
    await workbench?.close();
    await emulator?.close();
  });

  test(
    `Webhooks, Saved Searches and ${flavor.ownFolder.folder} folders; deleting a webhook in use names its alerts and sends nothing`,
    { timeout: 240_000 },
    async () => {
      await reportingFailure(page, emulator, `resources-${flavor.emulatorFlavor}`, drive);
    },
  );

  async function drive(): Promise<void> {
    const data = flavor.data(emulator);
    const usesOf = (id: string) =>
      [...data.alerts.values()].filter((a) => a.channels.some((c) => (c as { webhookId?: string }).webhookId === id));
    const hook = [...data.webhooks.values()].find((w) => usesOf(w.id).length > 0);
    assert.ok(hook, 'the sample service has a webhook that alerts use');
    const users = usesOf(hook.id).map((a) => a.name ?? `Alert ${a.id}`);

    const own = flavor.ownFolder;
    for (const folder of ['Webhooks', 'Saved Searches', own.folder]) {
      await treeRow(new RegExp(`^${folder}$`)).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    }
    await expand(new RegExp(`^${own.folder}$`));
    await treeRow(own.row).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await expand(/^Saved Searches$/);
    await treeRow([...data.savedSearches.values()][0]!.name).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await expand(/^Webhooks$/);
    const row = treeRow(hook.name);
    await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await page.screenshot({ path: flavor.screenshot('screenshot-resources.png') });

    const marker = emulator.requests.length;
    await row.click({ button: 'right' });
    await clickMenuItem(page, 'Delete Webhook…');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.match(
      await dialog.locator('.dialog-message-text').innerText(),
      new RegExp(`is used by ${users.length} alert`),
    );
    const detail = await dialog.locator('.dialog-message-detail').innerText();
    for (const name of users) assert.ok(detail.includes(name), `the dialog names "${name}"`);
    await dialog.locator('.dialog-buttons .monaco-button', { hasText: /Open Alerts/ }).waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    assert.equal(emulator.requests.slice(marker).filter((r) => r.method === 'DELETE').length, 0, 'nothing sent');
    assert.ok(data.webhooks.has(hook.id));
  }
});
