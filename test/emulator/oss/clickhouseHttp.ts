/**
 * The self-hosted flavor's ClickHouse HTTP interface, on its own loopback port: what a HyperDX deployer's ClickHouse
 * answers at `http://<host>:8123/`, backed by the same embedded ClickHouse data the chart series API reads.
 * - `POST /?default_format=<format>[&database=…]` (or `query=` in the URL), the SQL as the body;
 * - the user and password by HTTP Basic or `X-ClickHouse-User` / `X-ClickHouse-Key`; anything else answers 403
 *   `Code: 516. DB::Exception: <user>: Authentication failed … (AUTHENTICATION_FAILED)`;
 * - errors are plain text `Code: N. DB::Exception: … (NAME) (version …)` with `X-ClickHouse-Exception-Code`; every
 *   reply carries `X-ClickHouse-Query-Id`; an error after the first rows is written into the body as ClickHouse does.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { newRequestId } from '../ids';
import { LoopbackServer, readBody } from '../loopbackServer';
import type { RecordedRequest } from '../types';
import { ClickHouseEngine, DATA_DATABASE } from '../clickhouse/engine';
import { clickHouseError } from '../clickhouse/queryHost';

export const SAMPLE_CLICKHOUSE_USER = 'hyperdx_reader';
export const SAMPLE_CLICKHOUSE_PASSWORD = 'ch-Reader-Pa55-for-tests';

const VERSION = '(version 24.8.4.13 (official build))';
/** Settings taken from the URL (anything else is refused as ClickHouse refuses an unknown setting). */
const URL_SETTINGS = new Set([
  'output_format_json_quote_64bit_integers',
  'output_format_json_quote_64bit_floats',
  'output_format_json_quote_decimals',
  'readonly',
]);

export interface ClickHouseHttpDeps {
  requests: RecordedRequest[];
  frozenNow(): number | undefined;
}

export class ClickHouseHttp extends LoopbackServer {
  constructor(private readonly deps: ClickHouseHttpDeps) {
    super();
  }

  protected fail(res: ServerResponse, message: string | undefined): void {
    this.error(res, 500, '1001', message ?? 'Internal error', '');
  }

  private error(res: ServerResponse, status: number, code: string, details: string, queryId: string): void {
    const text = `Code: ${code}. ${details.startsWith('DB::Exception') ? details : `DB::Exception: ${details}`} ${VERSION}\n`;
    res.writeHead(status, {
      'content-type': 'text/plain; charset=UTF-8',
      'x-clickhouse-exception-code': code,
      ...(queryId ? { 'x-clickhouse-query-id': queryId } : {}),
    });
    res.end(text);
  }

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://clickhouse.local');
    const method = (req.method ?? 'GET').toUpperCase();
    const queryId = newRequestId();
    const record: RecordedRequest = {
      method,
      path: `clickhouse:${url.pathname}`,
      query: Object.fromEntries(url.searchParams),
      status: 0,
      requestId: queryId,
      authorized: false,
      at: Date.now(),
    };
    this.deps.requests.push(record);
    const fail = (status: number, code: string, details: string): void => {
      record.status = status;
      this.error(res, status, code, details, queryId);
    };
    if (url.pathname !== '/' || method !== 'POST') {
      return fail(404, '1001', `There is no handle ${url.pathname} (HTTP_NOT_FOUND)`);
    }
    const raw = await readBody(req);
    if (raw === null) return fail(413, '1001', 'Request body too large (STD_EXCEPTION)');
    record.body = raw;
    const { user, password } = credentials(req);
    if (user !== SAMPLE_CLICKHOUSE_USER || password !== SAMPLE_CLICKHOUSE_PASSWORD) {
      return fail(
        403,
        '516',
        `${user || 'default'}: Authentication failed: password is incorrect, or there is no user with such name. (AUTHENTICATION_FAILED)`,
      );
    }
    record.authorized = true;
    const sql = [url.searchParams.get('query') ?? '', raw].filter((s) => s !== '').join('\n');
    if (sql.trim() === '') return fail(400, '62', 'Empty query. (SYNTAX_ERROR)');
    const format = url.searchParams.get('default_format') ?? 'TabSeparated';
    const settings: Record<string, string> = { output_format_json_quote_64bit_integers: '1' };
    for (const [name, value] of url.searchParams) {
      if (name === 'default_format' || name === 'database' || name === 'query' || name === 'query_id') continue;
      if (!URL_SETTINGS.has(name)) return fail(400, '115', `Unknown setting '${name}'. (UNKNOWN_SETTING)`);
      if (name !== 'readonly') settings[name] = value;
    }
    const database = url.searchParams.get('database') || DATA_DATABASE;
    const engine = await ClickHouseEngine.shared();
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const write = async (chunk: Uint8Array): Promise<boolean> => {
      if (res.destroyed) return false;
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
      return !res.destroyed;
    };
    const startReply = (): void => {
      record.status = 200;
      res.writeHead(200, {
        'content-type': 'application/x-ndjson; charset=UTF-8',
        'x-clickhouse-query-id': queryId,
        'x-clickhouse-format': format,
        'x-clickhouse-timezone': 'UTC',
      });
      res.flushHeaders();
    };
    try {
      await engine.run(sql, format, database, abort.signal, startReply, write, settings, this.deps.frozenNow());
      if (!res.destroyed) res.end();
    } catch (e) {
      if (res.destroyed || abort.signal.aborted) return;
      const err = clickHouseError(e);
      if (!res.headersSent) return fail(400, err.code, err.details);
      res.end(`\nCode: ${err.code}. ${err.details} ${VERSION}\n`);
    }
  }
}

function credentials(req: IncomingMessage): { user: string; password: string } {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.headers.authorization ?? '');
  if (m) {
    const decoded = Buffer.from(m[1] ?? '', 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon >= 0) return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  const user = req.headers['x-clickhouse-user'];
  const key = req.headers['x-clickhouse-key'];
  return { user: typeof user === 'string' ? user : '', password: typeof key === 'string' ? key : '' };
}
