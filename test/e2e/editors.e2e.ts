/**
 * UI test of the alert editor in a real workbench (code-server + headless Chromium), against the local emulator, once
 * per connection kind:
 * "Observability: Create Alert…" from the Command Palette, dashboard, tile and webhook picked from live lists,
 * completion of `webhookId` with the service's webhooks (screenshot with the completion open), another webhook
 * accepted from the completion list, threshold and name typed, Ctrl+S (a local draft, nothing sent), Ctrl+Enter (Apply) and the success notification with the
 * request ID; then the new alert in the Alerts folder of the service in the Observability view (screenshot), and
 * exactly one new alert with those values on the emulator.
 *
 * Screenshots: media/screenshot-editor-completion.png and media/screenshot-alert-created.png (`OBS_E2E_SCREENSHOT`
 * overrides the first; the second goes next to it); self-hosted: out/self-hosted/.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/editors.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator/server';
import { REPO_ROOT, type Workbench } from '../host/runInCodeServer';
import { forEachFlavor, openResourceFolder, openTestWorkbench, widenSidebar, type UiFlavor } from './ui';

const LABEL = 'Northwind (emulator)';

forEachFlavor((flavor: UiFlavor) => {
  const SCREENSHOT =
    (flavor.name === 'Cloud' ? process.env.OBS_E2E_SCREENSHOT : undefined) ??
    flavor.screenshot('screenshot-editor-completion.png');
  const CREATED_SCREENSHOT = path.join(path.dirname(SCREENSHOT), 'screenshot-alert-created.png');

  let emulator: Emulator;
  let workbench: Workbench;
  let page: Page;

  const widget = (): Locator => page.locator('.quick-input-widget');
  const input = (): Locator => widget().locator('.quick-input-box input');
  const rows = (): Locator => widget().locator('.quick-input-list .monaco-list-row');
  const editor = (): Locator => page.locator('.editor-instance .monaco-editor').first();

  /** Waits on UI conditions are generous: a slow CI machine can take seconds to render. */
  const UI_TIMEOUT = 30_000;

  async function pick(title: RegExp, text: string): Promise<void> {
    await widget().locator('.quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await input().fill(text);
    await rows().filter({ hasText: text }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await page.keyboard.press('Enter');
  }

  /** A row of the Observability view whose label is `name`. */
  function treeRow(name: string | RegExp): Locator {
    const list = page.locator('.pane-body .monaco-list-row');
    return list.filter({ has: page.locator('.label-name', { hasText: name }) }).first();
  }

  /** The "Ln …, Col …" item of the status bar. */
  const cursorStatus = (): Locator => page.locator('.statusbar-item', { hasText: /^Ln \d+, Col \d+/ }).first();

  /** Puts the cursor at `line`:`column` (1-based) with Go to Line, and waits until the editor has it and the focus. */
  async function goTo(line: number, column: number): Promise<void> {
    await page.keyboard.press('Control+g');
    await input().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await input().fill(`:${line}:${column}`);
    await page.keyboard.press('Enter');
    await input().waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    await page
      .locator('.editor-instance .monaco-editor.focused')
      .first()
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await cursorStatus()
      .filter({ hasText: new RegExp(`^Ln ${line}, Col ${column}$`) })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  }

  /**
   * Selects the text of line `line` from `column` to the end of the line less `suffix` characters, and checks that
   * `length` characters are selected.
   */
  async function selectToLineEnd(line: number, column: number, suffix: number, length: number): Promise<void> {
    await goTo(line, column);
    await page.keyboard.press('Shift+End');
    for (let i = 0; i < suffix; i++) await page.keyboard.press('Shift+ArrowLeft');
    await cursorStatus()
      .filter({ hasText: `(${length} selected)` })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  }

  async function shoot(file: string): Promise<void> {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await page.screenshot({ path: file });
    assert.ok(fs.statSync(file).size > 10_000, `screenshot ${file} written`);
  }

  /** Runs a test body; on failure saves a screenshot (`<name>.failed.png`) and prints the requests the emulator saw. */
  async function reportingFailure(name: string, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      await page
        .screenshot({ path: path.join(REPO_ROOT, 'out', `${name}-${flavor.emulatorFlavor}.failed.png`) })
        .catch(() => undefined);
      process.stderr.write(
        `requests:\n${emulator.requests.map((r) => `${r.method} ${r.path} ${r.status}`).join('\n')}\n`,
      );
      throw error;
    }
  }

  before(async () => {
    emulator = await startEmulator({ flavor: flavor.emulatorFlavor, rateLimit: { requests: 10_000, windowMs: 1000 } });
    workbench = await openTestWorkbench({ flavor, emulator, label: LABEL, mode: 'setup' });
    page = workbench.page;
  });

  after(async () => {
    await workbench?.close();
    await emulator?.close();
  });

  test(
    'Create Alert from the Command Palette: completion, typing, Ctrl+S saves, Ctrl+Enter applies, the new alert in the tree',
    { timeout: 300_000 },
    async () => {
      await reportingFailure('screenshot-alert-created', createAlert);
    },
  );

  const NEW_NAME = 'Checkout latency over 250 ms';
  const NEW_THRESHOLD = 250;

  async function createAlert(): Promise<void> {
    const data = flavor.data(emulator);
    const webhooks = [...data.webhooks.values()];
    assert.ok(webhooks.length >= 2, 'the sample service has several webhooks');
    const dashboard = [...data.dashboards.values()].find((d) => d.name === 'Checkout service')!;
    const tile = dashboard.tiles.find((t) => t.name === 'p95 latency (ms)')!;
    const before = new Set(data.alerts.keys());
    const marker = emulator.requests.length;

    await page
      .locator('.monaco-workbench')
      .first()
      .click({ position: { x: 640, y: 400 } });
    await page.keyboard.press('F1');
    await input().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await input().fill('>Observability: Create Alert');
    await rows()
      .filter({ hasText: 'Observability: Create Alert' })
      .first()
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await page.keyboard.press('Enter');

    await pick(/Create Alert: dashboard/, 'Checkout service');
    await pick(/Create Alert: tile/, 'p95 latency (ms)');
    await pick(/Create Alert: notify/, webhooks[0]!.name);

    await page
      .locator('.tab.active', { hasText: 'p95 latency (ms) above threshold.alert.json' })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await editor()
      .locator('.view-line', { hasText: '"interval": "1h"' })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await editor()
      .locator('.view-line', { hasText: `"webhookId": "${webhooks[0]!.id}"` })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    // The command puts the cursor on the threshold, the value most likely to change: its one character is selected
    // (the editor shows the text before the command has set the selection, so wait for it before moving the cursor).
    await cursorStatus()
      .filter({ hasText: /^Ln 6, Col \d+ \(1 selected\)$/ })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });

    // Select the webhookId value (line 11 of the new document, inside the quotes), clear it and ask for completion.
    await selectToLineEnd(11, '    "webhookId": "'.length + 1, 1, webhooks[0]!.id.length);
    await page.keyboard.press('Delete');
    await editor()
      .locator('.view-line', { hasText: '"webhookId": ""' })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await page.keyboard.press('Control+Space');

    const suggest = page.locator('.suggest-widget.visible');
    await suggest.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    for (const w of webhooks) {
      await suggest
        .locator('.monaco-list-row', { hasText: w.name })
        .first()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    }
    // Let the widget finish its opening animation before the picture.
    await page.waitForTimeout(500);
    await shoot(SCREENSHOT);

    // Accept another webhook than the one picked before, from the completion list.
    const chosen = webhooks[1]!;
    const focusedRow = suggest.locator('.monaco-list-row.focused');
    for (let i = 0; i < webhooks.length && !(await focusedRow.innerText()).includes(chosen.name); i++) {
      await page.keyboard.press('ArrowDown');
    }
    await suggest
      .locator('.monaco-list-row.focused', { hasText: chosen.name })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await page.keyboard.press('Enter');
    await suggest.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    await editor()
      .locator('.view-line', { hasText: `"webhookId": "${chosen.id}"` })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });

    // Type the threshold (line 6) and the name (line 2) over the values there.
    await selectToLineEnd(6, '  "threshold": '.length + 1, 1, 1);
    await page.keyboard.type(String(NEW_THRESHOLD));
    await editor()
      .locator('.view-line', { hasText: `"threshold": ${NEW_THRESHOLD},` })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await selectToLineEnd(2, '  "name": "'.length + 1, 2, 'p95 latency (ms) above threshold'.length);
    await page.keyboard.type(NEW_NAME);
    await editor()
      .locator('.view-line', { hasText: `"name": "${NEW_NAME}",` })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    if (await suggest.isVisible()) {
      await page.keyboard.press('Escape');
      await suggest.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    }
    assert.equal(flavor.writes(emulator.requests.slice(marker)).length, 0, 'nothing is sent before saving');

    // Ctrl+S saves a local draft, as everywhere in VS Code: nothing is sent.
    await page.keyboard.press('Control+s');
    await page.locator('.tab.active.dirty').waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    assert.equal(flavor.writes(emulator.requests.slice(marker)).length, 0, 'saving sends nothing');
    // Ctrl+Enter applies the document: the service creates the alert (no confirmation for a new resource).
    await page.keyboard.press('Control+Enter');
    const toast = page.locator('.notification-toast', { hasText: `Alert "${NEW_NAME}" created` });
    await toast.waitFor({ state: 'visible', timeout: 60_000 });
    const posts = flavor.writes(emulator.requests.slice(marker)).filter((r) => r.method === 'POST');
    assert.equal(posts.length, 1, `one POST: ${posts.map((r) => `${r.path} ${r.status}`).join(', ')}`);
    const post = posts[0]!;
    assert.match(post.path, /\/alerts$/);
    assert.equal(post.status, 200);
    const message = (await toast.innerText()).replace(/\s+/g, ' ');
    if (flavor.requestIds) {
      assert.ok(
        message.includes(post.requestId),
        `the notification names the request ID ${post.requestId}: ${message}`,
      );
    }

    // Exactly one new alert on the service, with what was picked and typed.
    const added = [...data.alerts.values()].filter((a) => !before.has(a.id));
    assert.equal(added.length, 1, 'one new alert');
    const alert = added[0]!;
    assert.ok(message.includes(alert.id), 'the notification names the new alert ID');
    assert.equal(alert.name, NEW_NAME);
    assert.equal(alert.threshold, NEW_THRESHOLD);
    assert.equal(alert.thresholdType, 'above');
    assert.equal(alert.interval, '1h');
    assert.equal(alert.source, 'tile');
    assert.equal(alert.dashboardId, dashboard.id);
    assert.equal(alert.tileId, tile.id);
    assert.deepEqual(
      alert.channels.map((c) => ({ type: c.type, webhookId: c.webhookId })),
      [{ type: 'webhook', webhookId: chosen.id }],
    );

    // The editor now holds the created alert under its name.
    await page
      .locator('.tab.active', { hasText: `${NEW_NAME}.alert.json` })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await page
      .locator('.tab', { hasText: 'p95 latency (ms) above threshold.alert.json' })
      .waitFor({ state: 'detached', timeout: UI_TIMEOUT });

    // The Observability view lists it in the Alerts folder of the service.
    await clearNotifications();
    await openResourceFolder(page, flavor, emulator, LABEL, 'Alerts');
    await widenSidebar(page, 560);
    const created = treeRow(NEW_NAME);
    await created.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.match(
      (await created.innerText()).replace(/\s+/g, ' '),
      new RegExp(`at least ${NEW_THRESHOLD} · 1h · ${escape(chosen.name)}`),
    );
    await created.click();
    // Read afresh: a refresh of the tree re-renders its rows.
    await page
      .locator('.pane-body .monaco-list-row.selected', { has: page.locator('.label-name', { hasText: NEW_NAME }) })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await page.mouse.move(900, 600);
    await shoot(CREATED_SCREENSHOT);
  }

  /** Closes notifications shown so far, so they do not cover the view in screenshots. */
  async function clearNotifications(): Promise<void> {
    await page.keyboard.press('F1');
    await input().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await input().fill('>Notifications: Clear All Notifications');
    await rows()
      .filter({ hasText: 'Clear All Notifications' })
      .first()
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await page.keyboard.press('Enter');
    await page.locator('.notification-toast').first().waitFor({ state: 'detached', timeout: UI_TIMEOUT });
  }

  function escape(text: string): string {
    return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
});
