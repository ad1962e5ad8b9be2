/**
 * Builds the undici dispatcher the client sends requests through:
 * - an explicit proxy URL (VS Code's `http.proxy`, with `http.proxyStrictSSL`), or else
 * - the HTTPS_PROXY / HTTP_PROXY environment variables (lower case wins, like curl),
 * - NO_PROXY (or the explicit `noProxy` list) honoured in both cases,
 * - loopback addresses (localhost, 127.0.0.0/8, ::1) never proxied unless `proxyLoopback` is set,
 * - otherwise a plain keep-alive Agent.
 *
 * A proxy that drops the connection while a CONNECT tunnel is being opened makes undici 7 (up to 7.30.2, the newest
 * 7.x; fixed upstream only in 8.x, which needs a newer Node) reconnect in a tight loop that never settles the
 * request. The client to the proxy is built here with that failure made fatal, so the request fails at once.
 */
import type * as Undici from './undici';
import type { AgentOptions, Dispatcher, EnvHttpProxyAgentOptions } from './undici';
import { loadUndici } from './lazyUndici';
import { isLoopbackHost } from './connection';
import { ApiError } from './errors';
import { sanitizeServerText } from './sanitize';

export interface DispatcherOptions {
  /** Explicit proxy URL (http:// or https://, credentials allowed). Empty = use the environment. */
  proxy?: string;
  /**
   * Verify TLS certificates of proxied connections (default true). `false` accepts the
   * self-signed certificates of TLS-inspecting proxies. Direct connections are always verified.
   */
  strictSSL?: boolean;
  /** Hosts that bypass the proxy, comma or space separated (NO_PROXY syntax). Defaults to NO_PROXY. */
  noProxy?: string;
  /** Environment to read proxy variables from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Send loopback requests through the proxy too (default false). */
  proxyLoopback?: boolean;
  /** TCP + TLS connect timeout in ms (default 10 000). */
  connectTimeoutMs?: number;
  /** How long an idle keep-alive socket is kept, in ms (default 30 000). */
  keepAliveTimeoutMs?: number;
}

/** Which proxy, if any, `createDispatcher` will use for these options (for logs and diagnostics). */
export interface ProxyChoice {
  source: 'explicit' | 'env' | 'none';
  httpProxy?: string;
  httpsProxy?: string;
  noProxy: string;
}

export function resolveProxy(opts: DispatcherOptions = {}): ProxyChoice {
  const env = opts.env ?? process.env;
  // An empty variable counts as unset, like the proxy variables: an empty no_proxy must not hide a set NO_PROXY.
  const noProxy = nonEmpty(opts.noProxy) ?? nonEmpty(env.no_proxy) ?? nonEmpty(env.NO_PROXY) ?? '';
  const explicit = opts.proxy?.trim();
  if (explicit) {
    checkProxyUrl(explicit);
    return { source: 'explicit', httpProxy: explicit, httpsProxy: explicit, noProxy };
  }
  const httpProxy = nonEmpty(env.http_proxy) ?? nonEmpty(env.HTTP_PROXY);
  const httpsProxy = nonEmpty(env.https_proxy) ?? nonEmpty(env.HTTPS_PROXY) ?? httpProxy;
  if (httpProxy) checkProxyUrl(httpProxy);
  if (httpsProxy && httpsProxy !== httpProxy) checkProxyUrl(httpsProxy);
  if (!httpProxy && !httpsProxy) return { source: 'none', noProxy };
  const choice: ProxyChoice = { source: 'env', noProxy };
  if (httpProxy) choice.httpProxy = httpProxy;
  if (httpsProxy) choice.httpsProxy = httpsProxy;
  return choice;
}

export function createDispatcher(opts: DispatcherOptions = {}): Dispatcher {
  const agentOptions: AgentOptions = {
    connectTimeout: opts.connectTimeoutMs ?? 10_000,
    keepAliveTimeout: opts.keepAliveTimeoutMs ?? 30_000,
    keepAliveMaxTimeout: 600_000,
  };
  const { Agent, EnvHttpProxyAgent } = loadUndici();
  const direct = new Agent(agentOptions);
  const choice = resolveProxy(opts);
  if (choice.source === 'none') return direct;

  const tls = opts.strictSSL === false ? { rejectUnauthorized: false } : {};
  const proxied = new EnvHttpProxyAgent({
    ...agentOptions,
    // Empty strings stop undici from falling back to process.env behind our back.
    httpProxy: choice.httpProxy ?? '',
    httpsProxy: choice.httpsProxy ?? '',
    noProxy: choice.noProxy,
    proxyTls: tls,
    requestTls: tls,
    // Plain-http targets go as absolute-form requests; https always uses CONNECT.
    proxyTunnel: false,
    clientFactory: tunnelSafeClient,
  } as EnvHttpProxyAgentOptions);
  return new (loopbackBypassClass())(direct, proxied, opts.proxyLoopback === true);
}

/** undici's error codes that its client treats as "try connecting again" while a request is queued. */
const RECONNECTING_CODES = new Set(['UND_ERR_SOCKET', 'UND_ERR_INFO']);

