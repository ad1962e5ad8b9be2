/** Result cells that hold a stack trace (src/query/cellStacks.ts): which cells, and the bounds. */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_SCANNED_CHARS, MAX_SCANNED_ROWS, MAX_STACK_CELLS, stackCells } from '../../../src/query/cellStacks';

const NODE = [
  'Error: declined',
  '    at charge (/app/src/checkout/cart.ts:10:3)',
  '    at main (/app/main.js:2:1)',
].join('\n');
const PYTHON = [
  'Traceback (most recent call last):',
  '  File "/usr/src/app/app/payments/charge.py", line 19, in validate_amount',
  '    raise ValueError(f"amount must be positive, got {amount}")',
  'ValueError: amount must be positive, got -1',
].join('\n');
const JAVA = [
  'java.lang.IllegalStateException: refund window closed',
  '\tat com.example.orders.refund.RefundService.refund(RefundService.java:87)',
].join('\n');

describe('stackCells', () => {
  it('finds the text cells of several lines that hold frames with a file and a line, in any runtime', () => {
    const rows = [
      ['2026-11-29 01:00:00', NODE, 42],
      ['plain text', 'two\nlines without frames', null],
      [{ nested: NODE }, PYTHON, JAVA],
      undefined,
      ['    at charge (/app/src/checkout/cart.ts:10:3)'],
    ];
    assert.deepEqual(
      stackCells(rows).map((c) => [c.row, c.col]),
      [
        [0, 1],
        [2, 1],
        [2, 2],
      ],
      'one-line cells, objects, numbers, NULL and rows not yet arrived are not stack traces',
    );
    assert.equal(stackCells(rows)[0]?.text, NODE);
  });

  it('reads a bounded number of rows and cells', () => {
    const many = Array.from({ length: MAX_SCANNED_ROWS + 10 }, () => [NODE, NODE]);
    assert.equal(stackCells(many).length, MAX_STACK_CELLS);
    const late = Array.from({ length: MAX_SCANNED_ROWS + 10 }, (_, i) => [i >= MAX_SCANNED_ROWS ? NODE : 'x']);
    assert.deepEqual(stackCells(late), [], 'rows past the scanned ones are not read');
    const big = `${'x'.repeat(60_000)}\n`;
    const heavy = Array.from({ length: Math.ceil(MAX_SCANNED_CHARS / big.length) + 5 }, () => [big]);
    heavy.push([NODE]);
    assert.deepEqual(stackCells(heavy), [], 'no more text than the budget is read');
  });
});
