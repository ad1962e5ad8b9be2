/**
 * UI test of the search panel on a Cloud connection (SQL through the query endpoint): Search Events… from the palette
 * on the sample logs, the histogram drawn as bars with its table view, a condition narrowing the rows, a row's details
 * with every column and attribute keys, Add to search, the live tail running the search again, completion of a map
 * key's values, the Patterns tab, and Save as Saved Search… opening the saved-search document. It takes the README's
 * search picture (media/screenshot-search.png: the error events with a row's details).
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/search.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../emulator/server';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import type { Workbench } from '../host/runInCodeServer';
import {
  CLOUD,
  openTestWorkbench,
  quickInput,
  quickInputBox,
  quickInputRows,
  reportingFailure,
  runCommand,
  shoot,
  UI_TIMEOUT,
  until,
} from './ui';

describe('Cloud', () => {
  let emulator: Emulator;
  let workbench: Workbench;
  let page: Page;

  before(async () => {
    emulator = await startEmulator({ flavor: 'cloud', rateLimit: { requests: 10_000, windowMs: 1000 }, now: 'start' });
    emulator.state.data.get(emulator.serviceIds[0]!)!.queryEndpoint = {
      id: '0d5c2a8e-6f14-4b3a-9e7d-2c1b0a9f8e7d',
      roles: ['sql_console_read_only'],
      openApiKeys: [SAMPLE_KEY_UUID],
      allowedOrigins: '',
    };
    workbench = await openTestWorkbench({ flavor: CLOUD, emulator, label: 'Search (emulator)', mode: 'setup' });
    page = workbench.page;
  });

  after(async () => {
    await workbench?.close();
    await emulator?.close();
  });

  function panel(): FrameLocator {
    return page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame');
  }

  test('searching the sample logs: histogram, rows, details, add to search', { timeout: 400_000 }, () =>
    reportingFailure(page, emulator, 'search-cloud', drive),
  );

  async function drive(): Promise<void> {
    await runCommand(page, 'Observability: Set Query Host');
    await quickInputBox(page).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await quickInputBox(page).fill(emulator.queryUrl);
    await page.keyboard.press('Enter');
    await quickInput(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    await runCommand(page, 'Observability: Search Events…');
    await quickInputRows(page).filter({ hasText: 'Logs' }).first().click();
    const p = panel();
    // The first SQL run starts the embedded engine (and on a fresh machine generates the sample data once).
    await p.locator('.row').first().waitFor({ state: 'visible', timeout: 180_000 });
    assert.ok((await p.locator('#histogram svg rect').count()) > 1, 'the histogram is drawn as bars');
    assert.match(await p.locator('#status').innerText(), /[\d,]+ events in .* 1,000 rows shown, newest first/);
    assert.ok((await p.locator('.row').count()) < 200, 'only the rows in view are in the page');
    await p.getByRole('button', { name: 'Histogram as table' }).click();
    assert.ok((await p.locator('#histogram table.data tr').count()) > 1, 'the counts as a table');
    assert.ok((await p.locator('#viewport').boundingBox())!.height > 100, 'the table leaves room for the rows');
    await p.getByRole('button', { name: 'Histogram as chart' }).click();

    // Live tail: the search runs again (rows since the last run, then the histogram) through the query endpoint.
    const runs = () => emulator.requests.filter((r) => r.path.endsWith('/run')).length;
    const before = runs();
    await p.locator('#tail').check();
    await until(() => runs() >= before + 2, 'the live tail ran the search again');
    await p.locator('#tail').uncheck();

    await p.locator('#condition').fill('SeverityText:error');
    await p.locator('#condition').press('Enter');
    // The status of the previous search can still read "rows shown" for a moment: wait for the new rows.
    const onlyErrors = async () => {
      const severities = await p.locator('.row div:nth-child(3)').allInnerTexts();
      return severities.length > 0 && severities.every((s) => s.toLowerCase() === 'error');
    };
    for (let i = 0; i < UI_TIMEOUT / 100 && !(await onlyErrors()); i++) await page.waitForTimeout(100);
    await p.locator('#status', { hasText: /rows shown/ }).waitFor({ timeout: UI_TIMEOUT });
    assert.ok(await onlyErrors(), 'only error events');

    await p.locator('.row').nth(1).click();
    const details = p.locator('#details');
    await details.locator('.field .name', { hasText: 'ServiceName' }).first().waitFor({ timeout: UI_TIMEOUT });
    const names = await details.locator('.field .name').allInnerTexts();
    assert.ok(names.includes('TraceId'), 'every column of the event, not only those listed');
    assert.ok(
      names.some((n) => n.startsWith("LogAttributes['")) || names.some((n) => n.startsWith("ResourceAttributes['")),
      'map keys on their own',
    );
    await page.mouse.move(10, 790);
    await shoot(page, CLOUD.screenshot('screenshot-search.png'));
    const service = details.locator('.field', { has: p.locator('.name', { hasText: /^ServiceName$/ }) }).first();
    const value = await service.locator('.value').innerText();
    await service.getByRole('button', { name: 'Add to search' }).click();
    // The search runs again and the page shows its new condition.
    const condition = p.locator('#condition');
    for (let i = 0; i < UI_TIMEOUT / 100 && !(await condition.inputValue()).includes('ServiceName:'); i++) {
      await page.waitForTimeout(100);
    }
    await p.locator('#status', { hasText: /rows shown/ }).waitFor({ timeout: UI_TIMEOUT });
    assert.equal(await p.locator('#condition').inputValue(), `(SeverityText:error) ServiceName:"${value}"`);

    // Completion: a map key of the recent data, then its values.
    const offered = async (check: (o: string[]) => boolean, message: string): Promise<void> => {
      for (let i = 0; i < UI_TIMEOUT / 100 && !check(await options()); i++) await page.waitForTimeout(100);
      assert.ok(check(await options()), message);
    };
    const options = () =>
      p.locator('#fields option').evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value));
    await p.locator('#condition').fill('LogAttributes.http');
    await offered((o) => o.includes('LogAttributes.http.method:'), 'the map key is offered');
    await p.locator('#condition').fill('LogAttributes.http.method:');
    await offered((o) => o.some((v) => /^LogAttributes\.http\.method:"(GET|POST)"$/.test(v)), 'its values are offered');
    await p.locator('#condition').fill('');
    await p.locator('#condition').press('Enter');
    await p.locator('#status', { hasText: /rows shown/ }).waitFor({ timeout: UI_TIMEOUT });

    // Patterns: the events of the search grouped, with a count and an event of each.
    await p.getByRole('tab', { name: 'Patterns' }).click();
    const patternRows = p.locator('#patterns table.patterns tbody tr');
    await patternRows.first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.match(await p.locator('#patterns .note').innerText(), /[\d,]+ patterns in [\d,]+ rows of [\d,]+ events/);
    const first = await patternRows.first().locator('td').allInnerTexts();
    assert.match(first[0]!, /^~?\d+$/, 'a count');
    assert.ok(first[2]!.length > 0 && first[3]!.length > 0, 'a pattern and an event of it');
    assert.ok(await p.locator('#viewport').isHidden(), 'the rows are behind their tab');
    await p.getByRole('tab', { name: 'Events' }).click();
    await p.locator('.row').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });

    // Save as Saved Search…: the saved-search document opens (nothing sent before Apply).
    const writes = () =>
      emulator.requests.filter((r) => r.method === 'POST' && r.path.includes('saved-searches')).length;
    const sent = writes();
    await p.getByRole('button', { name: 'Save as Saved Search…' }).click();
    await page.locator('.tab', { hasText: '.saved-search.json' }).first().waitFor({ timeout: UI_TIMEOUT });
    assert.equal(writes(), sent, 'nothing is sent before Apply');
  }
});
