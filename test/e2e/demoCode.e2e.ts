/**
 * UI test of `npm run demo` (Cloud flavor): the demo script itself is started (code-server in the browser variant,
 * without rebuilding), and its workbench must show the sample multi-language workspace with the code-insights pick
 * set — src/checkout/cart.ts open with production figures above its functions, the pick in the status bar — and the
 * connection to the emulator in the Observability view. Ctrl+C (SIGINT) stops the demo with everything it started.
 * A screenshot of a failure goes to out/demo-code.failed.png.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/demoCode.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { REPO_ROOT } from '../host/runInCodeServer';
import { START_TIMEOUT, UI_TIMEOUT, codeLens, showObservabilityView, treeRow, withTimeout } from './ui';

const LABEL = 'Northwind (emulator)';

let demo: ChildProcess | undefined;
let output = '';
let browser: Browser | undefined;
let page: Page;
let workbenchUrl = '';

before(async () => {
  demo = spawn(
    process.execPath,
    [path.join(REPO_ROOT, 'scripts', 'demo.mjs'), '--browser', '--no-open', '--no-build', '--port', '0'],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' },
  );
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-20_000);
      const m = /^DEMO READY (\S+) (\S+)$/m.exec(output);
      if (m) {
        workbenchUrl = m[1]!;
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
    child.kill('SIGINT');
    await withTimeout(exited, 30_000, 'the demo did not stop on SIGINT').catch(() => {
      if (process.platform !== 'win32') process.kill(-child.pid!, 'SIGKILL');
    });
  }
});

test('npm run demo opens the sample workspace with its code-insights lenses', { timeout: 400_000 }, async () => {
  try {
    // The helper opens the sample TypeScript file once the pick is set; its lenses follow the aggregate (the first
    // SQL run starts the embedded engine, and on a fresh machine generates the sample data once).
    await page.locator('.tab', { hasText: 'cart.ts' }).first().waitFor({ state: 'visible', timeout: START_TIMEOUT });
    await codeLens(page, /calls · .* errors · p95 .* · 24 h/).waitFor({ state: 'visible', timeout: 240_000 });
    assert.match(await codeLens(page, /calls ·/).innerText(), /^[\d.]+k? calls · /);
    await page
      .locator('.statusbar-item', { hasText: /· Traces ·/ })
      .first()
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    // What the demo showed before stays: the connection in the Observability view.
    await showObservabilityView(page, LABEL);
    await treeRow(page, LABEL).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  } catch (error) {
    await page.screenshot({ path: path.join(REPO_ROOT, 'out', 'demo-code.failed.png') }).catch(() => undefined);
    process.stderr.write(`demo output:\n${output}\n`);
    throw error;
  }
});
