/**
 * UI tests of the tree's folders in a real workbench (code-server + headless Chromium), against the local emulator,
 * once per connection kind; the two journeys share one workbench (and emulator) per kind, opened down to the folders:
 * - the resource folders: Webhooks, Saved Searches and the kind's own folder (Roles on Cloud, Team on self-hosted)
 *   show; right-click a webhook that alerts send to → "Delete Webhook…": the modal says the service keeps it while
 *   those alerts use it and names them, and nothing is sent; the webhook stays. Screenshot of the folders (Cloud):
 *   media/screenshot-resources.png (self-hosted: out/self-hosted/; failure: out/resources-<cloud|oss>.failed.png);
 * - deleting an alert from the tree: right-click an alert in the Alerts folder → "Delete Alert…"; the modal
 *   confirmation names the alert and nothing is deleted before it is confirmed; after "Delete" the alert is gone from
 *   the tree (the other alerts stay) and from the emulator (failure: out/delete-from-tree-<cloud|oss>.failed.png).
 *
 * The workbench runs the extension in development mode without a test entry, so modal dialogs show as they do for a
 * user (in extension-test mode the workbench refuses them); the connection comes from `$OBS_DEMO_CONNECTION`.
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
const TARGET = 'Request volume drop';

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
      await reportingFailure(page, emulator, `resources-${flavor.emulatorFlavor}`, resourceFolders);
    },
  );

  async function resourceFolders(): Promise<void> {
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

  test(
    "Delete Alert from the tree's context menu, after a confirmation that names the alert",
    { timeout: 240_000 },
    async () => {
      await reportingFailure(page, emulator, `delete-from-tree-${flavor.emulatorFlavor}`, deleteAlert);
    },
  );

  async function deleteAlert(): Promise<void> {
    const data = flavor.data(emulator);
    const target = [...data.alerts.values()].find((a) => a.name === TARGET);
    assert.ok(target, `the sample service has the alert "${TARGET}"`);
    const others = [...data.alerts.values()].filter((a) => a.id !== target.id && a.name).map((a) => a.name!);
    assert.ok(others.length > 0, 'the sample service has other alerts');

    // The Alerts folder of the service.
    await expand(/^Alerts$/);
    const row = treeRow(TARGET);
    await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    for (const name of others) await treeRow(name).waitFor({ state: 'visible', timeout: UI_TIMEOUT });

    // Right-click → Delete Alert…: a modal names the alert; nothing is sent before it is confirmed.
    const marker = emulator.requests.length;
    await row.click({ button: 'right' });
    await clickMenuItem(page, 'Delete Alert…');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal((await dialog.locator('.dialog-message-text').innerText()).trim(), `Delete alert "${TARGET}"?`);
    assert.match(await dialog.locator('.dialog-message-detail').innerText(), /cannot be undone/);
    assert.equal(
      emulator.requests.slice(marker).filter((r) => r.method === 'DELETE').length,
      0,
      'nothing is deleted before confirming',
    );
    assert.ok(data.alerts.has(target.id));
    await dialog.locator('.dialog-buttons .monaco-button', { hasText: /^Delete$/ }).click();
    await dialog.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });

    // Gone from the tree once the folder reloads, while the other alerts stay; gone from the service.
    await row.waitFor({ state: 'hidden', timeout: 60_000 });
    for (const name of others) await treeRow(name).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    const deletes = emulator.requests.slice(marker).filter((r) => r.method === 'DELETE');
    assert.equal(deletes.length, 1, `one DELETE: ${deletes.map((r) => r.path).join(', ')}`);
    assert.equal(deletes[0]!.path, `${flavor.path(emulator, 'alerts')}/${target.id}`);
    assert.equal(deletes[0]!.status, 200);
    assert.equal(data.alerts.has(target.id), false, 'the emulator no longer has the alert');
    const lists = emulator.requests
      .slice(marker)
      .filter((r) => r.method === 'GET' && r.path === flavor.path(emulator, 'alerts'));
    assert.ok(lists.length >= 1, 'the Alerts folder was reloaded from the service');
  }
});
