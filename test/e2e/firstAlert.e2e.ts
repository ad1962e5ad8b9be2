/**
 * UI test "first alert on an empty service" in a real workbench (code-server + headless Chromium), against the local
 * emulator, once per connection kind, on a service (a deployment) that has dashboards but no webhook and no alert: "Observability: Create Alert…" from the
 * Command Palette, dashboard and tile picked, then **Create a webhook first**; the webhook document opens, Ctrl+Enter
 * creates the webhook, the alert document comes back with the new webhook's ID in its channel, Ctrl+Enter creates the
 * alert, and the alert is in the Alerts folder of the service (the webhook in the Webhooks folder).
 *
 * The workbench runs in `demo` mode (modal dialogs show as for a user). A failure leaves out/first-alert-<cloud|oss>.failed.png.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/firstAlert.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator/server';
import type { Workbench } from '../host/runInCodeServer';
import {
  activeEditor,
  escapeRegExp,
  expand,
  forEachFlavor,
  notification,
  openTestWorkbench,
  quickInput,
  quickInputBox,
  quickInputRows,
  reportingFailure,
  runCommand,
  showFolders,
  showObservabilityView,
  treeRow,
  UI_TIMEOUT,
  type UiFlavor,
} from './ui';

const LABEL = 'Empty service (emulator)';
const DASHBOARD = 'Checkout service';
const TILE = 'p95 latency (ms)';

forEachFlavor((flavor: UiFlavor) => {
  let emulator: Emulator;
  let workbench: Workbench;
  let page: Page;

  before(async () => {
    emulator = await startEmulator({ flavor: flavor.emulatorFlavor, rateLimit: { requests: 10_000, windowMs: 1000 } });
    // The service has its dashboards, but nothing to notify and nothing that notifies yet.
    const data = flavor.data(emulator);
    data.webhooks.clear();
    data.alerts.clear();
    workbench = await openTestWorkbench({ flavor, emulator, label: LABEL, mode: 'demo' });
    page = workbench.page;
  });

  after(async () => {
    await workbench?.close();
    await emulator?.close();
  });

  async function pick(title: RegExp, text: string): Promise<void> {
    await quickInput(page)
      .locator('.quick-input-title', { hasText: title })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await quickInputBox(page).fill(text);
    await quickInputRows(page).filter({ hasText: text }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await page.keyboard.press('Enter');
  }

  test('first alert on an empty service: Create Alert creates a webhook first', { timeout: 300_000 }, async () => {
    await reportingFailure(page, emulator, `first-alert-${flavor.emulatorFlavor}`, drive);
  });

  async function drive(): Promise<void> {
    const data = flavor.data(emulator);
    assert.equal(data.webhooks.size, 0);
    await showObservabilityView(page, LABEL);

    await runCommand(page, 'Observability: Create Alert');
    await pick(/Create Alert: dashboard/, DASHBOARD);
    await pick(/Create Alert: tile/, TILE);
    await pick(/Create Alert: notify/, 'Create a webhook first');

    // The webhook document: a template that applies as it is.
    const webhookName = `${TILE} notifications`;
    await page
      .locator('.tab.active', { hasText: `${webhookName}.webhook.json` })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await activeEditor(page)
      .locator('.view-line', { hasText: '"service": "generic"' })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await activeEditor(page).locator('.view-line').first().click();
    await page.keyboard.press('Control+Enter');
    await notification(page, `Webhook "${webhookName}" created`).waitFor({ state: 'visible', timeout: 60_000 });
    assert.equal(data.webhooks.size, 1, 'the service has the new webhook');
    const webhook = [...data.webhooks.values()][0]!;

    // Back on the alert, with the new webhook in its channel.
    const alertName = `${TILE} above threshold`;
    await page
      .locator('.tab.active', { hasText: `${alertName}.alert.json` })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await activeEditor(page)
      .locator('.view-line', { hasText: `"webhookId": "${webhook.id}"` })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await activeEditor(page).locator('.view-line').first().click();
    await page.keyboard.press('Control+Enter');
    await notification(page, `Alert "${alertName}" created`).waitFor({ state: 'visible', timeout: 60_000 });
    const alerts = [...data.alerts.values()];
    assert.equal(alerts.length, 1, 'one alert on the service');
    assert.deepEqual(
      alerts[0]!.channels.map((c) => (c as { webhookId?: string }).webhookId),
      [webhook.id],
      'the alert notifies the new webhook',
    );

    // The tree shows both.
    await showFolders(page, flavor, emulator, LABEL);
    await expand(page, /^Alerts$/);
    await treeRow(page, new RegExp(`^${escapeRegExp(alertName)}$`)).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await expand(page, /^Webhooks$/);
    await treeRow(page, new RegExp(`^${escapeRegExp(webhookName)}$`)).waitFor({
      state: 'visible',
      timeout: UI_TIMEOUT,
    });
  }
});
