/** The waterfall's keys: moving the selection over the rows shown, collapsing and expanding, going to the parent. */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WaterfallRow } from '../../../src/traces/protocol';
import { keyAction } from '../../../src/traces/webview/keys';

const row = (depth: number, parent: number, descendants: number): WaterfallRow => ({
  depth,
  parent,
  descendants,
  flags: 0,
  offsetMs: 0,
  durationMs: 1,
  name: '',
  service: 0,
  spanId: '',
});
// root (0) > a (1) > a1 (2); root > b (3)
const ROWS = [row(0, -1, 3), row(1, 0, 1), row(2, 1, 0), row(1, 0, 0)];
const ALL = [0, 1, 2, 3];

describe('keyAction', () => {
  it('moves the selection down, up, by page, home and end, within the rows shown', () => {
    const none = new Set<number>();
    assert.deepEqual(keyAction('ArrowDown', ROWS, ALL, -1, none, 2), { select: 0 });
    assert.deepEqual(keyAction('ArrowDown', ROWS, ALL, 3, none, 2), { select: 3 });
    assert.deepEqual(keyAction('ArrowUp', ROWS, ALL, 1, none, 2), { select: 0 });
    assert.deepEqual(keyAction('PageDown', ROWS, ALL, 0, none, 2), { select: 2 });
    assert.deepEqual(keyAction('End', ROWS, ALL, 0, none, 2), { select: 3 });
    assert.deepEqual(keyAction('Home', ROWS, ALL, 3, none, 2), { select: 0 });
    // a collapsed: a1 is not shown, so Down from a goes to b.
    assert.deepEqual(keyAction('ArrowDown', ROWS, [0, 1, 3], 1, new Set([1]), 2), { select: 3 });
  });

  it('Left collapses an open parent, else goes to the parent; Right expands, else goes to the first child', () => {
    assert.deepEqual(keyAction('ArrowLeft', ROWS, ALL, 1, new Set(), 2), { collapse: 1, value: true });
    assert.deepEqual(keyAction('ArrowLeft', ROWS, [0, 1, 3], 1, new Set([1]), 2), { select: 0 });
    assert.deepEqual(keyAction('ArrowLeft', ROWS, ALL, 2, new Set(), 2), { select: 1 });
    assert.deepEqual(keyAction('ArrowRight', ROWS, [0, 1, 3], 1, new Set([1]), 2), { collapse: 1, value: false });
    assert.deepEqual(keyAction('ArrowRight', ROWS, ALL, 1, new Set(), 2), { select: 2 });
    assert.equal(keyAction('ArrowRight', ROWS, ALL, 2, new Set(), 2), undefined, 'a leaf has nothing to open');
    assert.deepEqual(keyAction('Enter', ROWS, ALL, 0, new Set(), 2), { collapse: 0, value: true });
    assert.equal(keyAction('x', ROWS, ALL, 0, new Set(), 2), undefined);
  });
});
