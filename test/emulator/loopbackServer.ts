import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * An HTTP server of the emulator on a loopback port of its own (the query host, the self-hosted flavor's ClickHouse
 * HTTP interface). It keeps its sockets, so closing it never waits for a kept-alive connection; a handler that throws
 * answers with the subclass's error (or ends the connection when the answer has started).
 */
export abstract class LoopbackServer {
  url = '';
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  constructor() {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((e: unknown) => {
        if (!res.headersSent) this.fail(res, e instanceof Error ? e.message : undefined);
        else res.destroy();
      });
    });
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  protected abstract handle(req: IncomingMessage, res: ServerResponse): Promise<void>;

  /** The answer to a request whose handler threw (`message`: the error's, when it is an Error). */
  protected abstract fail(res: ServerResponse, message: string | undefined): void;

  async listen(host: string): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, host, () => resolve());
    });
    const addr = this.server.address() as AddressInfo;
    this.url = `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      for (const s of this.sockets) s.destroy();
    });
  }
}

const MAX_BODY = 1024 * 1024;

/** A request's body as text; null when it is over 1 MiB (read to its end, so the answer can still be sent). */
export function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) tooBig = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(tooBig ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
