/**
 * The query endpoint's streaming exchange has the same one deadline as every other request: a host that drips its
 * result forever, or sends interim answers forever, cannot keep a query open past it.
 *
 * No wall-clock ceiling (a busy machine may run the timer late): the host gives up on its own after a few hundred
 * drips (tens of seconds), so a request that ignored its deadline ends *without* the deadline's error and the test
 * fails on that; the error must be the deadline's own (its code and its 0.6 s), and it may not come before 0.6 s.
 */
import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createDispatcher } from '../../../src/api';
import { TransportError } from '../../../src/api/http';
import { sendStreaming } from '../../../src/api/query/stream';

describe('query stream deadline', () => {
  let server: Server;
  let origin: string;
  const timers = new Set<NodeJS.Timeout>();
  /** The host's own end: far beyond the 0.6 s deadline, so only a request without a deadline gets there. */
  const HOST_GIVES_UP_AFTER = 300;

  before(async () => {
    server = createServer((req, res) => {
      if (req.url?.startsWith('/drip')) {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        let sent = 0;
        const t = setInterval(() => {
          if (++sent > HOST_GIVES_UP_AFTER) res.end();
          else res.write('["x"]\n');
        }, 100);
        timers.add(t);
        res.on('close', () => clearInterval(t));
      } else {
        let sent = 0;
        const t = setInterval(() => {
          if (++sent > HOST_GIVES_UP_AFTER) {
            clearInterval(t);
            res.writeHead(200, { 'content-type': 'application/x-ndjson' }).end('["late"]\n');
          } else res.writeProcessing();
        }, 100);
        timers.add(t);
        res.on('close', () => clearInterval(t));
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const t of timers) clearInterval(t);
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const request = (path: string) => ({
    origin,
    path,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
    body: '{}',
    headersTimeoutMs: 60_000,
    bodyTimeoutMs: 60_000,
    deadlineMs: 600,
  });

  /** The deadline's own error: a timeout with the deadline's code, naming the 0.6 s it allowed. */
  const isDeadline = (e: unknown, code: string): boolean => {
    assert.ok(e instanceof TransportError, `a transport error, not ${String(e)}`);
    assert.equal(e.kind, 'timeout');
    assert.equal(e.code, code);
    assert.match(e.message, /0\.6 s/);
    return true;
  };
  /** Timers never fire early; 5 ms of slack only for the clocks' rounding. */
  const notBeforeDeadline = (started: number): void => {
    const elapsed = performance.now() - started;
    assert.ok(elapsed >= 595, `ended after ${Math.round(elapsed)} ms, before the 600 ms deadline`);
  };

  it('ends a result that drips forever at the deadline, as a timeout', async () => {
    const started = performance.now();
    const res = await sendStreaming(createDispatcher({ connectTimeoutMs: 1000 }), request('/drip'));
    let chunks = 0;
    await assert.rejects(
      async () => {
        for await (const chunk of res.body) if (chunk.length) chunks++;
      },
      (e: unknown) => isDeadline(e, 'BODY_DEADLINE'),
    );
    assert.ok(chunks > 0, 'rows arrived before the deadline');
    assert.ok(
      chunks < HOST_GIVES_UP_AFTER,
      `the stream ended at the deadline, not at the host's end (${chunks} chunks)`,
    );
    notBeforeDeadline(started);
  });

  it('ends endless 102 Processing answers at the deadline, as a timeout', async () => {
    const started = performance.now();
    await assert.rejects(
      sendStreaming(createDispatcher({ connectTimeoutMs: 1000 }), request('/processing')),
      (e: unknown) => isDeadline(e, 'REQUEST_DEADLINE'),
    );
    notBeforeDeadline(started);
  });
});
