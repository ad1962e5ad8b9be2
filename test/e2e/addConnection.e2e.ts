/**
 * UI test of the interactive "Add Connection" walk-through in a real workbench (code-server + headless Chromium),
 * against the local emulator:
 * - the emulator serves ClickHouse Cloud's path segment ("clickstack"), and the walk-through finds it: the segment
 *   step preselects it and is accepted with Enter, as are the other defaults;
 * - with a wrong secret, listing fails and the IDs are pasted instead; the check fails with HTTP 401, "Edit…"
 *   reopens the walk-through at the key with everything typed still there; with the right secret the organization
 *   and services are picked from the listings and the connection is saved;
 * - the explorer then shows it; its context menu chooses a second service and removes the connection after a
 *   modal confirmation, and the welcome view offers "Add Connection" again.
 * A screenshot of a failure goes to out/add-connection.failed.png.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/addConnection.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator/server';
import { openWorkbench, REPO_ROOT, type Workbench } from '../host/runInCodeServer';

const LABEL = 'Walk-through (emulator)';
const WRONG_SECRET = 'definitely-not-the-secret-42';

let emulator: Emulator;
let workbench: Workbench;
let page: Page;

const widget = (): Locator => page.locator('.quick-input-widget');
const input = (): Locator => widget().locator('.quick-input-box input');
const message = (): Locator => widget().locator('.quick-input-message');
const rows = (): Locator => widget().locator('.quick-input-list .monaco-list-row');

/** Waits for an input box whose prompt contains `prompt`. */
async function inputStep(prompt: string | RegExp): Promise<void> {
  await widget().waitFor({ state: 'visible', timeout: 30_000 });
  await message().filter({ hasText: prompt }).waitFor({ state: 'visible', timeout: 30_000 });
}

async function fillAndAccept(value: string): Promise<void> {
  await input().fill(value);
  await input().press('Enter');
}

/** Waits for a quick pick row holding `text`. */
async function pickRow(text: string | RegExp): Promise<Locator> {
  const row = rows().filter({ hasText: text }).first();
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  return row;
}

/**
 * Chooses the quick pick row holding `text` with the keyboard (arrow keys, then Enter). A mouse click can meet the
 * hover of the row the pointer rests on (a long detail, shown after a pause that a busy host makes likely) covering
 * the row to click.
 */
async function chooseRow(text: string | RegExp): Promise<void> {
  const row = await pickRow(text);
  const focused = () => row.evaluate((el) => el.classList.contains('focused'));
  const count = await rows().count();
  for (let i = 0; i < count && !(await focused()); i++) await input().press('ArrowDown');
  assert.ok(await focused(), `the row ${String(text)} is chosen`);
  await input().press('Enter');
}

