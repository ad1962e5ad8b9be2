import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FIRST_ROWS, ViewPost } from '../../../src/search/panelPost';
import { emptyView } from '../../../src/search/panelView';
import type { SearchView, ToPage } from '../../../src/search/protocol';

const rowsOf = (n: number, tag = 'r'): string[][] => Array.from({ length: n }, (_, i) => [`${tag}${i}`, 'body']);
const viewOf = (rows: string[][]): SearchView => ({
  ...emptyView('t', '24h', { source: {}, condition: '', language: 'lucene', range: { from: 0, to: 1 } }),
  loading: false,
  rows,
});

function poster(): { sent: ToPage[]; post: ViewPost } {
  const sent: ToPage[] = [];
  return { sent, post: new ViewPost((m) => sent.push(m)) };
}

describe('the search panel posts the first screen first', () => {
  it('posts the first rows with the view, the rest once the page painted them, and times every stage', () => {
    const { sent, post } = poster();
    const rows = rowsOf(1000);
    post.send(viewOf(rows.slice(0, FIRST_ROWS)), rows.length, 1);
    assert.equal(sent.length, 1);
    const first = sent[0] as Extract<ToPage, { type: 'view' }>;
    assert.equal(first.view.rows.length, FIRST_ROWS);
    assert.equal(first.rowCount, 1000, 'the page knows how many rows are coming');
    assert.equal(post.timing?.responseAt, 1);

    const done = post.painted({ seq: first.seq, rows: FIRST_ROWS, receivedAt: 2, drawnAt: 3, paintedAt: 4 }, rows);
    assert.equal(done, false, 'not every row is on the page yet');
    const rest = sent[1] as Extract<ToPage, { type: 'rows' }>;
    assert.equal(rest.type, 'rows');
    assert.equal(rest.seq, first.seq);
    assert.deepEqual(rest.rows, rows.slice(FIRST_ROWS), 'the other rows, in order');
    assert.equal(post.painted({ seq: first.seq, rows: 1000, paintedAt: 9 }, rows), true, 'every row drawn');
    const t = post.timing!;
    assert.deepEqual([t.receivedAt, t.drawnAt, t.paintedAt, t.allPaintedAt], [2, 3, 4, 9]);
    assert.ok(t.reportedAt! >= t.postedAt && t.restPostedAt! >= t.reportedAt!);
  });

  it('a small result goes whole; a failed one with no rows', () => {
    const { sent, post } = poster();
    const rows = rowsOf(30);
    post.send(viewOf(rows), rows.length, 1);
    const m = sent[0] as Extract<ToPage, { type: 'view' }>;
    assert.equal(m.view.rows.length, 30);
    assert.equal(post.painted({ seq: m.seq, rows: 30, paintedAt: 2 }, rows), true);
    assert.equal(sent.length, 1, 'nothing follows');
    post.send(viewOf([]), 0, 3);
    assert.equal(post.painted({ seq: m.seq! + 1, rows: 0 }, []), true);
  });

  it("a live tail's rows prepended before the rest came: the rest still follows the page's first screen", () => {
    const { sent, post } = poster();
    const rows = rowsOf(500);
    post.send(viewOf(rows.slice(0, FIRST_ROWS)), rows.length, 1);
    const fresh = rowsOf(3, 'new');
    post.prepended(fresh.length);
    const all = [...fresh, ...rows];
    const seq = (sent[0] as Extract<ToPage, { type: 'view' }>).seq;
    assert.equal(post.painted({ seq, rows: FIRST_ROWS + 3 }, all), false);
    assert.deepEqual((sent[1] as Extract<ToPage, { type: 'rows' }>).rows, rows.slice(FIRST_ROWS));
  });

  it("the page's ready re-posts the view: the report of either completes the search's timing, the rest follows the last", () => {
    const { sent, post } = poster();
    const rows = rowsOf(300);
    post.send(viewOf(rows.slice(0, FIRST_ROWS)), rows.length, 1);
    post.send(viewOf(rows), rows.length);
    const [a, b] = sent as Extract<ToPage, { type: 'view' }>[];
    assert.equal(b!.view.rows.length, FIRST_ROWS, 'the re-post holds the first screen too');
    assert.equal(post.painted({ seq: a!.seq, rows: FIRST_ROWS, paintedAt: 5 }, rows), false);
    assert.equal(post.timing?.paintedAt, 5, 'the first paint the user saw');
    assert.equal(sent.length, 2, 'the rest waits for the view the page now has');
    assert.equal(post.painted({ seq: b!.seq, rows: FIRST_ROWS, paintedAt: 6 }, rows), false);
    assert.deepEqual((sent[2] as Extract<ToPage, { type: 'rows' }>).rows, rows.slice(FIRST_ROWS));
    assert.equal(post.painted({ seq: b!.seq, rows: 300 }, rows), true);
  });
});
