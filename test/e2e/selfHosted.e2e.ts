/**
 * UI test of the self-hosted walk-through in a real workbench (code-server + headless Chromium) against the
 * emulator's OSS flavor (HyperDX External API v2, Bearer key):
 * - "Add Connection" asks the kind first; "Self-hosted ClickStack / HyperDX" asks only the base URL and the personal
 *   API key (a password box), checks the deployment and names the connection after its team;
 * - the explorer shows the deployment as one node holding Dashboards, Alerts, Webhooks, Saved Searches, Sources and
 *   Team (no organization or service level, no query endpoint, no roles); the Team folder lists the members;
 * - a dashboard opens from the tree (its inline Edit action) as an editable JSON document read over `/api/v2`;
 * - managed in place from the connection row's context menu: ClickHouse access set, then *Edit Connection…* moves it
 *   to another address (the API key asked again in a password box) and renames it, *Update Key Secret…* replaces the
 *   key, and *Test Connection* says the API and its ClickHouse access still work.
 * Only what is specific to self-hosted lives here: the walk-through, the tree's shape, the Team folder, a dashboard read
 * over `/api/v2`. Browsing, editing and applying, deleting, alert files and previews are the Cloud journeys run once
 * per kind (`forEachFlavor` in ui.ts). Plain HTTP to a non-loopback host (its confirmation and withdrawal) is tested
 * in test/integration/selfHosted.test.ts: the emulator listens on loopback only.
 * A screenshot of a failure goes to out/self-hosted.failed.png.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/selfHosted.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { ossData, SAMPLE_OSS_MEMBERS, SAMPLE_OSS_TEAM_NAME } from '../emulator/oss/seed';
import { startEmulator, type Emulator } from '../emulator/server';
import { openWorkbench, type Workbench } from '../host/runInCodeServer';
import {
  START_TIMEOUT,
  UI_TIMEOUT,
  rowMenuItem,
  dialog,
  editorLine,
  exactly,
  notification,
  expand,
  quickInput,
  quickInputBox,
  quickInputRows,
  reportingFailure,
  runCommand,
  showObservabilityView,
  treeRow,
} from './ui';

let emulator: Emulator;
let workbench: Workbench;
let page: Page;

const message = () => quickInput(page).locator('.quick-input-message');

async function inputStep(prompt: string | RegExp): Promise<void> {
  await quickInput(page).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await message().filter({ hasText: prompt }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
}

before(async () => {
  emulator = await startEmulator({ flavor: 'oss', rateLimit: false });
  workbench = await openWorkbench({
    viewport: { width: 1280, height: 800 },
    userSettings: { 'window.commandCenter': false, 'files.autoSave': 'off' },
  });
  page = workbench.page;
  await page.locator('.monaco-workbench').first().waitFor({ state: 'attached', timeout: START_TIMEOUT });
  await page.locator('.statusbar').first().waitFor({ state: 'visible', timeout: START_TIMEOUT });
});

after(async () => {
  await workbench?.close();
  await emulator?.close();
});

test(
  'Self-hosted: Add Connection → kind → base URL → API key; the deployment holds its folders and Team; a dashboard opens',
  { timeout: 300_000 },
  async () => {
    await reportingFailure(page, emulator, 'self-hosted', walkThrough);
  },
);

test(
  'Self-hosted: ClickHouse access, then Edit Connection (address, key, name) and Update Key Secret in place; Test Connection shows it all works',
  { timeout: 300_000 },
  async () => {
    await reportingFailure(page, emulator, 'self-hosted-edit', editInPlace);
  },
);

/** Opens the context menu of the connection row and chooses `item`. */
async function onConnection(label: string, item: string): Promise<void> {
  const row = treeRow(page, label);
  await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await rowMenuItem(page, row, item);
}

async function typeStep(prompt: string | RegExp, value: string, password = false): Promise<void> {
  await inputStep(prompt);
  if (password) assert.equal(await quickInputBox(page).getAttribute('type'), 'password', `${String(prompt)}: hidden`);
  await quickInputBox(page).fill(value);
  await quickInputBox(page).press('Enter');
}

