/** A result's rows cut into messages (src/query/resultBatches.ts): in order, none twice, at most BATCH a message. */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BATCH, newFeed, nextBatch, takePending } from '../../../src/query/resultBatches';

const rows = (from: number, count: number): unknown[][] => Array.from({ length: count }, (_, i) => [from + i]);

describe('resultBatches', () => {
  it('cuts the blocks handed over into batches of at most BATCH rows, in order', () => {
    const f = newFeed(1);
    f.pending.push(rows(0, 3), rows(3, BATCH + 2));
    const first = nextBatch(f);
    assert.equal(first?.length, BATCH);
    assert.deepEqual(first?.[0], [0]);
    f.sent += first?.length ?? 0;
    assert.deepEqual(nextBatch(f), rows(BATCH, 5));
    assert.equal(nextBatch(f), undefined);
  });

  it('takes the rest of a whole result from where the sent rows end, and nothing once all went', () => {
    const f = newFeed(2);
    f.rest = rows(0, BATCH * 2 + 1);
    f.sent = 500;
    assert.deepEqual(nextBatch(f)?.[0], [500]);
    f.sent = BATCH * 2;
    assert.deepEqual(nextBatch(f), [[BATCH * 2]]);
    f.sent = BATCH * 2 + 1;
    assert.equal(nextBatch(f), undefined);
  });

  it('joins the blocks waiting only when there are several', () => {
    const f = newFeed(3);
    const one = rows(0, 2);
    f.pending.push(one);
    assert.equal(takePending(f), one);
    f.pending.push(rows(0, 1), rows(1, 1));
    assert.deepEqual(takePending(f), rows(0, 2));
    assert.deepEqual(f.pending, []);
  });
});
