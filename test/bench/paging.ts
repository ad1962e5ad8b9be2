/**
 * Cost of reading a whole list: requests (pages) and time to read 0, 1 and 10,000 alerts with the
 * API client against a loopback server that pages with `limit`/`offset` like the service, once
 * without a reported total (the list ends at an empty page) and once with `totalCount`, plus the
 * requests an endless list costs before its bound stops it.
 *
 * No `vscode` import: scripts/bench.mjs loads it in Node (`measureListPaging`), and
 * `node out/test/bench/paging.js` prints the same JSON.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, ObservabilityClient, RateLimiter } from '../../src/api';

const ORG = '6f1c8a2e-4b7d-4e3a-9c51-2d8f0b7a9e14';
const SVC = '0b2d7e4f-1a3c-4b5d-8e6f-7a9b0c1d2e3f';

interface Served {
  url: string;
  requests: () => number;
  close: () => Promise<void>;
}

function alert(i: number): Record<string, unknown> {
  return {
    id: `65f0c0ffee${String(i).padStart(14, '0')}`,
    name: `Alert ${i}`,
    state: 'OK',
    source: 'tile',
    dashboardId: '65f0c0ffee0000000000d001',
    tileId: 't1',
    threshold: i,
    thresholdType: 'above',
    interval: '5m',
    channel: { type: 'webhook', webhookId: '65f0c0ffee0000000000w001' },
  };
}

/** Serves `count` alerts (or endless new ones with `count` Infinity) with limit/offset, optionally with totalCount. */
async function serve(count: number, withTotal: boolean): Promise<Served> {
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    const q = new URL(req.url ?? '/', 'http://x').searchParams;
    const limit = Number(q.get('limit') ?? 1000);
    const offset = Number(q.get('offset') ?? 0);
    const result: unknown[] = [];
    for (let i = offset; i < Math.min(count, offset + limit); i++) result.push(alert(i));
    const body = JSON.stringify({
      status: 200,
      requestId: `r${requests}`,
      result,
      ...(withTotal && Number.isFinite(count) ? { totalCount: count } : {}),
    });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function clientFor(url: string): ObservabilityClient {
  return new ObservabilityClient({
    connection: { baseUrl: url, organizationId: ORG, serviceIds: [SVC], keyId: 'benchKey', pathSegment: 'clickstack' },
    getSecret: () => 'bench-secret',
    limiter: new RateLimiter({ requests: 100_000, windowMs: 1000 }),
  });
}

async function measure(count: number, withTotal: boolean): Promise<{ items: number; requests: number; ms: number }> {
  const served = await serve(count, withTotal);
  const client = clientFor(served.url);
  try {
    const started = performance.now();
    const res = await client.listAlerts(SVC);
    const ms = Math.round((performance.now() - started) * 10) / 10;
    return { items: res.data.length, requests: served.requests(), ms };
  } finally {
    await client.close();
    await served.close();
  }
}

export async function measureListPaging(): Promise<Record<string, unknown>> {
  const counts = [0, 1, 10_000];
  await measure(10_000, false); // warm-up: connections, JIT
  const alerts: Record<string, unknown> = {};
  for (const n of counts) {
    alerts[String(n)] = { withoutTotal: await measure(n, false), withTotalCount: await measure(n, true) };
  }
  const endless = await serve(Number.POSITIVE_INFINITY, false);
  const client = clientFor(endless.url);
  let endlessResult: Record<string, unknown>;
  try {
    const started = performance.now();
    try {
      await client.listAlerts(SVC);
      endlessResult = { stopped: false };
    } catch (err) {
      endlessResult = {
        stopped: err instanceof ApiError,
        requests: endless.requests(),
        ms: Math.round(performance.now() - started),
        message: err instanceof Error ? err.message : String(err),
      };
    }
  } finally {
    await client.close();
    await endless.close();
  }
  return {
    method:
      'after 1 warm-up, ObservabilityClient.listAlerts (page size 1000) against a loopback server paging with limit/offset; ' +
      'withoutTotal: the list ends at an empty page; withTotalCount: the envelope reports totalCount; ' +
      'endless: full pages of new IDs until the default bound (100,000 items per list) stops the read',
    alerts,
    endless: endlessResult,
  };
}

if (require.main === module) {
  measureListPaging().then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
