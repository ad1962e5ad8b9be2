/**
 * UI test of an untrusted workspace in a real workbench (code-server + headless Chromium, workspace trust on), once
 * per connection kind: the workspace holds an alert file for the emulator's first service (Cloud: organization and
 * service ID; self-hosted: the deployment's base URL) and a connection to that service exists, yet
 * the file gets schema help only — its CodeLens offers "Validate" and no "Create on …", "Plan Alert Files" is not
 * offered, and nothing about the file's alerts, dashboards or webhooks is requested.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/untrusted.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator/server';
import { openWorkbench, REPO_ROOT, type Workbench } from '../host/runInCodeServer';
import { forEachFlavor, type UiFlavor } from './ui';

const UI_TIMEOUT = 30_000;
const FILE = 'checkout-latency.alert.json';

forEachFlavor((flavor: UiFlavor) => {
  let emulator: Emulator;
  let workbench: Workbench;
  let page: Page;
  let workspace: string;

  /** Requests a file of this workspace could cause: anything about alerts, dashboards, webhooks or saved searches. */
  function fileRequests(): string[] {
    return emulator.requests
      .filter((r) => /\/(alerts|dashboards|webhooks|saved-searches)(\/|$)/.test(r.path))
      .map((r) => `${r.method} ${r.path}`);
  }

  before(async () => {
    emulator = await startEmulator({ flavor: flavor.emulatorFlavor, rateLimit: { requests: 10_000, windowMs: 1000 } });
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'obs-untrusted-'));
    const data = flavor.data(emulator);
    const dashboard = [...data.dashboards.values()].find((d) => d.name === 'Checkout service')!;
    const tile = dashboard.tiles.find((t) => t.name === 'p95 latency (ms)')!;
    const webhook = [...data.webhooks.values()][0]!;
    fs.writeFileSync(
      path.join(workspace, FILE),
      `${JSON.stringify(
        {
          ...flavor.fileTarget(emulator),
          name: 'Checkout latency',
          source: 'tile',
          dashboardId: dashboard.id,
          tileId: tile.id,
          threshold: 1500,
          thresholdType: 'above',
          interval: '5m',
          channel: { type: 'webhook', webhookId: webhook.id },
        },
        null,
        2,
      )}\n`,
    );
    workbench = await openWorkbench({
      workspace,
      workspaceTrust: true,
      viewport: { width: 1280, height: 800 },
      userSettings: {
        'workbench.colorTheme': 'Default Dark Modern',
        'window.commandCenter': false,
        // Open the folder in Restricted Mode without asking, as a user who chose "Don't Trust" would see it.
        'security.workspace.trust.startupPrompt': 'never',
        'security.workspace.trust.enabled': true,
      },
      env: {
        OBS_DEMO_CONNECTION: JSON.stringify(flavor.connection(emulator, 'Northwind (emulator)')),
      },
    });
    page = workbench.page;
    await page.locator('.monaco-workbench').first().waitFor({ state: 'attached', timeout: 120_000 });
  });

  after(async () => {
    await workbench?.close();
    await emulator?.close();
    if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
  });

  test(
    'an untrusted workspace gets schema help only for alert files: no Create lens, no plan, nothing sent',
    { timeout: 240_000 },
    async () => {
      const failed = path.join(REPO_ROOT, 'out', `untrusted-${flavor.emulatorFlavor}.failed.png`);
      try {
        // The workbench shows that the folder is in Restricted Mode.
        await page
          .locator('.statusbar-item', { hasText: /Restricted Mode/ })
          .first()
          .waitFor({ state: 'visible', timeout: UI_TIMEOUT });

        // Plan and apply are not offered in Restricted Mode.
        const input = page.locator('.quick-input-widget input');
        await page
          .locator('.monaco-workbench')
          .first()
          .click({ position: { x: 700, y: 300 } });
        await page.keyboard.press('F1');
        await input.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        await input.fill('>Observability: Plan Alert Files');
        await page
          .locator('.quick-input-list .monaco-list-row')
          .first()
          .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        assert.equal(
          await page
            .locator('.quick-input-list .monaco-list-row', { hasText: 'Observability: Plan Alert Files' })
            .count(),
          0,
          'Plan Alert Files is hidden in an untrusted workspace',
        );
        await page.keyboard.press('Escape');

        // Opening the Observability view activates the extension, which adds the connection to the file's service:
        // only the lack of trust keeps the file offline.
        await page.locator('.activitybar .action-item a[aria-label^="Observability"]').first().click();
        const deadline = Date.now() + UI_TIMEOUT;
        while (!emulator.requests.some((r) => flavor.checkedBy.test(r.path)) && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        assert.ok(
          emulator.requests.some((r) => flavor.checkedBy.test(r.path)),
          'the connection was checked and saved',
        );

        // Open the file: its lens offers Validate only.
        await page
          .locator('.monaco-workbench')
          .first()
          .click({ position: { x: 700, y: 300 } });
        await page.keyboard.press('Control+p');
        await input.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        await input.fill(FILE);
        await page
          .locator('.quick-input-list .monaco-list-row', { hasText: FILE })
          .first()
          .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        await page.keyboard.press('Enter');
        await page.locator('.tab.active', { hasText: FILE }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        const lenses = page.locator('.monaco-editor .codelens-decoration');
        await lenses.filter({ hasText: 'Validate' }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        const text = (await lenses.allInnerTexts()).join(' | ');
        assert.match(text, /Validate/);
        assert.doesNotMatch(text, /Create on|Update /, `lenses: ${text}`);

        // Validate works offline (schema and rules) and sends nothing either.
        await lenses.filter({ hasText: 'Validate' }).first().locator('a').first().click();
        await page.waitForTimeout(1000);
        assert.deepEqual(fileRequests(), [], 'nothing about the file was requested');
        await page.screenshot({ path: path.join(REPO_ROOT, 'out', `untrusted-${flavor.emulatorFlavor}.png`) });
      } catch (error) {
        await page.screenshot({ path: failed }).catch(() => undefined);
        throw error;
      }
    },
  );
});
