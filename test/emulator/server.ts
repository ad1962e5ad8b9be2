/**
 * Local emulator of the ClickHouse Cloud API with Managed ClickStack resources (loopback only).
 * Envelope, auth, errors, limits and side effects follow the live service; see test/emulator/README.md.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ApiFailure } from './errors';
import { faultFromJson, faultToJson, Faults } from './faults';
import { newRequestId } from './ids';
import { KeyRateLimiter } from './rateLimit';
import { buildRoutes, type Route } from './routes';
import { buildState, SAMPLE_KEY_ID, SAMPLE_KEY_SECRET, SAMPLE_KEY_UUID } from './seed';
import { QueryHost } from './clickhouse/queryHost';
import { ClickHouseEngine } from './clickhouse/engine';
import { adaptStateForOss, ossData, SAMPLE_OSS_API_KEY } from './oss/seed';
import { derivedLabels } from './alerts';
import { ClickHouseHttp, SAMPLE_CLICKHOUSE_PASSWORD, SAMPLE_CLICKHOUSE_USER } from './oss/clickhouseHttp';
import { ossApi, ossFaultReply } from './oss/routes';
import { warmUpOssSchemas } from './oss/schemas';
import type { EmulatorFlavor, HyperdxVersion } from './types';
import { addFutureFields } from './future';
import { checkErrorResponse, checkResponse, warmUpSchemas } from './schemas';
import type {
  EmulatorOptions,
  EmulatorState,
  FaultController,
  FaultSpec,
  RateLimitHeaderMode,
  RecordedRequest,
  ResponseIssue,
} from './types';

/**
 * The frozen "now" of EmulatorOptions.now or OBS_EMULATOR_NOW, in whole seconds (as ms), or undefined for the wall
 * clock. Accepts ms since the epoch, an ISO 8601 time or 'start' (the moment of the call).
 */
export function frozenNowOf(value: number | string | false | undefined): number | undefined {
  if (value === undefined || value === false || value === '') return undefined;
  const ms =
    value === 'start'
      ? Date.now()
      : typeof value === 'number'
        ? value
        : /^\d+$/.test(value)
          ? Number(value)
          : Date.parse(value);
  if (!Number.isFinite(ms) || ms <= 0) throw new Error(`Invalid emulator clock "${String(value)}"`);
  return Math.floor(ms / 1000) * 1000;
}

/** Page cap used by OBS_EMULATOR_FUTURE=1 when the options do not set one. */
export const FUTURE_PAGE_CAP = 7;

/** Response mismatches of every emulator in this process, oldest first, until taken. */
const responseIssueLog: ResponseIssue[] = [];

/**
 * Returns and clears the response mismatches recorded by every emulator in this process since the last call. Test
 * harnesses call it after each test and fail the test when anything comes back.
 */
export function takeResponseIssues(): ResponseIssue[] {
  return responseIssueLog.splice(0, responseIssueLog.length);
}

