/**
 * The rows of a result on their way to the results webview (src/query/resultFeed.ts), with a recording stand-in for
 * the panel: what goes in which message, and when.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ToWebview } from '../../../src/query/panelMessages';
import { BATCH, FIRST, ResultFeed, type ResultStream } from '../../../src/query/resultFeed';

const COLUMNS = [{ name: 'n', type: 'UInt32' }];
const rows = (from: number, count: number): unknown[][] => Array.from({ length: count }, (_, i) => [from + i]);
const META = { service: 's', sql: 'SELECT n', maxRows: 1_000_000, maxBytes: 1 << 26 };
const summary = (rowCount: number) => ({ ...META, rowCount, truncated: null, elapsedMs: 5 });
const tick = () => new Promise((r) => setImmediate(r));

/** Hands `count` more rows to a stream as the query client does: every row read so far (`live`, which grows). */
function more(stream: ResultStream, live: unknown[][], count: number): void {
  live.push(...rows(live.length, count));
  stream.onBatch(live, COLUMNS);
}

function setup() {
  const posted: ToWebview[] = [];
  let opens = 0;
  const feed = new ResultFeed({
    open: async () => {
      opens++;
      await tick();
    },
    post: (m) => posted.push(m),
    labels: () => ({ rows: 'rows' }),
    holdMs: 0,
  });
  /** The rows the webview holds, as it would rebuild them from the messages. */
  const received = (): unknown[][] => {
    const all: unknown[][] = [];
    for (const m of posted) {
      if (m.type === 'result') all.splice(0, all.length, ...(JSON.parse(m.rowsJson) as unknown[][]));
      if (m.type === 'rows') (JSON.parse(m.rowsJson) as unknown[][]).forEach((r, i) => (all[m.from + i] = r));
    }
    return all;
  };
  return { feed, posted, received, opens: () => opens };
}

