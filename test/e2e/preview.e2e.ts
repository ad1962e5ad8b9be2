/**
 * UI test of the chart previews in a real workbench (code-server + headless Chromium), once per connection kind (Cloud:
 * SQL through the query endpoint; self-hosted: the chart series and search API): the seeded "Checkout service"
 * dashboard previewed on its grid and the backtest of its firing p95 latency alert (threshold, fired windows,
 * transitions), both drawn from the emulator's seeded telemetry through the extension's commands
 * (test/e2e/previewSetup.ts). Checks what a user sees, picks a range with the keyboard and sees the panel answer, opens
 * a tile's events in the search panel (Cloud), and saves screenshots in the dark and the light theme:
 * out/preview-wide/{cloud,oss}/screenshot-preview-*.png (the README's pictures come from charts.e2e.ts).
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/preview.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { openWorkbench, REPO_ROOT, type Workbench } from '../host/runInCodeServer';
import { forEachFlavor, runCommand, shoot, START_TIMEOUT, UI_TIMEOUT, withTimeout, type UiFlavor } from './ui';

forEachFlavor((flavor: UiFlavor) => {
  // The README's preview pictures are taken by charts.e2e.ts (the panels in one column beside a document); these, of
  // the panels over the whole window, go to out/.
  const shot = (name: string) =>
    path.join(REPO_ROOT, 'out', 'preview-wide', flavor.emulatorFlavor, `screenshot-preview-${name}.png`);

  let workbench: Workbench;
  let page: Page;

  before(async () => {
    let ready: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (ready = resolve));
    workbench = await openWorkbench({
      viewport: { width: 1280, height: 800 },
      userSettings: {
        'workbench.colorTheme': 'Default Dark Modern',
        'window.commandCenter': false,
        // The emulator has no rate limit; with a large key budget the panels answer each range change at once.
        'observability.rateLimit.requestsPerWindow': 100,
      },
      extensionTestsPath: path.join(REPO_ROOT, 'out', 'test', 'e2e', 'previewSetup.js'),
      env: { OBS_E2E_FLAVOR: flavor.emulatorFlavor },
      onLog: (line: string) => {
        if (line.includes('E2E PREVIEW READY')) ready();
        else if (process.env.OBS_TEST_VERBOSE) process.stdout.write(`${line}\n`);
      },
    });
    page = workbench.page;
    await withTimeout(started, START_TIMEOUT, 'the preview panels did not open');
  });

  after(async () => {
    await workbench?.close();
  });

  /** The document of the webview in view (a hidden panel's webview is not kept, so there is one). */
  function view(): FrameLocator {
    return page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame');
  }

  async function showTab(title: RegExp): Promise<void> {
    await page.locator('.tab', { hasText: title }).first().click();
    await page.locator('.tab.active', { hasText: title }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  }

  test(
    'Chart previews: a dashboard on its grid and an alert backtest, dark and light',
    { timeout: 300_000 },
    async () => {
      try {
        await showTab(/Preview: Checkout service/);
        await view().locator('section.tile').nth(5).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        assert.equal(await view().locator('section.tile').count(), 6);
        // A panel shown again draws its tiles anew: wait for the second chart before counting them.
        await view().locator('section.tile canvas').nth(1).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        assert.equal(
          (await view().locator('section.tile canvas').count()) >= 2,
          true,
          'the latency lines and the stacked bars are drawn on canvases',
        );
        assert.match(await view().getByRole('region', { name: 'Error rate', exact: true }).innerText(), /\d/);
        assert.match(
          await view().getByRole('region', { name: 'Slowest endpoints', exact: true }).innerText(),
          /p99 \(ms\)[\s\S]*requests/,
        );
        assert.equal(await view().locator('section.tile .notice.error').count(), 0, 'no tile failed');
        assert.match(
          await view().getByRole('region', { name: 'Runbook', exact: true }).innerText(),
          /Checkout runbook/,
        );
        assert.equal(
          await view().locator('section.tile img, section.tile a, section.tile script').count(),
          0,
          'Markdown renders no images, links or scripts',
        );

        // The range picker is reachable with the keyboard; its choice is fetched and drawn again.
        await view().locator('#ranges button', { hasText: '6 h' }).focus();
        await page.keyboard.press('Enter');
        await view()
          .locator('#ranges button[aria-pressed="true"]', { hasText: '6 h' })
          .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        await view().locator('section.tile canvas').nth(1).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        await view().locator('#ranges button', { hasText: '1 h' }).click();
        await view()
          .locator('#ranges button[aria-pressed="true"]', { hasText: '1 h' })
          .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        await page.waitForTimeout(1500);
        await view().locator('section.tile canvas').nth(1).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        await shoot(page, shot('dashboard-dark'));

        await showTab(/Backtest: Checkout p95 latency/);
        await view().locator('.verdict').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        assert.match(
          await view().locator('.verdict').innerText(),
          /^Would have fired \d+× in this range \(last at \d{4}-\d\d-\d\d \d\d:\d\d UTC([+−]\d\d:\d\d)?\)\.$/,
        );
        assert.match(await view().locator('.legend .threshold').innerText(), /fires when at least 1[.,]?5/);
        const states = await view().locator('.transitions tbody td.state').allInnerTexts();
        assert.ok(states.includes('ALERT'), `transitions: ${states.join(', ')}`);
        assert.deepEqual(await view().locator('#ranges button').allInnerTexts(), ['24 h', '7 d', 'Custom…']);
        // The data table of the chart, for screen readers, opens on demand: one row per 5-minute window of the 24 h.
        await view().locator('details.data summary').click();
        // The table is built when the details element fires its (asynchronous) toggle event: wait for the rows.
        await view().locator('details.data tbody tr').nth(279).waitFor({ state: 'attached', timeout: UI_TIMEOUT });
        assert.ok((await view().locator('details.data tbody tr').count()) >= 280);
        await view().locator('details.data summary').click();
        await shoot(page, shot('backtest-dark'));

        await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
        await page.locator('.monaco-workbench.vs').first().waitFor({ state: 'attached', timeout: UI_TIMEOUT });
        await page.waitForTimeout(1500);
        await shoot(page, shot('backtest-light'));
        await showTab(/Preview: Checkout service/);
        await view().locator('section.tile').nth(5).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        await page.waitForTimeout(1500);
        await shoot(page, shot('dashboard-light'));

        if (flavor.emulatorFlavor === 'cloud') {
          // Search Events on a tile opens the search of the tile's events: its source and its series' condition.
          await view()
            .getByRole('region', { name: 'Error rate', exact: true })
            .getByRole('button', { name: 'Search Events' })
            .click();
          await page.locator('.tab.active', { hasText: /Search: / }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
          await view().locator('.row').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
          assert.equal(await view().locator('#condition').inputValue(), 'ServiceName:checkout AND StatusCode:Error');
        }
      } catch (error) {
        await page
          .screenshot({ path: path.join(REPO_ROOT, 'out', `preview-${flavor.emulatorFlavor}.failed.png`) })
          .catch(() => undefined);
        throw error;
      }
    },
  );
});
