/**
 * A real forward proxy on loopback for tests: plain-HTTP requests in absolute
 * form (`GET http://host/path`) and HTTPS-style tunnels (`CONNECT host:port`).
 * It records every request it handles so tests can prove traffic went through
 * it (or not). `resolve` maps host names to addresses, so a test can use a
 * non-loopback name that still reaches a loopback server.
 */
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ProxyRecord {
  kind: 'http' | 'connect';
  /** Absolute URL (http) or `host:port` (connect). */
  target: string;
  /** Whether the proxy saw an Authorization header (only visible for absolute-form requests). */
  sawAuthorization: boolean;
}

export interface TestProxy {
  url: string;
  port: number;
  records: ProxyRecord[];
  /** Number of requests and tunnels handled. */
  readonly count: number;
  close(): Promise<void>;
}

export interface TestProxyOptions {
  host?: string;
  resolve?: Record<string, string>;
}

const HOP_BY_HOP = ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade'];

export async function startProxy(options: TestProxyOptions = {}): Promise<TestProxy> {
  const records: ProxyRecord[] = [];
  const sockets = new Set<net.Socket>();
  const resolveHost = (host: string) => options.resolve?.[host.toLowerCase()] ?? host;

  const server = http.createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
      if (target.protocol !== 'http:') throw new Error('only http:// targets');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('absolute-form http:// request expected');
      return;
    }
    records.push({ kind: 'http', target: target.href, sawAuthorization: req.headers.authorization !== undefined });
    const headers: http.OutgoingHttpHeaders = { ...req.headers };
    for (const h of HOP_BY_HOP) delete headers[h];
    const upstream = http.request(
      {
        host: resolveHost(target.hostname.replace(/^\[(.*)\]$/, '$1')),
        port: Number(target.port || 80),
        method: req.method,
        path: target.pathname + target.search,
        headers: { ...headers, host: target.host },
      },
      (up) => {
        const out: http.OutgoingHttpHeaders = { ...up.headers };
        for (const h of HOP_BY_HOP) delete out[h];
        res.writeHead(up.statusCode ?? 502, out);
        up.pipe(res);
        up.on('error', () => res.destroy());
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`proxy: ${err.message}`);
      else res.destroy();
    });
    req.pipe(upstream);
  });

  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const target = req.url ?? '';
    records.push({ kind: 'connect', target, sawAuthorization: req.headers.authorization !== undefined });
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(target);
    if (!m) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const upstream = net.connect(Number(m[2]), resolveHost(m[1]), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });

  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    records,
    get count() {
      return records.length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
