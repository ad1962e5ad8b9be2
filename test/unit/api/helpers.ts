/** Small loopback HTTP servers and client factories for the API client tests. */
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  ObservabilityClient,
  RateLimiter,
  type ObservabilityClientOptions,
  type RequestLogEntry,
} from '../../../src/api';

export const ORG = '6f1c8a2e-4b7d-4e3a-9c51-2d8f0b7a9e14';
export const SVC = '0b2d7e4f-1a3c-4b5d-8e6f-7a9b0c1d2e3f';
export const KEY_ID = 'testKeyId123';
export const SECRET = 'S3cr3t-Value-For-Tests_xyz';
export const BASIC = Buffer.from(`${KEY_ID}:${SECRET}`).toString('base64');

export interface Seen {
  method: string;
  url: string;
  authorization?: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface TestServer {
  url: string;
  port: number;
  seen: Seen[];
  count(method?: string): number;
  close(): Promise<void>;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string, index: number) => void;

export async function startServer(handler: Handler, port = 0): Promise<TestServer> {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const entry: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      if (req.headers.authorization !== undefined) entry.authorization = req.headers.authorization;
      seen.push(entry);
      handler(req, res, body, seen.length - 1);
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    seen,
    count: (method?: string) => seen.filter((s) => method === undefined || s.method === method).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  res: http.ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export function envelope(result: unknown, requestId = 'req-ok'): Record<string, unknown> {
  return { status: 200, requestId, result };
}

/** A free loopback port with nothing listening on it. */
export async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export interface ClientWithLog {
  client: ObservabilityClient;
  log: RequestLogEntry[];
}

/** A client for `baseUrl` with its own generous limiter and fast retries, unless overridden. */
export function makeClient(baseUrl: string, overrides: Partial<ObservabilityClientOptions> = {}): ClientWithLog {
  const log: RequestLogEntry[] = [];
  const client = new ObservabilityClient({
    connection: { baseUrl, organizationId: ORG, serviceIds: [SVC], keyId: KEY_ID, pathSegment: 'observability' },
    getSecret: async () => SECRET,
    limiter: new RateLimiter({ requests: 1000, windowMs: 1000 }),
    retry: { baseDelayMs: 20, maxDelayMs: 100 },
    timeouts: { connectMs: 2000, headersMs: 2000, bodyMs: 2000 },
    onRequest: (e) => log.push(e),
    ...overrides,
  });
  return { client, log };
}

export async function rejects<T>(p: Promise<T>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the promise to reject');
}

export function assertNoSecret(text: string): void {
  for (const s of [SECRET, BASIC, encodeURIComponent(SECRET)]) {
    if (text.includes(s)) throw new Error(`secret leaked into: ${text}`);
  }
}
