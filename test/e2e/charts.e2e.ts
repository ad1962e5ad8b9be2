/**
 * UI test of charts people can read, in a real workbench (code-server + headless Chromium) against the Cloud emulator
 * (SQL on a real embedded ClickHouse over the seeded telemetry), set up through the extension's own commands
 * (test/e2e/chartsSetup.ts): a SQL document, then its results, a seven-series tile preview, the "Checkout service"
 * dashboard preview and an alert backtest, each opened while the previous panel has the focus. Checks what a user sees:
 * one editor column holds all the panels beside the document; seven series get seven colours, and a series has the
 * same colour in the SQL chart and in the preview; hovering or the arrow keys give a readout of the values with the
 * time and its zone; plots are tall enough to read; the dashboard reflows in the narrow column without wrapping its
 * buttons; the backtest names the series of each transition and the rule beside the count. Saves the README's
 * preview pictures of this layout, dark and light: media/screenshot-preview-{dashboard,backtest}-{dark,light}.png.
 * Last, the seeded heatmap tile: its canvas, a keyboard readout of a cell and the cells as a table.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/charts.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { openWorkbench, REPO_ROOT, type Workbench } from '../host/runInCodeServer';
import { runCommand, shoot, START_TIMEOUT, UI_TIMEOUT, withTimeout } from './ui';

/** The page's own function, for the code run in the webview (`evaluate`); the tests compile without the DOM types. */
declare function getComputedStyle(
  element: unknown,
  pseudo?: string,
): { backgroundColor: string; color: string; lineHeight: string };

/** The seven-series tile chartsSetup.ts adds. */
const SERVICES_TILE = 'Log lines by service';
const shot = (name: string) => path.join(REPO_ROOT, 'media', `screenshot-preview-${name}.png`);
/** A time as every chart writes it, with its zone. */
const ZONED_TIME = /\d{4}-\d\d-\d\d \d\d:\d\d UTC([+−]\d\d:\d\d)?/;

