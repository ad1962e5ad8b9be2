/**
 * The query endpoint's streaming exchange has the same one deadline as every other request: a host that drips its
 * result forever, or sends interim answers forever, cannot keep a query open past it.
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

  before(async () => {
    server = createServer((req, res) => {
      if (req.url?.startsWith('/drip')) {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        const t = setInterval(() => res.write('["x"]\n'), 100);
        timers.add(t);
        res.on('close', () => clearInterval(t));
      } else {
        const t = setInterval(() => res.writeProcessing(), 100);
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

  it('ends a result that drips forever at the deadline, as a timeout', async () => {
    const started = performance.now();
    const res = await sendStreaming(createDispatcher({ connectTimeoutMs: 1000 }), request('/drip'));
    let chunks = 0;
    await assert.rejects(
      async () => {
        for await (const chunk of res.body) if (chunk.length) chunks++;
      },
      (e: unknown) => e instanceof TransportError && e.kind === 'timeout',
    );
    assert.ok(chunks > 0, 'rows arrived before the deadline');
    assert.ok(performance.now() - started < 1600, `settled after ${Math.round(performance.now() - started)} ms`);
  });

  it('ends endless 102 Processing answers at the deadline, as a timeout', async () => {
    const started = performance.now();
    await assert.rejects(
      sendStreaming(createDispatcher({ connectTimeoutMs: 1000 }), request('/processing')),
      (e: unknown) => e instanceof TransportError && e.kind === 'timeout',
    );
    assert.ok(performance.now() - started < 1600, `settled after ${Math.round(performance.now() - started)} ms`);
  });
});
