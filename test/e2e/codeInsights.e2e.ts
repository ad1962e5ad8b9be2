/**
 * UI test of code insights on a Cloud connection, in the sample multi-language workspace (test/fixtures/codeWorkspace)
 * against the emulator on a frozen clock: after the folder's service pick, a TypeScript file gets its lenses from VS
 * Code's own TypeScript symbol provider, a Python file (no language server in the test host) from the stand-in scan,
 * which says so; clicking a lens shows the function's figures over time in a hover, whose failing example opens its
 * trace.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/codeInsights.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import { startEmulator, type Emulator } from '../emulator/server';
import type { Workbench } from '../host/runInCodeServer';
import {
  activeEditor,
  CLOUD,
  editorLine,
  openFile,
  openTestWorkbench,
  quickInput,
  quickInputBox,
  quickInputRows,
  reportingFailure,
  runCommand,
  shoot,
  UI_TIMEOUT,
} from './ui';

const LABEL = 'Northwind (emulator)';
const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/codeWorkspace');
/** The first statement starts the embedded engine (and on a fresh machine generates the sample data once). */
const FIRST_SQL_TIMEOUT = 180_000;
const LENS = /\d.* calls · [\d.]+% errors · p95 /;

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
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'obs-code-insights-'));
  fs.cpSync(FIXTURES, workspace, { recursive: true });
  workbench = await openTestWorkbench({ flavor: CLOUD, emulator, label: LABEL, mode: 'setup', workspace });
  page = workbench.page;
});

after(async () => {
  await workbench?.close();
  await emulator?.close();
  if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
});

/** The trace panel's document (VS Code nests the content in an inner frame). */
function tracePanel(): FrameLocator {
  return page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame');
}

/** Our lenses of the active editor. */
const lenses = () => activeEditor(page).locator('.codelens-decoration a', { hasText: LENS });

/**
 * The lens drawn right above the editor line holding `text`, by its title (lenses are drawn again when figures
 * arrive, so the element found first may be gone by the time it is read). Only a lens within two lines above counts:
 * until the line's own lens is drawn, the nearest lens above belongs to the function before it.
 */
async function lensAbove(text: string) {
  const deadline = Date.now() + UI_TIMEOUT;
  for (;;) {
    const line = await editorLine(page, text).boundingBox();
    let best: { title: string; y: number } | undefined;
    const all = lenses();
    for (let i = 0; line && i < (await all.count()); i++) {
      const box = await all
        .nth(i)
        .boundingBox()
        .catch(() => null);
      const title = await all
        .nth(i)
        .innerText({ timeout: 1000 })
        .catch(() => '');
      const right = box && box.y < line.y && line.y - box.y < 2 * line.height;
      if (right && LENS.test(title) && (!best || box.y > best.y)) best = { title, y: box.y };
    }
    if (best) return activeEditor(page).locator('.codelens-decoration a', { hasText: best.title }).first();
    assert.ok(Date.now() < deadline, `a lens above "${text}"`);
    await page.waitForTimeout(200);
  }
}

test(
  'Code insights: lenses from the symbol provider and the plain scan, a hover over time opening a trace',
  { timeout: 600_000 },
  () => reportingFailure(page, emulator, 'code-insights-cloud', drive),
);

async function drive(): Promise<void> {
  await runCommand(page, 'Observability: Set Query Host');
  await quickInputBox(page).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await quickInputBox(page).fill(emulator.queryUrl);
  await page.keyboard.press('Enter');
  await quickInput(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT });

  await openFile(page, 'cart.ts');
  await runCommand(page, 'Observability: Choose Service for Code Insights…');
  // One connection and one service: asked only for the trace source when the service has several.
  const traces = [...emulator.state.data.get(emulator.serviceIds[0]!)!.sources.values()].filter(
    (s) => s.kind === 'trace',
  );
  if (traces.length > 1) {
    await quickInputRows(page)
      .filter({ hasText: String(traces[0]!.name) })
      .first()
      .click();
  }
  // TypeScript: VS Code's own symbol provider finds the methods; no plain-scan note.
  await lenses().first().waitFor({ state: 'visible', timeout: FIRST_SQL_TIMEOUT });
  const addItem = await lensAbove('addItem(');
  assert.doesNotMatch(await addItem.innerText(), /plain scan/);
  assert.match(await addItem.innerText(), / · 24 h$/);

  // Python: no language server in the test host, the plain scan stands in and says so.
  await openFile(page, 'charge.py');
  await lenses().first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  const refund = await lensAbove('def refund(');
  assert.match(await refund.innerText(), /\(plain scan\)$/);

  // Clicking the lens shows the figures over time in a hover; a failing example opens its trace.
  await refund.click();
  const hover = page.locator('.monaco-hover', { hasText: 'Failing' }).first();
  await hover.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  const text = await hover.innerText();
  assert.match(text, /Calls per 1 h: [▁▂▃▄▅▆▇█]{24,25}/);
  assert.match(text, /Slowest/);
  assert.match(text, /Search these spans/);
  await shoot(page, CLOUD.screenshot('screenshot-code-insights.png'));
  const example = hover.locator('a', { hasText: /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/ }).first();
  await example.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await example.click();
  await tracePanel()
    .locator('[role=row]', { hasText: 'refund' })
    .first()
    .waitFor({ state: 'visible', timeout: FIRST_SQL_TIMEOUT });
  assert.match(await tracePanel().locator('#meta').innerText(), /span/);
}
