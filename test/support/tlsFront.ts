/**
 * A TLS front for a plain-HTTP loopback server (such as the emulator): it terminates TLS with the test certificate
 * for `api.observability.test` and pipes the decrypted bytes to the server. It counts the connections it accepted
 * and the handshakes that completed, so a test can tell whether a client ever got past the certificate check.
 */
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as tls from 'node:tls';
import { TEST_CERTIFICATE, TEST_PRIVATE_KEY } from './testCertificate';

export interface TlsFront {
  /** Loopback port the front listens on. */
  readonly port: number;
  /** TCP connections accepted (before any handshake). */
  readonly connections: number;
  /** TLS handshakes that completed. */
  readonly handshakes: number;
  close(): Promise<void>;
}

export async function startTlsFront(target: { host?: string; port: number }): Promise<TlsFront> {
  let connections = 0;
  let handshakes = 0;
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };

  const server = tls.createServer({ cert: TEST_CERTIFICATE, key: TEST_PRIVATE_KEY }, (client) => {
    handshakes++;
    const upstream = net.connect(target.port, target.host ?? '127.0.0.1');
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (socket: net.Socket) => {
    connections++;
    track(socket);
  });
  // A client that rejects the certificate aborts the handshake; that is expected here.
  server.on('tlsClientError', () => undefined);

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    get connections() {
      return connections;
    },
    get handshakes() {
      return handshakes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
