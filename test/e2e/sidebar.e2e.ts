/**
 * UI test of the sidebar in a real workbench (code-server + headless Chromium): open the Observability view, expand
 * the connection down to an alert, check what is drawn and save a screenshot to media/screenshot-tree.png.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/sidebar.e2e.js`.
 * `OBS_E2E_SCREENSHOT` overrides the screenshot path.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator/server';
import { REPO_ROOT, type Workbench } from '../host/runInCodeServer';
import { openTestWorkbench } from './ui';

const SCREENSHOT = process.env.OBS_E2E_SCREENSHOT ?? path.join(REPO_ROOT, 'media', 'screenshot-tree.png');
const LABEL = 'Northwind (emulator)';

let emulator: Emulator;
let workbench: Workbench;
let page: Page;

function row(name: string | RegExp): Locator {
  const rows = page.locator('.pane-body .monaco-list-row');
  return rows.filter({ has: page.locator('.label-name', { hasText: name }) }).first();
}

async function expand(name: string | RegExp): Promise<void> {
  const r = row(name);
  await r.waitFor({ state: 'visible', timeout: 30_000 });
  if ((await r.getAttribute('aria-expanded')) !== 'true') await r.click();
  await page.waitForFunction((el) => el?.getAttribute('aria-expanded') === 'true', await r.elementHandle(), {
    timeout: 30_000,
  });
}

/** Drags the sash between the sidebar and the editor so descriptions are readable in the screenshot. */
async function widenSidebar(width: number): Promise<void> {
  const sidebar = await page.locator('#workbench\\.parts\\.sidebar').boundingBox();
  if (!sidebar) return;
  const x = sidebar.x + sidebar.width;
  const y = sidebar.y + sidebar.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(sidebar.x + width, y, { steps: 8 });
  await page.mouse.up();
}

before(async () => {
  emulator = await startEmulator({ rateLimit: { requests: 10_000, windowMs: 1000 } });
  workbench = await openTestWorkbench({
    emulator,
    label: LABEL,
    mode: 'setup',
    serviceIds: emulator.serviceIds.slice(0, 2),
  });
  page = workbench.page;
});

after(async () => {
  await workbench?.close();
  await emulator?.close();
});

test('the sidebar shows the tree down to an alert', { timeout: 180_000 }, async () => {
  try {
    await drive();
  } catch (error) {
    const failed = SCREENSHOT.replace(/\.png$/, '.failed.png');
    await page.screenshot({ path: failed }).catch(() => undefined);
    process.stderr.write(`requests: ${emulator.requests.map((r) => `${r.method} ${r.path} ${r.status}`).join('\n')}\n`);
    throw error;
  }
});

async function drive(): Promise<void> {
  const marker = emulator.requests.length;
  const activity = page
    .locator(
      '.activitybar .action-item a[aria-label^="Observability"], .activitybar .action-label[aria-label^="Observability"]',
    )
    .first();
  await activity.waitFor({ state: 'visible', timeout: 60_000 });
  await activity.click();

  await row(LABEL).waitFor({ state: 'visible', timeout: 60_000 });
  await widenSidebar(560);
  const services = emulator.state.services.slice(0, 2).map((s) => s.name);
  assert.equal(emulator.requests.length, marker, 'opening the view sends no request');

  // Connection → first service → Dashboards → a dashboard → a tile → the alert watching it; then Alerts.
  await expand(LABEL);
  await expand(services[0]!);
  await expand(/^Dashboards$/);
  await expand(/^Checkout service$/);
  await expand(/^p95 latency \(ms\)$/);
  await expand(/^Alerts$/);
  const firing = row(/^Checkout p95 latency above 1\.5 s$/);
  await firing.waitFor({ state: 'visible', timeout: 30_000 });
  const text = await firing.innerText();
  assert.match(text, /above 1500 · 5m · #oncall-checkout/);
  const requests = emulator.requests.slice(marker);
  const paths = requests.map((r) => r.path.replace(/^.*\/observability\//, ''));
  assert.deepEqual([...new Set(paths)].sort(), ['alerts', 'dashboards', 'webhooks'], 'one list per expanded folder');
  // A list is read once, to its end: its first page, then (for paged lists without totalCount) the pages after it.
  const firstPages = requests.filter((r) => (r.query.offset ?? '0') === '0');
  assert.equal(
    firstPages.length,
    3,
    `requests: ${requests.map((r) => `${r.path.replace(/^.*\/observability\//, '')}?offset=${r.query.offset ?? ''}`).join(', ')}`,
  );

  await page.locator('.pane-body .monaco-list-row').filter({ hasText: 'Payment declines spike' }).first().click();
  await page.mouse.move(900, 400);
  await page.waitForTimeout(1000);

  fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
  await page.screenshot({ path: SCREENSHOT });
  assert.ok(fs.statSync(SCREENSHOT).size > 10_000, 'screenshot written');
}
