/**
 * Production logs per logger call: literals found in source text become patterns, and one statement counts the
 * emulator's sample log bodies each pattern matches over an hour on a frozen clock — equal to plain SQL written here
 * with regular expressions.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logCountsSql, MAX_PATTERNS, readLogCounts, type LogSourceLike } from '../../../src/codeModel/logCounts';
import { findLogLiterals } from '../../../src/codeModel/logLiterals';
import { buildState } from '../../emulator/seed';
import { query } from '../preview/golden';

const NOW = Date.UTC(2026, 10, 26, 12, 17, 23, 250);
const RANGE = { from: NOW - 3_600_000, to: NOW };

const CODE = `
export async function charge(order, reason) {
  logger.warn(\`Payment declined by provider: card issuer returned \${reason} (order \${order.id})\`);
  log.info("Slow query took %d ms", ms);
  console.debug('cache lookup key=' + key);
  logger.error("Upstream returned HTTP 503 Service Unavailable");
  logger.info("never written by this service");
}`;

/** The same counts in plain SQL: a regular expression per message. */
const PLAIN = `
  SELECT countIf(match(Body, 'Payment declined by provider: card issuer returned .* \\\\(order .*\\\\)')) AS declined,
         countIf(match(Body, 'Slow query took .* ms')) AS slow,
         countIf(match(Body, 'cache lookup key=')) AS cache,
         countIf(match(Body, 'Upstream returned HTTP 503 Service Unavailable')) AS upstream,
         countIf(match(Body, 'never written by this service')) AS never
  FROM otel_logs
  WHERE TimestampTime >= fromUnixTimestamp64Milli(${RANGE.from}) AND TimestampTime < fromUnixTimestamp64Milli(${RANGE.to})`;

function logSource(): LogSourceLike {
  const data = [...buildState('sample', 0).data.values()][0];
  return [...(data?.sources.values() ?? [])].find((s) => (s as { kind?: string }).kind === 'log') as LogSourceLike;
}

describe('Log counts per logger call (golden, embedded ClickHouse)', () => {
  it('counts the sample logs each literal wrote, equal to plain SQL, on a frozen clock', async () => {
    const source = logSource();
    const patterns = findLogLiterals(CODE).literals.map((l) => l.like ?? '');
    assert.equal(patterns.length, 5);
    const st = logCountsSql(source, { range: RANGE, patterns });
    assert.ok(st.ok, st.ok ? '' : st.reason);
    const db = String(source.from?.databaseName);
    const counts = readLogCounts((await query(st.sql, db, NOW))[0], st.patterns);
    const [plain] = await query(PLAIN, db, NOW);
    assert.deepEqual(
      patterns.map((p) => counts.get(p)),
      ['declined', 'slow', 'cache', 'upstream', 'never'].map((k) => Number(plain?.[k])),
    );
    assert.ok(
      (counts.get(patterns[0] as string) ?? 0) > 0,
      'the declined payments of the last ten minutes are counted',
    );
    assert.equal(counts.get(patterns[4] as string), 0);
  });

  it('deduplicates, bounds the patterns and says what it cut', () => {
    const source = logSource();
    const many = Array.from({ length: MAX_PATTERNS + 7 }, (_, i) => `%message ${i}%`);
    const st = logCountsSql(source, { range: RANGE, patterns: [...many, '%message 0%', ''] });
    assert.ok(st.ok);
    assert.equal(st.patterns.length, MAX_PATTERNS);
    assert.equal(st.cut, 7);
  });

  it('says why there is no statement', () => {
    const source = logSource();
    assert.deepEqual(logCountsSql({ ...source, kind: 'trace' }, { range: RANGE, patterns: ['%a%'] }), {
      ok: false,
      reason: 'the source is not a log source',
    });
    assert.deepEqual(logCountsSql(source, { range: RANGE, patterns: [] }), {
      ok: false,
      reason: 'no log message to count',
    });
    assert.deepEqual(
      logCountsSql(
        { ...source, bodyExpression: '', implicitColumnExpression: '' },
        { range: RANGE, patterns: ['%a%'] },
      ),
      {
        ok: false,
        reason: 'the source has no body expression',
      },
    );
  });
});
