/**
 * Exceptions recorded on span events and log attributes: type, message and the stack trace's frames.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_EXCEPTION_TEXT, readException, spanExceptions } from '../../../src/codeModel/exceptions';

const PY_TRACE = `Traceback (most recent call last):
  File "/app/pay/charge.py", line 58, in charge
    return provider.request(order)
PaymentError: charge failed`;

describe('Recorded exceptions', () => {
  it("reads a span's exception events (parallel arrays as stored), skipping other events", () => {
    const names = ['retry', 'exception', 'exception'];
    const attributes = [
      { attempt: '2' },
      { 'exception.type': 'PaymentError', 'exception.message': 'charge failed', 'exception.stacktrace': PY_TRACE },
      { 'exception.type': 'TimeoutError', 'exception.escaped': 'true' },
    ];
    const got = spanExceptions(names, attributes);
    assert.equal(got.length, 2);
    assert.equal(got[0]?.type, 'PaymentError');
    assert.equal(got[0]?.message, 'charge failed');
    assert.deepEqual(
      got[0]?.trace?.frames.map((f) => [f.file, f.line, f.function]),
      [['/app/pay/charge.py', 58, 'charge']],
    );
    assert.deepEqual(got[1], { type: 'TimeoutError' });
  });

  it('reads log attributes (a Map too) and code.stacktrace', () => {
    const attrs = new Map([['code.stacktrace', '    at chargeCard (/app/src/pay/charge.ts:42:17)']]);
    assert.deepEqual(readException(attrs)?.trace?.frames[0]?.file, '/app/src/pay/charge.ts');
    assert.equal(readException({ 'http.route': '/pay' }), undefined);
    assert.equal(readException({ 'exception.type': '  ', 'exception.message': '' }), undefined);
  });

  it('bounds huge values', () => {
    const e = readException({
      'exception.message': 'm'.repeat(100_000),
      'exception.stacktrace': 'x'.repeat(1_000_000),
    });
    assert.equal(e?.message?.length, MAX_EXCEPTION_TEXT);
    assert.equal(e?.trace?.truncated, true);
    assert.deepEqual(e?.trace?.frames, []);
  });
});
