/** The sliding-window limiter: spacing, order, penalties, cancellation and the per-key registry. */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { RateLimiter, limiterFor } from '../../../src/api';

test('grants `requests` per window and spaces the rest by the window', async (t) => {
  // The limiter's clock and its timers are the test's, so a busy machine cannot make a grant look late.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let clock = 0;
  const limiter = new RateLimiter({ requests: 3, windowMs: 300, marginMs: 0, now: () => clock });
  const times: number[] = [];
  const all = Promise.all(Array.from({ length: 7 }, () => limiter.acquire().then(() => times.push(clock))));
  const advanceTo = async (ms: number) => {
    const step = ms - clock;
    clock = ms;
    t.mock.timers.tick(step);
    await new Promise((resolve) => setImmediate(resolve));
  };
  await advanceTo(0);
  await advanceTo(299);
  assert.deepEqual(times, [0, 0, 0], 'three at once, the fourth not before the window ends');
  await advanceTo(300);
  await advanceTo(599);
  assert.deepEqual(times, [0, 0, 0, 300, 300, 300]);
  await advanceTo(600);
  await all;
  assert.deepEqual(times, [0, 0, 0, 300, 300, 300, 600]);
});

test('grants in request order', async () => {
  const limiter = new RateLimiter({ requests: 1, windowMs: 50 });
  const order: number[] = [];
  await Promise.all([0, 1, 2, 3].map((i) => limiter.acquire().then(() => order.push(i))));
  assert.deepEqual(order, [0, 1, 2, 3]);
});

test('penalize blocks every grant until the given time', async () => {
  const limiter = new RateLimiter({ requests: 100, windowMs: 1000 });
  limiter.penalize(Date.now() + 300);
  const started = Date.now();
  await limiter.acquire();
  assert.ok(Date.now() - started >= 290);
});

test('an aborted wait rejects and frees its place', async (t) => {
  // The limiter's clock and its timers are the test's: the assertion is on the limiter's time, not on how fast a busy
  // machine runs the timers.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let clock = 0;
  const limiter = new RateLimiter({ requests: 1, windowMs: 400, marginMs: 0, now: () => clock });
  await limiter.acquire();
  const ac = new AbortController();
  const waiting = limiter.acquire(ac.signal);
  let granted: number | undefined;
  const next = limiter.acquire().then((waitedMs) => (granted = waitedMs));
  ac.abort();
  await assert.rejects(waiting);
  clock = 399;
  t.mock.timers.tick(399);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(granted, undefined, 'nothing is granted before the window of the first request ends');
  clock = 400;
  t.mock.timers.tick(1);
  await next;
  assert.equal(granted, 400, 'the next request takes the aborted one’s place: granted when the first window ends');
  await assert.rejects(limiter.acquire(AbortSignal.abort()));
});

test('the default is 10 requests per 10 s, shared per key', () => {
  const a = limiterFor('key-a');
  assert.equal(limiterFor('key-a'), a);
  assert.notEqual(limiterFor('key-b'), a);
  assert.deepEqual(a.limit, { requests: 10, windowMs: 10_000 });
  limiterFor('key-a', { requests: 5, windowMs: 2000 });
  assert.deepEqual(a.limit, { requests: 5, windowMs: 2000 });
  assert.throws(() => new RateLimiter({ requests: 0 }));
});
