import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startEmulator } from '../../emulator';
import { client, failOnResponseIssues } from './helpers';

failOnResponseIssues();

describe('emulator: rate limit', () => {
  it('allows 10 requests per 10 s per key by default, then 429 without a header', async (t) => {
    // The window is counted on a clock that stands still, so a busy machine cannot spread the requests beyond it.
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const emu = await startEmulator();
    try {
      const api = client(emu);
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await api.call('GET', '/sources')).status);
      assert.deepEqual(statuses, [...Array<number>(10).fill(200), 429]);
      const r = await api.call('GET', '/sources');
      assert.equal(r.json.status, 429);
      assert.equal(r.json.error, 'Rate limit exceeded');
      assert.equal(r.headers.get('retry-after'), null);
      assert.equal(r.headers.get('x-ratelimit-reset'), null);
      const info = await fetch(`${emu.url}/__emulator/info`);
      assert.equal(info.status, 200);
    } finally {
      await emu.close();
    }
  });

  it('sends x-ratelimit-reset or retry-after in seconds when asked, and frees slots after the window', async (t) => {
    // The window is counted on a clock the test moves, so a busy machine cannot spread the requests beyond it.
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    for (const mode of ['x-ratelimit-reset', 'retry-after'] as const) {
      const emu = await startEmulator({ rateLimit: { requests: 2, windowMs: 300 }, rateLimitHeader: mode });
      try {
        const api = client(emu);
        await api.call('GET', '/alerts');
        await api.call('GET', '/alerts');
        const limited = await api.call('GET', '/alerts');
        assert.equal(limited.status, 429);
        assert.equal(limited.headers.get(mode), '1');
        t.mock.timers.tick(299);
        assert.equal((await api.call('GET', '/alerts')).status, 429, 'not before the window ends');
        t.mock.timers.tick(51);
        assert.equal((await api.call('GET', '/alerts')).status, 200);
      } finally {
        await emu.close();
      }
    }
  });

  it('does not count unauthenticated requests and can be disabled or changed over HTTP', async () => {
    const emu = await startEmulator({ rateLimit: { requests: 1, windowMs: 60_000 } });
    try {
      const api = client(emu);
      for (let i = 0; i < 3; i++) {
        assert.equal(
          (await api.call('GET', '/alerts', undefined, { authorization: 'Basic Zm9vOmJhcg==' })).status,
          401,
        );
      }
      assert.equal((await api.call('GET', '/alerts')).status, 200);
      assert.equal((await api.call('GET', '/alerts')).status, 429);
      const cfg = await fetch(`${emu.url}/__emulator/config`, {
        method: 'POST',
        body: JSON.stringify({ rateLimit: false }),
      });
      assert.equal(cfg.status, 200);
      for (let i = 0; i < 15; i++) assert.equal((await api.call('GET', '/alerts')).status, 200);
    } finally {
      await emu.close();
    }
  });
});
