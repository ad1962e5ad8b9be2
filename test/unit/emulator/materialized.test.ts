/**
 * The emulator's tables as the collector's ClickHouse exporter (and HyperDX's seed) create them: MATERIALIZED
 * columns (`SampleRate` of the spans, HyperDX's `__hdx_materialized_*`) are selectable by name through the tables the
 * query host reads, left out of `SELECT *`, and described as MATERIALIZED; the databases behind them stay hidden.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator';
import { SAMPLE_KEY_UUID } from '../../emulator/seed';
import { basicAuth, failOnResponseIssues } from './helpers';

failOnResponseIssues();

async function run(emu: Emulator, sql: string): Promise<{ status: number; rows: Record<string, unknown>[] }> {
  const svc = emu.serviceIds[0] as string;
  emu.state.data.get(svc)!.queryEndpoint = {
    id: 'b1f0c8e2-3a4d-4e5f-8a6b-7c8d9e0f1a2c',
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
  if (res.status !== 200) return { status: res.status, rows: [{ error: text }] };
  const rows = text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { status: res.status, rows };
}

describe('emulator materialized columns', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ rateLimit: false, now: 'start' });
  });
  after(async () => {
    await emu?.close();
  });

  it("selects the spans' SampleRate by name, as the exporter's materialized expression computes it", async () => {
    const { status, rows } = await run(
      emu,
      `SELECT count() AS n, countIf(SampleRate > 1) AS sampled,
         countIf(SampleRate != greatest(toUInt64OrZero(SpanAttributes['SampleRate']), 1)) AS wrong
       FROM otel_traces`,
    );
    assert.equal(status, 200, JSON.stringify(rows));
    const [r] = rows;
    assert.ok(Number(r!.n) > 0);
    assert.ok(Number(r!.sampled) > 0, 'some seeded spans carry a sample rate');
    assert.equal(Number(r!.wrong), 0);
  });

  it("selects HyperDX's __hdx_materialized_* columns of the logs and spans", async () => {
    const logs = await run(
      emu,
      "SELECT countIf(`__hdx_materialized_k8s.pod.name` != ResourceAttributes['k8s.pod.name']) AS wrong FROM otel_logs",
    );
    assert.equal(logs.status, 200, JSON.stringify(logs.rows));
    assert.equal(Number(logs.rows[0]!.wrong), 0);
    const spans = await run(emu, 'SELECT count(`__hdx_materialized_rum.sessionId`) AS n FROM otel_traces');
    assert.equal(spans.status, 200, JSON.stringify(spans.rows));
  });

  it('leaves them out of SELECT * and describes them as MATERIALIZED, the time columns still moved to now', async () => {
    const star = await run(emu, 'SELECT * FROM otel_traces ORDER BY Timestamp DESC LIMIT 1');
    assert.equal(star.status, 200, JSON.stringify(star.rows));
    const keys = Object.keys(star.rows[0]!);
    assert.ok(keys.includes('SpanAttributes'));
    assert.ok(!keys.includes('SampleRate'), keys.join(', '));
    assert.ok(!keys.some((k) => k.startsWith('__hdx_materialized_')), keys.join(', '));
    const last = Date.parse(`${String(star.rows[0]!.Timestamp).replace(' ', 'T')}Z`);
    assert.ok(last <= emu.now() && last > emu.now() - 3_600_000, `the newest span ${star.rows[0]!.Timestamp}`);
    const described = await run(emu, 'DESCRIBE TABLE otel_traces');
    const sampleRate = described.rows.find((r) => r.name === 'SampleRate');
    assert.equal(sampleRate?.default_type, 'MATERIALIZED');
  });

  it('keeps the databases behind the tables out of reach', async () => {
    for (const db of ['sample_base', 'sample_shifted']) {
      const { status, rows } = await run(emu, `SELECT count() FROM ${db}.otel_traces`);
      assert.equal(status, 400);
      assert.match(String(rows[0]!.error), /ACCESS_DENIED/);
    }
  });
});
