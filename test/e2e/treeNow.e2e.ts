/**
 * UI test "the tree says what is true now", in a real workbench (code-server + headless Chromium) against the emulator:
 * - Cloud: on a folder's first expansion its row says the count and firing count of the rows it shows (Alerts), and a
 *   dashboard opened as soon as its folder shows lists its tiles, the folder's count beside it (Dashboards);
 * - Cloud: the Alerts folder's count equals its rows right after an alert is created (Create Alert, Ctrl+Enter) and
 *   right after it is deleted (Delete Alert…);
 * - Cloud: with the key rejected, *Update Key Secret…* with the right secret brings the Alerts folder back as soon as
 *   its own reads return, while the emulator still holds the Dashboards folder's read (which recovers once released);
 * - self-hosted: an alert's condition reads the same in the tree, in its backtest and in the notification that it
 *   started firing.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/treeNow.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator/server';
import type { Workbench } from '../host/runInCodeServer';
import {
  activeEditor,
  clickMenuItem,
  CLOUD,
  confirmDialog,
  editAlertFromTree,
  escapeRegExp,
  exactly,
  expand,
  notification,
  openTestWorkbench,
  quickInput,
  quickInputBox,
  quickInputRows,
  reportingFailure,
  runCommand,
  SELF_HOSTED,
  showFolders,
  showObservabilityView,
  treeRow,
  UI_TIMEOUT,
  widenSidebar,
} from './ui';

const LABEL = 'Northwind (emulator)';

/** Polls an asynchronous check of the page until it holds. */
async function eventually(check: () => Promise<boolean>, message: string, ms = UI_TIMEOUT): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${message} (waited ${ms} ms)`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The number a folder's row starts its description with ("8 · 1 firing" → 8). */
async function folderCount(page: Page, folder: string): Promise<number> {
  const text = await treeRow(page, exactly(folder)).locator('.label-description').innerText();
  return Number(/^\d+/.exec(text.trim())?.[0] ?? NaN);
}

/** A folder row's description as drawn ("8 · 1 firing"). */
async function folderDescription(page: Page, folder: string): Promise<string> {
  return (await treeRow(page, exactly(folder)).locator('.label-description').innerText()).trim();
}

/** How many rows the folder holding the row `name` shows (the row's set size, as a screen reader reads it). */
async function siblingsOf(page: Page, name: string): Promise<number> {
  return Number(await treeRow(page, exactly(name)).getAttribute('aria-setsize'));
}

/** HyperDX's words for a condition, as its alert editor says them ("is at least (≥)" → `at least 5`). */
function hyperdxWords(alert: { thresholdType: string; threshold: number; thresholdMax?: number | null }): string {
  const t = alert.threshold;
  const words: Record<string, string> = {
    above: `at least ${t}`,
    above_exclusive: `above ${t}`,
    below: `below ${t}`,
    below_or_equal: `at most ${t}`,
    equal: `equal to ${t}`,
    not_equal: `not equal to ${t}`,
    between: `between ${t} and ${alert.thresholdMax}`,
    not_between: `outside ${t} to ${alert.thresholdMax}`,
  };
  return words[alert.thresholdType]!;
}

describe('Cloud', () => {
  let emulator: Emulator;
  let workbench: Workbench;
  let page: Page;

  before(async () => {
    emulator = await startEmulator({ rateLimit: { requests: 10_000, windowMs: 1000 } });
    // Demo mode: modal dialogs (the delete's confirmation) show as for a user.
    workbench = await openTestWorkbench({ emulator, label: LABEL, mode: 'demo' });
    page = workbench.page;
  });

  after(async () => {
    await workbench?.close();
    await emulator?.close();
  });

  async function pick(title: RegExp, text: string): Promise<void> {
    await quickInput(page)
      .locator('.quick-input-title', { hasText: title })
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await quickInputBox(page).fill(text);
    await quickInputRows(page).filter({ hasText: text }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await page.keyboard.press('Enter');
  }

  test("a folder's count equals its rows right after a create and a delete", { timeout: 300_000 }, () =>
    reportingFailure(page, emulator, 'tree-now-count', async () => {
      const data = CLOUD.data(emulator);
      await showObservabilityView(page, LABEL);
      await widenSidebar(page, 560);
      await showFolders(page, CLOUD, emulator, LABEL);
      await expand(page, exactly('Alerts'));
      const seeded = 'Checkout p95 latency above 1.5 s';
      await treeRow(page, exactly(seeded)).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.equal(await siblingsOf(page, seeded), data.alerts.size);
      // Its first expansion: the folder's row says the count and firing count of these rows, with no refresh.
      const now = Date.now();
      const firing = [...data.alerts.values()].filter(
        (a) => a.state === 'ALERT' && !(a.silenced && Date.parse(a.silenced.until) > now),
      ).length;
      const expected = `${data.alerts.size} · ${firing} firing`;
      await eventually(
        async () => (await folderDescription(page, 'Alerts')) === expected,
        `the Alerts folder reads "${expected}" on its first expansion`,
      );
      assert.equal(await siblingsOf(page, seeded), data.alerts.size, 'its rows are all still there');

      const dashboard = [...data.dashboards.values()].find((d) => d.name === 'Checkout service')!;
      const tile = (dashboard.tiles[0] as { name: string }).name;
      const webhook = [...data.webhooks.values()][0]!.name;
      // The editor area has the focus (a quick pick closes when the tree takes the focus back on a redraw).
      await page.locator('.part.editor').first().click();
      await runCommand(page, 'Observability: Create Alert');
      await pick(/Create Alert: dashboard/, dashboard.name);
      await pick(/Create Alert: tile/, tile);
      await pick(/Create Alert: notify/, webhook);
      const alertName = `${tile} above threshold`;
      await page
        .locator('.tab.active', { hasText: `${alertName}.alert.json` })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await activeEditor(page).locator('.view-line').first().click();
      await page.keyboard.press('Control+Enter');
      await notification(page, `Alert "${alertName}" created`).waitFor({ state: 'visible', timeout: 60_000 });
      const created = treeRow(page, new RegExp(`^${escapeRegExp(alertName)}$`));
      await created.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      // The moment the new row shows, the folder's count says it too.
      const rows = await siblingsOf(page, alertName);
      assert.equal(rows, data.alerts.size, 'the folder shows every alert of the service');
      assert.equal(await folderCount(page, 'Alerts'), rows, 'the count is the one of the rows drawn with it');

      await created.click({ button: 'right' });
      await clickMenuItem(page, 'Delete Alert…');
      await confirmDialog(page, 'Delete');
      await created.waitFor({ state: 'detached', timeout: 60_000 });
      const left = await siblingsOf(page, seeded);
      assert.equal(left, data.alerts.size, 'the deleted alert is gone from the service and the folder');
      assert.equal(await folderCount(page, 'Alerts'), left, 'the count drops with the deleted row');
    }),
  );

  test('after Update Key Secret, a folder recovers as soon as its own read succeeds', { timeout: 300_000 }, () =>
    reportingFailure(page, emulator, 'tree-now-secret', async () => {
      const serviceId = emulator.serviceIds[0]!;
      await showObservabilityView(page, LABEL);
      await expand(page, exactly('Dashboards'));
      await treeRow(page, exactly('Checkout service')).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      // The Dashboards folder's first expansion: a dashboard opened as soon as it shows lists its tiles, and the
      // folder's row says its count.
      const data = CLOUD.data(emulator);
      const checkout = [...data.dashboards.values()].find((d) => d.name === 'Checkout service')!;
      await expand(page, exactly('Checkout service'));
      const firstTile = (checkout.tiles[0] as { name: string }).name;
      await treeRow(page, exactly(firstTile)).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.equal(await siblingsOf(page, firstTile), checkout.tiles.length, 'the dashboard shows every tile');
      await eventually(
        async () => (await folderDescription(page, 'Dashboards')) === String(data.dashboards.size),
        'the Dashboards folder says its count on its first expansion',
      );
      assert.equal(await siblingsOf(page, firstTile), checkout.tiles.length, 'the tiles are still there');
      const rejected = page
        .locator('.pane-body .monaco-list-row')
        .filter({ has: page.locator('.label-name', { hasText: /The service rejected the API key/ }) });

      // The key is rotated on the service: every read is refused, and the folders say so on the view's Refresh.
      emulator.faults.add({
        path: new RegExp(`/services/${serviceId}/observability/`),
        status: 401,
        body: { status: 401, error: 'Unauthorized', requestId: 'r-rotated' },
      });
      await page
        .locator('#workbench\\.parts\\.sidebar .title-actions .action-label[aria-label^="Refresh"]')
        .first()
        .click();
      await expand(page, exactly('Alerts'));
      await eventually(async () => (await rejected.count()) === 2, 'both folders show the rejected key', 60_000);

      // The service takes the key again; the dashboards list is held back at the emulator.
      emulator.faults.clear();
      emulator.faults.add({ path: new RegExp(`/services/${serviceId}/observability/dashboards`), hold: true });
      await runCommand(page, 'Observability: Update Key Secret');
      const input = quickInputBox(page);
      await input.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await input.fill(emulator.keySecret);
      await page.keyboard.press('Enter');
      await notification(page, /Key secret of .* updated/).waitFor({ state: 'visible', timeout: 60_000 });

      await treeRow(page, exactly('Checkout p95 latency above 1.5 s')).waitFor({ state: 'visible', timeout: 60_000 });
      assert.equal(await rejected.count(), 1, 'only the Dashboards folder, whose read is held, still says it');
      assert.ok(emulator.faults.holding > 0, 'the dashboards read is still held');
      assert.equal(await folderCount(page, 'Alerts'), CLOUD.data(emulator).alerts.size);

      emulator.faults.clear();
      await treeRow(page, exactly('Checkout service')).waitFor({ state: 'visible', timeout: 60_000 });
      await eventually(
        async () => (await rejected.count()) === 0,
        'the Dashboards folder recovers once its read returns',
      );
    }),
  );
});

describe('self-hosted', () => {
  let emulator: Emulator;
  let workbench: Workbench;
  let page: Page;

  before(async () => {
    emulator = await startEmulator({ flavor: 'oss', rateLimit: { requests: 10_000, windowMs: 1000 } });
    workbench = await openTestWorkbench({
      flavor: SELF_HOSTED,
      emulator,
      label: LABEL,
      mode: 'setup',
      userSettings: {
        'observability.alerts.refreshIntervalSeconds': 15,
        'observability.alerts.notifications.enabled': true,
      },
    });
    page = workbench.page;
  });

  after(async () => {
    await workbench?.close();
    await emulator?.close();
  });

  test('a condition reads the same in the tree, a backtest and a notification', { timeout: 300_000 }, () =>
    reportingFailure(page, emulator, 'tree-now-wording', async () => {
      const alert = [...SELF_HOSTED.data(emulator).alerts.values()].find((a) => a.name === 'Checkout error count');
      assert.ok(alert && alert.state === 'OK', 'the seeded "Checkout error count" alert is OK');
      const words = hyperdxWords(alert as unknown as Parameters<typeof hyperdxWords>[0]);
      await showObservabilityView(page, LABEL);
      await widenSidebar(page, 560);
      await showFolders(page, SELF_HOSTED, emulator, LABEL);
      await expand(page, exactly('Alerts'));

      // The tree: the row's description leads with the condition.
      const row = treeRow(page, exactly(alert.name!));
      await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const description = await row.locator('.label-description').innerText();
      assert.ok(description.startsWith(`${words} · `), `the tree says "${words}": ${description}`);

      // The backtest of its document: its rule and legend.
      await editAlertFromTree(page, SELF_HOSTED, emulator, LABEL, alert.name!);
      await runCommand(page, 'Observability: Backtest Alert');
      const view = page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame');
      const legend = view.locator('.legend .threshold');
      await legend.waitFor({ state: 'visible', timeout: 120_000 });
      assert.equal(await legend.innerText(), `fires when ${words}`);
      assert.match(await view.locator('p.rule').innerText(), new RegExp(`^Rule: fires when ${escapeRegExp(words)} · `));

      // The notification that it started firing (the extension's own polling finds the flip).
      alert.state = 'ALERT';
      const toast = notification(page, `Alert "${alert.name}" started firing on`);
      await toast.waitFor({ state: 'visible', timeout: 120_000 });
      assert.ok((await toast.innerText()).includes(words), `the notification says "${words}"`);
    }),
  );
});
