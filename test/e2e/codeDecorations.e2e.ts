/**
 * UI test of the production exceptions at the code, on a Cloud connection, in the sample multi-language workspace
 * (test/fixtures/codeWorkspace) against the emulator on a frozen clock: after the folder's service pick, the line of
 * the Python file that is the top in-workspace frame of the seeded `ValueError`s shows the quiet after-line mark
 * (`ValueError ×N · 24 h`); its hover says the exception's type and count and links the stack's in-workspace frames,
 * one of which opens its line; after Developer: Reload Window the lenses and the mark come back on the open file
 * without any user action. Last, the same stack traces as SQL result cells: their in-workspace frames open the line.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/codeDecorations.e2e.js`.
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
  goTo,
  openFile,
  openTestWorkbench,
  quickInput,
  quickInputBox,
  quickInputRows,
  reloadWindow,
  reportingFailure,
  runCommand,
  UI_TIMEOUT,
} from './ui';

const LABEL = 'Northwind (emulator)';
const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/codeWorkspace');
/** The first statement starts the embedded engine (and on a fresh machine generates the sample data once). */
const FIRST_SQL_TIMEOUT = 180_000;
/** Starting the workbench again takes longer than a step inside it. */
const RELOAD_TIMEOUT = 180_000;
const LENS = /\d.* calls · [\d.]+% errors · p95 /;
/** The line of charge.py (19) that raised the seeded ValueErrors: the top in-workspace frame of their stack traces. */
const THREW = 'raise ValueError(';
const MARK = /ValueError(?: \+\d+)? ×([\d.]+k?) · 24 h/;

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
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'obs-code-decorations-'));
  fs.cpSync(FIXTURES, workspace, { recursive: true });
  workbench = await openTestWorkbench({ flavor: CLOUD, emulator, label: LABEL, mode: 'setup', workspace });
  page = workbench.page;
});

after(async () => {
  await workbench?.close();
  await emulator?.close();
  if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
});

/**
 * The text drawn on the editor line holding `text`: its characters and what decorations add around them (text the
 * editor injects, or the `::before`/`::after` content of its spans).
 */
async function drawnLine(text: string): Promise<string> {
  return editorLine(page, text).evaluate((line) => {
    let out = line.textContent ?? '';
    for (const el of [line, ...line.querySelectorAll('*')]) {
      for (const pseudo of ['::before', '::after']) {
        const content = (
          globalThis as unknown as { getComputedStyle(e: unknown, p: string): { content: string } }
        ).getComputedStyle(el, pseudo).content;
        if (content && content !== 'none' && content !== 'normal') out += ` ${content.replace(/^"|"$/g, '')}`;
      }
    }
    return out.replace(/\u00a0/g, ' ');
  });
}

/** Waits until the line holding `text` shows the exception mark; returns the mark's count as drawn. */
async function markOn(text: string, timeout: number): Promise<string> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const drawn = await drawnLine(text).catch(() => '');
    const m = MARK.exec(drawn);
    if (m) return m[1]!;
    assert.ok(Date.now() < deadline, `the exception mark on "${text}" (drawn: ${drawn})`);
    await page.waitForTimeout(250);
  }
}

const lenses = () => activeEditor(page).locator('.codelens-decoration a', { hasText: LENS });
const cursorAt = (line: number) =>
  page.locator('.statusbar-item', { hasText: new RegExp(`^Ln ${line}, Col \\d+`) }).first();

test(
  'Code insights: the exception mark on the line that threw, its hover, both back after a window reload; frames in SQL cells',
  { timeout: 900_000 },
  () => reportingFailure(page, emulator, 'code-decorations-cloud', drive),
);

