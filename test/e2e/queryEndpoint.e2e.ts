/**
 * UI test of the query endpoint editor in a real workbench (code-server + headless Chromium), against the local
 * emulator: "Observability: Upsert Query Endpoint…" from the Command Palette opens the template (the service has no
 * endpoint yet); completion in `openApiKeys` lists the organization's API keys and inserts the chosen key's UUID; the
 * editor title's ✓ (Apply to the Service) creates the endpoint and the notification names its `id` and the request ID
 * (screenshot). Then `allowedOrigins` is edited and ✓ again: the diff and a modal ask, and after "Apply" the same
 * endpoint (same `id`) holds the new value.
 *
 * The workbench runs the extension in development mode without a test entry, so modal dialogs show as they do for a
 * user; the connection comes from `$OBS_DEMO_CONNECTION`. Screenshot: media/screenshot-query-endpoint.png; a failure
 * goes to out/query-endpoint.failed.png.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/queryEndpoint.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator/server';
import { REPO_ROOT, type Workbench } from '../host/runInCodeServer';
import {
  clearNotifications,
  confirmDialog,
  dialog,
  editorLine,
  editorLines,
  expand,
  goTo,
  notification,
  openTestWorkbench,
  quickInput,
  quickInputRows,
  reportingFailure,
  runCommand,
  settledNotification,
  shoot,
  showObservabilityView,
  treeRow,
  UI_TIMEOUT,
} from './ui';

const SCREENSHOT = path.join(REPO_ROOT, 'media', 'screenshot-query-endpoint.png');
const LABEL = 'Northwind (emulator)';
const ORIGIN = 'https://grafana.example.com';

let emulator: Emulator;
let workbench: Workbench;
let page: Page;

before(async () => {
  emulator = await startEmulator({ rateLimit: { requests: 10_000, windowMs: 1000 } });
  workbench = await openTestWorkbench({ emulator, label: LABEL, mode: 'demo' });
  page = workbench.page;
});

after(async () => {
  await workbench?.close();
  await emulator?.close();
});

test(
  'Upsert Query Endpoint: API key from completion, ✓ creates it (id and request ID shown), ✓ again updates the same endpoint',
  { timeout: 300_000 },
  async () => {
    await reportingFailure(page, emulator, 'query-endpoint', drive);
  },
);

/** The ✓ (Apply to the Service) in the title bar of the active editor. */
function applyButton(): Locator {
  return page
    .locator('.editor-group-container.active .editor-actions .action-label[aria-label^="Apply to the Service"]')
    .first();
}

/** Non-GET requests to the query endpoint since `marker`. */
function writes(marker: number): typeof emulator.requests {
  return emulator.requests.slice(marker).filter((r) => r.method !== 'GET' && r.path.endsWith('/serviceQueryEndpoint'));
}

