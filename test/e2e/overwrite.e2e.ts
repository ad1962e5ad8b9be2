/**
 * UI test of a conflict in the alert editor, in a real workbench (code-server + headless Chromium) against the
 * emulator, once per connection kind: an alert is opened from the Observability view, changed on the service meanwhile, edited and applied
 * (Ctrl+Enter); the modal says it changed on the service, "Overwrite" is chosen, and the update goes out at once:
 * no second question, one PUT, the service holds the typed value.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/overwrite.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator/server';
import type { Workbench } from '../host/runInCodeServer';
import {
  UI_TIMEOUT,
  confirmDialog,
  dialog,
  editAlertFromTree,
  editorLine,
  editorLines,
  forEachFlavor,
  notification,
  openTestWorkbench,
  reportingFailure,
  selectToLineEnd,
  type UiFlavor,
} from './ui';

const LABEL = 'Northwind (emulator)';
const TYPED = 4242;
const ON_SERVICE = 777;

forEachFlavor((flavor: UiFlavor) => {
  let emulator: Emulator;
  let workbench: Workbench;
  let page: Page;

  before(async () => {
    emulator = await startEmulator({ flavor: flavor.emulatorFlavor, rateLimit: { requests: 10_000, windowMs: 1000 } });
    // `demo` mode: a workbench without an extension test runner, so modal dialogs are shown (and can be answered).
    workbench = await openTestWorkbench({ flavor, emulator, label: LABEL, mode: 'demo' });
    page = workbench.page;
  });

  after(async () => {
    await workbench?.close();
    await emulator?.close();
  });

  test(
    'Overwrite on a conflict applies at once: no second question, the typed value reaches the service',
    { timeout: 300_000 },
    async () => {
      await reportingFailure(page, emulator, `overwrite-conflict-${flavor.emulatorFlavor}`, overwrite);
    },
  );

  async function overwrite(): Promise<void> {
    const data = flavor.data(emulator);
    const alert = [...data.alerts.values()].find(
      (a) => a.name && /^[\w .-]+$/.test(a.name) && a.threshold !== TYPED && a.threshold !== ON_SERVICE,
    );
    assert.ok(alert, 'a seeded alert with a plain name');
    const name = alert.name!;

    await editAlertFromTree(page, flavor, emulator, LABEL, name);
    await editorLine(page, `"threshold": ${alert.threshold},`).waitFor({ state: 'visible', timeout: UI_TIMEOUT });

    // Someone changes the alert on the service after it was opened.
    alert.threshold = ON_SERVICE;
    alert.updatedAt = new Date().toISOString();

    // The user types another threshold over the one shown.
    const lines = await editorLines(page);
    const index = lines.findIndex((l) => /^\s*"threshold": /.test(l));
    assert.ok(index >= 0, `a threshold line in ${lines.join('\n')}`);
    const prefix = /^\s*"threshold": /.exec(lines[index]!)![0];
    const shown = lines[index]!.slice(prefix.length).replace(/,$/, '');
    await selectToLineEnd(page, index + 1, prefix.length + 1, lines[index]!.endsWith(',') ? 1 : 0, shown.length);
    await page.keyboard.type(String(TYPED));
    await editorLine(page, `"threshold": ${TYPED}`).waitFor({ state: 'visible', timeout: UI_TIMEOUT });

    const marker = emulator.requests.length;
    await page.keyboard.press('Control+Enter');
    // The conflict is one modal question; Overwrite is the confirmation.
    await dialog(page)
      .filter({ hasText: 'changed on the service since you opened it' })
      .waitFor({ state: 'visible', timeout: 60_000 });
    await confirmDialog(page, 'Overwrite');

    // Whichever comes first: the success notification, or (wrongly) a second modal question.
    const updated = notification(page, `Alert "${name}" updated.`);
    await Promise.any([
      updated.waitFor({ state: 'visible', timeout: 60_000 }),
      dialog(page).waitFor({ state: 'visible', timeout: 60_000 }),
    ]);
    if (await dialog(page).isVisible()) {
      assert.fail(`a second modal question: ${await dialog(page).innerText({ timeout: 1000 })}`);
    }
    assert.ok(await updated.isVisible(), 'the update is reported');
    const writes = flavor.writes(emulator.requests.slice(marker));
    assert.deepEqual(
      writes.map((r) => `${r.method} ${r.status}`),
      ['PUT 200'],
      'one update went out',
    );
    assert.equal(writes[0]!.path, `${flavor.path(emulator, 'alerts')}/${alert.id}`);
    assert.equal(data.alerts.get(alert.id)?.threshold, TYPED, 'the service holds the typed threshold');
  }
});