async function drive(): Promise<void> {
  await runCommand(page, 'Observability: Set Query Host');
  await quickInputBox(page).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await quickInputBox(page).fill(emulator.queryUrl);
  await page.keyboard.press('Enter');
  await quickInput(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT });

  await openFile(page, 'charge.py');
  await runCommand(page, 'Observability: Choose Service for Code Insights…');
  const traces = [...emulator.state.data.get(emulator.serviceIds[0]!)!.sources.values()].filter(
    (s) => s.kind === 'trace',
  );
  if (traces.length > 1) {
    await quickInputRows(page)
      .filter({ hasText: String(traces[0]!.name) })
      .first()
      .click();
  }
  await lenses().first().waitFor({ state: 'visible', timeout: FIRST_SQL_TIMEOUT });

  // The mark sits after the line that threw (the top in-workspace frame), and on no other line near it.
  const count = await markOn(THREW, FIRST_SQL_TIMEOUT);
  assert.doesNotMatch(await drawnLine('def validate_amount('), MARK, 'the line above threw nothing');

  // Its hover: the exception's type and message, how many over the range, and the stack's in-workspace frames.
  await goTo(page, 19, 15);
  await runCommand(page, 'Show or Focus Hover');
  const hover = page.locator('.monaco-hover', { hasText: 'Production exceptions thrown here' }).first();
  await hover.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  const text = (await hover.innerText()).replace(/\u00a0/g, ' ');
  assert.match(text, /ValueError: amount must be positive, got/);
  const total = /(\d+) in all: (\d+) span events, (\d+) logs/.exec(text);
  assert.ok(total, text);
  assert.ok(Number(total[1]) > 0);
  assert.equal(Number(total[1]), Number(total[2]) + Number(total[3]));
  if (/^\d+$/.test(count)) assert.equal(count, total[1], 'the mark counts what the hover counts');
  assert.match(text, /last 24 h/);

  // A frame of the stack in the workspace opens its line (the caller, at line 9).
  const frame = hover.locator('a', { hasText: /app\/payments\/charge\.py:9$/ }).first();
  await frame.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await frame.click();
  await cursorAt(9).waitFor({ state: 'visible', timeout: UI_TIMEOUT });

  // A reload: the workbench comes back with the file open, and its lenses and mark come back by themselves.
  await reloadWindow(page, RELOAD_TIMEOUT);
  await page.locator('.statusbar').first().waitFor({ state: 'visible', timeout: RELOAD_TIMEOUT });
  await editorLine(page, THREW).waitFor({ state: 'visible', timeout: RELOAD_TIMEOUT });
  await lenses().first().waitFor({ state: 'visible', timeout: RELOAD_TIMEOUT });
  assert.equal(await markOn(THREW, RELOAD_TIMEOUT), count, 'the same mark after the reload');

  // The same stack traces in SQL results (log attributes): the frames of the workspace file are links to their line.
  await runCommand(page, 'Observability: New Query');
  const sqlTab = page.locator('.tab.active', { hasText: '.sql' });
  // The reloaded window has the one connection with its one service: the query runs there without asking.
  const asked = quickInput(page).locator('.quick-input-title', { hasText: 'Run SQL on which service?' });
  await asked.or(sqlTab).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  assert.equal(await asked.isVisible(), false, 'New Query asked for a service, although there is one');
  await sqlTab.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await activeEditor(page).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(
    "SELECT Timestamp, LogAttributes['exception.stacktrace'] AS stack\nFROM otel_logs\nWHERE stack LIKE '%payments/charge.py%'\nORDER BY Timestamp DESC\nLIMIT 5\n",
  );
  await page.keyboard.press('Control+Enter');
  const link = results()
    .locator('a.frame', { hasText: /^app\/payments\/charge\.py:19$/ })
    .first();
  await link.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  const cell = (await link.locator('xpath=..').innerText()).replace(/\s+/g, ' ');
  assert.match(
    cell,
    /^(app\/payments\/charge\.py:\d+ )*app\/payments\/charge\.py:19 │ Traceback \(most recent call last\)/,
    'the frames of the workspace file first, then the text',
  );
  assert.equal(
    await results().locator('a.frame', { hasText: /flask/ }).count(),
    0,
    "the library's frames (outside the workspace) stay text",
  );
  await link.click();
  await page.locator('.tab.active', { hasText: 'charge.py' }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await cursorAt(19).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
}

/** The results webview's document (VS Code nests the content in an inner frame). */
function results(): FrameLocator {
  return page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame');
}
