/**
 * A result's rows kept as the text of their lines (`compactRows`, as Run Query keeps them; resultRows.ts): the same
 * rows, caps, errors, hand-overs and exports as parsed rows, the bounds still checked before anything is parsed, and
 * about the body's size held instead of about twice it.
 */
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { startEmulator, type Emulator } from '../../../emulator/server';
import { SAMPLE_KEY_UUID } from '../../../emulator/seed';
import { RateLimiter } from '../../../../src/api';
import { MAX_ROW_CONTAINERS } from '../../../../src/api/jsonBounds';
import { QueryClient, toCsv, toJsonObjects, toMarkdown, type QueryColumn } from '../../../../src/api/query';
import { failureFor, QueryError } from '../../../../src/api/query/queryError';
import { ResultDecoder } from '../../../../src/api/query/resultDecoder';
import type { ResultRows } from '../../../../src/api/query/resultRows';

const BASE = { operation: 'Run query', method: 'POST', path: '/' };
const SERVICES = ['checkout', 'cart', 'payment', 'frontend'];

/** A body like the sample logs' (time, service, message, attributes map), plus a wide integer column. */
function logsBody(rows: number, extra = ''): string {
  const lines = [
    '["Timestamp","ServiceName","Body","LogAttributes","Bytes"]',
    '["DateTime64(9)","LowCardinality(String)","String","Map(LowCardinality(String), String)","UInt64"]',
  ];
  for (let i = 0; i < rows; i++) {
    const attrs =
      i % 3 === 0 ? `{"payment.status":"declined","n":"${i}"}` : `{"http.method":"GET","user.id":"${i % 5000}"}`;
    // Quoted 64-bit integers (ClickHouse's default), and now and then a bare one beyond 2^53.
    const wide = i % 7 === 0 ? '18446744073709551615' : `"${i * 1000}"`;
    lines.push(
      `["2026-11-22 03:57:${String(i % 60).padStart(2, '0')}.846499406","${SERVICES[i % 4]}","GET \\/api\\/cart 200 in ${i % 400} ms ${extra}",${attrs},${wide}]`,
    );
  }
  return lines.join('\n') + '\n';
}

interface Read {
  d: ResultDecoder;
  rows: ResultRows;
  /** How many rows had been read each time rows were handed over. */
  handed: number[];
}

/** Reads `body` in chunks of `chunk` bytes, rows kept as text or parsed. */
function read(body: string, o: { compact: boolean; chunk: number; maxRows?: number; maxBytes?: number }): Read {
  const handed: number[] = [];
  const d = new ResultDecoder({
    base: BASE,
    fail: failureFor(() => []),
    maxRows: o.maxRows ?? 1_000_000,
    maxBytes: o.maxBytes ?? 64 * 1024 * 1024,
    compactRows: o.compact,
    onBatch: (rows) => {
      assert.equal(rows, d.textRows ?? d.rows, 'the rows handed over are the result being read');
      handed.push(rows.length);
    },
  });
  const bytes = Buffer.from(body);
  let stop = false;
  for (let i = 0; i < bytes.length && !stop; i += o.chunk) stop = d.push(bytes.subarray(i, i + o.chunk));
  if (!stop) d.end();
  return { d, rows: d.textRows ?? d.rows, handed };
}

/** `fn`'s value and how many times it called `JSON.parse`. */
function countingParses<T>(fn: () => T): { value: T; parses: number } {
  const real = JSON.parse;
  let parses = 0;
  JSON.parse = ((t: string, r?: Parameters<typeof JSON.parse>[1]) => {
    parses++;
    return real(t, r);
  }) as typeof JSON.parse;
  try {
    return { value: fn(), parses };
  } finally {
    JSON.parse = real;
  }
}

function thrown(fn: () => unknown): QueryError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof QueryError, String(e));
    return e;
  }
  assert.fail('expected a QueryError');
}

