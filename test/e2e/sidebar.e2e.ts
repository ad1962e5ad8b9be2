/**
 * UI test of the sidebar in a real workbench (code-server + headless Chromium), once per connection kind: open the
 * Observability view, expand the connection down to an alert, check what is drawn and save a screenshot (Cloud:
 * media/screenshot-tree.png; self-hosted: out/self-hosted/screenshot-tree.png).
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/sidebar.e2e.js`.
 * `OBS_E2E_SCREENSHOT` overrides the Cloud screenshot's path.
 */
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator/server';
import type { Workbench } from '../host/runInCodeServer';
import {
  expand,
  forEachFlavor,
  openTestWorkbench,
  reportingFailure,
  shoot,
  showFolders,
  showObservabilityView,
  treeRow,
  UI_TIMEOUT,
  widenSidebar,
  type UiFlavor,
} from './ui';

const LABEL = 'Northwind (emulator)';

forEachFlavor((flavor: UiFlavor) => {
  const screenshot =
    (flavor.name === 'Cloud' ? process.env.OBS_E2E_SCREENSHOT : undefined) ?? flavor.screenshot('screenshot-tree.png');
  let emulator: Emulator;
  let workbench: Workbench;
  let page: Page;

  before(async () => {
    emulator = await startEmulator({
      flavor: flavor.emulatorFlavor,
      rateLimit: { requests: 10_000, windowMs: 1000 },
    });
    workbench = await openTestWorkbench({
      flavor,
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
    await reportingFailure(page, emulator, `screenshot-tree-${flavor.emulatorFlavor}`, drive);
  });

  async function drive(): Promise<void> {
    const marker = emulator.requests.length;
    await showObservabilityView(page, LABEL);
    await widenSidebar(page, 560);
    assert.equal(emulator.requests.length, marker, 'opening the view sends no request');

    // Connection (→ first service) → Dashboards → a dashboard → a tile → the alert watching it; then Alerts.
    await showFolders(page, flavor, emulator, LABEL);
    await expand(page, /^Dashboards$/);
    await expand(page, /^Checkout service$/);
    await expand(page, /^p95 latency \(ms\)$/);
    await expand(page, /^Alerts$/);
    const firing = treeRow(page, /^Checkout p95 latency above 1\.5 s$/);
    await firing.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    const text = await firing.innerText();
    assert.match(text, /at least 1500 · 5m · #oncall-checkout/);
    const requests = emulator.requests.slice(marker);
    const paths = requests.map((r) => flavor.collectionOf(r.path));
    assert.deepEqual([...new Set(paths)].sort(), ['alerts', 'dashboards', 'webhooks'], 'one list per expanded folder');
    // A list is read once, to its end: its first page, then (for paged lists without totalCount) the pages after it.
    const firstPages = requests.filter((r) => (r.query.offset ?? '0') === '0');
    assert.equal(
      firstPages.length,
      3,
      `requests: ${requests.map((r) => `${flavor.collectionOf(r.path)}?offset=${r.query.offset ?? ''}`).join(', ')}`,
    );

    await page.locator('.pane-body .monaco-list-row').filter({ hasText: 'Payment declines spike' }).first().click();
    await page.mouse.move(900, 400);
    await page.waitForTimeout(1000);
    await shoot(page, screenshot);
  }
});
