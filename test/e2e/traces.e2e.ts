/**
 * UI test of Open Trace on a Cloud connection: from the palette, the failing showcase trace's ID opens the trace
 * panel; the waterfall shows its spans nested and the failed ones marked; clicking the span that threw shows its
 * exception and stack trace; the arrow keys move the selection; a log line of the trace selects its span. It takes
 * the README's trace picture (media/screenshot-trace.png: the waterfall with the failed span's exception).
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/traces.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { SHOWCASE } from '../emulator/clickhouse/traces';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import { startEmulator, type Emulator } from '../emulator/server';
import type { Workbench } from '../host/runInCodeServer';
import {
  CLOUD,
  openTestWorkbench,
  quickInput,
  quickInputBox,
  reportingFailure,
  runCommand,
  shoot,
  UI_TIMEOUT,
} from './ui';

const LABEL = 'Northwind (emulator)';

let emulator: Emulator;
let workbench: Workbench;
let page: Page;

before(async () => {
  emulator = await startEmulator({ rateLimit: { requests: 10_000, windowMs: 1000 }, now: 'start' });
  emulator.state.data.get(emulator.serviceIds[0]!)!.queryEndpoint = {
    id: '0d5c2a8e-6f14-4b3a-9e7d-2c1b0a9f8e7e',
    roles: ['sql_console_read_only'],
    openApiKeys: [SAMPLE_KEY_UUID],
    allowedOrigins: '',
  };
  workbench = await openTestWorkbench({ flavor: CLOUD, emulator, label: LABEL, mode: 'setup' });
  page = workbench.page;
});

after(async () => {
  await workbench?.close();
  await emulator?.close();
});

/** The trace panel's document (VS Code nests the content in an inner frame). */
function panel(): FrameLocator {
  return page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame');
}

test('Open Trace: the waterfall, a span selected, its exception, a log line to its span', { timeout: 400_000 }, () =>
  reportingFailure(page, emulator, 'traces-cloud', drive),
);

async function drive(): Promise<void> {
  await runCommand(page, 'Observability: Set Query Host');
  await quickInputBox(page).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await quickInputBox(page).fill(emulator.queryUrl);
  await page.keyboard.press('Enter');
  await quickInput(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT });

  await runCommand(page, 'Observability: Open Trace…');
  await quickInputBox(page).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await quickInputBox(page).fill(SHOWCASE.refund);
  await page.keyboard.press('Enter');
  await quickInput(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT });

  // The first SQL run starts the embedded engine (and on a fresh machine generates the sample data once).
  const thrower = panel().locator('[role=row]', { hasText: 'RefundService.refund' });
  await thrower.waitFor({ state: 'visible', timeout: 180_000 });
  assert.match(await panel().locator('#meta').innerText(), /5 spans .* 2 services/);
  assert.equal(await thrower.getAttribute('aria-level'), '4', 'nested four deep');
  assert.match(await thrower.innerText(), /error/);
  // Opened, the span that threw is selected, its stack trace shown.
  await panel()
    .locator('#details pre', { hasText: 'at com.example.orders.refund.RefundService.refund' })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  assert.equal(await thrower.getAttribute('aria-selected'), 'true');
  await panel().locator('[role=row]', { hasText: 'SELECT shop.payments' }).click();
  await panel()
    .locator('#details h2', { hasText: 'SELECT shop.payments' })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });

  await thrower.click();
  assert.equal(await thrower.getAttribute('aria-selected'), 'true');
  const details = panel().locator('#details');
  await details.locator('pre', { hasText: 'at com.example.orders.refund.RefundService.refund' }).waitFor({
    state: 'visible',
    timeout: UI_TIMEOUT,
  });
  assert.match(await details.innerText(), /java\.lang\.IllegalStateException/);
  await page.mouse.move(10, 790);
  await shoot(page, CLOUD.screenshot('screenshot-trace.png'));

  await panel().locator('#viewport').focus();
  await page.keyboard.press('ArrowDown');
  await details.locator('h2', { hasText: 'SELECT shop.payments' }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await page.keyboard.press('ArrowLeft');
  await details.locator('h2', { hasText: 'RefundService.refund' }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });

  const logLine = panel()
    .locator('#log-list button', { hasText: /refund/i })
    .first();
  await logLine.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await logLine.click();
  assert.equal(
    await panel().locator('[role=row][aria-selected=true]').count(),
    1,
    'the log line selected its span in the waterfall',
  );
}
