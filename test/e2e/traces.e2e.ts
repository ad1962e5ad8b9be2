/**
 * UI test of Open Trace, on both kinds of connection (Cloud: SQL through the query endpoint; self-hosted: through its
 * ClickHouse access): from the palette, the failing showcase trace's ID opens the trace panel; the waterfall shows
 * its spans nested and the failed ones marked; clicking the span that threw shows its exception and stack trace; the
 * arrow keys move the selection; a log line of the trace selects its span. Then a SQL result's TraceId cell opens its
 * trace, read an hour either side of the row's time, and after a window reload that trace panel comes back, read
 * again in the same range. A SpanId cell of a result without trace IDs opens the span's trace, the span selected.
 * On the Cloud it takes the README's trace picture (media/screenshot-trace.png: the
 * waterfall with the failed span's exception).
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/traces.e2e.js` (OBS_E2E_FLAVOR=cloud|oss: one kind).
 */
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { SHOWCASE } from '../emulator/clickhouse/traces';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import { startEmulator, type Emulator } from '../emulator/server';
import type { RecordedRequest } from '../emulator/types';
import type { Workbench } from '../host/runInCodeServer';
import {
  activeEditor,
  reloadWindow,
  forEachFlavor,
  openTestWorkbench,
  quickInput,
  quickInputBox,
  reportingFailure,
  runCommand,
  shoot,
  UI_TIMEOUT,
  until,
  type UiFlavor,
} from './ui';

const LABEL = 'Northwind (emulator)';

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
        id: '0d5c2a8e-6f14-4b3a-9e7d-2c1b0a9f8e7e',
        roles: ['sql_console_read_only'],
        openApiKeys: [SAMPLE_KEY_UUID],
        allowedOrigins: '',
      };
    }
    workbench = await openTestWorkbench({
      flavor,
      emulator,
      label: LABEL,
      mode: 'setup',
      clickHouse: flavor.emulatorFlavor === 'oss',
    });
    page = workbench.page;
  });

  after(async () => {
    await workbench?.close();
    await emulator?.close();
  });

  test('Open Trace: the waterfall, a span selected, its exception, a log line to its span', { timeout: 400_000 }, () =>
    reportingFailure(page, emulator, `traces-${flavor.emulatorFlavor}`, () => drive(page, emulator, flavor)),
  );

  test("a SQL result's TraceId cell opens its trace, around the row's time", { timeout: 400_000 }, () =>
    reportingFailure(page, emulator, `traces-sql-${flavor.emulatorFlavor}`, () => fromSql(page, emulator, flavor)),
  );

  test('the trace panel comes back after a window reload, read again in its range', { timeout: 400_000 }, () =>
    reportingFailure(page, emulator, `traces-reload-${flavor.emulatorFlavor}`, () => afterReload(page, emulator)),
  );

  test(
    "a SQL result's SpanId cell (no TraceId) opens the span's trace with the span selected",
    { timeout: 400_000 },
    () =>
      reportingFailure(page, emulator, `traces-span-${flavor.emulatorFlavor}`, () =>
        spanFromSql(page, emulator, flavor),
      ),
  );
});

/** The trace panel's document (VS Code nests the content in an inner frame). */
function panel(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame');
}

async function drive(page: Page, emulator: Emulator, flavor: UiFlavor): Promise<void> {
  if (flavor.emulatorFlavor === 'cloud') {
    await runCommand(page, 'Observability: Set Query Host');
    await quickInputBox(page).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await quickInputBox(page).fill(emulator.queryUrl);
    await page.keyboard.press('Enter');
    await quickInput(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
  }

  await runCommand(page, 'Observability: Open Trace…');
  await quickInputBox(page).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await quickInputBox(page).fill(SHOWCASE.refund);
  await page.keyboard.press('Enter');
  await quickInput(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT });

  // The first SQL run starts the embedded engine (and on a fresh machine generates the sample data once).
  const thrower = panel(page).locator('[role=row]', { hasText: 'RefundService.refund' });
  await thrower.waitFor({ state: 'visible', timeout: 180_000 });
  assert.match(await panel(page).locator('#meta').innerText(), /5 spans .* 2 services/);
  assert.equal(await thrower.getAttribute('aria-level'), '4', 'nested four deep');
  assert.match(await thrower.innerText(), /error/);
  // Opened, the span that threw is selected, its stack trace shown.
  await panel(page)
    .locator('#details pre', { hasText: 'at com.example.orders.refund.RefundService.refund' })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  assert.equal(await thrower.getAttribute('aria-selected'), 'true');
  await panel(page).locator('[role=row]', { hasText: 'SELECT shop.payments' }).click();
  await panel(page)
    .locator('#details h2', { hasText: 'SELECT shop.payments' })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });

  await thrower.click();
  assert.equal(await thrower.getAttribute('aria-selected'), 'true');
  const details = panel(page).locator('#details');
  await details.locator('pre', { hasText: 'at com.example.orders.refund.RefundService.refund' }).waitFor({
    state: 'visible',
    timeout: UI_TIMEOUT,
  });
  assert.match(await details.innerText(), /java\.lang\.IllegalStateException/);
  await page.mouse.move(10, 790);
  await shoot(page, flavor.screenshot('screenshot-trace.png'));

  await panel(page).locator('#viewport').focus();
  await page.keyboard.press('ArrowDown');
  await details.locator('h2', { hasText: 'SELECT shop.payments' }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await page.keyboard.press('ArrowLeft');
  await details.locator('h2', { hasText: 'RefundService.refund' }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });

  const logLine = panel(page)
    .locator('#log-list button', { hasText: /refund/i })
    .first();
  await logLine.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await logLine.click();
  assert.equal(
    await panel(page).locator('[role=row][aria-selected=true]').count(),
    1,
    'the log line selected its span in the waterfall',
  );
}

