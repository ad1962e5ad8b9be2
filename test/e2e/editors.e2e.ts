/**
 * UI test of the alert editor in a real workbench (code-server + headless Chromium), against the local emulator:
 * "Observability: Create Alert…" from the Command Palette, dashboard, tile and webhook picked from live lists, the
 * new alert document with the fields filled, then completion of `webhookId` with the service's webhooks. Saves a
 * screenshot with the completion open to media/screenshot-editor-completion.png (`OBS_E2E_SCREENSHOT` overrides it).
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/editors.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator/server';
import { openWorkbench, REPO_ROOT, type Workbench } from '../host/runInCodeServer';

const SCREENSHOT = process.env.OBS_E2E_SCREENSHOT ?? path.join(REPO_ROOT, 'media', 'screenshot-editor-completion.png');
const LABEL = 'Northwind (emulator)';

let emulator: Emulator;
let workbench: Workbench;
let page: Page;

const widget = (): Locator => page.locator('.quick-input-widget');
const input = (): Locator => widget().locator('.quick-input-box input');
const rows = (): Locator => widget().locator('.quick-input-list .monaco-list-row');

async function pick(title: RegExp, text: string): Promise<void> {
  await widget().locator('.quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout: 30_000 });
  await input().fill(text);
  await rows().filter({ hasText: text }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await page.keyboard.press('Enter');
}

before(async () => {
  emulator = await startEmulator({ rateLimit: { requests: 10_000, windowMs: 1000 } });
  let ready: () => void = () => undefined;
  const setupDone = new Promise<void>((resolve) => { ready = resolve; });
  workbench = await openWorkbench({
    extensionTestsPath: path.join(REPO_ROOT, 'out', 'test', 'e2e', 'workbenchSetup.js'),
    viewport: { width: 1280, height: 800 },
    userSettings: { 'workbench.colorTheme': 'Default Dark Modern', 'window.commandCenter': false, 'files.autoSave': 'off' },
    env: {
      OBS_E2E_CONNECTION: JSON.stringify({
        baseUrl: emulator.url, keyId: emulator.keyId, keySecret: emulator.keySecret,
        organizationId: emulator.organizationId, serviceIds: emulator.serviceIds.slice(0, 1), label: LABEL,
      }),
    },
    onLog: (line) => {
      if (line.includes('E2E SETUP READY')) ready();
      else if (process.env.OBS_TEST_VERBOSE) process.stdout.write(`${line}\n`);
    },
    onExit: (code) => { if (code !== 0) process.stderr.write(`workbench setup exited with ${code}\n`); },
  });
  page = workbench.page;
  await page.locator('.monaco-workbench').first().waitFor({ state: 'attached', timeout: 120_000 });
  await Promise.race([setupDone, new Promise((_, reject) => setTimeout(() => reject(new Error('setup did not finish')), 90_000))]);
});

after(async () => {
  await workbench?.close();
  await emulator?.close();
});

test('Create Alert from the Command Palette, with live completion in the document', { timeout: 180_000 }, async () => {
  try {
    await drive();
  } catch (error) {
    const failed = SCREENSHOT.replace(/\.png$/, '.failed.png');
    await page.screenshot({ path: failed }).catch(() => undefined);
    throw error;
  }
});

async function drive(): Promise<void> {
  const serviceId = emulator.serviceIds[0]!;
  const webhooks = [...emulator.state.data.get(serviceId)!.webhooks.values()].map((w) => String(w.name));

  await page.locator('.monaco-workbench').first().click({ position: { x: 640, y: 400 } });
  await page.keyboard.press('F1');
  await input().waitFor({ state: 'visible', timeout: 30_000 });
  await input().fill('>Observability: Create Alert');
  await rows().filter({ hasText: 'Observability: Create Alert' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await page.keyboard.press('Enter');

  await pick(/Create Alert: dashboard/, 'Checkout service');
  await pick(/Create Alert: tile/, 'p95 latency (ms)');
  await pick(/Create Alert: notify/, webhooks[0]!);

  const editor = page.locator('.editor-instance .monaco-editor').first();
  await page.locator('.tab.active', { hasText: 'p95 latency (ms) above threshold.alert.json' }).waitFor({ state: 'visible', timeout: 30_000 });
  await editor.locator('.view-line', { hasText: '"interval": "1h"' }).waitFor({ state: 'visible', timeout: 30_000 });

  // Go to the webhookId value, clear it and ask for completion.
  const lines = await editor.locator('.view-line').allInnerTexts();
  assert.ok(lines.some((l) => l.includes('"webhookId"')), 'the document has a webhookId');
  await page.keyboard.press('Control+g');
  await input().waitFor({ state: 'visible', timeout: 10_000 });
  await input().fill(':11');
  await page.keyboard.press('Enter');
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Control+Shift+ArrowLeft');
  await page.keyboard.press('Delete');
  await page.keyboard.press('Control+Space');

  const suggest = page.locator('.suggest-widget.visible');
  await suggest.waitFor({ state: 'visible', timeout: 30_000 });
  for (const name of webhooks) {
    await suggest.locator('.monaco-list-row', { hasText: name }).first().waitFor({ state: 'visible', timeout: 30_000 });
  }
  await page.waitForTimeout(500);
  fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
  await page.screenshot({ path: SCREENSHOT });
  assert.ok(fs.statSync(SCREENSHOT).size > 10_000, 'screenshot written');
}
