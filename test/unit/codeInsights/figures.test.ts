import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { scanDefinitions, type CodeFigures } from '../../../src/codeModel';
import { figuresOnDefinitions, lensTitle, p95Approximate } from '../../../src/codeInsights/figures';
import { compact, duration, errorRate, sparkline, stepLabel, utcMinute } from '../../../src/codeInsights/format';

const TS = `export class Cart {
  total(): number {
    return 1;
  }
}

export class Invoice {
  total(): number {
    return 2;
  }
}

export function applyCoupon(): void {}
`;

const row = (over: Partial<CodeFigures>): CodeFigures => ({
  file: '/app/src/cart.ts',
  function: '',
  namespace: '',
  line: 0,
  calls: 10,
  errors: 0,
  p95Ms: 5,
  ...over,
});

test('rows of both attribute generations land on the definition they name, narrowed by class', () => {
  const defs = scanDefinitions(TS, 'typescript').definitions;
  const got = figuresOnDefinitions(
    [
      row({ function: 'Cart.total', calls: 1200, errors: 37, p95Ms: 240 }),
      row({ function: 'total', namespace: 'Invoice', calls: 90 }),
      row({ function: 'applyCoupon', calls: 3 }),
      row({ function: 'gone', calls: 7 }),
    ],
    defs,
  );
  assert.deepEqual(
    got.map((f) => [f.definition.container ?? '', f.definition.name, f.definition.nameLine, f.calls]),
    [
      ['Cart', 'total', 2, 1200],
      ['Invoice', 'total', 8, 90],
      ['', 'applyCoupon', 13, 3],
    ],
  );
  assert.equal(lensTitle(got[0]!, '24h'), '1.2k calls · 3.1% errors · p95 240 ms · 24 h');
  assert.equal(lensTitle(got[0]!, '24h', true), '1.2k calls · 3.1% errors · p95 (approx.) 240 ms · 24 h');
});

test("the p95 says it is an estimate on a sampled source, or above the 8,192 spans ClickHouse's quantile keeps", () => {
  const defs = scanDefinitions(TS, 'typescript').definitions;
  const [small] = figuresOnDefinitions([row({ function: 'applyCoupon', calls: 8192 })], defs);
  const [big] = figuresOnDefinitions([row({ function: 'applyCoupon', calls: 8193 })], defs);
  assert.deepEqual(
    [p95Approximate(small!, false), p95Approximate(small!, true), p95Approximate(big!, false)],
    [false, true, true],
  );
});

test('figures over time read as text sparklines with UTC times', () => {
  assert.equal(sparkline([0, 1, 4, 8, 0]), '▁▂▅█▁');
  assert.equal(sparkline([0, 0]), '▁▁');
  assert.equal(sparkline([1, 1000]), '▂█', 'a small non-zero value stands above zero');
  assert.deepEqual(
    [stepLabel(300), stepLabel(3600), stepLabel(21_600), stepLabel(86_400)],
    ['5 min', '1 h', '6 h', '1 d'],
  );
  assert.equal(utcMinute(Date.UTC(2026, 10, 29, 13, 5, 42)), '2026-11-29 13:05 UTC');
});

test('several groups on one definition add their calls and errors and keep the highest p95', () => {
  const defs = scanDefinitions(TS, 'typescript').definitions;
  const [f] = figuresOnDefinitions(
    [
      row({ function: 'applyCoupon', calls: 4, errors: 1, p95Ms: 12 }),
      row({ function: 'applyCoupon', file: '/other/cart.ts', calls: 6, errors: 2, p95Ms: 30 }),
    ],
    defs,
  );
  assert.deepEqual([f?.calls, f?.errors, f?.p95Ms, f?.groups.length], [10, 3, 30, 2]);
});

test('figures read compactly', () => {
  assert.deepEqual(
    [compact(999), compact(1200), compact(12_345), compact(3_400_000)],
    ['999', '1.2k', '12.3k', '3.4M'],
  );
  assert.deepEqual([errorRate(0, 0), errorRate(1000, 31), errorRate(10, 5)], ['0%', '3.1%', '50%']);
  assert.deepEqual(
    [duration(null), duration(0.25), duration(240.4), duration(1530)],
    ['–', '0.3 ms', '240 ms', '1.5 s'],
  );
});
