/** The sliding-window limiter: spacing, order, penalties, cancellation and the per-key registry. */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { RateLimiter, limiterFor } from '../../../src/api';

test('grants `requests` per window and spaces the rest by the window', async () => {
  const limiter = new RateLimiter({ requests: 3, windowMs: 300, marginMs: 0 });
  const started = Date.now();
  const times: number[] = [];
  await Promise.all(Array.from({ length: 7 }, () => limiter.acquire().then(() => times.push(Date.now() - started))));
  assert.equal(times.length, 7);
  assert.ok(times[2] < 100, `${times}`);
  assert.ok(times[3] >= 290 && times[5] < 450, `${times}`);
  assert.ok(times[6] >= 590, `${times}`);
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

test('an aborted wait rejects and frees its place', async () => {
  const limiter = new RateLimiter({ requests: 1, windowMs: 400, marginMs: 0 });
  await limiter.acquire();
  const ac = new AbortController();
  const waiting = limiter.acquire(ac.signal);
  const next = limiter.acquire();
  ac.abort();
  await assert.rejects(waiting);
  const started = Date.now();
  await next;
  assert.ok(Date.now() - started < 450);
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