describe('rows kept as text (compactRows)', () => {
  it('gives the same rows as parsed rows, whatever the chunks, for any range read', () => {
    const body = logsBody(3000);
    const parsed = read(body, { compact: false, chunk: 65536 });
    assert.equal(parsed.rows.length, 3000);
    for (const chunk of [1, 97, 4096, 65536]) {
      const text = read(body, { compact: true, chunk });
      assert.ok(text.d.textRows, 'the rows are kept as text');
      assert.equal(text.d.rows.length, 0, 'and not parsed');
      assert.equal(text.rows.length, 3000);
      assert.deepEqual(text.rows.slice(), parsed.rows.slice(), `chunks of ${chunk} bytes`);
      for (const [a, b] of [
        [0, 1],
        [499, 2501],
        [2999, 5000],
        [-10, undefined],
        [-5000, 3],
        [10, 5],
        [NaN, 2],
      ] as const) {
        assert.deepEqual(text.rows.slice(a, b), parsed.d.rows.slice(a, b), `slice(${a}, ${b})`);
      }
      const sameChunks = read(body, { compact: false, chunk });
      assert.deepEqual(text.handed, sameChunks.handed, 'rows are handed over as they arrive, as parsed rows are');
      assert.equal(text.handed.at(-1), 3000);
    }
    const first = parsed.rows.slice(0, 1)[0] as unknown[];
    assert.deepEqual(first[3], { 'payment.status': 'declined', n: '0' }, 'a map cell is an object');
    assert.equal(first[4], '18446744073709551615', 'a wide integer keeps its digits');
    assert.equal((parsed.rows.slice(1, 2)[0] as unknown[])[4], 1000, 'a quoted 64-bit integer is a number');
  });

  it('stops at the row cap and the byte cap where parsed rows stop', () => {
    const body = logsBody(5000);
    for (const caps of [{ maxRows: 1234 }, { maxBytes: 200_000 }, { maxRows: 10, maxBytes: 300 }]) {
      const parsed = read(body, { compact: false, chunk: 8192, ...caps });
      const text = read(body, { compact: true, chunk: 8192, ...caps });
      assert.equal(text.d.stop, parsed.d.stop, JSON.stringify(caps));
      assert.equal(text.d.bytes, parsed.d.bytes);
      assert.equal(text.rows.length, parsed.rows.length);
      assert.deepEqual(text.rows.slice(), parsed.rows.slice());
    }
  });

  it('keeps the rows of a block read line by line, in order', () => {
    // A blank line makes its block fail the one-parse path: that block is read line by line.
    const body = logsBody(50).replace('\n["2026-11-22 03:57:10', '\n\n["2026-11-22 03:57:10');
    const parsed = read(body, { compact: false, chunk: 1 << 20 });
    const text = read(body, { compact: true, chunk: 1 << 20 });
    assert.equal(text.rows.length, 50);
    assert.deepEqual(text.rows.slice(), parsed.rows.slice());
    const split = read(body, { compact: true, chunk: 700 });
    assert.deepEqual(split.rows.slice(), parsed.rows.slice());
  });

  it('names the rows read before an error in the result, as parsed rows do', () => {
    const body = logsBody(40) + 'Code: 241. DB::Exception: Memory limit exceeded. (MEMORY_LIMIT_EXCEEDED)\n';
    for (const compact of [false, true]) {
      const e = thrown(() => read(body, { compact, chunk: 1 << 20 }));
      assert.equal(e.kind, 'invalidRequest');
      assert.equal(e.rowsBeforeError, 40);
    }
  });

  it('checks the bounds of a line before anything is parsed', () => {
    const deep = `${'['.repeat(MAX_ROW_CONTAINERS + 5)}${']'.repeat(MAX_ROW_CONTAINERS + 5)}`;
    const body = logsBody(3).replace(/\n$/, `\n${deep}\n`);
    const real = JSON.parse;
    const parsedLengths: number[] = [];
    JSON.parse = ((t: string, r?: Parameters<typeof JSON.parse>[1]) => {
      parsedLengths.push(String(t).length);
      return real(t, r);
    }) as typeof JSON.parse;
    try {
      const e = thrown(() => read(body, { compact: true, chunk: 1 << 20 }));
      assert.equal(e.kind, 'invalidResponse');
      assert.match(e.message, /bound per row/);
    } finally {
      JSON.parse = real;
    }
    assert.ok(
      parsedLengths.every((n) => n < deep.length),
      'the line over the bound never reached JSON.parse',
    );
  });

  it('parses only the blocks of the range read', () => {
    const text = read(logsBody(6000), { compact: true, chunk: 16384 });
    const { value, parses } = countingParses(() => text.rows.slice(5990, 5995));
    assert.equal(value.length, 5);
    assert.ok(parses >= 1 && parses <= 2, `blocks parsed for 5 rows: ${parses}`);
  });

  it('parses no row while the result is read: only the column names and types', () => {
    const { value: text, parses } = countingParses(() => read(logsBody(6000), { compact: true, chunk: 16384 }));
    assert.equal(parses, 2, 'the two header lines');
    assert.equal(text.rows.length, 6000);
    assert.deepEqual(text.rows.slice(), read(logsBody(6000), { compact: false, chunk: 16384 }).rows);
  });

  for (const [what, bad] of [
    ['not JSON', '["2026-11-22 03:57:10","cart","cut off'],
    ['two rows on one line', '["2026-11-22 03:57:10","cart","a",{},"1"],["x","y","z",{},"2"]'],
    ['not an array of values', '[{"a":1}]x'],
  ] as const) {
    it(`names a line of rows that is ${what} when a range of its block is read, counting the rows before it`, () => {
      const lines = logsBody(30).split('\n');
      lines.splice(2 + 17, 1, bad); // row 17 (0-based), line 20 of the body
      const text = read(lines.join('\n'), { compact: true, chunk: 1 << 20 });
      assert.equal(text.rows.length, 30, 'a line of rows is counted as it arrives');
      const e = thrown(() => text.rows.slice(0, 5));
      assert.equal(e.kind, 'invalidResponse');
      assert.match(e.message, /line 20 of the result is not a row of JSON/);
      assert.equal(e.rowsBeforeError, 17);
      assert.throws(() => text.rows.slice(20, 21), /line 20/);
    });
  }

  it('copies and saves the same CSV, Markdown and JSON (maps as objects)', () => {
    const body = logsBody(12_001, '\\"quoted\\", | piped');
    const parsed = read(body, { compact: false, chunk: 65536 });
    const text = read(body, { compact: true, chunk: 65536 });
    const columns: QueryColumn[] = text.d.columns;
    assert.equal(toCsv(columns, text.rows), toCsv(columns, parsed.d.rows));
    assert.equal(toMarkdown(columns, text.rows), toMarkdown(columns, parsed.d.rows));
    const json = toJsonObjects(columns, text.rows);
    assert.deepEqual(json, toJsonObjects(columns, parsed.d.rows));
    assert.equal(json.length, 12_001);
    assert.deepEqual(json[1]?.LogAttributes, { 'http.method': 'GET', 'user.id': '1' });
  });

  it('holds about the body size, where parsed rows hold nearly twice it', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const body = logsBody(80_000);
    const held = (compact: boolean): number => {
      gc();
      const before = process.memoryUsage().heapUsed;
      const r = read(body, { compact, chunk: 65536 });
      gc();
      const growth = process.memoryUsage().heapUsed - before;
      assert.equal(r.rows.length, 80_000);
      return growth;
    };
    const bytes = Buffer.byteLength(body);
    const asText = held(true);
    const asParsed = held(false);
    assert.ok(asText < 1.2 * bytes, `kept as text: ${asText} bytes held for ${bytes} bytes of body`);
    assert.ok(asParsed > 1.4 * bytes, `parsed: ${asParsed} bytes held for ${bytes} bytes of body`);
  });
});

