import * as vscode from 'vscode';
import { createDispatcher, limiterFor } from '../api';
import { QueryClient } from '../api/query';
import { readSettings } from '../config';
import { clickHousePlainHttpAllowed } from '../connections/clickHouseAccess';
import type { ConnectionManager } from '../connections/manager';
import { isSelfHosted } from '../connections/types';
import type { QueryTargets } from './targets';

/**
 * The query settings (`observability.query.*`), with their defaults for missing or nonsense values. The rate budget
 * is not among them: queries spend the key's one budget (`observability.rateLimit.*`) with the management API.
 */
export function querySettings(): {
  maxRows: number;
  maxBytes: number;
  timeoutMs: number;
} {
  const c = vscode.workspace.getConfiguration('observability.query');
  const num = (k: string, d: number): number => {
    const v = Number(c.get(k, d));
    return Number.isFinite(v) && v > 0 ? v : d;
  };
  return {
    maxRows: Math.floor(num('maxRows', 10_000)),
    maxBytes: Math.floor(num('maxResultMegabytes', 64) * 1024 * 1024),
    timeoutMs: num('timeoutSeconds', 300) * 1000,
  };
}

/**
 * A connection whose base URL is not ClickHouse Cloud's API address and that has no query host set: its SQL (and its
 * key) has nowhere to go until the user names the query host (Set Query Host).
 */
export class NoQueryHostError extends Error {
  constructor(
    readonly connectionId: string,
    label: string,
    baseUrl: string,
  ) {
    super(
      vscode.l10n.t(
        'The connection "{0}" has no query host: its address {1} is not ClickHouse Cloud\'s, so where its SQL runs is not known. Run "Set Query Host…" to name it.',
        label,
        hostOf(baseUrl),
      ),
    );
    this.name = 'NoQueryHostError';
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * Query clients by connection and query host, each with the dispatcher (connection pool) it alone uses. Dropped (and
 * their sockets closed) when connections, query settings, proxy settings or a query host change.
 */
export class QueryClients implements vscode.Disposable {
  private readonly clients = new Map<string, QueryClient>();
  private readonly dispatchers = new Map<string, { close(): Promise<void> }>();

  constructor(
    private readonly connections: ConnectionManager,
    private readonly targets: QueryTargets,
  ) {}

  clientFor(connectionId: string): QueryClient {
    const connection = this.connections.get(connectionId);
    // A self-hosted connection's SQL goes to its ClickHouse access (ClickHouse's HTTP interface), when it has one.
    const clickHouse = connection && isSelfHosted(connection) ? connection.clickHouse : undefined;
    if (connection && isSelfHosted(connection) && !clickHouse) {
      // Its API key belongs to its own address: never sent to a query host (a Cloud one by default).
      throw new Error(
        vscode.l10n.t(
          '"{0}" is a self-hosted deployment: its API runs no SQL. Run "Set ClickHouse Access for Previews…" on it to run SQL on its ClickHouse.',
          connection.label,
        ),
      );
    }
    const host = clickHouse ? clickHouse.url : this.targets.queryHost(connectionId);
    if (connection && !host) throw new NoQueryHostError(connection.id, connection.label, connection.baseUrl);
    const key = `${connectionId} ${clickHouse ? `clickhouse ${clickHouse.user} ` : ''}${host}`;
    let client = this.clients.get(key);
    if (!client) {
      if (!connection) throw new Error(vscode.l10n.t('The connection no longer exists.'));
      const s = querySettings();
      const { proxy, rateLimit } = readSettings();
      const dispatcher = createDispatcher({
        proxy: proxy.proxy,
        strictSSL: proxy.strictSSL,
        noProxy: proxy.noProxy,
        connectTimeoutMs: 15_000,
      });
      this.dispatchers.set(key, dispatcher);
      client = clickHouse
        ? new QueryClient({
            transport: 'clickhouseHttp',
            queryUrl: clickHouse.url,
            keyId: clickHouse.user,
            allowPlainHttp: clickHousePlainHttpAllowed(connection, clickHouse.url),
            getSecret: async () => {
              const password = await this.connections.getClickHousePassword(connectionId);
              if (password === undefined) {
                throw new Error(
                  vscode.l10n.t(
                    'No ClickHouse password is stored for the connection "{0}". Run "Set ClickHouse Access for Previews…".',
                    connection.label,
                  ),
                );
              }
              return password;
            },
            dispatcher,
            headersTimeoutMs: s.timeoutMs,
            bodyTimeoutMs: s.timeoutMs,
          })
        : new QueryClient({
            queryUrl: host!,
            keyId: connection.keyId,
            getSecret: async () => {
              const secret = await this.connections.getSecret(connectionId);
              if (secret === undefined) {
                throw new Error(
                  vscode.l10n.t(
                    'No key secret is stored for the connection "{0}". Run "Update Key Secret".',
                    connection.label,
                  ),
                );
              }
              return secret;
            },
            dispatcher,
            // The key's one limiter, shared with the management API (ClickHouse Cloud counts requests per API key).
            limiter: limiterFor(connection.keyId, { requests: rateLimit.requests, windowMs: rateLimit.windowMs }),
            headersTimeoutMs: s.timeoutMs,
            bodyTimeoutMs: s.timeoutMs,
          });
      this.clients.set(key, client);
    }
    return client;
  }

  drop(): void {
    for (const c of this.clients.values()) void c.dispose().catch(() => undefined);
    // A client does not close a dispatcher it was given: its sockets are closed here.
    for (const d of this.dispatchers.values()) void d.close().catch(() => undefined);
    this.clients.clear();
    this.dispatchers.clear();
  }

  dispose(): void {
    this.drop();
  }
}
