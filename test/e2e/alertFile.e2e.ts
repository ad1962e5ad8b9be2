/**
 * UI test of an alert file in a real workbench (code-server + headless Chromium), against the local emulator, once per
 * connection kind: a workspace holds `checkout-latency.alert.json` for the first service (Cloud: organization and
 * service ID; self-hosted: the deployment's base URL), without `id`. Opened in the editor it shows the
 * CodeLens "Create on checkout-prod" (on the connection's name when self-hosted; screenshot); clicking it creates the alert, writes its ID into the file on disk
 * and turns the lens into "Update <name>"; the new alert shows in the Alerts folder of the service. Then the threshold
 * is edited in the editor and saved, "Update …" shows the diff and asks in a modal; after "Update" the live alert has
 * the new threshold and no alert was added.
 *
 * The workbench runs the extension in development mode without a test entry, so modal dialogs show as they do for a
 * user; the connection comes from `$OBS_DEMO_CONNECTION`. Screenshot: media/screenshot-alert-file-codelens.png
 * (self-hosted: out/self-hosted/); a failure goes to out/alert-file-<cloud|oss>.failed.png.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/alertFile.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator/server';
import type { Workbench } from '../host/runInCodeServer';
import {
  clearNotifications,
  codeLens,
  confirmDialog,
  dialog,
  editorLine,
  escapeRegExp,
  forEachFlavor,
  notification,
  openFile,
  openResourceFolder,
  openTestWorkbench,
  reportingFailure,
  selectToLineEnd,
  shoot,
  treeRow,
  type UiFlavor,
  UI_TIMEOUT,
  until,
  widenSidebar,
} from './ui';

const LABEL = 'Northwind (emulator)';
const FILE = 'checkout-latency.alert.json';
const NAME = 'Checkout latency';
const THRESHOLD = 800;
const NEW_THRESHOLD = 950;

forEachFlavor((flavor: UiFlavor) => {
  let emulator: Emulator;
  let workbench: Workbench;
  let page: Page;
  let workspace: string;

  before(async () => {
    emulator = await startEmulator({ flavor: flavor.emulatorFlavor, rateLimit: { requests: 10_000, windowMs: 1000 } });
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'obs-alert-file-'));
    const data = flavor.data(emulator);
    const dashboard = [...data.dashboards.values()].find((d) => d.name === 'Checkout service')!;
    const tile = dashboard.tiles.find((t) => t.name === 'p95 latency (ms)')!;
    const webhook = [...data.webhooks.values()][0]!;
    const file = {
      ...flavor.fileTarget(emulator),
      name: NAME,
      source: 'tile',
      dashboardId: dashboard.id,
      tileId: tile.id,
      threshold: THRESHOLD,
      thresholdType: 'above',
      interval: '5m',
      channel: { type: 'webhook', webhookId: webhook.id },
    };
    fs.writeFileSync(path.join(workspace, FILE), `${JSON.stringify(file, null, 2)}\n`);
    workbench = await openTestWorkbench({ flavor, emulator, label: LABEL, mode: 'demo', workspace });
    page = workbench.page;
  });

  after(async () => {
    await workbench?.close();
    await emulator?.close();
    if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
  });

  test(
    `Alert file: "Create on ${flavor.name === 'Cloud' ? 'checkout-prod' : LABEL}" writes the new ID into the file, then "Update …" applies an edited threshold`,
    { timeout: 300_000 },
    async () => {
      await reportingFailure(page, emulator, `alert-file-${flavor.emulatorFlavor}`, drive);
    },
  );

  async function drive(): Promise<void> {
    const service = { name: flavor.serviceName(emulator, LABEL) };
    const data = flavor.data(emulator);
    const before = new Set(data.alerts.keys());
    const onDisk = () => fs.readFileSync(path.join(workspace, FILE), 'utf8');

    // The Observability view activates the extension; its Alerts folder shows what the service has.
    await openResourceFolder(page, flavor, emulator, LABEL, 'Alerts');
    await widenSidebar(page, 420);
    await treeRow(page, 'Checkout p95 latency above 1.5 s').waitFor({ state: 'visible', timeout: UI_TIMEOUT });

    // The file without `id` offers to create the alert on the file's service.
    await openFile(page, FILE);
    const create = codeLens(page, `Create on ${service.name}`);
    await create.waitFor({ state: 'visible', timeout: 60_000 });
    await codeLens(page, 'Validate').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await editorLine(page, `"threshold": ${THRESHOLD},`).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await page.mouse.move(1000, 700);
    await shoot(page, flavor.screenshot('screenshot-alert-file-codelens.png'));
    const marker = emulator.requests.length;
    assert.equal(flavor.writes(emulator.requests).length, 0, 'nothing is sent before the lens is clicked');

    // Create: one POST, the ID written into the file (on disk), the lens turns into "Update <name>".
    await create.click();
    const update = codeLens(page, `Update ${NAME}`);
    const createdNote = notification(page, `Alert "${NAME}" created on ${service.name} (ID `);
    await createdNote.or(dialog(page)).first().waitFor({ state: 'visible', timeout: 60_000 });
    if (await dialog(page).isVisible()) await confirmDialog(page, 'Create');
    // The notification comes once the ID is written and saved.
    await createdNote.waitFor({ state: 'visible', timeout: 60_000 });
    await update.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    const added = [...data.alerts.values()].filter((a) => !before.has(a.id));
    assert.equal(added.length, 1, 'one new alert on the service');
    const created = added[0]!;
    assert.equal(created.name, NAME);
    assert.equal(created.threshold, THRESHOLD);
    const written = JSON.parse(onDisk()) as { id?: string; threshold?: number };
    assert.equal(written.id, created.id, "the file on disk holds the new alert's ID");
    assert.match(await createdNote.innerText(), new RegExp(`\\(ID ${created.id}\\)`));
    const posts = flavor.writes(emulator.requests.slice(marker)).filter((r) => r.method === 'POST');
    assert.equal(posts.length, 1, `one POST: ${posts.map((r) => `${r.path} ${r.status}`).join(', ')}`);
    await codeLens(page, 'Compare with Service').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await treeRow(page, new RegExp(`^${NAME}$`)).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    const count = data.alerts.size;

    // Edit the threshold in the editor and save.
    await clearNotifications(page);
    await editorLine(page, `"id": "${created.id}"`).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    const lines = onDisk().split('\n');
    const line = lines.findIndex((l) => l.includes('"threshold":'));
    assert.ok(line >= 0, 'the file has a threshold line');
    const column = lines[line]!.indexOf(String(THRESHOLD)) + 1;
    await selectToLineEnd(page, line + 1, column, lines[line]!.endsWith(',') ? 1 : 0, String(THRESHOLD).length);
    await page.keyboard.type(String(NEW_THRESHOLD));
    await editorLine(page, `"threshold": ${NEW_THRESHOLD}`).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await page.keyboard.press('Control+s');
    await until(
      () => (JSON.parse(onDisk()) as { threshold?: number }).threshold === NEW_THRESHOLD,
      'the edited threshold is saved to disk',
    );
    await page.locator('.tab.active.dirty', { hasText: FILE }).waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    const updateMarker = emulator.requests.length;

    // Update: the diff and a modal that names the alert; after "Update" the live alert has the new threshold.
    await codeLens(page, `Update ${NAME}`).click();
    const box = dialog(page);
    await box.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.match(
      await box.locator('.dialog-message-text').innerText(),
      new RegExp(`Update alert "${NAME}" on ${escapeRegExp(service.name)} from ${escapeRegExp(FILE)}\\?`),
    );
    assert.equal(
      emulator.requests.slice(updateMarker).filter((r) => r.method === 'PUT').length,
      0,
      'nothing is updated before confirming',
    );
    await confirmDialog(page, 'Update');
    await notification(page, `Alert "${NAME}" on ${service.name} updated from ${FILE}`).waitFor({
      state: 'visible',
      timeout: 60_000,
    });
    const puts = emulator.requests.slice(updateMarker).filter((r) => r.method === 'PUT');
    assert.equal(puts.length, 1, `one PUT: ${puts.map((r) => `${r.path} ${r.status}`).join(', ')}`);
    assert.equal(puts[0]!.path, `${flavor.path(emulator, 'alerts')}/${created.id}`);
    assert.equal(data.alerts.get(created.id)?.threshold, NEW_THRESHOLD, 'the live alert has the new threshold');
    assert.equal(data.alerts.size, count, 'the update added no alert');
    assert.equal(
      flavor.writes(emulator.requests.slice(updateMarker)).filter((r) => r.method === 'POST').length,
      0,
      'no create after the ID was written',
    );
    assert.equal((JSON.parse(onDisk()) as { id?: string }).id, created.id, 'the file keeps its ID');
  }
});
