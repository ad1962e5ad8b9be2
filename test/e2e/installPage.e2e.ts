/**
 * UI test of the extension as a user installs it: the VSIX (`npm run package`, or `$OBS_E2E_VSIX` when given) is
 * installed as a user extension in a fresh workbench (the extension in development is a placeholder), and
 * - its details page shows the icon, the categories and the README with its pictures loaded: VS Code 1.117 shows only
 *   https: pictures in an installed VSIX's README, so the VSIX is packaged with `OBS_README_IMAGES_URL` naming an
 *   https server on loopback that serves media/ (under the test certificate's host name, which the browser maps to
 *   loopback and whose key it accepts), as a release names where its media/ is published; a screenshot of the page,
 *   out/install-page.png, is checked for the pictures' pixels too;
 * - the getting-started walkthrough lists its five steps, and a step shows its page.
 *
 * Run: `tsc -p . && node --test out/test/e2e/installPage.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { openWorkbench, REPO_ROOT, type Workbench } from '../host/runInCodeServer';
import { TEST_CERTIFICATE, TEST_HOST, TEST_PRIVATE_KEY } from '../support/testCertificate';
import { quickInput, quickInputBox, quickInputRows, runCommand, START_TIMEOUT, UI_TIMEOUT } from './ui';

const DISPLAY_NAME = 'Observability Explorer';
const WALKTHROUGH = 'Get Started with Observability Explorer';
const STEPS = [
  'Connect to Cloud or a self-hosted deployment',
  'Browse dashboards and alerts',
  'Create a first alert',
  'Enable SQL on a Cloud service',
  'Preview a dashboard',
];
const SCREENSHOT = path.join(REPO_ROOT, 'out', 'install-page.png');

let tmp: string;
let workbench: Workbench;
let page: Page;
let images: https.Server;
/** Paths of the pictures the browser fetched from the images server. */
const served: string[] = [];

/** Serves the repository's media/ folder over https (the test certificate) on loopback, as a release host would. */
async function startImagesServer(): Promise<string> {
  images = https.createServer({ cert: TEST_CERTIFICATE, key: TEST_PRIVATE_KEY }, (req, res) => {
    const name = /^\/media\/([\w.-]+\.(?:jpe?g|png))$/.exec(req.url ?? '')?.[1];
    const file = name ? path.join(REPO_ROOT, 'media', name) : undefined;
    if (!file || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    served.push(req.url!);
    res.writeHead(200, { 'Content-Type': name!.endsWith('.png') ? 'image/png' : 'image/jpeg' });
    res.end(fs.readFileSync(file));
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  return `https://${TEST_HOST}:${(images.address() as AddressInfo).port}/`;
}

/** Chromium's pin of the test certificate's key (SHA-256 of its SubjectPublicKeyInfo, base64). */
function testKeyPin(): string {
  const spki = new X509Certificate(TEST_CERTIFICATE).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

/** The VSIX to install: `$OBS_E2E_VSIX`, else one packaged now (production build) with its pictures at `imagesUrl`. */
function vsixPath(imagesUrl: string): string {
  const given = process.env.OBS_E2E_VSIX;
  if (given) return path.resolve(given);
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'package'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
    env: { ...process.env, OBS_README_IMAGES_URL: imagesUrl },
  });
  const out = path.join(tmp, 'observability-explorer.vsix');
  fs.copyFileSync(path.join(REPO_ROOT, 'observability-explorer.vsix'), out);
  return out;
}

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'obs-install-page-'));
  const imagesUrl = await startImagesServer();
  const vsix = vsixPath(imagesUrl);
  execFileSync('unzip', ['-q', vsix, 'extension/*', '-d', tmp]);
  // The workbench needs an extension in development; a placeholder leaves the installed one the only real one.
  const placeholder = path.join(tmp, 'placeholder');
  fs.mkdirSync(placeholder);
  fs.writeFileSync(
    path.join(placeholder, 'package.json'),
    JSON.stringify({ name: 'placeholder', publisher: 'test', version: '0.0.0', engines: { vscode: '*' } }),
  );
  workbench = await openWorkbench({
    viewport: { width: 1280, height: 900 },
    extensionDevelopmentPath: placeholder,
    installedExtensions: [path.join(tmp, 'extension')],
    // The images server's name is the test certificate's; the browser finds it on loopback and accepts that one key.
    chromiumArgs: [
      `--host-resolver-rules=MAP ${TEST_HOST} 127.0.0.1`,
      `--ignore-certificate-errors-spki-list=${testKeyPin()}`,
    ],
    userSettings: { 'workbench.colorTheme': 'Default Dark Modern', 'window.commandCenter': false },
  });
  page = workbench.page;
  await page.locator('.statusbar').first().waitFor({ state: 'visible', timeout: START_TIMEOUT });
});

