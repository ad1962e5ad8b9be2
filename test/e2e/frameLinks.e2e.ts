/**
 * UI test of a stack-trace frame opening the source: the sample workspace of test/fixtures/codeWorkspace with the Java
 * service's file the failing showcase trace names; the trace opened from the palette shows the exception's stack
 * trace with that frame as a link and the JDK's frames as plain text; clicking the link opens the file at the frame's
 * line. The same from a search of the logs: the failing log row's stack-trace attribute links the frame.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/frameLinks.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
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
  quickInputRows,
  reportingFailure,
  runCommand,
  UI_TIMEOUT,
} from './ui';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/codeWorkspace');
const REFUND = 'src/main/java/com/example/orders/refund/RefundService.java';

let emulator: Emulator;
let workbench: Workbench;
let page: Page;
let workspace: string;

before(async () => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'obs-frame-links-'));
  fs.cpSync(FIXTURES, workspace, { recursive: true });
  const lines = Array.from({ length: 120 }, (_, i) => `    // line ${i + 1}`);
  lines[86] = '        throw new IllegalStateException("refund window closed");';
  fs.mkdirSync(path.dirname(path.join(workspace, REFUND)), { recursive: true });
  fs.writeFileSync(path.join(workspace, REFUND), lines.join('\n'));
  emulator = await startEmulator({ rateLimit: { requests: 10_000, windowMs: 1000 }, now: 'start' });
  emulator.state.data.get(emulator.serviceIds[0]!)!.queryEndpoint = {
    id: '0d5c2a8e-6f14-4b3a-9e7d-2c1b0a9f8e7f',
    roles: ['sql_console_read_only'],
    openApiKeys: [SAMPLE_KEY_UUID],
    allowedOrigins: '',
  };
  workbench = await openTestWorkbench({
    flavor: CLOUD,
    emulator,
    label: 'Frames (emulator)',
    mode: 'setup',
    workspace,
  });
  page = workbench.page;
});

after(async () => {
  await workbench?.close();
  await emulator?.close();
  if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
});

function panel(): FrameLocator {
  return page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame');
}

test('a stack-trace frame of a workspace file opens the source line', { timeout: 400_000 }, () =>
  reportingFailure(page, emulator, 'frame-links', drive),
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

  // Opened, the span that threw is selected and its stack trace shown.
  const link = panel().locator('#details pre button.frame', { hasText: 'RefundService.refund(RefundService.java:87)' });
  await link.waitFor({ state: 'visible', timeout: 180_000 });
  const stack = panel().locator('#details pre', { hasText: 'Thread.run' });
  assert.equal(await stack.locator('button.frame').count(), 1, 'only the workspace frame is a link');
  assert.match((await link.getAttribute('title')) ?? '', /RefundService\.java:87$/);

  await link.click();
  await page
    .locator('.tab.active', { hasText: 'RefundService.java' })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await page
    .locator('.statusbar-item', { hasText: /^Ln 87, Col 1/ })
    .first()
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });

  // The trace's failing log line, found with Search Events: its stack-trace attribute links the same frame.
  await runCommand(page, 'View: Close All Editors');
  await page.locator('.tab.active').first().waitFor({ state: 'detached', timeout: UI_TIMEOUT });
  await runCommand(page, 'Observability: Search Events…');
  await quickInputRows(page).filter({ hasText: 'Logs' }).first().click();
  const search = panel();
  await search.locator('.row').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await search.locator('#condition').fill(`TraceId:${SHOWCASE.refund}`);
  await search.locator('#condition').press('Enter');
  const row = search.locator('.row', { hasText: 'Refund failed' }).first();
  await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await row.click();
  const fieldLink = search.locator('#details .field .value button.frame', { hasText: 'RefundService.java:87' });
  await fieldLink.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  assert.equal(await search.locator('#details button.frame').count(), 1, 'only the workspace frame is a link');
  await fieldLink.click();
  await page
    .locator('.tab.active', { hasText: 'RefundService.java' })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await page
    .locator('.statusbar-item', { hasText: /^Ln 87, Col 1/ })
    .first()
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
}