describe('rows kept as text, through the query client on the sample logs', () => {
  let emu: Emulator;
  let client: QueryClient;
  let svc: string;

  before(async () => {
    emu = await startEmulator({ rateLimit: false, now: 'start' });
    svc = emu.serviceIds[0] as string;
    const data = emu.state.data.get(svc);
    assert.ok(data);
    data.queryEndpoint = {
      id: 'b1f0c8e2-3a4d-4e5f-8a6b-7c8d9e0f1a2b',
      roles: ['sql_console_read_only'],
      openApiKeys: [SAMPLE_KEY_UUID],
      allowedOrigins: '',
    };
    client = new QueryClient({
      queryUrl: emu.queryUrl,
      keyId: emu.keyId,
      getSecret: () => emu.keySecret,
      limiter: new RateLimiter({ requests: 1000, windowMs: 1000 }),
    });
  });

  after(async () => {
    await client?.dispose();
    await emu?.close();
  });

  it('reads the same rows up to the byte cap as a parsed read', { timeout: 180_000 }, async () => {
    const opts = {
      serviceId: svc,
      sql: 'SELECT Timestamp, ServiceName, Body, LogAttributes, TraceId FROM otel_logs ORDER BY Timestamp',
      maxRows: 1_000_000,
      maxBytes: 2 * 1024 * 1024,
    };
    const parsed = await client.run(opts);
    const text = await client.run({ ...opts, compactRows: true });
    assert.equal(parsed.truncated, 'bytes');
    assert.equal(text.truncated, 'bytes');
    assert.equal(text.bytes, parsed.bytes);
    assert.ok(text.rows.length > 5000, `rows: ${text.rows.length}`);
    assert.equal(text.rows.length, parsed.rows.length);
    assert.deepEqual(text.rows.slice(), parsed.rows);
    const attrs = (text.rows.slice(0, 1)[0] as unknown[])[3];
    assert.ok(typeof attrs === 'object' && attrs !== null && !Array.isArray(attrs), 'a map cell is an object');
  });
});