/** One readable paragraph per mismatch, for a test failure. */
export function describeResponseIssues(list: ResponseIssue[]): string {
  return list
    .map(
      (r) =>
        `${r.method} ${r.path} (${r.operation}, request ${r.requestId}): ${r.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    )
    .join('\n');
}

export interface Emulator {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** Query host (`POST /service/{id}/run`) on its own loopback port, backed by an embedded ClickHouse started on first use. */
  queryUrl: string;
  keyId: string;
  keySecret: string;
  organizationId: string;
  serviceIds: string[];
  /** Live data (replaced by reset()). */
  state: EmulatorState;
  faults: FaultController;
  /** Every API request (control routes excluded), oldest first. */
  requests: RecordedRequest[];
  /** 200 responses and 4xx error bodies of this emulator that do not fit the spec (also in takeResponseIssues()). */
  responseIssues: ResponseIssue[];
  /** Whether future fields are added to responses (see EmulatorOptions.futureFields). */
  readonly futureFields: boolean;
  /** Page cap of paged lists; 0 when none. */
  readonly pageCap: number;
  /** Which API this emulator serves (EmulatorOptions.flavor). */
  readonly flavor: EmulatorFlavor;
  /** The HyperDX version the self-hosted flavor answers as (EmulatorOptions.hyperdxVersion). */
  readonly hyperdxVersion: HyperdxVersion;
  /** The self-hosted flavor's personal API key (Bearer); present in both flavors, accepted only by 'oss'. */
  readonly ossApiKey: string;
  /** The self-hosted flavor's ClickHouse HTTP interface (oss/clickhouseHttp.ts); '' in the Cloud flavor. */
  clickHouseHttpUrl: string;
  /** Its user and password. */
  readonly clickHouseUser: string;
  readonly clickHousePassword: string;
  /** The frozen "now" of the sample data in ms (EmulatorOptions.now), or undefined when it moves with the wall clock. */
  readonly frozenNow: number | undefined;
  /** The emulator's "now" in ms: where its sample data ends (the frozen time, else the wall clock). */
  now(): number;
  /** Sets the clock as EmulatorOptions.now does: a fixed time or 'start' (this moment) freezes it, false lets it move. */
  setClock(now: number | 'start' | false): void;
  /**
   * Adds rows to a sample table of the embedded ClickHouse (e.g. 'otel_logs': an event arriving now), as objects of
   * its columns; their times are kept as given, not shifted with the sample data.
   */
  insertRows(table: string, rows: Record<string, unknown>[]): Promise<void>;
  /** Restores the initial data and clears faults, the request log and rate-limit windows. */
  reset(): void;
  close(): Promise<void>;
}

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const MAX_BODY_BYTES = 5 * 1024 * 1024;
const CONTROL_PREFIX = '/__emulator/';

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return (
    address === '::1' || address === 'localhost' || address.startsWith('127.') || address.startsWith('::ffff:127.')
  );
}

function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The page Express's final handler sends for a route it does not serve (what Cloud returns, api-notes K7). */
export function htmlNotFound(method: string, path: string): Reply {
  const body = `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot ${escapeHtml(method)} ${escapeHtml(encodeURI(decodeSafe(path)))}</pre>\n</body>\n</html>\n`;
  return {
    status: 404,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'",
      'x-content-type-options': 'nosniff',
    },
    body,
  };
}

function decodeSafe(s: string): string {
  try {
    return decodeURI(s);
  } catch {
    return s;
  }
}

function json(status: number, value: unknown, requestId?: string): Reply {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (requestId) headers['x-request-id'] = requestId;
  return { status, headers, body: JSON.stringify(value) };
}

function errorReply(status: number, error: string, requestId: string): Reply {
  return json(status, { status, error, requestId }, requestId);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new ApiFailure(413, 'Request body too large'));
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

class EmulatorServer implements Emulator {
  url = '';
  queryUrl = '';
  readonly keyId = SAMPLE_KEY_ID;
  readonly keySecret = SAMPLE_KEY_SECRET;
  organizationId: string;
  serviceIds: string[];
  state: EmulatorState;
  readonly faults = new Faults();
  readonly requests: RecordedRequest[] = [];
  readonly responseIssues: ResponseIssue[] = [];
  readonly futureFields: boolean;
  readonly pageCap: number;
  readonly flavor: EmulatorFlavor;
  readonly hyperdxVersion: HyperdxVersion;
  readonly ossApiKey = SAMPLE_OSS_API_KEY;
  clickHouseHttpUrl = '';
  readonly clickHouseUser = SAMPLE_CLICKHOUSE_USER;
  readonly clickHousePassword = SAMPLE_CLICKHOUSE_PASSWORD;
  private clickHouseHttp: ClickHouseHttp | undefined;
  private frozen: number | undefined;

  private routes: Route[];
  private limiter: KeyRateLimiter | null;
  private rateLimitHeader: RateLimitHeaderMode;
  private dataMode: 'sample' | 'empty';
  private alertCount: number;
  private readonly extraServices: number;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly segment: string;
  private readonly queryHost: QueryHost;

  constructor(private readonly opts: EmulatorOptions) {
    const future = process.env.OBS_EMULATOR_FUTURE === '1';
    this.futureFields = opts.futureFields ?? future;
    const cap = opts.pageCap ?? (future ? FUTURE_PAGE_CAP : 0);
    this.pageCap = cap === false ? 0 : Math.max(0, Math.floor(cap));
    this.frozen = frozenNowOf(opts.now ?? process.env.OBS_EMULATOR_NOW);
    this.flavor = opts.flavor ?? 'cloud';
    if (this.flavor !== 'cloud' && this.flavor !== 'oss') throw new Error(`Unknown flavor "${String(this.flavor)}"`);
    this.hyperdxVersion = opts.hyperdxVersion ?? 'newest';
    if (this.hyperdxVersion !== 'newest' && this.hyperdxVersion !== 'older') {
      throw new Error(`Unknown HyperDX version "${String(this.hyperdxVersion)}"`);
    }
    this.segment = opts.segment ?? 'observability';
    if (!/^[a-z][a-z0-9-]{0,63}$/.test(this.segment)) throw new Error(`Invalid path segment "${this.segment}"`);
    this.routes = buildRoutes(this.segment, { sourceGetById: opts.sourceGetById === true });
    const rl = opts.rateLimit === undefined ? { requests: 10, windowMs: 10_000 } : opts.rateLimit;
    this.limiter = rl === false ? null : new KeyRateLimiter(rl.requests, rl.windowMs);
    // Self-hosted HyperDX allows 100 requests per minute per key.
    if (this.flavor === 'oss' && opts.rateLimit === undefined) this.limiter = new KeyRateLimiter(100, 60_000);
    this.rateLimitHeader = opts.rateLimitHeader ?? 'none';
    this.dataMode = opts.data ?? 'sample';
    this.alertCount = Math.max(0, Math.floor(opts.alertCount ?? 0));
    this.extraServices = Math.max(0, Math.floor(opts.extraServices ?? 0));
    this.state = this.build();
    this.organizationId = this.state.organization.id;
    this.serviceIds = this.state.services.map((s) => s.id);
    this.server = createServer((req, res) => {
      this.handle(req, res).catch(() => {
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
          const requestId = newRequestId();
          res.end(JSON.stringify({ status: 500, error: 'Internal server error', requestId }));
        } else res.destroy();
      });
    });
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    this.queryHost = new QueryHost({
      state: () => this.state,
      keyId: SAMPLE_KEY_ID,
      keySecret: SAMPLE_KEY_SECRET,
      keyUuid: SAMPLE_KEY_UUID,
      takeFault: (method, path) => this.faults.take(method, path),
      requests: this.requests,
      frozenNow: () => this.frozenNow,
    });
  }

  get frozenNow(): number | undefined {
    return this.frozen;
  }

  async insertRows(table: string, rows: Record<string, unknown>[]): Promise<void> {
    await (await ClickHouseEngine.shared()).insertRows(table, rows);
  }

  now(): number {
    return this.frozen ?? Date.now();
  }

  setClock(now: number | 'start' | false): void {
    this.frozen = frozenNowOf(now);
  }

  async listen(): Promise<void> {
    const host = this.opts.host ?? '127.0.0.1';
    if (!isLoopback(host)) throw new Error(`The emulator only listens on loopback addresses, not "${host}"`);
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.opts.port ?? 0, host, () => resolve());
    });
    const addr = this.server.address() as AddressInfo;
    const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    this.url = `http://${shownHost}:${addr.port}`;
    await this.queryHost.listen(host);
    this.queryUrl = this.queryHost.url;
    if (this.flavor === 'oss') {
      this.clickHouseHttp = new ClickHouseHttp({ requests: this.requests, frozenNow: () => this.frozenNow });
      await this.clickHouseHttp.listen(host);
      this.clickHouseHttpUrl = this.clickHouseHttp.url;
    }
  }

  reset(data?: 'sample' | 'empty', alertCount?: number): void {
    if (data) this.dataMode = data;
    if (alertCount !== undefined) this.alertCount = Math.max(0, Math.floor(alertCount));
    this.state = this.build();
    this.faults.clear();
    this.requests.length = 0;
    this.responseIssues.length = 0;
    this.limiter?.clear();
  }

  private build(): EmulatorState {
    const state = buildState(this.dataMode, this.alertCount, this.extraServices);
    if (this.flavor === 'oss') adaptStateForOss(state);
    if (this.flavor === 'oss' && this.hyperdxVersion === 'newest') {
      // The newest HyperDX backfills every stored alert's display name and tags.
      const data = ossData(state);
      for (const alert of data.alerts.values()) {
        Object.assign(alert, { chartConfig: null, ...derivedLabels(alert, data) });
      }
    }
    return state;
  }

  close(): Promise<void> {
    this.faults.release();
    const api = new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      for (const s of this.sockets) s.destroy();
    });
    return Promise.all([api, this.queryHost.close(), this.clickHouseHttp?.close()]).then(() => undefined);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = newRequestId();
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://emulator.local');
    const path = url.pathname;

    if (!isLoopback(req.socket.remoteAddress)) {
      req.socket.destroy();
      return;
    }
    if (path.startsWith(CONTROL_PREFIX)) {
      let raw: Buffer;
      try {
        raw = await readBody(req);
      } catch {
        this.send(res, json(413, { error: 'Request body too large' }));
        return;
      }
      this.send(res, this.control(method, path, raw));
      return;
    }

    const record: RecordedRequest = {
      method,
      path,
      query: Object.fromEntries(url.searchParams),
      status: 0,
      requestId,
      authorized: false,
      at: Date.now(),
    };
    this.requests.push(record);
    let raw: Buffer = Buffer.alloc(0);
    try {
      raw = await readBody(req);
    } catch (e) {
      const reply =
        e instanceof ApiFailure
          ? errorReply(e.status, e.message, requestId)
          : errorReply(400, 'Could not read the request body', requestId);
      record.status = reply.status;
      this.send(res, reply);
      return;
    }
    const text = raw.toString('utf8');
    if (text.length > 0) {
      try {
        record.body = JSON.parse(text) as unknown;
      } catch {
        record.body = text;
      }
    }

    const fault = this.faults.take(method, path);
    if (fault?.delayMs) await sleep(fault.delayMs);
    if (fault?.hold) await this.faults.waitForRelease();
    if (fault?.reset === 'before-headers') {
      record.status = 0;
      req.socket.destroy();
      return;
    }

    let reply: Reply;
    if (fault && (fault.status !== undefined || fault.body !== undefined)) reply = this.faultReply(fault, requestId);
    else if (this.flavor === 'oss') {
      reply = await this.ossApi(method, path, url.searchParams, text, req.headers, record);
    } else {
      reply = this.api(
        method,
        path,
        url.searchParams,
        text,
        req.headers.authorization,
        req.headers['content-type'],
        record,
      );
    }
    if (fault?.headers) reply.headers = { ...reply.headers, ...lower(fault.headers) };
    if (fault?.malformedJson) {
      reply.body = corrupt(reply.body);
      reply.headers['content-type'] = 'application/json; charset=utf-8';
    }
    record.status = reply.status;
    await this.deliver(res, reply, fault);
  }

  private faultReply(f: FaultSpec, requestId: string): Reply {
    const status = f.status ?? 200;
    if (f.body === undefined && this.flavor === 'oss') return status >= 400 ? ossFaultReply(status) : json(status, {});
    if (f.body === undefined) {
      if (status >= 400) return errorReply(status, STATUS_CODES[status] ?? 'Error', requestId);
      return json(status, { status, requestId, result: {} }, requestId);
    }
    if (typeof f.body === 'string') {
      const looksHtml = /^\s*</.test(f.body);
      const looksJson = /^\s*[[{]/.test(f.body);
      const type = looksHtml
        ? 'text/html; charset=utf-8'
        : looksJson
          ? 'application/json; charset=utf-8'
          : 'text/plain; charset=utf-8';
      return { status, headers: { 'content-type': type, 'x-request-id': requestId }, body: f.body };
    }
    return json(status, f.body, requestId);
  }

  /** The self-hosted flavor (oss/routes.ts); an unserved route gets Express's HTML 404 page. */
  private async ossApi(
    method: string,
    path: string,
    query: URLSearchParams,
    text: string,
    headers: IncomingMessage['headers'],
    record: RecordedRequest,
  ): Promise<Reply> {
    try {
      const reply = await ossApi({
        state: this.state,
        method,
        path,
        query,
        text,
        authorization: headers.authorization,
        contentType: headers['content-type'],
        now: Date.now(),
        frozenNow: this.frozenNow,
        ...(this.pageCap > 0 ? { pageCap: this.pageCap } : {}),
        futureFields: this.futureFields,
        hyperdxVersion: this.hyperdxVersion,
        limiter: this.limiter,
        record,
        onResponseIssues: (operation, issues) => {
          const issue: ResponseIssue = { method, path, operation, requestId: record.requestId, issues };
          this.responseIssues.push(issue);
          responseIssueLog.push(issue);
        },
      });
      return reply ?? htmlNotFound(method, path);
    } catch {
      return json(500, { message: 'Something went wrong :(' });
    }
  }

  /** The real API: route, auth, rate limit, body parse, handler. */
  private api(
    method: string,
    path: string,
    query: URLSearchParams,
    text: string,
    authorization: string | undefined,
    contentType: string | undefined,
    record: RecordedRequest,
  ): Reply {
    const requestId = record.requestId;
    let route: Route | undefined;
    let params: string[] = [];
    for (const r of this.routes) {
      if (r.method !== method) continue;
      const m = r.pattern.exec(path);
      if (m) {
        route = r;
        params = m.slice(1).map((p) => decodeSafe(p));
        break;
      }
    }
    if (!route) return htmlNotFound(method, path);
    const reply = this.routeReply(route, params, method, path, query, text, authorization, contentType, record);
    if (reply.status >= 400 && reply.status < 500) this.checkErrorReply(method, path, route.spec, requestId, reply);
    return reply;
  }

  /** A served route: auth, rate limit, body parse, handler. */
  private routeReply(
    route: Route,
    params: string[],
    method: string,
    path: string,
    query: URLSearchParams,
    text: string,
    authorization: string | undefined,
    contentType: string | undefined,
    record: RecordedRequest,
  ): Reply {
    const requestId = record.requestId;
    const key = this.authenticate(authorization);
    if (!key) return errorReply(401, 'Invalid credentials', requestId);
    record.authorized = true;

    if (this.limiter) {
      const waitMs = this.limiter.hit(key);
      if (waitMs > 0) {
        const reply = errorReply(429, 'Rate limit exceeded', requestId);
        const seconds = String(Math.max(1, Math.ceil(waitMs / 1000)));
        if (this.rateLimitHeader === 'x-ratelimit-reset') reply.headers['x-ratelimit-reset'] = seconds;
        if (this.rateLimitHeader === 'retry-after') reply.headers['retry-after'] = seconds;
        return reply;
      }
    }

    let body: unknown;
    if (method === 'POST' || method === 'PUT') {
      // Like Express's JSON parser: a body without a JSON content type is not read, so it arrives as {}.
      if (text.trim().length === 0) body = undefined;
      else if (!/\bjson\b/i.test(contentType ?? '')) body = {};
      else {
        try {
          body = JSON.parse(text) as unknown;
        } catch {
          return errorReply(400, 'Invalid JSON payload', requestId);
        }
      }
    }
    try {
      const out = route.handler({
        state: this.state,
        params,
        query,
        body,
        now: Date.now(),
        ...(this.pageCap > 0 ? { pageCap: this.pageCap } : {}),
      });
      let envelope: Record<string, unknown>;
      if (out === undefined) envelope = { status: 200, requestId };
      else {
        envelope = {
          status: 200,
          requestId,
          result: this.futureFields ? addFutureFields(route.spec, out.result) : out.result,
        };
      }
      this.checkReply(method, path, route.spec, requestId, envelope);
      return json(200, envelope, requestId);
    } catch (e) {
      if (e instanceof ApiFailure) return errorReply(e.status, e.message, requestId);
      return errorReply(500, 'Internal server error', requestId);
    }
  }

  /** Records a 4xx error body that does not fit the error schema its operation declares (see checkErrorResponse). */
  private checkErrorReply(method: string, path: string, operation: string, requestId: string, reply: Reply): void {
    let body: unknown;
    try {
      body = JSON.parse(reply.body) as unknown;
    } catch {
      body = reply.body;
    }
    const issues = checkErrorResponse(operation, reply.status, body);
    if (issues.length === 0) return;
    const issue: ResponseIssue = { method, path, operation: `${operation} (${reply.status})`, requestId, issues };
    this.responseIssues.push(issue);
    responseIssueLog.push(issue);
  }

  /** Records a 200 response that does not fit the spec's response schema for its operation. */
  private checkReply(method: string, path: string, operation: string, requestId: string, envelope: unknown): void {
    const issues = checkResponse(operation, envelope);
    if (issues.length === 0) return;
    const issue: ResponseIssue = { method, path, operation, requestId, issues };
    this.responseIssues.push(issue);
    responseIssueLog.push(issue);
  }

  private authenticate(header: string | undefined): string | null {
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
    if (!m) return null;
    const decoded = Buffer.from(m[1] ?? '', 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return null;
    const id = decoded.slice(0, colon);
    const secret = decoded.slice(colon + 1);
    return id === this.keyId && secret === this.keySecret ? id : null;
  }

  private async deliver(res: ServerResponse, reply: Reply, fault: FaultSpec | undefined): Promise<void> {
    const body = Buffer.from(reply.body, 'utf8');
    const headers = { ...reply.headers, 'content-length': String(body.length) };
    if (fault?.reset === 'mid-body') {
      res.writeHead(reply.status, headers);
      res.write(body.subarray(0, Math.floor(body.length / 2)));
      await sleep(20);
      res.socket?.destroy();
      return;
    }
    if (fault?.dripMs && fault.dripMs > 0) {
      res.writeHead(reply.status, headers);
      res.flushHeaders();
      const chunk = Math.max(1, Math.ceil(body.length / 20));
      for (let i = 0; i < body.length; i += chunk) {
        if (res.destroyed) return;
        res.write(body.subarray(i, i + chunk));
        await sleep(fault.dripMs);
      }
      res.end();
      return;
    }
    res.writeHead(reply.status, headers);
    res.end(body);
  }

  private send(res: ServerResponse, reply: Reply): void {
    const body = Buffer.from(reply.body, 'utf8');
    res.writeHead(reply.status, { ...reply.headers, 'content-length': String(body.length) });
    res.end(body);
  }

  /** HTTP control under /__emulator/ for other processes (not authenticated, not limited, not recorded). */
  private control(method: string, path: string, raw: Buffer): Reply {
    let body: unknown;
    const text = raw.toString('utf8');
    if (text.trim().length > 0) {
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        return json(400, { error: 'Invalid JSON payload' });
      }
    }
    const obj =
      typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const route = `${method} ${path.replace(/\/+$/, '')}`;
    try {
      switch (route) {
        case 'GET /__emulator/info':
          if (this.flavor === 'oss') {
            return json(200, {
              flavor: 'oss',
              url: this.url,
              apiKey: this.ossApiKey,
              clickHouseHttpUrl: this.clickHouseHttpUrl,
              clickHouseUser: this.clickHouseUser,
              clickHousePassword: this.clickHousePassword,
              teamId: this.state.data.get(this.serviceIds[0] ?? '')?.teamId,
              pageCap: this.pageCap,
              frozenNow: this.frozenNow ?? null,
            });
          }
          return json(200, {
            flavor: 'cloud',
            url: this.url,
            queryUrl: this.queryUrl,
            keyId: this.keyId,
            keySecret: this.keySecret,
            organizationId: this.organizationId,
            serviceIds: this.serviceIds,
            segment: this.segment,
            futureFields: this.futureFields,
            pageCap: this.pageCap,
            frozenNow: this.frozenNow ?? null,
          });
        case 'GET /__emulator/requests':
          return json(200, this.requests);
        case 'GET /__emulator/response-issues':
          return json(200, this.responseIssues);
        case 'DELETE /__emulator/requests':
          this.requests.length = 0;
          return json(200, { ok: true });
        case 'GET /__emulator/faults':
          return json(200, this.faults.list().map(faultToJson));
        case 'POST /__emulator/faults': {
          const list = Array.isArray(body) ? body : [body];
          for (const f of list) this.faults.add(faultFromJson(f));
          return json(200, { ok: true, faults: this.faults.list().length });
        }
        case 'DELETE /__emulator/faults':
          this.faults.clear();
          return json(200, { ok: true });
        case 'POST /__emulator/reset': {
          const data = obj.data === 'sample' || obj.data === 'empty' ? obj.data : undefined;
          const count = typeof obj.alertCount === 'number' ? obj.alertCount : undefined;
          this.reset(data, count);
          return json(200, { ok: true });
        }
        case 'POST /__emulator/config': {
          if (obj.rateLimit === false) this.limiter = null;
          else if (typeof obj.rateLimit === 'object' && obj.rateLimit !== null) {
            const rl = obj.rateLimit as { requests?: unknown; windowMs?: unknown };
            if (
              typeof rl.requests !== 'number' ||
              typeof rl.windowMs !== 'number' ||
              rl.requests < 1 ||
              rl.windowMs < 1
            ) {
              return json(400, { error: 'rateLimit must be false or {requests, windowMs}' });
            }
            this.limiter = new KeyRateLimiter(rl.requests, rl.windowMs);
          }
          if (
            obj.rateLimitHeader === 'none' ||
            obj.rateLimitHeader === 'x-ratelimit-reset' ||
            obj.rateLimitHeader === 'retry-after'
          ) {
            this.rateLimitHeader = obj.rateLimitHeader;
          }
          return json(200, { ok: true });
        }
        default:
          return json(404, { error: `Unknown control route ${route}` });
      }
    } catch (e) {
      return json(400, { error: e instanceof Error ? e.message : String(e) });
    }
  }
}

function lower(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

/** Truncates a JSON body so it no longer parses (keeps it looking like the start of the real reply). */
function corrupt(body: string): string {
  const cut = body.length > 8 ? body.slice(0, Math.floor(body.length * 0.6)) : '{"status":';
  return `${cut}\u0000,}`;
}

/** Starts an emulator on a free loopback port (unless `port` is given). */
export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const emulator = new EmulatorServer(opts);
  await warmUpSchemas();
  if (emulator.flavor === 'oss') await warmUpOssSchemas(emulator.hyperdxVersion);
  await emulator.listen();
  return emulator;
}
