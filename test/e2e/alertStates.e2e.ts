/**
 * UI test of the alert states a user relies on, in a real workbench against the emulator (Cloud connection):
 * - a silenced firing alert has its own icon (not the firing bell) and the status bar counts it apart;
 * - *Show Firing Alerts* lists the firing alerts (silenced ones apart) and reveals the chosen one in the tree;
 * - with `observability.alerts.notifications.enabled` a notification says when the emulator flips an alert to firing
 *   (found by the extension's own polling every `observability.alerts.refreshIntervalSeconds`); with it off the same
 *   flip only changes the count.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/alertStates.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator/server';
import type { Workbench } from '../host/runInCodeServer';
import {
  CLOUD,
  expand,
  exactly,
  notification,
  openTestWorkbench,
  quickInput,
  quickInputRows,
  reportingFailure,
  runCommand,
  showFolders,
  showObservabilityView,
  treeRow,
  UI_TIMEOUT,
  widenSidebar,
} from './ui';

const LABEL = 'Northwind (emulator)';
/** The shortest refresh interval the setting allows: the flip is found within it. */
const INTERVAL_SECONDS = 15;
/** Long enough for two polls on a busy machine. */
const POLL_WAIT = 4 * INTERVAL_SECONDS * 1000 + UI_TIMEOUT;

/** The status bar's firing-alerts item, by what it says to a screen reader. */
function firingStatus(page: Page, label: string) {
  return page.locator(`.statusbar-item [aria-label="${label}"], .statusbar-item[aria-label="${label}"]`).first();
}

/** The codicon of a tree row's icon (`bell-slash`, …). */
async function rowIcon(page: Page, name: string): Promise<string | undefined> {
  const row = treeRow(page, exactly(name));
  await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  const classes = (await row.locator('.custom-view-tree-node-item-icon').first().getAttribute('class')) ?? '';
  return /codicon-([\w-]+)/.exec(classes)?.[1];
}

/** Makes a quiet seeded alert of the first service fire, as the scheduler would; returns its name. */
function flipToFiring(emulator: Emulator): string {
  const alerts = emulator.state.data.get(emulator.serviceIds[0]!)!.alerts;
  const quiet = [...alerts.values()].find((a) => a.name === 'Checkout error count');
  assert.ok(quiet && quiet.state === 'OK', 'the seeded "Checkout error count" alert is OK');
  quiet.state = 'ALERT';
  return quiet.name!;
}

for (const notify of [true, false]) {
  describe(`Alert states (notifications ${notify ? 'on' : 'off'})`, () => {
    let emulator: Emulator;
    let workbench: Workbench;
    let page: Page;

    before(async () => {
      emulator = await startEmulator({ rateLimit: { requests: 10_000, windowMs: 1000 } });
      workbench = await openTestWorkbench({
        emulator,
        label: LABEL,
        mode: 'setup',
        userSettings: {
          'observability.alerts.refreshIntervalSeconds': INTERVAL_SECONDS,
          'observability.alerts.notifications.enabled': notify,
        },
      });
      page = workbench.page;
    });

    after(async () => {
      await workbench?.close();
      await emulator?.close();
    });

    test('silenced apart, the firing list, and a notification only when asked for', { timeout: 300_000 }, () =>
      reportingFailure(page, emulator, `alert-states-${notify ? 'on' : 'off'}`, drive),
    );

    async function drive(): Promise<void> {
      await showObservabilityView(page, LABEL);
      await widenSidebar(page, 520);
      await showFolders(page, CLOUD, emulator, LABEL);
      await expand(page, exactly('Alerts'));

      // A silenced alert that fires underneath is not drawn as firing, and the status bar counts it apart.
      assert.equal(await rowIcon(page, 'Checkout p95 latency above 1.5 s'), 'bell-dot');
      assert.equal(await rowIcon(page, 'Payment declines spike'), 'bell-slash');
      assert.equal(await rowIcon(page, 'Request volume drop'), 'clock');
      assert.equal(await rowIcon(page, 'Checkout error logs'), 'warning', 'the last run failed');
      await firingStatus(page, '1 alert firing, 1 firing alert silenced').waitFor({
        state: 'visible',
        timeout: UI_TIMEOUT,
      });

      // The emulator's scheduler flips an alert; the extension's own polling finds it.
      const flipped = flipToFiring(emulator);
      await firingStatus(page, '2 alerts firing, 1 firing alert silenced').waitFor({
        state: 'visible',
        timeout: POLL_WAIT,
      });
      const toast = notification(page, `Alert "${flipped}" started firing on`);
      if (notify) {
        await toast.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        assert.match(await toast.innerText(), /above 50/);
      } else {
        // The count changed, so the poll that would have notified has run.
        await page.waitForTimeout(1000);
        assert.equal(await page.locator('.notification-toast', { hasText: 'started firing' }).count(), 0);
      }
      if (!notify) return;

      // Show Firing Alerts: the firing ones with condition and service, the silenced one apart; choosing reveals it.
      await runCommand(page, 'Observability: Show Firing Alerts');
      const rows = quickInputRows(page);
      await rows.filter({ hasText: flipped }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const texts = await rows.allInnerTexts();
      assert.ok(texts.some((t) => t.includes('Checkout p95 latency above 1.5 s') && t.includes('at least 1500')));
      assert.ok(
        texts.some((t) => t.includes(flipped) && /firing since/.test(t)),
        texts.join(' | '),
      );
      assert.ok(texts.some((t) => t.includes('Payment declines spike') && /silenced, firing/.test(t)));
      await rows.filter({ hasText: flipped }).first().click();
      await quickInput(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
      await page
        .locator('.pane-body .monaco-list-row.selected', { has: page.locator('.label-name', { hasText: flipped }) })
        .first()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    }
  });
}
