/** The stages of a result on its way to the screen, stamped in the extension host and the webview (resultTimeline.ts). */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stampFeed, stampWebview, type TimelineHolder } from '../../../src/query/resultTimeline';

describe('result timeline', () => {
  it('puts the stamps of a streamed result in order, each stage once', () => {
    const h: TimelineHolder = {};
    stampFeed(h, 4, 'firstBatch', 10);
    stampFeed(h, 4, 'firstPosted', 11);
    stampWebview(h, 'painted', 4, { received: 30, at: 45 }, 60);
    stampFeed(h, 4, 'summaryPosted', 50);
    stampWebview(h, 'rendered', 4, { received: 70, at: 80 }, 95);
    stampWebview(h, 'rendered', 4, { received: 170, at: 180 }, 195);
    stampWebview(h, 'loaded', 4, { at: 120 }, 125);
    assert.deepEqual(h.timeline, {
      seq: 4,
      firstBatch: 10,
      firstPosted: 11,
      firstReceived: 30,
      firstPainted: 45,
      summaryPosted: 50,
      summaryReceived: 70,
      summaryPainted: 80,
      reportReceived: 95,
      allRowsIn: 120,
    });
  });

  it('takes a result shown whole as painted with its summary, and drops the stamps of an older result', () => {
    const h: TimelineHolder = {};
    stampFeed(h, 1, 'firstBatch', 5);
    stampFeed(h, 2, 'firstPosted', 10);
    stampFeed(h, 2, 'summaryPosted', 10);
    stampWebview(h, 'loaded', 1, { at: 12 }, 13);
    stampFeed(h, 1, 'summaryPosted', 14);
    stampWebview(h, 'rendered', 2, { received: 20, at: 30 }, 40);
    assert.deepEqual(h.timeline, {
      seq: 2,
      firstPosted: 10,
      summaryPosted: 10,
      firstReceived: 20,
      firstPainted: 30,
      summaryReceived: 20,
      summaryPainted: 30,
      reportReceived: 40,
    });
  });
});