after(async () => {
  await workbench?.close();
  images?.closeAllConnections();
  images?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** The document of the webview shown last (the details page's README, a walkthrough step's page). */
function webview(): FrameLocator {
  return page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame');
}
const readme = webview;

test('the installed extension shows a product page with its pictures', { timeout: 600_000 }, async () => {
  // The Extensions view, searched for the installed extension.
  await page
    .locator(
      '.activitybar .action-item a[aria-label^="Extensions"], .activitybar .action-label[aria-label^="Extensions"]',
    )
    .first()
    .click();
  const search = page.locator('.extensions-viewlet .suggest-input-container').first();
  await search.waitFor({ state: 'visible', timeout: START_TIMEOUT });
  await search.click();
  await page.keyboard.type(`@installed ${DISPLAY_NAME}`);
  const row = page.locator('.extensions-viewlet .monaco-list-row', { hasText: DISPLAY_NAME }).first();
  await row.waitFor({ state: 'visible', timeout: START_TIMEOUT });
  await row.click();
  const editor = page.locator('.extension-editor');
  await editor.locator('.header .name', { hasText: DISPLAY_NAME }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });

  // The icon is the extension's own 128 × 128 picture, not the placeholder.
  const icon = editor.locator('.header img.icon').first();
  await page.waitForFunction(
    (el) => !!el && (el as unknown as { complete: boolean; naturalWidth: number }).naturalWidth > 0,
    await icon.elementHandle(),
    { timeout: UI_TIMEOUT },
  );
  assert.equal(
    await icon.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth),
    128,
    'the icon is media/icon.png',
  );
  assert.doesNotMatch(String(await icon.getAttribute('src')), /defaultIcon/);

  // The README: the user's part first, and every picture loaded.
  const body = readme().locator('body');
  await body.locator('h1', { hasText: DISPLAY_NAME }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  const images = readme().locator('img');
  const count = await images.count();
  assert.ok(count >= 2, `the README shows its pictures (found ${count})`);
  for (let i = 0; i < count; i++) {
    const image = images.nth(i);
    await image.scrollIntoViewIfNeeded();
    await image.evaluate(
      (el) =>
        new Promise<void>((resolve, reject) => {
          const img = el as unknown as { complete: boolean; naturalWidth: number; src: string } & {
            addEventListener(type: string, listener: () => void): void;
          };
          const check = () =>
            img.complete && img.naturalWidth > 0 ? resolve() : reject(new Error(`picture not loaded: ${img.src}`));
          if (img.complete) check();
          else {
            img.addEventListener('load', check);
            img.addEventListener('error', check);
          }
        }),
    );
  }
  if (!process.env.OBS_E2E_VSIX) {
    assert.ok(
      ['/media/readme-tree.jpg', '/media/readme-preview.jpg'].every((p) => served.includes(p)),
      `the pictures came from the address given when packaging (served: ${served.join(', ')})`,
    );
  }
  const headings = (await readme().locator('h2').allInnerTexts()).map((t) => t.trim());
  assert.ok(headings.indexOf('Privacy: what is sent where') >= 0, headings.join(' | '));
  for (const left of ['Development', 'Install', 'Commands', 'Settings']) {
    assert.ok(
      !headings.includes(left),
      `the ${left} section stays in the repository's README: ${headings.join(' | ')}`,
    );
  }
  assert.match(await body.innerText(), /Every command and setting: the Feature Contributions tab/);
  assert.doesNotMatch(await body.innerText(), /example\.invalid/);

  // The screenshot of the page holds the first picture: its pixels are not the page's flat background.
  const first = images.first();
  await first.scrollIntoViewIfNeeded();
  await page.mouse.move(5, 5);
  fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
  const shot = await page.screenshot({ path: SCREENSHOT });
  assert.ok(shot.length > 20_000, 'a screenshot with content was written');
  const box = await first.boundingBox();
  assert.ok(box && box.width > 100 && box.height > 100, 'the first picture is drawn at a readable size');
  const clip = await page.screenshot({ clip: box });
  // Runs in the page: the DOM's names are the browser's.
  /* eslint-disable @typescript-eslint/no-explicit-any */
  const distinct = await page.evaluate(async (png: string) => {
    const g0 = globalThis as any;
    const img = new g0.Image();
    img.src = `data:image/png;base64,${png}`;
    await img.decode();
    const canvas = g0.document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const g = canvas.getContext('2d');
    g.drawImage(img, 0, 0);
    const data: number[] = g.getImageData(0, 0, canvas.width, canvas.height).data;
    const colours = new Set<number>();
    for (let i = 0; i < data.length; i += 4 * 37) colours.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
    return colours.size;
  }, clip.toString('base64'));
  /* eslint-enable @typescript-eslint/no-explicit-any */
  assert.ok(distinct > 20, `the picture's area shows a picture (${distinct} colours sampled)`);

  // The details: categories of the product, not "Other".
  const details = await editor.innerText();
  assert.match(details, /Visualization/);
});

test('the getting-started walkthrough lists its steps', { timeout: 300_000 }, async () => {
  // The walkthrough draws a step's page only when its editor is wider than 950 px (VS Code 1.117): the Extensions side
  // bar of the first test makes room, as a user on a narrow window does.
  await runCommand(page, 'View: Close Primary Side Bar');
  await runCommand(page, 'Welcome: Open Walkthrough...');
  await quickInputBox(page).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await quickInputBox(page).fill(WALKTHROUGH);
  await quickInputRows(page).filter({ hasText: WALKTHROUGH }).first().click();
  await quickInput(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
  const walkthrough = page.locator('.gettingStartedContainer');
  await walkthrough.locator('.getting-started-step .step-title', { hasText: STEPS[0] }).first().waitFor({
    state: 'visible',
    timeout: UI_TIMEOUT,
  });
  const titles = (await walkthrough.locator('.getting-started-step .step-title').allInnerTexts()).map((t) => t.trim());
  assert.deepEqual(titles, STEPS);
  // The SQL step says the order: upsert the query endpoint, then enable the key, then run a query.
  await walkthrough.locator('.getting-started-step', { hasText: 'Enable SQL on a Cloud service' }).click();
  const step = walkthrough.locator('.getting-started-step.expanded');
  await step.locator('.monaco-button', { hasText: '1. Upsert Query Endpoint' }).waitFor({ timeout: UI_TIMEOUT });
  const buttons = (await step.locator('.monaco-button').allInnerTexts()).map((t) => t.trim());
  assert.deepEqual(buttons, ['1. Upsert Query Endpoint', '2. Enable This Key', '3. New Query']);
  await webview().locator('h1', { hasText: 'Enable SQL on a Cloud service' }).waitFor({ timeout: UI_TIMEOUT });
  await page.screenshot({ path: path.join(REPO_ROOT, 'out', 'walkthrough.png') });
});
