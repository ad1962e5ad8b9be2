/**
 * UI test of a fresh window (code-server + headless Chromium) whose workspace holds an alert file, against the local
 * emulator, once per connection kind (the file names its service, or its deployment by base URL): the extension activates because the workspace contains `*.alert.json`, without its view being opened and
 * without any command being run. Opening the file with Quick Open shows the CodeLens "Create on checkout-prod" (the connection's name when self-hosted) and
 * "Validate" right away; nothing is sent to the service but reads.
 *
 * The workbench runs the extension in development mode without a test entry; the connection comes from
 * `$OBS_DEMO_CONNECTION` and is added when the extension activates. A failure screenshot goes to
 * out/alert-file-fresh-window-<cloud|oss>.failed.png.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/alertFileFreshWindow.e2e.js`.
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
  codeLens,
  forEachFlavor,
  openFile,
  openTestWorkbench,
  reportingFailure,
  treeRow,
  UI_TIMEOUT,
  type UiFlavor,
} from './ui';

const LABEL = 'Northwind (emulator)';
const FILE = 'payments-errors.alert.json';

forEachFlavor((flavor: UiFlavor) => {
  let emulator: Emulator;
  let workbench: Workbench;
  let page: Page;
  let workspace: string;

  before(async () => {
    emulator = await startEmulator({ flavor: flavor.emulatorFlavor, rateLimit: { requests: 10_000, windowMs: 1000 } });
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'obs-fresh-window-'));
    const data = flavor.data(emulator);
    const dashboard = [...data.dashboards.values()].find((d) => d.name === 'Checkout service')!;
    const tile = dashboard.tiles.find((t) => t.name === 'p95 latency (ms)')!;
    const webhook = [...data.webhooks.values()][0]!;
    const file = {
      ...flavor.fileTarget(emulator),
      name: 'Payments errors',
      source: 'tile',
      dashboardId: dashboard.id,
      tileId: tile.id,
      threshold: 500,
      thresholdType: 'above',
      interval: '5m',
      channel: { type: 'webhook', webhookId: webhook.id },
    };
    fs.mkdirSync(path.join(workspace, 'alerts'));
    fs.writeFileSync(path.join(workspace, 'alerts', FILE), `${JSON.stringify(file, null, 2)}\n`);
    workbench = await openTestWorkbench({ flavor, emulator, label: LABEL, mode: 'demo', workspace });
    page = workbench.page;
  });

  after(async () => {
    await workbench?.close();
    await emulator?.close();
    if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
  });

  test(
    'Fresh window: an alert file of the workspace gets its CodeLens with no command run and the view closed',
    { timeout: 300_000 },
    async () => {
      await reportingFailure(page, emulator, `alert-file-fresh-window-${flavor.emulatorFlavor}`, async () => {
        await openFile(page, FILE);
        await codeLens(page, `Create on ${flavor.serviceName(emulator, LABEL)}`).waitFor({
          state: 'visible',
          timeout: 60_000,
        });
        await codeLens(page, 'Validate').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        // The lenses came from the workspace's alert file alone: the Observability view was never opened.
        assert.equal(await treeRow(page, LABEL).isVisible(), false, 'the Observability view is showing');
        assert.equal(flavor.writes(emulator.requests).length, 0, 'only reads were sent');
      });
    },
  );
});
