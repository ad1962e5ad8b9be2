/**
 * UI test of `npm run demo -- --flavor oss`: the demo script itself is started (code-server in the browser variant,
 * without rebuilding), and its workbench must open a self-hosted connection to the emulator's OSS flavor on the
 * sample data: the connection named after the sample team, holding Dashboards, Alerts, Webhooks, Saved Searches,
 * Sources and Team, with the sample dashboards listed. Ctrl+C (SIGINT) stops the demo with everything it started.
 * A screenshot of a failure goes to out/demo-oss.failed.png.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/demo.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { SAMPLE_OSS_API_KEY, SAMPLE_OSS_MEMBERS, SAMPLE_OSS_TEAM_NAME } from '../emulator/oss/seed';
import { REPO_ROOT } from '../host/runInCodeServer';
import { START_TIMEOUT, UI_TIMEOUT, expand, showObservabilityView, treeRow, withTimeout } from './ui';

let demo: ChildProcess | undefined;
let output = '';
let browser: Browser | undefined;
let page: Page;
let workbenchUrl = '';
let emulatorUrl = '';

before(async () => {
  demo = spawn(
    process.execPath,
    [
      path.join(REPO_ROOT, 'scripts', 'demo.mjs'),
      '--flavor',
      'oss',
      '--browser',
      '--no-open',
      '--no-build',
      '--port',
      '0',
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' },
  );
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-20_000);
      const m = /^DEMO READY (\S+) (\S+)$/m.exec(output);
      if (m) {
        workbenchUrl = m[1]!;
        emulatorUrl = m[2]!;
        resolve();
      }
    };
    demo!.stdout!.on('data', onData);
    demo!.stderr!.on('data', onData);
    demo!.once('exit', (code) => reject(new Error(`the demo exited (${code}) before it was ready:\n${output}`)));
  });
  await withTimeout(ready, START_TIMEOUT, 'the demo did not start');
  browser = await chromium.launch({
    executablePath: process.env.OBS_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await page.goto(workbenchUrl);
  await page.locator('.statusbar').first().waitFor({ state: 'visible', timeout: START_TIMEOUT });
});

after(async () => {
  await browser?.close();
  const child = demo;
  if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // Ctrl+C, as a user stops the demo: it stops code-server and the emulator itself.
    child.kill('SIGINT');
    await withTimeout(exited, 30_000, 'the demo did not stop on SIGINT').catch(() => {
      if (process.platform !== 'win32') process.kill(-child.pid!, 'SIGKILL');
    });
  }
});

test(
  'npm run demo -- --flavor oss opens a self-hosted connection on the sample data',
  { timeout: 300_000 },
  async () => {
    try {
      // The demo's emulator serves the v2 API with the sample key.
      const response = await fetch(`${emulatorUrl}/api/v2/dashboards`, {
        headers: { authorization: `Bearer ${SAMPLE_OSS_API_KEY}` },
      });
      assert.equal(response.status, 200);
      const dashboards = ((await response.json()) as { data: { name: string }[] }).data.map((d) => d.name);
      assert.ok(dashboards.length > 0, 'sample dashboards');

      await showObservabilityView(page, SAMPLE_OSS_TEAM_NAME);
      await expand(page, SAMPLE_OSS_TEAM_NAME);
      for (const folder of ['Dashboards', 'Alerts', 'Webhooks', 'Saved Searches', 'Sources', 'Team']) {
        await treeRow(page, new RegExp(`^${folder}$`)).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      }
      await expand(page, /^Dashboards$/);
      await treeRow(page, dashboards.sort()[0]!).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await expand(page, /^Team$/);
      await treeRow(page, SAMPLE_OSS_MEMBERS[0]!.name).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    } catch (error) {
      await page.screenshot({ path: path.join(REPO_ROOT, 'out', 'demo-oss.failed.png') }).catch(() => undefined);
      process.stderr.write(`demo output:\n${output}\n`);
      throw error;
    }
  },
);
