/**
 * The emulator's query host: `POST /service/{serviceId}/run?format=<format>` with HTTP Basic and a JSON body
 * `{sql, database?}`, answered by the embedded ClickHouse (engine.ts), like `queries.clickhouse.cloud`:
 * - the key must be listed in the service's query endpoint `openApiKeys` (no endpoint or not listed: 401);
 * - an idle service answers 206 `{"data":"Confirm wake service"}` until the request carries `wake-service: true`
 *   (which wakes it); a stopped service answers 404 `{"error":"ClickHouse service is currently unavailable. Please
 *   try again later."}` (as the live host does; older answers were 206 `{"data":"Service is stopped"}`);
 * - ClickHouse errors: 400 `{"error":{"code":"62","details":"DB::Exception: … (SYNTAX_ERROR)"}}`; an error after
 *   the first rows ends the body as ClickHouse ≥ 25.11 frames it (every 200 carries `X-ClickHouse-Exception-Tag`):
 *   `__exception__<tag>`, `Code: N. DB::Exception: …`, `<size> <tag>__exception__`;
 * - an endpoint without the `sql_console_admin` role runs only read statements (Code 164, READONLY).
 * Results stream in the requested format with backpressure; a closed connection cancels the query. Faults
 * registered for path `/service/<id>/run` apply (delay, reset before headers or mid-body, replaced reply).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { newRequestId } from '../ids';
import { LoopbackServer, readBody } from '../loopbackServer';
import type { EmulatorState, FaultSpec, JsonObject, RecordedRequest } from '../types';
import { ClickHouseEngine, DATA_DATABASE } from './engine';

export interface QueryHostDeps {
  state(): EmulatorState;
  keyId: string;
  keySecret: string;
  /** UUID of the key (what `openApiKeys` lists). */
  keyUuid: string;
  takeFault(method: string, path: string): FaultSpec | undefined;
  requests: RecordedRequest[];
  /** The emulator's frozen clock (EmulatorOptions.now) in ms, or undefined when its data moves with the wall clock. */
  frozenNow?(): number | undefined;
}

