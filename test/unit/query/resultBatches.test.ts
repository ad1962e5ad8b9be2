/** A result's rows cut into messages (src/query/resultBatches.ts): in order, none twice, at most BATCH a message. */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BATCH, newFeed, nextBatch } from '../../../src/query/resultBatches';

const rows = (from: number, count: number): unknown[][] => Array.from({ length: count }, (_, i) => [from + i]);

describe('resultBatches', () => {
  it('cuts the rows handed over into batches of at most BATCH rows, in order, none past those handed over', () => {
    const f = newFeed(1);
    f.live = rows(0, BATCH + 9);
    f.available = BATCH + 5;
    const first = nextBatch(f);
    assert.equal(first?.length, BATCH);
    assert.deepEqual(first?.[0], [0]);
    f.sent += first?.length ?? 0;
    assert.deepEqual(nextBatch(f), rows(BATCH, 5));
    f.sent += 5;
    assert.equal(nextBatch(f), undefined, 'rows read but not yet handed over wait');
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
});
