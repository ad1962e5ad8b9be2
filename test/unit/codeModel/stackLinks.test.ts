/**
 * The frame lines of a stack trace that may open the source: each line with a frame that names a file and a line,
 * by its index in the text, for the runtimes the parser reads; other lines (messages, frames without a file or line)
 * are not among them; the text is read bounded.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { frameLines, MAX_FRAME_LINES } from '../../../src/codeModel/stackLinks';
import { MAX_LINE_CHARS } from '../../../src/codeModel/stackTrace';

const rows = (text: string) => frameLines(text).map((f) => [f.index, f.file, f.line, f.column]);

describe('frameLines', () => {
  it('Java: the frames with a file and line, by line index; generated and native frames are not among them', () => {
    const text = [
      'java.lang.IllegalStateException: refund window closed',
      '\tat com.example.orders.refund.RefundService.refund(RefundService.java:87)',
      '\tat com.example.orders.refund.RefundService$$SpringCGLIB$$0.refund(<generated>)',
      '\tat java.base/java.lang.Thread.run(Thread.java:1583)',
      '\tat sun.misc.Unsafe.park(Native Method)',
    ].join('\n');
    assert.deepEqual(rows(text), [
      [1, 'com/example/orders/refund/RefundService.java', 87, undefined],
      [3, 'java/lang/Thread.java', 1583, undefined],
    ]);
  });

  it('Node, Python, Go, .NET and Ruby lines, with CRLF line ends', () => {
    assert.deepEqual(rows('Error: x\r\n    at charge (/app/src/pay/charge.ts:42:17)\r\n    at node:internal/x:1:2'), [
      [1, '/app/src/pay/charge.ts', 42, 17],
      [2, 'node:internal/x', 1, 2],
    ]);
    assert.deepEqual(
      rows(
        'Traceback (most recent call last):\n  File "/usr/src/app/app/payments/charge.py", line 9, in charge\n    x()',
      ),
      [[1, '/usr/src/app/app/payments/charge.py', 9, undefined]],
    );
    assert.deepEqual(rows('goroutine 1 [running]:\nmain.run(0x1)\n\t/go/src/app/main.go:12 +0x1d'), [
      [2, '/go/src/app/main.go', 12, undefined],
    ]);
    assert.deepEqual(rows('   at Shop.Pay.Charge() in C:\\build\\Shop\\Pay.cs:line 31'), [
      [0, 'C:\\build\\Shop\\Pay.cs', 31, undefined],
    ]);
    assert.deepEqual(rows("/app/lib/pay.rb:5:in 'charge': declined (Declined)\n\tfrom /app/lib/run.rb:2:in '<main>'"), [
      [0, '/app/lib/pay.rb', 5, undefined],
      [1, '/app/lib/run.rb', 2, undefined],
    ]);
  });

  it('no frame lines in plain text; over-long lines skipped; at most MAX_FRAME_LINES', () => {
    assert.deepEqual(rows('payment declined\nno frames here'), []);
    assert.deepEqual(rows(`    at f (/app/${'a'.repeat(MAX_LINE_CHARS)}.ts:1:1)\n    at g (/app/g.ts:2:1)`), [
      [1, '/app/g.ts', 2, 1],
    ]);
    const many = Array.from({ length: MAX_FRAME_LINES + 50 }, (_, i) => `    at f${i} (/app/f.ts:${i + 1}:1)`);
    const got = frameLines(many.join('\n'));
    assert.equal(got.length, MAX_FRAME_LINES);
    assert.equal(got[MAX_FRAME_LINES - 1]!.index, MAX_FRAME_LINES - 1);
  });
});
