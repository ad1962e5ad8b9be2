#!/usr/bin/env node
// Draws media/icon.png (128 × 128, the extension's icon on its details page and in the Marketplace) from
// media/icon.svg with the headless Chromium the UI tests use (`$OBS_CHROMIUM` or /usr/bin/chromium).
//   node scripts/icon.mjs
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const svg = fs.readFileSync(path.join(ROOT, 'media', 'icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: process.env.OBS_CHROMIUM ?? '/usr/bin/chromium' });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: path.join(ROOT, 'media', 'icon.png'), omitBackground: true });
} finally {
  await browser.close();
}
console.log('media/icon.png written');
