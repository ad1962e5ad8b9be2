/**
 * UI test of Run Query in a real workbench (code-server + headless Chromium) against the emulator's query host (a
 * real embedded ClickHouse): "Observability: Set Query Host" points the connection at the emulator, "Observability:
 * New Query" opens a SQL document bound to the service, Ctrl+Enter runs `SELECT ServiceName, count() …` and the
 * results panel shows the real counts; a time-bucketed query offers the Chart tab. Screenshots of the table and the
 * chart in the dark and the light theme: media/screenshot-query-{table,chart}-{dark,light}.png.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/queryResults.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator/server';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import { REPO_ROOT, type Workbench } from '../host/runInCodeServer';
import {
  activeEditor,
  openTestWorkbench,
  quickInput,
  quickInputBox,
  reportingFailure,
  runCommand,
  shoot,
  showObservabilityView,
  UI_TIMEOUT,
} from './ui';

const LABEL = 'Northwind (emulator)';
const shot = (name: string) => path.join(REPO_ROOT, 'media', `screenshot-query-${name}.png`);

let emulator: Emulator;
let workbench: Workbench;
let page: Page;

before(async () => {
  emulator = await startEmulator({ rateLimit: { requests: 10_000, windowMs: 1000 } });
  const serviceId = emulator.serviceIds[0] as string;
  emulator.state.data.get(serviceId)!.queryEndpoint = {
    id: '0d5c2a8e-6f14-4b3a-9e7d-2c1b0a9f8e7d',
    roles: ['sql_console_read_only'],
    openApiKeys: [SAMPLE_KEY_UUID],
    allowedOrigins: '',
  };
  workbench = await openTestWorkbench({ emulator, label: LABEL, mode: 'demo' });
  page = workbench.page;
});

after(async () => {
  await workbench?.close();
  await emulator?.close();
});

test(
  'Run Query: New Query, Ctrl+Enter, the results table and the chart, dark and light',
  { timeout: 400_000 },
  async () => {
    await reportingFailure(page, emulator, 'query-results', drive);
  },
);

/** The results webview's document (VS Code nests the content in an inner frame). */
function results(): FrameLocator {
  return page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame');
}

async function replaceEditorText(text: string): Promise<void> {
  await activeEditor(page).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

async function drive(): Promise<void> {
  const service = emulator.state.services[0]!;
  await showObservabilityView(page, LABEL);

  await runCommand(page, 'Observability: Set Query Host');
  await quickInputBox(page).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await quickInputBox(page).fill(emulator.queryUrl);
  await page.keyboard.press('Enter');
  await quickInput(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT });

  await runCommand(page, 'Observability: New Query');
  // The new document is named after its service, not after its comment line.
  const tab = page.locator('.tab.active', { hasText: `${service.name}.sql` });
  await tab.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await page
    .locator('.statusbar-item', { hasText: service.name })
    .first()
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await replaceEditorText(
    'SELECT ServiceName, count() AS logs\nFROM otel_logs\nGROUP BY ServiceName\nORDER BY logs DESC\n',
  );
  await page.keyboard.press('Control+Enter');
  // The first query starts the embedded engine (and on a fresh machine generates the sample data once).
  await results().locator('.row', { hasText: 'checkout' }).first().waitFor({ state: 'visible', timeout: 180_000 });
  const text = (await results().locator('#viewport').innerText()).replace(/\s+/g, ' ');
  assert.match(text, /frontend 231052/);
  assert.match(text, /LowCardinality\(String\)/);
  assert.match(await results().locator('#meta').innerText(), /15 rows/);
  await shoot(page, shot('table-dark'));

  await replaceEditorText(
    "SELECT toStartOfInterval(Timestamp, INTERVAL 1 HOUR) AS hour, ServiceName, count() AS logs\nFROM otel_logs\nWHERE Timestamp > now() - INTERVAL 2 DAY AND ServiceName IN ('checkout', 'payment', 'cart', 'frontend')\nGROUP BY hour, ServiceName\nORDER BY hour\n",
  );
  await page.keyboard.press('Control+Enter');
  const chartTab = results().locator('#tab-chart');
  await chartTab.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await chartTab.click();
  await results().locator('#chart svg polyline').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  assert.equal(await results().locator('#chart svg polyline').count(), 4);
  await shoot(page, shot('chart-dark'));

  await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
  await page.waitForTimeout(1500);
  await shoot(page, shot('chart-light'));
  await results().locator('#tab-table').click();
  await results().locator('.row').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await shoot(page, shot('table-light'));
}