const RUN_PATH = /^\/service\/([0-9a-fA-F-]{36})\/run\/?$/;
const READ_STATEMENT =
  /^\s*(?:(?:--[^\n]*\n|\/\*[\s\S]*?\*\/)\s*)*\(?\s*(select|with|show|describe|desc|explain|exists)\b/i;
/** ClickHouse output settings the query host passes on from the URL. */
const OUTPUT_SETTINGS = new Set([
  'output_format_json_quote_64bit_integers',
  'output_format_json_quote_64bit_floats',
  'output_format_json_quote_decimals',
]);

const CONTENT_TYPES: Record<string, string> = {
  JSON: 'application/json; charset=UTF-8',
  JSONCompact: 'application/json; charset=UTF-8',
  JSONEachRow: 'application/x-ndjson; charset=UTF-8',
  JSONCompactEachRow: 'application/x-ndjson; charset=UTF-8',
  JSONCompactEachRowWithNamesAndTypes: 'application/x-ndjson; charset=UTF-8',
  JSONEachRowWithProgress: 'application/x-ndjson; charset=UTF-8',
  CSV: 'text/csv; charset=UTF-8; header=absent',
  CSVWithNames: 'text/csv; charset=UTF-8; header=present',
};

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** `Code: 62. DB::Exception: … (SYNTAX_ERROR)` out of an engine error message. */
export function clickHouseError(e: unknown): { code: string; details: string } {
  const text = e instanceof Error ? e.message : String(e);
  const m = /Code: (\d+)\. ([\s\S]*)$/.exec(text);
  if (m) return { code: m[1] as string, details: (m[2] as string).trim() };
  return { code: '1001', details: `DB::Exception: ${text.replace(/^Query failed: /, '')} (STD_EXCEPTION)` };
}

export class QueryHost extends LoopbackServer {
  constructor(private readonly deps: QueryHostDeps) {
    super();
  }

  protected fail(res: ServerResponse, message: string | undefined): void {
    this.json(res, 500, { error: message ?? 'Internal error.' });
  }

  private json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
    const body = Buffer.from(JSON.stringify(value), 'utf8');
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(body.length),
      ...headers,
    });
    res.end(body);
  }

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://query-host.local');
    const method = (req.method ?? 'GET').toUpperCase();
    const queryId = newRequestId();
    const m = RUN_PATH.exec(url.pathname);
    if (!m || method !== 'POST') {
      this.json(res, 404, { error: `Cannot ${method} ${url.pathname}` });
      return;
    }
    const serviceId = (m[1] as string).toLowerCase();
    const record: RecordedRequest = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      status: 0,
      requestId: queryId,
      authorized: false,
      at: Date.now(),
    };
    this.deps.requests.push(record);
    const raw = await readBody(req);
    if (raw === null) {
      record.status = 413;
      this.json(res, 413, { error: 'Request body too large' });
      return;
    }
    let body: JsonObject = {};
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) body = parsed as JsonObject;
      record.body = parsed;
    } catch {
      record.body = raw;
    }

    const fault = this.deps.takeFault(method, url.pathname);
    if (fault?.delayMs) await sleep(fault.delayMs);
    if (fault?.reset === 'before-headers') {
      req.socket.destroy();
      return;
    }
    if (fault && (fault.status !== undefined || fault.body !== undefined)) {
      const status = fault.status ?? 200;
      record.status = status;
      if (typeof fault.body === 'string') {
        res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...(fault.headers ?? {}) });
        res.end(fault.body);
      } else this.json(res, status, fault.body ?? { error: 'Internal error.' }, fault.headers ?? {});
      return;
    }

    const reply = (status: number, value: unknown): void => {
      record.status = status;
      this.json(res, status, value, { 'x-clickhouse-query-id': queryId });
    };
    const state = this.deps.state();
    if (!this.authenticated(req.headers.authorization)) return reply(401, { error: 'Invalid credentials' });
    const service = state.services.find((s) => s.id === serviceId);
    const data = state.data.get(serviceId);
    if (!service) return reply(404, { error: 'Service not found' });
    const endpoint = data?.queryEndpoint ?? null;
    if (!endpoint || !endpoint.openApiKeys.includes(this.deps.keyUuid)) {
      return reply(401, { error: 'The API key is not enabled for the query endpoint of this service' });
    }
    record.authorized = true;
    if (service.state === 'stopped') {
      return reply(404, { error: 'ClickHouse service is currently unavailable. Please try again later.' });
    }
    if (service.state === 'idle') {
      if (String(req.headers['wake-service'] ?? '').toLowerCase() !== 'true') {
        return reply(206, { data: 'Confirm wake service' });
      }
      service.state = 'running';
    }
    const sql = body.sql;
    if (typeof sql !== 'string' || sql.trim() === '') {
      return reply(400, { error: { code: '62', details: 'DB::Exception: Empty query. (SYNTAX_ERROR)' } });
    }
    if (!endpoint.roles.includes('sql_console_admin') && !READ_STATEMENT.test(sql)) {
      return reply(400, {
        error: { code: '164', details: 'DB::Exception: Cannot execute query in readonly mode. (READONLY)' },
      });
    }
    const hidden = /\b(sample_base|sample_shifted)\b/i.exec(sql)?.[1];
    if (hidden) {
      return reply(400, {
        error: {
          code: '497',
          details: `DB::Exception: Not enough privileges on database ${hidden.toLowerCase()}. (ACCESS_DENIED)`,
        },
      });
    }
    const format = url.searchParams.get('format') ?? 'TabSeparated';
    // ClickHouse's server default quotes 64-bit integers in JSON formats (the embedded engine's default does not).
    // Output settings in the URL apply to this query, as on ClickHouse's HTTP interface; unknown ones are refused.
    const settings: Record<string, string> = { output_format_json_quote_64bit_integers: '1' };
    for (const [name, value] of url.searchParams) {
      if (name === 'format') continue;
      if (!OUTPUT_SETTINGS.has(name)) {
        return reply(400, {
          error: { code: '115', details: `DB::Exception: Unknown setting '${name}'. (UNKNOWN_SETTING)` },
        });
      }
      settings[name] = value;
    }
    const database =
      typeof body.database === 'string' && body.database ? body.database : defaultDatabase(data?.sources);

    const engine = await ClickHouseEngine.shared();
    if (database !== 'default' && database !== 'system' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(database)) {
      engine.ensureDatabase(database);
    }
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    let written = 0;
    const cutAt = fault?.reset === 'mid-body' ? 64 * 1024 : Number.POSITIVE_INFINITY;
    const write = async (chunk: Uint8Array): Promise<boolean> => {
      if (res.destroyed) return false;
      written += chunk.length;
      if (written > cutAt) {
        res.write(Buffer.from(chunk.buffer, chunk.byteOffset, Math.max(0, chunk.length - (written - cutAt))));
        await sleep(20);
        res.socket?.destroy();
        return false;
      }
      if (!res.write(chunk)) {
        await new Promise<void>((resolve) => {
          const done = (): void => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.on('drain', done);
          res.on('close', done);
        });
      }
      if (fault?.dripMs) await sleep(fault.dripMs);
      return !res.destroyed;
    };
    const exceptionTag = randomBytes(8).toString('hex').toUpperCase().slice(0, 10);
    const startReply = (): void => {
      record.status = 200;
      res.writeHead(200, {
        'content-type': CONTENT_TYPES[format] ?? 'text/plain; charset=UTF-8',
        'x-clickhouse-query-id': queryId,
        'x-clickhouse-format': format,
        'x-clickhouse-timezone': 'UTC',
        'x-clickhouse-exception-tag': exceptionTag,
      });
      res.flushHeaders();
    };
    try {
      await engine.run(sql, format, database, abort.signal, startReply, write, settings, this.deps.frozenNow?.());
      if (!res.destroyed) res.end();
    } catch (e) {
      if (res.destroyed || abort.signal.aborted) return;
      if (!res.headersSent) return reply(400, { error: clickHouseError(e) });
      const err = clickHouseError(e);
      const message = `Code: ${err.code}. ${err.details}`;
      res.end(
        `\n__exception__${exceptionTag}\n${message}\n${Buffer.byteLength(message)} ${exceptionTag}__exception__\n`,
      );
    }
  }

  private authenticated(header: string | undefined): boolean {
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
    if (!m) return false;
    const decoded = Buffer.from(m[1] ?? '', 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return (
      colon >= 0 && decoded.slice(0, colon) === this.deps.keyId && decoded.slice(colon + 1) === this.deps.keySecret
    );
  }
}

function defaultDatabase(sources: Map<string, JsonObject> | undefined): string {
  for (const s of sources?.values() ?? []) {
    const from = s.from as { databaseName?: unknown } | undefined;
    if (typeof from?.databaseName === 'string' && from.databaseName) return from.databaseName;
  }
  return sources && sources.size > 0 ? DATA_DATABASE : 'default';
}