async function editInPlace(): Promise<void> {
  const label = SAMPLE_OSS_TEAM_NAME;
  const renamed = 'Edited HyperDX';
  const moved = emulator.url.replace('127.0.0.1', 'localhost');

  // ClickHouse access, checked with SELECT 1 before it is saved.
  await onConnection(label, 'Set ClickHouse Access for Previews…');
  await typeStep(/ClickHouse HTTP interface/, emulator.clickHouseHttpUrl);
  await typeStep(/The ClickHouse user/, emulator.clickHouseUser);
  await typeStep(/The password of/, emulator.clickHousePassword, true);
  await notification(page, /now run SQL on ClickHouse/).waitFor({ state: 'visible', timeout: UI_TIMEOUT });

  // Edit Connection: another address needs the key again; the new name shows in the tree.
  await onConnection(label, 'Edit Connection…');
  await inputStep(/Base URL of the HyperDX app/);
  assert.equal(await quickInputBox(page).inputValue(), emulator.url, 'the current address is offered');
  await quickInputBox(page).fill(moved);
  await quickInputBox(page).press('Enter');
  await typeStep(/Personal API key for localhost/, emulator.ossApiKey, true);
  await typeStep(/Name of the connection/, renamed);
  await notification(page, `Connection "${renamed}" updated.`).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  const row = treeRow(page, renamed);
  await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  assert.match(await row.innerText(), new RegExp(`localhost:${new URL(emulator.url).port}`), 'the new address');
  assert.equal(await treeRow(page, exactly(label)).count(), 0, 'one connection, renamed: not a second one');

  // Update Key Secret: checked against the deployment, then stored.
  const mark = emulator.requests.length;
  await onConnection(renamed, 'Update Key Secret…');
  await typeStep(/New personal API key for localhost/, emulator.ossApiKey, true);
  await notification(page, `Key secret of "${renamed}" updated.`).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  assert.ok(
    emulator.requests.slice(mark).some((r) => r.path === '/api/v2/team' && r.authorized === true),
    'the new key was checked',
  );

  // Test Connection: the API and the ClickHouse access (which survived the key change) both answer.
  const beforeTest = emulator.requests.length;
  await onConnection(renamed, 'Test Connection');
  const box = dialog(page);
  await box.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await box.filter({ hasText: `"${renamed}" works.` }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  const text = await box.innerText();
  assert.match(text, /API: listed \d+ source\(s\) at localhost/);
  assert.match(text, /ClickHouse access: SELECT 1 answered in \d+ ms/);
  const sql = emulator.requests.slice(beforeTest).filter((r) => r.path.startsWith('clickhouse:'));
  assert.ok(sql.length >= 1 && sql.every((r) => r.authorized === true), 'SELECT 1 ran on ClickHouse with its password');
  await page.keyboard.press('Escape');
  await box.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
}

async function walkThrough(): Promise<void> {
  // On a busy machine the palette may open before the extension's commands are known: open it again then.
  for (let attempt = 1; ; attempt++) {
    try {
      await runCommand(page, 'Observability: Add Connection');
      break;
    } catch (error) {
      if (attempt >= 3) throw error;
      await page.keyboard.press('Escape');
    }
  }

  // The kind of deployment, then the two steps of a self-hosted one.
  const kind = quickInputRows(page).filter({ hasText: 'Self-hosted ClickStack / HyperDX' }).first();
  await kind.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await kind.click();

  await inputStep('Base URL of the HyperDX app');
  await quickInputBox(page).fill('not a url');
  await message()
    .filter({ hasText: /https:\/\/hyperdx\.example\.com/ })
    .waitFor({ state: 'visible' });
  await quickInputBox(page).fill(emulator.url);
  await quickInputBox(page).press('Enter');

  await inputStep('Personal API key');
  assert.equal(await quickInputBox(page).getAttribute('type'), 'password', 'the key is typed in a password box');
  await quickInputBox(page).fill(emulator.ossApiKey);
  await quickInputBox(page).press('Enter');

  // Checked against the deployment and named after its team.
  await showObservabilityView(page, SAMPLE_OSS_TEAM_NAME);
  const team = emulator.requests.find((r) => r.path === '/api/v2/team');
  assert.ok(team && team.status === 200 && team.authorized === true, 'the check read the team with the Bearer key');

  await expand(page, SAMPLE_OSS_TEAM_NAME);
  for (const folder of ['Dashboards', 'Alerts', 'Webhooks', 'Saved Searches', 'Sources', 'Team']) {
    await treeRow(page, new RegExp(`^${folder}$`)).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  }
  for (const absent of ['Query Endpoint', 'Roles']) {
    assert.equal(await treeRow(page, new RegExp(`^${absent}$`)).count(), 0, `no ${absent} folder`);
  }

  // The team's members, read-only.
  await expand(page, /^Team$/);
  for (const member of SAMPLE_OSS_MEMBERS) {
    await treeRow(page, member.name).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  }
  const owner = treeRow(page, SAMPLE_OSS_MEMBERS[0]!.name);
  assert.match(await owner.innerText(), /you/);
  await owner.hover();
  assert.equal(await owner.locator('.action-label[aria-label="Edit"]').count(), 0, 'no Edit action on a member');

  // A dashboard opens from the tree as an editable JSON document.
  const dashboard = [...ossData(emulator.state).dashboards.values()].find((d) => /^[\w .-]+$/.test(String(d.name)));
  assert.ok(dashboard, 'a seeded dashboard with a plain name');
  const name = String(dashboard.name);
  await expand(page, /^Dashboards$/);
  const row = treeRow(page, name);
  await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  const mark = emulator.requests.length;
  await row.hover();
  await row.locator('.action-label[aria-label="Edit"]').click();
  await page
    .locator('.tab.active', { hasText: `${name}.dashboard.json` })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await editorLine(page, `"name": "${name}"`).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  const read = emulator.requests.slice(mark).filter((r) => r.method === 'GET');
  assert.ok(
    read.every((r) => r.path.startsWith('/api/v2/')),
    `read over the v2 API: ${read.map((r) => r.path).join(', ')}`,
  );
}