describe('Cloud', () => {
  let workbench: Workbench;
  let page: Page;
  /** Written to ask the extension host's steps for the dashboard preview. */
  const signal = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'obs-charts-')), 'show-dashboard');
  let dashboardReady: () => void = () => undefined;
  let dashboardShown: Promise<void>;
  let heatmapReady: () => void = () => undefined;
  const heatmapShown = new Promise<void>((resolve) => (heatmapReady = resolve));
  let heatmapDashboardReady: () => void = () => undefined;
  const heatmapDashboardShown = new Promise<void>((resolve) => (heatmapDashboardReady = resolve));

  before(async () => {
    let ready: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (ready = resolve));
    dashboardShown = new Promise<void>((resolve) => (dashboardReady = resolve));
    workbench = await openWorkbench({
      viewport: { width: 1280, height: 800 },
      userSettings: {
        'workbench.colorTheme': 'Default Dark Modern',
        'window.commandCenter': false,
        'files.autoSave': 'off',
        'observability.query.rateLimit.requestsPerWindow': 100,
      },
      extensionTestsPath: path.join(REPO_ROOT, 'out', 'test', 'e2e', 'chartsSetup.js'),
      env: { OBS_E2E_CHARTS_SIGNAL: signal },
      onLog: (line: string) => {
        if (line.includes('E2E CHARTS READY')) ready();
        else if (line.includes('E2E CHARTS DASHBOARD')) dashboardReady();
        else if (line.includes('E2E CHARTS HEATMAP DASHBOARD')) heatmapDashboardReady();
        else if (line.includes('E2E CHARTS HEATMAP')) heatmapReady();
        else if (process.env.OBS_TEST_VERBOSE) process.stdout.write(`${line}\n`);
      },
    });
    page = workbench.page;
    // The first query starts the embedded engine (and on a fresh machine generates the sample data once).
    await withTimeout(started, START_TIMEOUT + 180_000, 'the panels did not open');
  });

  after(async () => {
    await workbench?.close();
  });

  /** The document of the webview in view (hidden panels' webviews are not shown). */
  function view(): FrameLocator {
    return page.frameLocator('iframe.webview.ready >> visible=true').frameLocator('iframe#active-frame');
  }

  async function showTab(title: RegExp): Promise<void> {
    await page.locator('.tab', { hasText: title }).first().click();
    await page.locator('.tab.active', { hasText: title }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  }

  /** Series name → the colour its legend swatch is drawn in (as the browser resolved it). */
  async function legendColors(items: Locator, pseudo: boolean): Promise<Map<string, string>> {
    const pairs = await items.evaluateAll(
      (els, before) =>
        els.map((e) => [
          (e.textContent ?? '').trim(),
          before ? getComputedStyle(e, '::before').backgroundColor : getComputedStyle(e).color,
        ]),
      pseudo,
    );
    return new Map(pairs as [string, string][]);
  }

  test(
    'Readable charts: one column for the panels, colours by series, readout with the zone, a dashboard in a narrow column',
    { timeout: 400_000 },
    async () => {
      try {
        // One editor column beside the document holds every panel, though each was opened from the one before.
        assert.equal(await page.locator('.editor-group-container').count(), 2, 'the document and one column of panels');
        const panelTabs = await page.locator('.editor-group-container').nth(1).locator('.tab').allInnerTexts();
        for (const title of [/Query Results/, new RegExp(`Preview: ${SERVICES_TILE}`), /Backtest: Checkout p95/]) {
          assert.ok(
            panelTabs.some((t) => title.test(t)),
            `${title} in the panels' column: ${panelTabs.join(' | ')}`,
          );
        }

        // The SQL chart: one line per service, each in its colour.
        await showTab(/Query Results/);
        await view().locator('#tab-chart').click();
        await view().locator('#chart svg polyline').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        const sqlColors = await legendColors(view().locator('#chart .legend span'), false);
        assert.equal(sqlColors.size, 7, `seven services in the SQL chart: ${[...sqlColors.keys()].join(', ')}`);
        assert.equal(
          new Set(sqlColors.values()).size,
          7,
          `seven colours in the SQL chart: ${[...sqlColors.values()].join(', ')}`,
        );
        // Its readout: hovering the chart names the time (with the zone) and each service's value.
        await view().locator('#chart svg').hover();
        assert.match(await view().locator('#chart .readout').innerText(), ZONED_TIME);
        assert.match((await view().locator('#chart table.data th').first().textContent()) ?? '', /time \(UTC/);

        // The tile preview of the same seven services: seven colours, each series in its SQL chart colour.
        await showTab(new RegExp(`Preview: ${SERVICES_TILE}`));
        const legend = view().locator('.legend span:not(.threshold):not(.zone)');
        await legend.nth(6).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        const previewColors = await legendColors(legend, true);
        assert.equal(previewColors.size, 7);
        assert.equal(
          new Set(previewColors.values()).size,
          7,
          `seven colours: ${[...previewColors.values()].join(', ')}`,
        );
        for (const [name, color] of previewColors) {
          assert.equal(color, sqlColors.get(name), `"${name}" has the same colour in the SQL chart and the preview`);
        }
        // The plot is tall enough to read, and the zone of its times is shown.
        const plotBox = await view().locator('.plot canvas').first().boundingBox();
        assert.ok(plotBox && plotBox.height >= 200, `plot height ${plotBox?.height}`);
        assert.match(await view().locator('.legend .zone').innerText(), /^UTC/);
        // Hover: the readout names the time and every series with its value.
        await view().locator('.plot').first().hover();
        const hovered = await view().locator('.readout').innerText();
        assert.match(hovered, ZONED_TIME);
        for (const name of previewColors.keys()) {
          assert.ok(hovered.includes(name), `"${name}" in the readout: ${hovered}`);
        }
        // Keyboard: the chart takes the focus; Home and End read the first and the last point.
        await view().locator('.plot').first().focus();
        await page.keyboard.press('Home');
        const first = (await view().locator('.readout .when').innerText()).trim();
        await page.keyboard.press('End');
        const last = (await view().locator('.readout .when').innerText()).trim();
        assert.match(first, ZONED_TIME);
        assert.ok(last > first, `End (${last}) reads a later point than Home (${first})`);
        // Every chart keeps its table: the data table's header names the zone.
        await view().locator('details.data summary').click();
        await view().locator('details.data tbody tr').first().waitFor({ state: 'attached', timeout: UI_TIMEOUT });
        assert.match(await view().locator('details.data th').first().innerText(), /^Time \(UTC/);
        assert.equal(
          (await view().locator('details.data tbody tr').last().locator('th').innerText()).trim(),
          last.replace(/ UTC.*$/, ''),
          'the readout and the table write the time the same way',
        );

        // The dashboard in the narrow column: tiles two to a row or one, plots tall enough, buttons on one line.
        fs.writeFileSync(signal, 'show');
        await withTimeout(dashboardShown, UI_TIMEOUT * 2, 'the dashboard preview did not open');
        assert.equal(await page.locator('.editor-group-container').count(), 2, 'still one column of panels');
        await showTab(/Preview: Checkout service/);
        await view().locator('section.tile').nth(5).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        await view().locator('section.tile canvas').nth(1).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        const grid = (await view().locator('.grid').boundingBox())!;
        assert.ok(grid.width < 720, `the panels' column is narrow (${grid.width} px)`);
        for (const box of await view()
          .locator('section.tile')
          .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width))) {
          assert.ok(box >= grid.width * 0.45, `a tile is ${box} px of ${grid.width} px: no tile is squeezed`);
        }
        const latency = (await view()
          .getByRole('region', { name: 'p95 latency (ms)', exact: true })
          .locator('canvas')
          .boundingBox())!;
        assert.ok(latency.height >= 150, `the latency plot is ${latency.height} px tall`);
        const lineHeight = await view()
          .locator('#refresh')
          .evaluate((b) => parseFloat(getComputedStyle(b).lineHeight) || 18);
        for (const h of await view()
          .locator('button:visible')
          .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height))) {
          assert.ok(h < lineHeight * 2, `a button is ${h} px tall: its label wrapped`);
        }
        await page.waitForTimeout(1000);
        await shoot(page, shot('dashboard-dark'));

        // The backtest: the rule beside the count, the series of each transition, times with the zone.
        await showTab(/Backtest: Checkout p95/);
        await view().locator('.verdict').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        assert.match(
          await view().locator('.verdict').innerText(),
          new RegExp(`^Would have fired \\d+× in this range \\(last at ${ZONED_TIME.source}\\)\\.$`),
        );
        assert.match(
          await view().locator('.rule').innerText(),
          /^Rule: fires when at least 1[.,]?5\S* · windows of 5m · after 2 consecutive windows over the threshold$/,
        );
        const headers = await view().locator('.transitions thead th').allInnerTexts();
        assert.deepEqual(headers.slice(1), ['Series', 'From', 'To', 'Value', 'Decided by']);
        assert.match(headers[0]!, /^Time \(UTC/);
        const series = await view().locator('.transitions tbody td.series').allInnerTexts();
        assert.ok(
          series.length > 0 && series.every((s) => /^SpanName:/.test(s)),
          `series of the transitions: ${series.join(', ')}`,
        );
        // Each change to ALERT says what decided it: the value against the threshold in consecutive windows.
        const rows = await view()
          .locator('.transitions tbody tr')
          .evaluateAll((trs) =>
            trs.map((tr) => [
              tr.querySelectorAll('td')[2]?.textContent ?? '',
              tr.querySelector('td.decided')?.textContent ?? '',
            ]),
          );
        const toAlert = rows.filter(([to]) => to === 'ALERT');
        assert.ok(
          toAlert.length > 0 &&
            toAlert.every(([, why]) => /is at least 1[.,]?5\S* in 2 consecutive windows/.test(why!)),
          `what decided each firing: ${JSON.stringify(rows)}`,
        );
        await shoot(page, shot('backtest-dark'));

        await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
        await page.locator('.monaco-workbench.vs').first().waitFor({ state: 'attached', timeout: UI_TIMEOUT });
        await page.waitForTimeout(1500);
        await shoot(page, shot('backtest-light'));
        await showTab(/Preview: Checkout service/);
        await view().locator('section.tile').nth(5).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        await page.waitForTimeout(1500);
        await shoot(page, shot('dashboard-light'));

        // The heatmap tile: its cells on a canvas, a readout of the cell under the cursor, its cells as a table.
        fs.writeFileSync(`${signal}-heatmap`, 'show');
        await withTimeout(heatmapShown, UI_TIMEOUT * 2, 'the heatmap preview did not open');
        await showTab(/Preview: Span duration distribution/);
        const heat = view().locator('.plot.heatmap canvas');
        await heat.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        const heatBox = (await heat.boundingBox())!;
        assert.ok(heatBox.height >= 200, `heatmap height ${heatBox.height}`);
        await view().locator('.plot.heatmap').focus();
        await page.keyboard.press('ArrowRight');
        const cell = await view().locator('.readout').innerText();
        assert.match(cell, /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/, 'a 15-second cell reads its time to the second');
        assert.match(cell, /Rows: [\d,]+/, `the readout names the cell's count: ${cell}`);
        await view().locator('details.data summary').click();
        await view().locator('details.data tbody tr').first().waitFor({ state: 'attached', timeout: UI_TIMEOUT });
        assert.deepEqual((await view().locator('details.data thead th').allInnerTexts()).slice(1), ['Value', 'Rows']);
        assert.match(await view().locator('details.data tbody tr td.num').first().innerText(), /^[\d,]+$/);
        await page.screenshot({ path: path.join(REPO_ROOT, 'out', 'charts.heatmap.png') });
        // On its dashboard the heatmap fills its tile.
        fs.writeFileSync(`${signal}-heatmap-dashboard`, 'show');
        await withTimeout(heatmapDashboardShown, UI_TIMEOUT * 2, 'the heatmap dashboard preview did not open');
        await showTab(/Preview: Ingest pipeline/);
        const heatTile = view().getByRole('region', { name: 'Span duration distribution', exact: true });
        await heatTile.locator('.plot.heatmap canvas').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        await page.waitForTimeout(500);
        const tileCanvas = (await heatTile.locator('canvas').boundingBox())!;
        assert.ok(tileCanvas.height >= 150, `the heatmap tile's plot is ${tileCanvas.height} px tall`);
        await heatTile.scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(REPO_ROOT, 'out', 'charts.heatmap-dashboard.png') });
      } catch (error) {
        await page.screenshot({ path: path.join(REPO_ROOT, 'out', 'charts.failed.png') }).catch(() => undefined);
        throw error;
      }
    },
  );
});
