/**
 * UI test of the search panel, on both kinds of connection (Cloud: SQL through the query endpoint; self-hosted:
 * through its ClickHouse access): Search Events… from the palette on the sample logs, the histogram drawn as bars
 * with its table view, a condition narrowing the rows, a row's details with every column and attribute keys, Add to
 * search, the live tail running the search again and showing a new event on top, brushing the histogram to narrow
 * the range, completion of a map key's values, the Patterns tab, Save as Saved
 * Search… opening the saved-search document, and a log line's trace opened from its details. On the Cloud it takes
 * the README's search picture (media/screenshot-search.png: the error events with a row's details).
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/search.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { SHOWCASE } from '../emulator/clickhouse/traces';
import { startEmulator, type Emulator } from '../emulator/server';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import type { Workbench } from '../host/runInCodeServer';
import {
  forEachFlavor,
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

forEachFlavor((flavor) => {
  let emulator: Emulator;
  let workbench: Workbench;
  let page: Page;

  before(async () => {
    emulator = await startEmulator({
      flavor: flavor.emulatorFlavor,
      rateLimit: { requests: 10_000, windowMs: 1000 },
      now: 'start',
    });
    if (flavor.emulatorFlavor === 'cloud') {
      emulator.state.data.get(emulator.serviceIds[0]!)!.queryEndpoint = {
        id: '0d5c2a8e-6f14-4b3a-9e7d-2c1b0a9f8e7d',
        roles: ['sql_console_read_only'],
        openApiKeys: [SAMPLE_KEY_UUID],
        allowedOrigins: '',
      };
    }
    workbench = await openTestWorkbench({
      flavor,
      emulator,
      label: 'Search (emulator)',
      mode: 'setup',
      clickHouse: flavor.emulatorFlavor === 'oss',
    });
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
    reportingFailure(page, emulator, `search-${flavor.emulatorFlavor}`, drive),
  );

  async function drive(): Promise<void> {
    if (flavor.emulatorFlavor === 'cloud') {
      await runCommand(page, 'Observability: Set Query Host');
      await quickInputBox(page).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await quickInputBox(page).fill(emulator.queryUrl);
      await page.keyboard.press('Enter');
      await quickInput(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    }
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
    // SQL runs: the query endpoint's on Cloud, ClickHouse's HTTP interface on self-hosted.
    const runs = () =>
      emulator.requests.filter((r) => r.path.endsWith('/run') || r.path.startsWith('clickhouse:')).length;
    const before = runs();
    await p.locator('#tail').check();
    await until(() => runs() >= before + 2, 'the live tail ran the search again');
    // A new event arrives: it shows at the top of the rows without searching again. The tail asks for the rows
    // since its last run up to the extension's (wall) clock, not the emulator's frozen one: the event's time is a
    // moment ahead of the wall clock, so no run can have passed it before it is stored.
    const body = `checkout settled order ${flavor.emulatorFlavor}-${Date.now()}`;
    const at = new Date(Date.now() + 1000).toISOString();
    await emulator.insertRows('otel_logs', [
      {
        Timestamp: at,
        TimestampTime: at,
        ServiceName: 'checkout',
        SeverityText: 'info',
        SeverityNumber: 9,
        Body: body,
      },
    ]);
    const top = p.locator('.row').first();
    for (let i = 0; i < UI_TIMEOUT / 100 && !(await top.innerText()).includes(body); i++) {
      await page.waitForTimeout(100);
    }
    assert.ok((await top.innerText()).includes(body), 'the new event is the top row');
    await p.locator('#tail').uncheck();

    // Brushing: dragging across part of the histogram searches again over the buckets dragged across.
    const preset = await p.locator('#preset').inputValue();
    const shown = async () => {
      const from = await p.locator('#from').evaluate((e) => Date.parse((e as unknown as { value: string }).value));
      const to = await p.locator('#to').evaluate((e) => Date.parse((e as unknown as { value: string }).value));
      const status = await p.locator('#status').innerText();
      return { from, to, status, total: Number(/^([\d,]+) events/.exec(status)?.[1]?.replace(/,/g, '') ?? NaN) };
    };
    const wide = await shown();
    const box = (await p.locator('#histogram svg').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 3);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 3, { steps: 4 });
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 3, { steps: 4 });
    await page.mouse.up();
    let narrow = await shown();
    const brushed = (r: typeof narrow) =>
      r.status !== wide.status && /rows shown/.test(r.status) && r.to - r.from < (wide.to - wide.from) / 2;
    for (let i = 0; i < UI_TIMEOUT / 100 && !brushed(narrow); i++) {
      await page.waitForTimeout(100);
      narrow = await shown();
    }
    assert.equal(await p.locator('#preset').inputValue(), '', 'a range of its own');
    assert.ok(narrow.from >= wide.from - 1000 && narrow.to <= wide.to + 1000, 'inside the range before');
    assert.ok(narrow.to - narrow.from < (wide.to - wide.from) / 2, 'about a fifth of the range before');
    assert.ok(narrow.total < wide.total, 'fewer events');
    const barCounts = await p
      .locator('#histogram svg rect title')
      .allTextContents()
      .then((ts) => ts.map((t) => Number(/: (\d+)$/.exec(t)?.[1] ?? NaN)));
    assert.equal(
      barCounts.reduce((a, b) => a + b, 0),
      narrow.total,
      'the bars add up to the events in the range',
    );
    // Back to the preset range for what follows.
    await p.locator('#preset').selectOption(preset);
    for (let i = 0; i < UI_TIMEOUT / 100 && (await shown()).total <= narrow.total; i++) await page.waitForTimeout(100);
    await p.locator('#status', { hasText: /rows shown/ }).waitFor({ timeout: UI_TIMEOUT });

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
    await shoot(page, flavor.screenshot('screenshot-search.png'));
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

    // Back to the search panel: its tab, behind the saved-search document.
    await page
      .locator('.tab', { hasText: /^Search: / })
      .first()
      .click();
    await p.locator('#condition').waitFor({ state: 'visible', timeout: UI_TIMEOUT });

    // A log line of the failing trace opens its trace (in the log source's trace source) from its details.
    await p.locator('#condition').fill(`TraceId:${SHOWCASE.refund}`);
    await p.locator('#condition').press('Enter');
    // The previous rows (the new event on top) stay until the new ones come.
    for (let i = 0; i < UI_TIMEOUT / 100 && (await top.innerText()).includes(body); i++) await page.waitForTimeout(100);
    await p.locator('#status', { hasText: /rows shown/ }).waitFor({ timeout: UI_TIMEOUT });
    await p.locator('.row').first().click();
    const traceField = details.locator('.field', { has: p.locator('.name', { hasText: /^TraceId$/ }) }).first();
    await traceField.waitFor({ timeout: UI_TIMEOUT });
    assert.equal(await traceField.locator('.value').innerText(), SHOWCASE.refund);
    await traceField.getByRole('button', { name: 'Open trace' }).click();
    const trace = panel();
    await trace.locator('#title', { hasText: SHOWCASE.refund }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await trace.locator('[role=row]', { hasText: 'RefundService.refund' }).waitFor({ timeout: UI_TIMEOUT });

    // The log line's span ID, shown as a column, is a link in the row list: its trace comes up with that span selected.
    // The search's page is the first webview of the window (the trace's the last).
    const search = page.frameLocator('iframe.webview.ready').first().frameLocator('iframe#active-frame');
    await trace.locator('[role=row]').first().click();
    await page
      .locator('.tab', { hasText: /^Search: / })
      .first()
      .click();
    const spanField = search
      .locator('#details .field', { has: search.locator('.name', { hasText: /^SpanId$/ }) })
      .first();
    await spanField.waitFor({ timeout: UI_TIMEOUT });
    const spanId = await spanField.locator('.value').innerText();
    await spanField.getByRole('button', { name: 'Show column' }).click();
    const spanLink = search.locator('.row').first().getByRole('link', { name: spanId });
    await spanLink.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await spanLink.click();
    await panel().locator('#details', { hasText: spanId }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(await panel().locator('[role=row][aria-selected=true]').count(), 1, "the log line's span is selected");
  }
});