describe('ResultFeed', () => {
  it('paints the first rows at once, one batch in flight while the query runs, the summary never behind a backlog', async () => {
    const { feed, posted, received, opens } = setup();
    const stream = feed.stream(META);
    const live: unknown[][] = [];
    more(stream, live, 800);
    more(stream, live, 7000);
    await tick();
    assert.equal(opens(), 1);
    assert.equal(posted.length, 1);
    const first = posted[0];
    assert.equal(first?.type, 'result');
    assert.equal(first?.type === 'result' && JSON.parse(first.rowsJson).length, FIRST);
    assert.deepEqual(first?.type === 'result' && first.meta, { ...META, rowCount: 7800, streaming: true });
    more(stream, live, 200);
    assert.equal(posted.length, 1, 'nothing more until the first message is taken');
    feed.acknowledged(first!.seq);
    assert.equal(posted.length, 2);
    assert.deepEqual(posted[1]?.type === 'rows' && [posted[1].from, JSON.parse(posted[1].rowsJson).length], [
      FIRST,
      BATCH,
    ]);

    // The query ends with a batch in flight: the summary goes now; the rest waits for the table to be painted.
    const claimed = await feed.claim(stream);
    assert.ok(claimed);
    const all = rows(0, 8000);
    feed.finish(claimed, all, summary(8000));
    assert.equal(posted.at(-1)?.type, 'done');
    feed.acknowledged(claimed.seq);
    assert.equal(posted.at(-1)?.type, 'done', 'the rest waits for the painted table');
    feed.painted(claimed.seq);
    assert.equal(posted.at(-1)?.type, 'rows');
    feed.acknowledged(claimed.seq);
    feed.acknowledged(claimed.seq);
    assert.deepEqual(received(), all);
    const count = posted.length;
    feed.acknowledged(claimed.seq);
    feed.painted(claimed.seq);
    assert.equal(posted.length, count, 'nothing after the last row');
  });

  it('sends a result shown whole as its first screens, then the rest one batch at a time once painted', () => {
    const { feed, posted, received } = setup();
    const all = rows(0, 12_000);
    const seq = feed.sendWhole(COLUMNS, all, summary(12_000));
    assert.equal(posted.length, 1);
    assert.equal(posted[0]?.type === 'result' && posted[0].meta.rowCount, 12_000);
    feed.acknowledged(seq);
    assert.equal(posted.length, 1, 'nothing before the first screens are painted');
    feed.painted(seq);
    assert.equal(posted.length, 2);
    feed.painted(seq);
    assert.equal(posted.length, 2, 'one batch in flight');
    while (posted.length < 10 && posted.at(-1)?.type === 'rows') {
      const before = posted.length;
      feed.acknowledged(seq);
      if (posted.length === before) break;
    }
    assert.deepEqual(received(), all);
  });

  it('says once that rows of a shown result cannot be read, and sends none after them', () => {
    const posted: ToWebview[] = [];
    const failures: unknown[] = [];
    const feed = new ResultFeed({
      open: async () => undefined,
      post: (m) => posted.push(m),
      labels: () => ({}),
      failed: (e) => failures.push(e),
    });
    const good = rows(0, FIRST + BATCH);
    // Rows read by range that fail past the first batch (as rows kept as text with a line that is not JSON).
    const flawed = {
      length: FIRST + BATCH * 3,
      slice: (a = 0, b = FIRST + BATCH * 3) => {
        if (b > good.length) throw new Error('line 9 of the result is not a row of JSON');
        return good.slice(a, b);
      },
    };
    const seq = feed.sendWhole(COLUMNS, flawed, summary(flawed.length));
    feed.painted(seq);
    feed.acknowledged(seq);
    feed.acknowledged(seq);
    feed.painted(seq);
    assert.deepEqual(
      posted.map((m) => m.type),
      ['result', 'rows'],
      'the first screens and the batch that could be read',
    );
    assert.equal(failures.length, 1);
    assert.match(String(failures[0]), /line 9/);
  });

  it('shows whole a result read within the hold; streams the first rows of one read longer once the hold is over', async () => {
    const posted: ToWebview[] = [];
    // A hold far longer than the test: the quick result ends within it however busy the machine is.
    const feed = new ResultFeed({
      open: async () => void (await tick()),
      post: (m) => posted.push(m),
      labels: () => ({}),
      holdMs: 60_000,
    });
    const quick = feed.stream(META);
    more(quick, [], 300);
    await tick();
    assert.equal(posted.length, 0, 'the first rows wait for the end of the query');
    assert.equal(await feed.claim(quick), undefined, 'ended within the hold: shown whole');
    feed.sendWhole(COLUMNS, rows(0, 300), summary(300));
    await new Promise((r) => setTimeout(r, 30));
    assert.deepEqual(
      posted.map((m) => m.type),
      ['result'],
      'one message: the first rows with the summary',
    );

    // A hold of 1 ms, over before the 30 ms wait ends (timers fire in order).
    const slowFeed = new ResultFeed({
      open: async () => void (await tick()),
      post: (m) => posted.push(m),
      labels: () => ({}),
      holdMs: 1,
    });
    const slow = slowFeed.stream(META);
    more(slow, [], 300);
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(posted.length, 2);
    assert.equal(posted[1]?.type === 'result' && posted[1].meta.streaming, true, 'the first rows went while it runs');
    assert.ok(await slowFeed.claim(slow));
  });

  it('drops a stream whose query failed, tells the page, and ignores rows after', async () => {
    const { feed, posted } = setup();
    const stream = feed.stream(META);
    const live: unknown[][] = [];
    more(stream, live, 10);
    await tick();
    stream.abort();
    assert.deepEqual(posted.at(-1), { type: 'abort', seq: posted[0]?.seq });
    more(stream, live, 10);
    assert.equal(posted.length, 2);
    assert.equal(await feed.claim(stream), undefined);
  });

  it('shows whole a result whose stream had no rows, or whose panel closed', async () => {
    const { feed, posted } = setup();
    const empty = feed.stream(META);
    assert.equal(await feed.claim(empty), undefined);
    assert.equal(posted.length, 0, 'an empty stream never opened the panel');
    const closed = feed.stream(META);
    more(closed, [], 10);
    await tick();
    feed.closed();
    assert.equal(await feed.claim(closed), undefined);
  });

  it('lets an older result go when a newer one starts', async () => {
    const { feed, posted } = setup();
    const older = feed.sendWhole(COLUMNS, rows(0, 6000), summary(6000));
    const newer = feed.stream(META);
    more(newer, [], 10);
    await tick();
    feed.painted(older);
    feed.acknowledged(older);
    assert.deepEqual(
      posted.map((m) => m.type),
      ['result', 'result'],
      'no rows of the older result after the newer one started',
    );
  });

  it('notes when the first rows of a result were handed over and posted, and when its summary was posted', async () => {
    const stamps: [number, string][] = [];
    const feed = new ResultFeed({
      open: async () => {
        await tick();
      },
      post: () => undefined,
      labels: () => ({}),
      stamp: (seq, stage) => stamps.push([seq, stage]),
      holdMs: 0,
    });
    const stream = feed.stream(META);
    const live: unknown[][] = [];
    more(stream, live, 10);
    assert.deepEqual(stamps, [[1, 'firstBatch']], 'handed over, not posted before the page is ready');
    more(stream, live, 10);
    const f = await feed.claim(stream);
    assert.ok(f);
    feed.finish(f, rows(0, 20), summary(20));
    const whole = feed.sendWhole(COLUMNS, rows(0, 5), summary(5));
    assert.deepEqual(stamps, [
      [1, 'firstBatch'],
      [1, 'firstPosted'],
      [1, 'summaryPosted'],
      [whole, 'firstPosted'],
      [whole, 'summaryPosted'],
    ]);
  });
});