/** The SQL a request carried (Cloud: the query endpoint's body; self-hosted: ClickHouse's HTTP interface). */
function sqlOf(r: RecordedRequest): string {
  return `${JSON.stringify(r.body ?? '')} ${r.query?.query ?? ''}`;
}

async function fromSql(page: Page, emulator: Emulator, flavor: UiFlavor): Promise<void> {
  await runCommand(page, 'Observability: New Query');
  await page
    .locator('.statusbar-item', { hasText: flavor.serviceName(emulator, LABEL) })
    .first()
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await activeEditor(page).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(
    `SELECT Timestamp, TraceId, SpanName FROM otel_traces\nWHERE TraceId = '${SHOWCASE.order}' AND ParentSpanId = ''\n`,
  );
  await page.keyboard.press('Control+Enter');
  const results = panel(page);
  const link = results.locator('a.trace', { hasText: SHOWCASE.order }).first();
  await link.waitFor({ state: 'visible', timeout: 180_000 });
  const time = await results.locator('.row div').first().innerText();
  const sentBefore = emulator.requests.length;
  await link.click();

  // The order's trace opens in a panel of its own (the newest webview).
  const title = panel(page).locator('#title', { hasText: SHOWCASE.order });
  await title.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await panel(page).locator('[role=row]').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  assert.match(await panel(page).locator('#meta').innerText(), /\d+ spans .* 4 services/);
  // Read an hour either side of the row's time (ClickHouse writes it in UTC).
  const at = Date.parse(
    `${time
      .trim()
      .replace(' ', 'T')
      .replace(/(\.\d{3})\d*$/, '$1')}Z`,
  );
  assert.ok(Number.isFinite(at), `the row's time: ${time}`);
  let spans: string[] = [];
  await until(() => {
    spans = emulator.requests
      .slice(sentBefore)
      .map(sqlOf)
      .filter((q) => q.includes(SHOWCASE.order) && q.includes('otel_traces'));
    return spans.length > 0;
  }, 'the spans were read');
  assert.ok(spans[0]!.includes(`toInt64(${at - 3_600_000})`), `from an hour before: ${spans[0]}`);
  assert.ok(spans[0]!.includes(`toInt64(${at + 3_600_000})`), `to an hour after: ${spans[0]}`);
}

/** After a window reload the last trace opened (from the SQL result) is shown again, read in the range it had. */
async function afterReload(page: Page, emulator: Emulator): Promise<void> {
  const sentBefore = emulator.requests.length;
  await reloadWindow(page, 120_000);
  await page.locator('.statusbar').first().waitFor({ state: 'visible', timeout: 120_000 });
  await page
    .locator('.tab', { hasText: `Trace ${SHOWCASE.order.slice(0, 8)}` })
    .first()
    .waitFor({ state: 'visible', timeout: 120_000 });
  const title = panel(page).locator('#title', { hasText: SHOWCASE.order });
  await title.waitFor({ state: 'visible', timeout: 120_000 });
  await panel(page).locator('[role=row]').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  const spans = emulator.requests
    .slice(sentBefore)
    .map(sqlOf)
    .filter((q) => q.includes(SHOWCASE.order) && q.includes('otel_traces'));
  assert.ok(spans.length > 0, 'the trace was read again');
  assert.match(spans[0]!, /fromUnixTimestamp64Milli/, 'in the range it had');
}

/**
 * A span ID alone: its trace is looked up and opened, that span selected. The orphan trace (not opened before, so its
 * panel is the newest) and its latest span with a parent (not the first row, which a trace without errors selects).
 */
async function spanFromSql(page: Page, emulator: Emulator, flavor: UiFlavor): Promise<void> {
  await runCommand(page, 'Observability: New Query');
  // The reloaded window has the one connection with its one service: the query runs there without asking.
  const asked = quickInput(page).locator('.quick-input-title', { hasText: 'Run SQL on which service?' });
  const bound = page.locator('.statusbar-item', { hasText: flavor.serviceName(emulator, LABEL) }).first();
  await asked.or(bound).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  assert.equal(await asked.isVisible(), false, 'New Query asked for a service, although there is one');
  await activeEditor(page).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(
    `SELECT SpanId, SpanName, Timestamp FROM otel_traces\nWHERE TraceId = '${SHOWCASE.orphan}' AND ParentSpanId != ''\nORDER BY Timestamp DESC LIMIT 1\n`,
  );
  await page.keyboard.press('Control+Enter');
  const link = panel(page).locator('a.span').first();
  await link.waitFor({ state: 'visible', timeout: 180_000 });
  const name = (await panel(page).locator('.row div').nth(1).innerText()).trim();
  await link.click();
  await panel(page).locator('#title', { hasText: SHOWCASE.orphan }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await panel(page)
    .locator('[role=row][aria-selected=true]', { hasText: name })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await panel(page).locator('#details h2', { hasText: name }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
}
