/**
 * The emulator's clock (EmulatorOptions.now, OBS_EMULATOR_NOW): a frozen emulator's sample data ends at its fixed
 * "now" whenever its queries run, on the query host and in the self-hosted charts and search, while an emulator
 * without one in the same process keeps moving with the wall clock.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator';
import { SAMPLE_KEY_UUID } from '../../emulator/seed';
import { frozenNowOf } from '../../emulator/server';
import { basicAuth, failOnResponseIssues } from './helpers';

failOnResponseIssues();

/** A fixed time well before the wall clock of any run, so data that moved with the wall clock cannot match it. */
const FROZEN = Date.parse('2026-03-02T10:20:30.000Z');
const DAY = 86_400_000;

/** Runs `sql` on the emulator's query host (first service) and returns the first row of `JSONEachRow`. */
async function firstRow(emu: Emulator, sql: string): Promise<Record<string, unknown>> {
  const svc = emu.serviceIds[0] as string;
  emu.state.data.get(svc)!.queryEndpoint = {
    id: 'b1f0c8e2-3a4d-4e5f-8a6b-7c8d9e0f1a2b',
    roles: ['sql_console_read_only'],
    openApiKeys: [SAMPLE_KEY_UUID],
    allowedOrigins: '',
  };
  const res = await fetch(`${emu.queryUrl}/service/${svc}/run?format=JSONEachRow`, {
    method: 'POST',
    headers: { authorization: basicAuth(emu.keyId, emu.keySecret), 'content-type': 'application/json' },
    body: JSON.stringify({ sql }),
  });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return JSON.parse(text.split('\n')[0] as string) as Record<string, unknown>;
}

const SPAN_SQL =
  'SELECT toUnixTimestamp(min(TimestampTime)) AS first, toUnixTimestamp(max(TimestampTime)) AS last, count() AS n FROM otel_logs';

describe('emulator clock', () => {
  let frozen: Emulator;
  let moving: Emulator;
  before(async () => {
    frozen = await startEmulator({ rateLimit: false, now: FROZEN });
    moving = await startEmulator({ rateLimit: false, now: false });
  });
  after(async () => {
    await frozen?.close();
    await moving?.close();
  });

  it('reads the fixed time from the option or OBS_EMULATOR_NOW, to the whole second', () => {
    assert.equal(frozenNowOf(FROZEN + 999), FROZEN);
    assert.equal(frozenNowOf('2026-03-02T10:20:30.500Z'), FROZEN);
    assert.equal(frozenNowOf(String(FROZEN)), FROZEN);
    assert.equal(frozenNowOf(undefined), undefined);
    assert.equal(frozenNowOf(false), undefined);
    assert.equal(frozenNowOf(''), undefined);
    const before = Math.floor(Date.now() / 1000) * 1000;
    const start = frozenNowOf('start')!;
    assert.ok(start >= before && start <= Date.now() && start % 1000 === 0, String(start));
    assert.throws(() => frozenNowOf('yesterday'), /Invalid emulator clock "yesterday"/);
    assert.equal(frozen.frozenNow, FROZEN);
    assert.equal(frozen.now(), FROZEN);
    assert.equal(moving.frozenNow, undefined);
    const previous = process.env.OBS_EMULATOR_NOW;
    process.env.OBS_EMULATOR_NOW = '2026-03-02T10:20:30Z';
    return startEmulator({ rateLimit: false })
      .then(async (fromEnv) => {
        assert.equal(fromEnv.now(), FROZEN, 'OBS_EMULATOR_NOW freezes an emulator without the option');
        await fromEnv.close();
        const overridden = await startEmulator({ rateLimit: false, now: false });
        assert.equal(overridden.frozenNow, undefined, 'now: false moves whatever the environment says');
        await overridden.close();
      })
      .finally(() => {
        if (previous === undefined) delete process.env.OBS_EMULATOR_NOW;
        else process.env.OBS_EMULATOR_NOW = previous;
      });
  });

  it('ends the query host’s data at the fixed time, the same in every query, while a moving emulator follows the wall clock', async () => {
    const first = await firstRow(frozen, SPAN_SQL);
    const last = Number(first.last) * 1000;
    assert.ok(
      last <= FROZEN && last > FROZEN - 60_000,
      `the data ends at the frozen now: ${new Date(last).toISOString()}`,
    );
    assert.ok(Number(first.first) * 1000 >= FROZEN - 7 * DAY, 'the data covers the 7 days before it');
    // The moving emulator's query between two of the frozen one's: each sees its own clock.
    const movingRow = await firstRow(moving, SPAN_SQL);
    assert.ok(Number(movingRow.last) * 1000 > Date.now() - DAY, 'the moving emulator’s data ends about now');
    assert.deepEqual(await firstRow(frozen, SPAN_SQL), first, 'the same rows in every query');
    // The clock set while the emulator runs: frozen a day later, then moving again.
    frozen.setClock(FROZEN + DAY);
    assert.equal(Number((await firstRow(frozen, SPAN_SQL)).last) * 1000, last + DAY, 'frozen a day later');
    frozen.setClock(false);
    assert.equal(frozen.frozenNow, undefined);
    assert.ok(Number((await firstRow(frozen, SPAN_SQL)).last) * 1000 > Date.now() - DAY, 'moving again');
    frozen.setClock(FROZEN);
    const recent = await firstRow(
      frozen,
      `SELECT count() AS n FROM otel_logs WHERE TimestampTime > toDateTime(${FROZEN / 1000} - 900)`,
    );
    assert.ok(Number(recent.n) > 0, 'the last 15 minutes before the frozen now have rows');
  });

  it('answers the self-hosted charts and a search without endTime on the fixed time', async () => {
    const oss = await startEmulator({ flavor: 'oss', rateLimit: false, now: FROZEN });
    try {
      const headers = { authorization: `Bearer ${oss.ossApiKey}`, 'content-type': 'application/json' };
      const sources = (
        (await (await fetch(`${oss.url}/api/v2/sources`, { headers })).json()) as {
          data: { id: string; kind: string }[];
        }
      ).data;
      const logsId = sources.find((s) => s.kind === 'log')?.id ?? '';
      const search = await fetch(`${oss.url}/api/v2/search`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ sourceId: logsId, select: 'Timestamp' }),
      });
      assert.equal(search.status, 200);
      const rows = ((await search.json()) as { data: { Timestamp: string }[] }).data;
      assert.ok(rows.length > 0, 'the 15 minutes before the frozen now have rows');
      for (const row of rows) {
        const t = Date.parse(`${row.Timestamp.replace(' ', 'T')}Z`);
        assert.ok(t <= FROZEN && t >= FROZEN - 15 * 60_000, row.Timestamp);
      }
      const series = await fetch(`${oss.url}/api/v2/charts/series`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          startTime: FROZEN - 3600_000,
          endTime: FROZEN,
          granularity: '5m',
          series: [{ sourceId: logsId, aggFn: 'count', where: '', groupBy: [] }],
        }),
      });
      assert.equal(series.status, 200);
      const buckets = ((await series.json()) as { data: { ts_bucket: number; 'series_0.data': number }[] }).data;
      assert.ok(buckets.length >= 12 && buckets.every((b) => b['series_0.data'] > 0), 'rows in the hour before it');
      assert.equal(buckets.at(-1)?.ts_bucket, Math.floor(FROZEN / 300_000) * 300_000, 'up to the frozen now');
    } finally {
      await oss.close();
    }
  });
});
