/**
 * A result whose rows are kept as text (as Run Query keeps them) on its way to the results webview: the messages
 * carry exactly what they carry for parsed rows, streamed or shown whole, so the table shows the same cells.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { failureFor } from '../../../src/api/query/queryError';
import { ResultDecoder } from '../../../src/api/query/resultDecoder';
import type { ResultRows } from '../../../src/api/query/resultRows';
import type { ToWebview } from '../../../src/query/panelMessages';
import { ResultFeed } from '../../../src/query/resultFeed';

const META = { service: 's', sql: 'SELECT …', maxRows: 1_000_000, maxBytes: 1 << 26 };
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/** 12,000 rows with a map, an array, a wide integer and a trace ID, read in 16 KiB chunks. */
function decoded(compact: boolean, onBatch?: (rows: ResultRows) => void): ResultDecoder {
  const lines = [
    '["TraceId","m","a","big"]',
    '["String","Map(String, String)","Array(UInt32)","UInt64"]',
    ...Array.from(
      { length: 12_000 },
      (_, i) => `["${i.toString(16).padStart(32, '0')}",{"k":"${i}","q":"\\""},[${i},2],"${i * 4_000_000_000_000}"]`,
    ),
  ];
  const d = new ResultDecoder({
    base: { operation: 'Run query', method: 'POST', path: '/' },
    fail: failureFor(() => []),
    maxRows: 1_000_000,
    maxBytes: 1 << 26,
    compactRows: compact,
    onBatch,
  });
  const body = Buffer.from(lines.join('\n') + '\n');
  for (let i = 0; i < body.length; i += 16_384) d.push(body.subarray(i, i + 16_384));
  d.end();
  return d;
}

/** Every message a result's feed posts, streamed while it is read or shown whole, until every row went. */
async function messages(compact: boolean, streamed: boolean): Promise<ToWebview[]> {
  const posted: ToWebview[] = [];
  const feed = new ResultFeed({ open: tick, post: (m) => posted.push(m), labels: () => ({}), holdMs: 0 });
  const stream = streamed ? feed.stream(META) : undefined;
  const d = decoded(compact, stream ? (rows) => stream.onBatch(rows, d.columns) : undefined);
  await tick();
  const rows = d.textRows ?? d.rows;
  const meta = { ...META, rowCount: rows.length };
  const claimed = stream ? await feed.claim(stream) : undefined;
  const seq = claimed ? (feed.finish(claimed, rows, meta), claimed.seq) : feed.sendWhole(d.columns, rows, meta);
  feed.painted(seq);
  for (let i = 0; i < 20; i++) feed.acknowledged(seq);
  return posted;
}

describe('rows kept as text, to the results webview', () => {
  for (const streamed of [true, false]) {
    it(`posts the same messages as parsed rows (${streamed ? 'streamed' : 'shown whole'})`, async () => {
      const asText = await messages(true, streamed);
      const parsed = await messages(false, streamed);
      assert.ok(asText.length > 3, `messages: ${asText.length}`);
      assert.deepEqual(asText, parsed);
      const last = asText.at(-1);
      assert.equal(last?.type, 'rows');
      const rows = last?.type === 'rows' ? (JSON.parse(last.rowsJson) as unknown[][]) : [];
      assert.deepEqual(rows.at(-1), [
        '00000000000000000000000000002edf',
        { k: '11999', q: '"' },
        [11_999, 2],
        '47996000000000000',
      ]);
    });
  }
});