async function drive(): Promise<void> {
  const serviceId = emulator.serviceIds[0]!;
  const service = emulator.state.services[0]!;
  const data = emulator.state.data.get(serviceId)!;
  const key = emulator.state.keys.find((k) => k.state === 'enabled' && k.keySuffix === emulator.keyId.slice(-4))!;
  assert.ok(key, "the organization has the emulator's own API key");
  const current = () => data.queryEndpoint;
  assert.equal(current(), null, 'no query endpoint yet');

  // The extension activates with the Observability view; the command opens the template (picking the service if asked).
  await showObservabilityView(page, LABEL);
  await expand(page, LABEL);
  await expand(page, service.name);
  await treeRow(page, /^Query Endpoint$/).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await runCommand(page, 'Observability: Upsert Query Endpoint');
  const tab = page.locator('.tab.active', { hasText: '.query-endpoint.json' });
  const servicePick = quickInputRows(page).filter({ hasText: service.name }).first();
  await tab.or(servicePick).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  if (await servicePick.isVisible()) {
    await servicePick.click();
    await quickInput(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
  }
  await tab.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  const keysLine = editorLine(page, '"openApiKeys": []');
  await keysLine.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await editorLine(page, '"sql_console_read_only"').waitFor({ state: 'visible', timeout: UI_TIMEOUT });

  // Completion inside `openApiKeys: []` offers the organization's keys by name; accept the emulator's key.
  const lines = await editorLines(page);
  const keysAt = lines.findIndex((l) => l.includes('"openApiKeys": ['));
  assert.ok(keysAt >= 0, `the template has openApiKeys: ${lines.join(' | ')}`);
  await goTo(page, keysAt + 1, lines[keysAt]!.indexOf('[') + 2);
  await page.keyboard.press('Control+Space');
  const suggest = page.locator('.suggest-widget.visible');
  await suggest.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  for (const k of emulator.state.keys) {
    await suggest
      .locator('.monaco-list-row', { hasText: k.name })
      .first()
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  }
  const focused = suggest.locator('.monaco-list-row.focused');
  for (let i = 0; i < emulator.state.keys.length + 2 && !(await focused.innerText()).includes(key.name); i++) {
    await page.keyboard.press('ArrowDown');
  }
  await suggest
    .locator('.monaco-list-row.focused', { hasText: key.name })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await page.keyboard.press('Enter');
  await suggest.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
  await editorLine(page, `"openApiKeys": ["${key.id}"]`).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  assert.equal(writes(0).length, 0, 'nothing is sent before applying');

  // ✓ creates the endpoint: no confirmation for a new one; the notification names its id and the request ID.
  const marker = emulator.requests.length;
  await applyButton().click();
  const saved = notification(page, 'Query endpoint saved: id');
  await saved.waitFor({ state: 'visible', timeout: 60_000 });
  const first = writes(marker);
  assert.equal(first.length, 1, `one upsert: ${first.map((r) => `${r.method} ${r.path} ${r.status}`).join(', ')}`);
  assert.equal(first[0]!.status, 200);
  const endpoint = current();
  assert.ok(endpoint, 'the service has a query endpoint');
  assert.deepEqual(endpoint.openApiKeys, [key.id]);
  assert.deepEqual(endpoint.roles, ['sql_console_read_only']);
  const message = (await saved.innerText()).replace(/\s+/g, ' ');
  assert.ok(message.includes(`id ${endpoint.id}`), `the notification names the endpoint id ${endpoint.id}: ${message}`);
  assert.ok(
    message.includes(first[0]!.requestId),
    `the notification names the request ID ${first[0]!.requestId}: ${message}`,
  );
  await page.locator('.tab.active.dirty').waitFor({ state: 'detached', timeout: UI_TIMEOUT });
  await settledNotification(page, 'Query endpoint saved: id');
  // Expanded, the notification shows its whole text (the request ID too).
  await saved.hover();
  const expandToast = saved.locator('.action-label.codicon-notifications-expand');
  if (await expandToast.isVisible()) {
    await expandToast.click();
    await saved
      .locator('.action-label.codicon-notifications-collapse')
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  }
  await page.mouse.move(1000, 500);
  await shoot(page, SCREENSHOT);

  // Edit allowedOrigins and ✓ again: the diff and a modal; after "Apply" the same endpoint has the new origin.
  await clearNotifications(page);
  const text = await editorLines(page);
  const originAt = text.findIndex((l) => l.includes('"allowedOrigins": ""'));
  assert.ok(originAt >= 0, `the document has allowedOrigins: ${text.join(' | ')}`);
  await goTo(page, originAt + 1, text[originAt]!.indexOf('""') + 2);
  await page.keyboard.type(ORIGIN);
  await editorLine(page, `"allowedOrigins": "${ORIGIN}"`).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  const again = emulator.requests.length;
  await applyButton().click();
  await dialog(page).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  assert.match(
    await dialog(page).locator('.dialog-message-text').innerText(),
    /Apply your changes to the query endpoint/,
  );
  assert.equal(writes(again).length, 0, 'nothing is sent before confirming');
  await confirmDialog(page, 'Apply');
  const resaved = notification(page, 'Query endpoint saved: id');
  await resaved.waitFor({ state: 'visible', timeout: 60_000 });
  const second = writes(again);
  assert.equal(second.length, 1, `one upsert: ${second.map((r) => `${r.method} ${r.path} ${r.status}`).join(', ')}`);
  const after = current();
  assert.ok(after);
  assert.equal(after.id, endpoint.id, 'the same endpoint was updated');
  assert.equal(after.allowedOrigins, ORIGIN);
  assert.deepEqual(after.openApiKeys, [key.id]);
  const message2 = (await resaved.innerText()).replace(/\s+/g, ' ');
  assert.ok(message2.includes(`id ${endpoint.id}`), `the notification names the same id: ${message2}`);
  assert.ok(
    message2.includes(second[0]!.requestId),
    `the notification names the request ID ${second[0]!.requestId}: ${message2}`,
  );
}