/** An error with a code undici treats as fatal for the queued request: the tunnel could not be opened. */
class ProxyTunnelError extends Error {
  readonly code = 'UND_ERR_PRX_CONN';
  constructor(cause: unknown) {
    super(
      `the proxy closed the connection while the tunnel was being opened${cause instanceof Error ? ` (${cause.message})` : ''}`,
      { cause },
    );
    this.name = 'ProxyTunnelError';
  }
}

function fatalTunnelError(err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RECONNECTING_CODES.has(code) ? new ProxyTunnelError(err) : err;
}

/** The client ProxyAgent opens CONNECT tunnels with: a Pool whose `connect` turns a dropped tunnel into a fatal error. */
function tunnelSafeClient(origin: URL, options: object): Dispatcher {
  const pool = new (loadUndici().Pool)(origin, options as ConstructorParameters<typeof Undici.Pool>[1]);
  const connect = pool.connect.bind(pool) as (
    opts: Dispatcher.ConnectOptions,
    callback?: (err: Error | null, data: Dispatcher.ConnectData) => void,
  ) => Promise<Dispatcher.ConnectData> | void;
  const guarded = (
    opts: Dispatcher.ConnectOptions,
    callback?: (err: Error | null, data: Dispatcher.ConnectData) => void,
  ) => {
    if (typeof callback === 'function') {
      return connect(opts, (err, data) => callback(err ? (fatalTunnelError(err) as Error) : null, data));
    }
    return (connect(opts) as Promise<Dispatcher.ConnectData>).catch((err: unknown) => {
      throw fatalTunnelError(err);
    });
  };
  (pool as unknown as { connect: typeof guarded }).connect = guarded;
  return pool;
}

type LoopbackBypassClass = new (direct: Dispatcher, proxied: Dispatcher, proxyLoopback: boolean) => Dispatcher;
let loopbackBypass: LoopbackBypassClass | undefined;

/** The class is defined on first use because its base class comes from undici, which is loaded lazily. */
function loopbackBypassClass(): LoopbackBypassClass {
  loopbackBypass ??= defineLoopbackBypass(loadUndici().DispatcherBase);
  return loopbackBypass;
}

function defineLoopbackBypass(DispatcherBase: typeof Undici.DispatcherBase): LoopbackBypassClass {
  /** Routes loopback origins to a direct agent and everything else to the proxy agent. */
  return class LoopbackBypass extends DispatcherBase {
    constructor(
      private readonly direct: Dispatcher,
      private readonly proxied: Dispatcher,
      private readonly proxyLoopback: boolean,
    ) {
      super();
    }

    dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      return this.route(options.origin).dispatch(options, handler);
    }

    private route(origin: Dispatcher.DispatchOptions['origin']): Dispatcher {
      if (this.proxyLoopback || origin === undefined) return this.proxied;
      try {
        return isLoopbackHost(new URL(String(origin)).hostname) ? this.direct : this.proxied;
      } catch {
        return this.proxied;
      }
    }

    close(): Promise<void>;
    close(callback: () => void): void;
    close(callback?: () => void): Promise<void> | void {
      const done = Promise.all([this.direct.close(), this.proxied.close()]).then(() => undefined);
      if (callback) {
        done.then(callback, callback);
        return;
      }
      return done;
    }

    destroy(): Promise<void>;
    destroy(err: Error | null): Promise<void>;
    destroy(callback: () => void): void;
    destroy(err: Error | null, callback: () => void): void;
    destroy(errOrCallback?: Error | null | (() => void), callback?: () => void): Promise<void> | void {
      const err = typeof errOrCallback === 'function' ? null : (errOrCallback ?? null);
      const cb = typeof errOrCallback === 'function' ? errOrCallback : callback;
      const done = Promise.all([this.direct.destroy(err), this.proxied.destroy(err)]).then(() => undefined);
      if (cb) {
        done.then(cb, cb);
        return;
      }
      return done;
    }
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v ? v : undefined;
}

function checkProxyUrl(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw proxyError(`the proxy URL ${describeProxyUrl(value)} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw proxyError(`the proxy protocol ${url.protocol} is not supported (use http:// or https://)`);
  }
}

/**
 * A proxy URL as it may be shown: never its credentials, valid URL or not. Everything up to the last `@` after the
 * scheme (user name and password, which may themselves hold `@`, `/` or `:`) is replaced; without an `@`, a text
 * that does not parse is shown only by its scheme.
 */
export function describeProxyUrl(value: string): string {
  const scheme = /^([a-z][a-z0-9+.-]{0,30}):\/\//i.exec(value);
  const rest = scheme ? value.slice(scheme[0].length) : value;
  const at = rest.lastIndexOf('@');
  if (at >= 0) return sanitizeServerText(`${scheme ? scheme[0] : ''}***@${rest.slice(at + 1)}`, 200);
  try {
    const url = new URL(value);
    return sanitizeServerText(`${url.protocol}//${url.host}`, 200);
  } catch {
    return scheme ? `${scheme[1]}://…` : '(not a URL)';
  }
}

function proxyError(detail: string): ApiError {
  return new ApiError({
    kind: 'invalidInput',
    operation: 'Configure proxy',
    method: '-',
    path: '-',
    detail,
    hint: 'Check the http.proxy setting and the HTTPS_PROXY / HTTP_PROXY environment variables.',
  });
}
