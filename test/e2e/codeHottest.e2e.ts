/**
 * UI test of Show Hottest Functions… on a Cloud connection: the sample multi-language workspace
 * (test/fixtures/codeWorkspace, copied) opened in the workbench, its folder's service and trace source picked with
 * Choose Service for Code Insights…, then the hottest functions by calls listed (the most called first) and one of
 * them chosen: its file opens with the cursor on the line of the function's name (a Java file: no language server in
 * the test host, so the plain definition scan finds it).
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/codeHottest.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import { startEmulator, type Emulator } from '../emulator/server';
import { REPO_ROOT, type Workbench } from '../host/runInCodeServer';
import {
  CLOUD,
  openFile,
  openTestWorkbench,
  quickInput,
  quickInputBox,
  quickInputRows,
  reportingFailure,
  runCommand,
  UI_TIMEOUT,
} from './ui';

const LABEL = 'Northwind (emulator)';

let emulator: Emulator;
let workbench: Workbench;
let page: Page;
let workspace: string;

before(async () => {
  emulator = await startEmulator({ rateLimit: { requests: 10_000, windowMs: 1000 }, now: 'start' });
  emulator.state.data.get(emulator.serviceIds[0]!)!.queryEndpoint = {
    id: '0d5c2a8e-6f14-4b3a-9e7d-2c1b0a9f8e7f',
    roles: ['sql_console_read_only'],
    openApiKeys: [SAMPLE_KEY_UUID],
    allowedOrigins: '',
  };
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'obs-hottest-'));
  fs.cpSync(path.join(REPO_ROOT, 'test', 'fixtures', 'codeWorkspace'), workspace, { recursive: true });
  workbench = await openTestWorkbench({ flavor: CLOUD, emulator, label: LABEL, mode: 'setup', workspace });
  page = workbench.page;
});

after(async () => {
  await workbench?.close();
  await emulator?.close();
  if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
});

test('Show Hottest Functions: the most called first, the one chosen opens at its line', { timeout: 400_000 }, () =>
  reportingFailure(page, emulator, 'code-hottest', drive),
);

/** Chooses the quick pick's row holding `text` when the quick pick asks (a single choice is not asked). */
async function chooseIfAsked(text: string): Promise<void> {
  const row = quickInputRows(page).filter({ hasText: text }).first();
  const shown = await row
    .waitFor({ state: 'visible', timeout: 5_000 })
    .then(() => true)
    .catch(() => false);
  if (shown) await row.click();
}

async function drive(): Promise<void> {
  await runCommand(page, 'Observability: Set Query Host');
  await quickInputBox(page).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await quickInputBox(page).fill(emulator.queryUrl);
  await page.keyboard.press('Enter');
  await quickInput(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT });

  // A file of the folder open (the status bar shows the pick of the active editor's folder). One connection with one
  // service: only the trace source may be asked for.
  await openFile(page, 'cart.ts');
  await runCommand(page, 'Observability: Choose Service for Code Insights…');
  await chooseIfAsked('Traces');
  const service = emulator.state.services[0]!.name;
  await page
    .locator('.statusbar-item', { hasText: `${service} · Traces` })
    .first()
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });

  await runCommand(page, 'Observability: Show Hottest Functions…');
  await quickInputRows(page).filter({ hasText: 'Most calls' }).first().click();
  // The first SQL run starts the embedded engine (and on a fresh machine generates the sample data once).
  const rows = quickInputRows(page).filter({ hasText: /calls · .* errors · p95/ });
  await rows.first().waitFor({ state: 'visible', timeout: 180_000 });
  assert.match(await rows.first().innerText(), /CartService\.addItem[\s\S]*1\.2k calls/, 'the most called first');

  await quickInputBox(page).fill('release');
  const release = quickInputRows(page).filter({ hasText: 'release' }).first();
  await release.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  assert.match(await release.innerText(), /StockService\.java/);
  await release.click();
  await quickInput(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT });

  await page
    .locator('.tab.active', { hasText: 'StockService.java' })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  // `public void release(…)` is line 18 of the file (the spans say 19: the definition found by name wins).
  await page
    .locator('.statusbar-item', { hasText: /^Ln 18, Col 1$/ })
    .first()
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  const line = page.locator('.editor-group-container.active .view-line', { hasText: 'release(' }).first();
  await line.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
}
