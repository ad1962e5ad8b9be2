/**
 * Logger calls with literal messages, per language, turned into fixed parts and LIKE patterns; the patterns match
 * the bodies the calls write (checked here by a LIKE evaluator written from ClickHouse's rules).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findLogLiterals, fixedParts, likePattern, MAX_LITERALS } from '../../../src/codeModel/logLiterals';

/** ClickHouse's LIKE: `%` any text, `_` one character, `\` escapes the next character. */
function like(body: string, pattern: string): boolean {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\') re += (pattern[++i] ?? '').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    else if (c === '%') re += '[\\s\\S]*';
    else if (c === '_') re += '[\\s\\S]';
    else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`).test(body);
}

const CASES: { name: string; line: string; call: string; parts: string[]; body: string; notBody?: string }[] = [
  {
    name: 'Node logger with printf placeholders',
    line: '  logger.info("payment declined for %s", id);',
    call: 'logger.info',
    parts: ['payment declined for '],
    body: 'payment declined for order-42',
  },
  {
    name: 'template literal',
    line: '    console.warn(`cart ${cart.id} is empty after ${n} tries`);',
    call: 'console.warn',
    parts: ['cart ', ' is empty after ', ' tries'],
    body: 'cart c-9 is empty after 3 tries',
    notBody: 'cart c-9 is full after 3 tries',
  },
  {
    name: 'this.logger with single quotes and escapes',
    line: "this.logger.error('can\\'t reach provider\\n', err)",
    call: 'this.logger.error',
    parts: ["can't reach provider\n"],
    body: "can't reach provider\n",
  },
  {
    name: 'Python f-string',
    line: '        log.info(f"charged {amount:.2f} to {card.last4}")',
    call: 'log.info',
    parts: ['charged ', ' to '],
    body: 'charged 12.50 to 4242',
  },
  {
    name: 'Python %-style with names and a literal percent',
    line: '    logging.warning("retry %(attempt)d of %(total)d at 100%% load", ctx)',
    call: 'logging.warning',
    parts: ['retry ', ' of ', ' at 100% load'],
    body: 'retry 2 of 5 at 100% load',
    notBody: 'retry 2 of 5 at 1000 load',
  },
  {
    name: 'Python raw string keeps backslashes',
    line: "    logger.debug(r'path C:\\tmp\\%s not found', p)",
    call: 'logger.debug',
    parts: ['path C:\\tmp\\', ' not found'],
    body: 'path C:\\tmp\\x not found',
  },
  {
    name: 'Go log.Printf',
    line: '\tlog.Printf("retrying %s in %v (attempt %d)", url, delay, n)',
    call: 'log.Printf',
    parts: ['retrying ', ' in ', ' (attempt ', ')'],
    body: 'retrying https://x in 2s (attempt 3)',
  },
  {
    name: 'Go slog',
    line: '\tslog.Error("charge failed", "order", id)',
    call: 'slog.Error',
    parts: ['charge failed'],
    body: 'charge failed',
  },
  {
    name: 'Java SLF4J',
    line: '        LOGGER.info("Payment {} declined: {}", orderId, reason);',
    call: 'LOGGER.info',
    parts: ['Payment ', ' declined: '],
    body: 'Payment 42 declined: insufficient_funds',
  },
  {
    name: '.NET message template with a format and literal braces',
    line: '            _logger.LogWarning("Order {OrderId} declined after {Elapsed:0.0} ms {{retry}}", id, ms);',
    call: '_logger.LogWarning',
    parts: ['Order ', ' declined after ', ' ms {retry}'],
    body: 'Order 42 declined after 12.5 ms {retry}',
  },
  {
    name: 'C# interpolated string',
    line: '    log.LogError($"refund {id} failed");',
    call: 'log.LogError',
    parts: ['refund ', ' failed'],
    body: 'refund 7 failed',
  },
  {
    name: 'Ruby without parentheses, interpolation',
    line: '    Rails.logger.info "paid order #{order.id} with 100_000 points"',
    call: 'Rails.logger.info',
    parts: ['paid order ', ' with 100_000 points'],
    body: 'paid order 5 with 100_000 points',
    notBody: 'paid order 5 with 100x000 points',
  },
];

describe('Log literals', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const { literals } = findLogLiterals(c.line);
      assert.equal(literals.length, 1);
      const lit = literals[0];
      assert.equal(lit?.call, c.call);
      assert.equal(lit?.line, 1);
      assert.deepEqual(lit?.parts, c.parts);
      assert.ok(lit?.like, 'a pattern');
      assert.ok(like(c.body, lit.like), `${lit.like} matches ${JSON.stringify(c.body)}`);
      if (c.notBody) assert.ok(!like(c.notBody, lit.like), `${lit.like} does not match ${JSON.stringify(c.notBody)}`);
    });
  }

  it('escapes LIKE wildcards and backslashes in the fixed parts', () => {
    assert.equal(likePattern(['50% off_now \\ ok']), '%50\\% off\\_now \\\\ ok%');
    assert.ok(like('x 50% off_now \\ ok y', likePattern(['50% off_now \\ ok'])));
    assert.ok(!like('50x offXnow \\ ok', likePattern(['50% off_now \\ ok'])));
  });

  it('finds line and column of each call in a file; ignores calls without a literal', () => {
    const text = [
      'function f() {',
      '  logger.info(msg);',
      '  logger.error("charge failed for %s", id); console.log(\'done\')',
      '}',
    ].join('\n');
    const { literals } = findLogLiterals(text);
    assert.deepEqual(
      literals.map((l) => [l.line, l.column, l.call, l.message]),
      [
        [3, 3, 'logger.error', 'charge failed for %s'],
        [3, 45, 'console.log', 'done'],
      ],
    );
  });

  it('gives no pattern to messages with too little fixed text', () => {
    const { literals } = findLogLiterals('logger.info("%s: %d", a, b); logger.info("{}", x); logger.info("ok")');
    assert.deepEqual(
      literals.map((l) => l.like),
      [undefined, undefined, undefined],
    );
  });

  it('leaves out unterminated literals, calls that are not loggers, and stays bounded', () => {
    assert.deepEqual(findLogLiterals('logger.info("multi\nline")').literals, []);
    assert.deepEqual(findLogLiterals('catalog.info("x happened"); dialog.error("y happened")').literals, []);
    const many = Array.from({ length: MAX_LITERALS + 5 }, (_, i) => `log.info("event number ${i}")`).join('\n');
    const r = findLogLiterals(many);
    assert.equal(r.literals.length, MAX_LITERALS);
    assert.equal(r.truncated, true);
  });

  it('reads hostile lines (long qualified names, unclosed placeholders) without a literal', () => {
    const hostile = [`${'a.'.repeat(990)}`, `log.info("${'%('.repeat(900)}`, `logger.warn('${'${'.repeat(900)}')`].join(
      '\n',
    );
    const { literals } = findLogLiterals(hostile.repeat(20));
    assert.ok(literals.every((l) => l.call === 'logger.warn'));
  });

  it('fixed parts of placeholder-only and placeholder-free messages', () => {
    assert.deepEqual(fixedParts('%s'), []);
    assert.deepEqual(fixedParts('plain message'), ['plain message']);
    assert.deepEqual(fixedParts('a {{b}} c'), ['a {b} c']);
  });
});
