/**
 * A small deterministic log table in the emulator's embedded ClickHouse (chdb), and a runner for rendered SQL.
 * Row i (0 ≤ i < 600) is logged at T0 + 6 s × i: service api/web/db by i % 3, severity "error" when i % 10 = 0,
 * body "request <i>" (+ " timeout" when i % 7 = 0), attributes status = 200 + 100 × (i % 4),
 * duration = i % 50, user = "u<i % 13>".
 */
import { ClickHouseEngine } from '../../emulator/clickhouse/engine';

export const DATABASE = 'preview_golden';
export const T0 = Date.UTC(2026, 0, 1, 0, 0, 0);
export const ROWS = 600;
export const STEP_MS = 6000;

export interface Row {
  i: number;
  ts: number;
  service: string;
  severity: string;
  severityNumber: number;
  body: string;
  status: string;
  duration: number;
  user: string;
}

/** The rows as the generator writes them, computed here independently of ClickHouse. */
export function rows(): Row[] {
  return Array.from({ length: ROWS }, (_, i) => ({
    i,
    ts: T0 + STEP_MS * i,
    service: ['api', 'web', 'db'][i % 3] as string,
    severity: i % 10 === 0 ? 'error' : 'info',
    severityNumber: i % 10 === 0 ? 17 : 9,
    body: `request ${i}${i % 7 === 0 ? ' timeout' : ''}`,
    status: String(200 + 100 * (i % 4)),
    duration: i % 50,
    user: `u${i % 13}`,
  }));
}

/** Gauge readings: minute m (0 ≤ m < 60) at T0 + m min + 30 s, per host. */
export function gauge(): { minute: number; ts: number; host: string; value: number }[] {
  return Array.from({ length: 60 }, (_, m) => [
    { minute: m, ts: T0 + m * 60_000 + 30_000, host: 'a', value: m % 10 },
    { minute: m, ts: T0 + m * 60_000 + 30_000, host: 'b', value: 100 + (m % 7) },
  ]).flat();
}

export const METRIC_SOURCE = {
  id: 'src-metrics',
  kind: 'metric',
  name: 'Metrics',
  from: { databaseName: DATABASE, tableName: '' },
  timestampValueExpression: 'TimeUnix',
  metricTables: { gauge: 'otel_metrics_gauge', sum: 'otel_metrics_sum' },
};

export const SOURCE = {
  id: 'src-logs',
  kind: 'log',
  name: 'Logs',
  from: { databaseName: DATABASE, tableName: 'otel_logs' },
  timestampValueExpression: 'TimestampTime',
  implicitColumnExpression: 'Body',
};

let ready: Promise<ClickHouseEngine> | undefined;

async function exec(
  engine: ClickHouseEngine,
  sql: string,
  settings: Record<string, string> = {},
  database = DATABASE,
  frozenNowMs?: number,
): Promise<string> {
  let out = '';
  await engine.run(
    sql,
    'JSONEachRow',
    database,
    new AbortController().signal,
    () => undefined,
    async (b) => {
      out += Buffer.from(b).toString('utf8');
      return true;
    },
    settings,
    frozenNowMs,
  );
  return out;
}

/** The engine with the table filled (once per process). */
export function engine(): Promise<ClickHouseEngine> {
  ready ??= (async () => {
    const e = await ClickHouseEngine.shared();
    e.ensureDatabase(DATABASE);
    await exec(e, 'TRUNCATE TABLE otel_logs');
    await exec(
      e,
      `INSERT INTO otel_logs (Timestamp, TimestampTime, ServiceName, SeverityText, SeverityNumber, Body, LogAttributes)
       SELECT fromUnixTimestamp64Milli(toInt64(${T0} + ${STEP_MS} * number)), toDateTime(intDiv(${T0} + ${STEP_MS} * number, 1000)),
              ['api', 'web', 'db'][number % 3 + 1], if(number % 10 = 0, 'error', 'info'), if(number % 10 = 0, 17, 9),
              concat('request ', toString(number), if(number % 7 = 0, ' timeout', '')),
              map('status', toString(200 + 100 * (number % 4)), 'duration', toString(number % 50), 'user', concat('u', toString(number % 13)))
       FROM numbers(${ROWS})`,
    );
    await exec(e, 'TRUNCATE TABLE otel_metrics_gauge');
    // Gauge "cpu": two hosts report once per minute for an hour; host a = minute % 10, host b = 100 + minute % 7.
    await exec(
      e,
      `INSERT INTO otel_metrics_gauge (TimeUnix, MetricName, ServiceName, Attributes, Value)
       SELECT toDateTime(intDiv(${T0}, 1000) + 60 * intDiv(number, 2) + 30), 'cpu', 'node',
              map('host', if(number % 2 = 0, 'a', 'b')),
              if(number % 2 = 0, intDiv(number, 2) % 10, 100 + intDiv(number, 2) % 7)
       FROM numbers(120)`,
    );
    await exec(e, 'TRUNCATE TABLE otel_metrics_sum');
    // Cumulative counter "requests": host a reads 10 × minute, host b 5 × minute, once per minute for an hour.
    await exec(
      e,
      `INSERT INTO otel_metrics_sum (TimeUnix, MetricName, ServiceName, Attributes, Value, AggregationTemporality, IsMonotonic)
       SELECT toDateTime(intDiv(${T0}, 1000) + 60 * intDiv(number, 2) + 30), 'requests', 'node',
              map('host', if(number % 2 = 0, 'a', 'b')),
              if(number % 2 = 0, 10, 5) * intDiv(number, 2), 2, true
       FROM numbers(120)`,
    );
    return e;
  })();
  return ready;
}

/** Runs SQL on the table (or in another database of the engine); times come back as Unix seconds. */
/** Rows of `sql`; `frozenNowMs` reads the sample data as an emulator whose clock is frozen there does. */
export async function query(
  sql: string,
  database = DATABASE,
  frozenNowMs?: number,
): Promise<Record<string, unknown>[]> {
  const e = await engine();
  if (database !== DATABASE) e.ensureDatabase(database);
  const text = await exec(
    e,
    sql,
    { date_time_output_format: 'unix_timestamp', output_format_json_quote_64bit_integers: '0' },
    database,
    frozenNowMs,
  );
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