async function runCommand(title: string): Promise<void> {
  // On a busy machine the first palette may open before the extension's commands are known: open it again then.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    await input().waitFor({ state: 'visible', timeout: 30_000 });
    await input().fill(`>${title}`);
    try {
      await rows()
        .filter({ hasText: title })
        .first()
        .waitFor({ state: 'visible', timeout: attempt < 3 ? 10_000 : 30_000 });
      break;
    } catch (error) {
      if (attempt >= 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
  await input().press('Enter');
}

before(async () => {
  emulator = await startEmulator({ rateLimit: { requests: 10_000, windowMs: 1000 }, segment: 'clickstack' });
  workbench = await openWorkbench({ viewport: { width: 1280, height: 800 } });
  page = workbench.page;
  await page.locator('.monaco-workbench').first().waitFor({ state: 'attached', timeout: 120_000 });
  // The status bar is drawn once the workbench has restored its parts.
  await page.locator('.statusbar').first().waitFor({ state: 'visible', timeout: 120_000 });
});

after(async () => {
  await workbench?.close();
  await emulator?.close();
});

test(
  'Add Connection: paste IDs after a failed listing, accept the detected segment, fix the key after a failed check, then pick from listings',
  { timeout: 240_000 },
  async () => {
    try {
      await drive();
    } catch (error) {
      await page.screenshot({ path: path.join(REPO_ROOT, 'out', 'add-connection.failed.png') }).catch(() => undefined);
      process.stderr.write(
        `requests: ${emulator.requests.map((r) => `${r.method} ${r.path} ${r.status}`).join('\n')}\n`,
      );
      throw error;
    }
  },
);

async function drive(): Promise<void> {
  const organization = emulator.state.organization;
  const firstService = emulator.state.services[0]!;

  await runCommand('Observability: Add Connection');

  // 0 the kind of deployment: ClickHouse Cloud comes first (Self-hosted ClickStack / HyperDX is the other choice)
  await pickRow('Self-hosted ClickStack / HyperDX');
  await chooseRow('ClickHouse Cloud (Managed ClickStack)');

  // 1 base URL (prefilled with the ClickHouse Cloud address)
  await inputStep('Base URL');
  assert.equal(await input().inputValue(), 'https://api.clickhouse.cloud');
  await input().fill('http://example.com');
  await message().filter({ hasText: 'https://' }).waitFor({ state: 'visible' });
  await fillAndAccept(emulator.url);

  // 2 key ID, 3 key secret (a password box)
  await inputStep('Key ID');
  await fillAndAccept(emulator.keyId);
  await inputStep('Key secret');
  assert.equal(await input().getAttribute('type'), 'password');
  await fillAndAccept(WRONG_SECRET);

  // 4 organization: listing fails with 401, so paste the ID
  const failedListing = await pickRow('Could not list organizations');
  assert.match(await failedListing.innerText(), /401/);
  await chooseRow('Enter the organization ID');
  await inputStep('Organization ID');
  await input().fill('not-a-uuid');
  await message().filter({ hasText: 'UUID' }).waitFor({ state: 'visible' });
  await fillAndAccept(organization.id);

  // 5 services: listing fails too, so paste the ID
  await inputStep('Could not list services');
  await fillAndAccept(firstService.id);

  // 6 product path segment: "clickstack" is served (it answers 401 to the wrong secret) and preselected; Enter accepts it
  await pickRow('served at this address');
  assert.match(await (await pickRow(/401/)).innerText(), /did not pass/);
  await input().press('Enter');

  // 7 name
  await inputStep('Name of the connection');
  await fillAndAccept(LABEL);

  // The check fails with 401: a modal offers Retry and Edit…
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: 30_000 });
  assert.match(await dialog.innerText(), /401/);
  await dialog.locator('.monaco-button', { hasText: 'Edit' }).first().click();

  // Back at the key ID, with what was typed kept.
  await inputStep('Key ID');
  assert.equal(await input().inputValue(), emulator.keyId);
  await input().press('Enter');
  await inputStep('Key secret');
  assert.equal(await input().inputValue(), WRONG_SECRET);
  await fillAndAccept(emulator.keySecret);

  // Now the organization and services come from the listings, and the segment is found and accepted by default.
  await chooseRow(organization.name);
  await pickRow(firstService.name);
  await input().press('Enter');
  await pickRow('answers at this address');
  await input().press('Enter');
  await inputStep('Name of the connection');
  assert.equal(await input().inputValue(), LABEL);
  await input().press('Enter');

  // The explorer shows the new connection.
  const activity = page
    .locator(
      '.activitybar .action-item a[aria-label^="Observability"], .activitybar .action-label[aria-label^="Observability"]',
    )
    .first();
  await activity.click();
  await page
    .locator('.pane-body .monaco-list-row .label-name', { hasText: LABEL })
    .first()
    .waitFor({ state: 'visible', timeout: 30_000 });

  const sources = emulator.requests.filter((r) => r.path.endsWith('/clickstack/sources'));
  assert.ok(
    sources.some((r) => r.status === 401) && sources.some((r) => r.status === 200),
    'the check ran with both secrets',
  );
  assert.ok(
    !emulator.requests.some((r) => r.path.endsWith('/observability/sources')),
    'the served segment was found first',
  );
  assert.ok(!emulator.requests.some((r) => r.path.includes(WRONG_SECRET)));

  // Context menu of the connection: choose a second service to show.
  const secondService = emulator.state.services[1]!;
  await contextMenu(LABEL, 'Choose Services');
  const second = await pickRow(secondService.name);
  await second.click(); // toggles the row in a multi-select pick
  await input().press('Enter');
  await treeRow(secondService.name).waitFor({ state: 'visible', timeout: 30_000 });

  // Context menu of the connection: remove it (modal confirmation); the welcome view with its button returns.
  await contextMenu(LABEL, 'Remove Connection');
  const confirm = page.locator('.monaco-dialog-box');
  await confirm.waitFor({ state: 'visible', timeout: 30_000 });
  assert.match(await confirm.innerText(), /key secret is deleted/);
  await confirm
    .locator('.monaco-button', { hasText: /^Remove$/ })
    .first()
    .click();
  await treeRow(LABEL).waitFor({ state: 'detached', timeout: 30_000 });
  await page
    .locator('.welcome-view-content .monaco-button', { hasText: 'Add Connection' })
    .first()
    .waitFor({ state: 'visible', timeout: 30_000 });
}

function treeRow(label: string): Locator {
  return page
    .locator('.pane-body .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: label }) })
    .first();
}

async function contextMenu(rowLabel: string, item: string): Promise<void> {
  const row = treeRow(rowLabel);
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  const entry = page.locator('.context-view .action-item', { hasText: item }).first();
  // A row redrawn while the menu opens (the tree refreshes after a check) takes the menu with it: open it again.
  for (let attempt = 1; ; attempt++) {
    await row.click({ button: 'right' });
    try {
      await entry.waitFor({ state: 'visible', timeout: 10_000 });
      break;
    } catch (e) {
      if (attempt === 3) throw e;
      await page.keyboard.press('Escape');
    }
  }
  // Menu items act on keyboard Enter once hovered (a synthetic click can land while the menu is still opening).
  await entry.hover();
  await page.keyboard.press('Enter');
}
