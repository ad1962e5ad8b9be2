#!/usr/bin/env node
// The README's pictures as the installed extension shows them on its details page: JPEG copies of the screenshots the
// UI tests take (media/screenshot-*.png), small enough to ship in the VSIX (media/readme-*.jpg), encoded by the
// headless Chromium the UI tests use (`$OBS_CHROMIUM` or /usr/bin/chromium).
//   node scripts/readme-images.mjs
import { Buffer } from 'node:buffer';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Screenshot → README picture: the part kept (x, y, width, height) and the width it is drawn at. */
const PICTURES = [
  ['screenshot-tree.png', 'readme-tree.jpg', [0, 30, 610, 650], 610],
  ['screenshot-preview-dashboard-dark.png', 'readme-preview.jpg', [0, 0, 1280, 800], 720],
  ['screenshot-search.png', 'readme-search.jpg', [348, 30, 932, 620], 720],
  ['screenshot-trace.png', 'readme-trace.jpg', [348, 30, 932, 560], 720],
  ['screenshot-code-insights.png', 'readme-code.jpg', [348, 30, 932, 560], 720],
];
const QUALITY = 0.55;

const browser = await chromium.launch({ executablePath: process.env.OBS_CHROMIUM ?? '/usr/bin/chromium' });
try {
  const page = await browser.newPage();
  for (const [from, to, crop, width] of PICTURES) {
    const png = fs.readFileSync(path.join(ROOT, 'media', from)).toString('base64');
    const jpeg = await page.evaluate(
      async ({ png, crop, width, quality }) => {
        // Runs in the page.
        const { Image, document } = globalThis;
        const img = new Image();
        img.src = `data:image/png;base64,${png}`;
        await img.decode();
        const [x, y, w, h] = crop;
        const scale = Math.min(1, width / w);
        const canvas = document.createElement('canvas');
        canvas.width = Math.round(w * scale);
        canvas.height = Math.round(h * scale);
        canvas.getContext('2d').drawImage(img, x, y, w, h, 0, 0, canvas.width, canvas.height);
        return canvas.toDataURL('image/jpeg', quality).split(',')[1];
      },
      { png, crop, width, quality: QUALITY },
    );
    const out = path.join(ROOT, 'media', to);
    fs.writeFileSync(out, Buffer.from(jpeg, 'base64'));
    console.log(`media/${to}: ${(fs.statSync(out).size / 1024).toFixed(1)} KB`);
  }
} finally {
  await browser.close();
}
