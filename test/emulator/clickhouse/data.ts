/**
 * Deterministic OpenTelemetry sample data for the embedded ClickHouse, written as SQL that generates it.
 *
 * Every row is a pure function of its row number (hashes of the number give the randomness), and every timestamp
 * is expressed relative to a fixed anchor, `ANCHOR_SECONDS` (2000-01-08 00:00:00 UTC): the data covers the 7 days
 * before the anchor. The generated rows are stored once in an on-disk cache; whenever an emulator process loads
 * them it shifts every time column by `now - anchor`, so the data always ends "now" and the seeded alerts' states
 * hold: the checkout service's p95 latency has been above 1.5 s for the last 15 minutes (ALERT), its error count per
 * 15 minutes stays under 50 outside older bursts (OK), its server requests fell below 100 per 5 minutes only in the
 * last few minutes (PENDING), and declined payments run at about 60 a minute in the last 10 minutes (ALERT).
 */

export const ANCHOR_SECONDS = 947289600;
const WEEK = 7 * 86400;
/** Bump when the generated data changes (part of the cache key). */
export const DATA_VERSION = 6;

export const LOG_ROWS = 1_000_000;
export const SPAN_ROWS = 600_000;

const u = (k: number): string => `((cityHash64(number, ${k}) % 1000000) / 1000000.)`;
const pick = (items: string[], k: number): string =>
  `[${items.map((s) => `'${s}'`).join(', ')}][(cityHash64(number, ${k}) % ${items.length}) + 1]`;
const hex = (k: number): string => `lower(hex(cityHash64(number, ${k})))`;

const SERVICES_LOGS = [
  'checkout',
  'checkout',
  'checkout',
  'cart',
  'cart',
  'payment',
  'payment',
  'frontend',
  'frontend',
  'frontend',
  'search',
  'inventory',
  'shipping',
];
const SERVICES_SPANS = [
  'checkout',
  'checkout',
  'checkout',
  'checkout',
  'checkout',
  'checkout',
  'checkout',
  'cart',
  'cart',
  'payment',
  'payment',
  'frontend',
  'search',
  'inventory',
];

const resourceAttributes = (svc: string, k: number): string =>
  `map('service.name', ${svc}, 'deployment.environment', 'production', 'k8s.cluster.name', 'prod-eu-1', 'k8s.namespace.name', if(${svc} IN ('frontend', 'search'), 'web', 'shop'), 'k8s.node.name', concat('node-', toString(cityHash64(number, ${k}) % 6 + 1)), 'k8s.pod.name', concat(${svc}, '-7d9f', toString(cityHash64(number, ${k}) % 3)), 'service.version', '2.14.' || toString(cityHash64(number, ${k} + 1) % 3))`;

/** One SELECT per file of the cache: its rows, columns named like the table's. */
export function generators(): { table: string; sql: string }[] {
  const logTs = `(toInt64(${ANCHOR_SECONDS - WEEK}) * 1000000000 + toInt64(number) * ${(WEEK * 1e9) / LOG_ROWS} + toInt64(cityHash64(number, 1) % ${(WEEK * 1e9) / LOG_ROWS}))`;
  const logs = `
SELECT
  fromUnixTimestamp64Nano(ts, 'UTC') AS Timestamp,
  toDateTime(intDiv(ts, 1000000000), 'UTC') AS TimestampTime,
  concat(${hex(8)}, ${hex(9)}) AS TraceId,
  ${hex(10)} AS SpanId,
  toUInt8(1) AS TraceFlags,
  sev AS SeverityText,
  toUInt8(multiIf(sev = 'error', 17, sev = 'warn', 13, sev = 'debug', 5, 9)) AS SeverityNumber,
  svc AS ServiceName,
  multiIf(
    declined, concat('Payment declined by provider: card issuer returned ', ${pick(['insufficient_funds', 'do_not_honor', 'expired_card'], 21)}, ' (order ', toString(number % 100000), ')'),
    sev = 'error', ${pick(['Payment provider timeout after 3000 ms', 'Failed to reserve inventory: connection reset by peer', 'Unhandled exception in request handler: NullPointerException', 'Database query failed: deadlock detected', 'Upstream returned HTTP 503 Service Unavailable'], 5)},
    sev = 'warn', concat(${pick(['Slow query took ', 'Retrying request after ', 'Cache miss rate high, refresh took '], 6)}, toString(100 + cityHash64(number, 7) % 2900), ' ms'),
    sev = 'debug', concat('cache lookup key=', ${hex(11)}),
    concat(${pick(['GET', 'GET', 'POST', 'PUT'], 12)}, ' ', ${pick(['/api/cart', '/api/checkout', '/api/products', '/api/orders', '/healthz'], 13)}, ' ', ${pick(['200', '200', '200', '201', '304', '404'], 14)}, ' in ', toString(5 + cityHash64(number, 15) % 400), ' ms')
  ) AS Body,
  'https://opentelemetry.io/schemas/1.24.0' AS ResourceSchemaUrl,
  ${resourceAttributes('svc', 16)} AS ResourceAttributes,
  '' AS ScopeSchemaUrl,
  'io.opentelemetry.logs' AS ScopeName,
  '1.38.0' AS ScopeVersion,
  map() AS ScopeAttributes,
  if(svc = 'payment', map('payment.status', if(declined, 'declined', 'approved'), 'payment.provider', ${pick(['stripe', 'adyen'], 17)}), map('http.method', ${pick(['GET', 'POST'], 18)}, 'user.id', toString(cityHash64(number, 19) % 5000))) AS LogAttributes,
  '' AS EventName
FROM (
  SELECT number, ts, svc,
    (svc = 'payment' AND ((secondsAgo < 600 AND recent) OR ${u(20)} < 0.04)) AS declined,
    multiIf(declined OR ${u(3)} < if(burst, 0.3, 0.02), 'error', ${u(4)} < 0.08, 'warn', ${u(4)} < 0.15, 'debug', 'info') AS sev
  FROM (
    SELECT number, ts, recent,
      if(recent, 'payment', ${pick(SERVICES_LOGS, 2)}) AS svc,
      ${ANCHOR_SECONDS} - intDiv(ts, 1000000000) AS secondsAgo,
      (secondsAgo > 1800 AND cityHash64(intDiv(intDiv(ts, 1000000000), 1800)) % 23 = 0) AS burst
    FROM (
      SELECT number, number >= ${LOG_ROWS} AS recent,
        if(recent, toInt64(${ANCHOR_SECONDS - 600}) * 1000000000 + toInt64(number - ${LOG_ROWS}) * 1000000000, ${logTs}) AS ts
      FROM numbers(${LOG_ROWS + 600})
    )
  )
)`;

  const spanStep = (WEEK * 1e9) / SPAN_ROWS;
  const spans = `
SELECT
  fromUnixTimestamp64Nano(ts, 'UTC') AS Timestamp,
  concat(${hex(8)}, ${hex(9)}) AS TraceId,
  ${hex(10)} AS SpanId,
  if(kind = 'Server', '', ${hex(22)}) AS ParentSpanId,
  '' AS TraceState,
  multiIf(kind = 'Client', concat('HTTP POST ', if(svc = 'payment', 'payment-provider', 'inventory')), kind = 'Internal', concat(svc, '.', ${pick(['validate', 'load', 'render', 'persist'], 23)}), route) AS SpanName,
  kind AS SpanKind,
  svc AS ServiceName,
  ${resourceAttributes('svc', 16)} AS ResourceAttributes,
  'io.opentelemetry.http' AS ScopeName,
  '1.38.0' AS ScopeVersion,
  map('http.response.status_code', if(err, '500', ${pick(['200', '200', '200', '200', '200', '201', '404'], 24)}), 'http.request.method', splitByChar(' ', route)[1], 'http.route', splitByChar(' ', route)[2]) AS SpanAttributes,
  toUInt64(greatest(1, median * exp(0.55 * z) * if(${u(25)} < 0.03, 12, 1) * if(slowNow, 9, 1)) * 1000000) AS Duration,
  if(err, 'Error', 'Unset') AS StatusCode,
  if(err, ${pick(['upstream timeout', 'connection reset', 'internal error'], 26)}, '') AS StatusMessage,
  CAST([], 'Array(DateTime64(9))') AS \`Events.Timestamp\`,
  CAST([], 'Array(String)') AS \`Events.Name\`,
  CAST([], 'Array(Map(String, String))') AS \`Events.Attributes\`,
  CAST([], 'Array(String)') AS \`Links.TraceId\`,
  CAST([], 'Array(String)') AS \`Links.SpanId\`,
  CAST([], 'Array(String)') AS \`Links.TraceState\`,
  CAST([], 'Array(Map(String, String))') AS \`Links.Attributes\`
FROM (
  SELECT number, ts, svc, kind, route,
    multiIf(svc = 'checkout', 140, svc = 'payment', 220, svc = 'search', 60, svc = 'frontend', 35, 80) AS median,
    sqrt(-2 * log(${u(12)} + 0.000001)) * cos(2 * pi() * ${u(13)}) AS z,
    (svc = 'checkout' AND secondsAgo < 900) AS slowNow,
    (${u(14)} < if(burst, 0.2, 0.008)) AS err
  FROM (
    SELECT number, ts, svc,
      ${ANCHOR_SECONDS} - intDiv(ts, 1000000000) AS secondsAgo,
      (secondsAgo > 1800 AND cityHash64(intDiv(intDiv(ts, 1000000000), 1800), 7) % 29 = 0) AS burst,
      if(svc = 'checkout', if(${u(27)} < 0.85, 'Server', 'Client'), ${pick(['Server', 'Server', 'Server', 'Client', 'Internal'], 28)}) AS kind,
      multiIf(
        svc = 'checkout', ${pick(['POST /api/checkout', 'POST /api/checkout', 'GET /api/checkout/summary', 'POST /api/checkout/confirm'], 29)},
        svc = 'cart', ${pick(['GET /api/cart', 'POST /api/cart/items', 'DELETE /api/cart/items'], 29)},
        svc = 'payment', ${pick(['POST /api/payments', 'POST /api/payments/refund'], 29)},
        svc = 'frontend', ${pick(['GET /', 'GET /product', 'GET /cart'], 29)},
        svc = 'search', ${pick(['GET /api/search', 'GET /api/suggest'], 29)},
        ${pick(['GET /api/stock', 'POST /api/reservations'], 29)}
      ) AS route
    FROM (
      SELECT number,
        toInt64(${ANCHOR_SECONDS - WEEK}) * 1000000000 + toInt64(number) * ${spanStep} + toInt64(cityHash64(number, 1) % ${spanStep}) AS ts,
        ${pick(SERVICES_SPANS, 2)} AS svc
      FROM numbers(${SPAN_ROWS})
    )
    -- The checkout traffic drop of the last 8 minutes.
    WHERE NOT (svc = 'checkout' AND secondsAgo < 480 AND ${u(30)} < 0.6)
  )
)`;

  const nodes = 6;
  const minutes = WEEK / 60;
  const gauge = `
SELECT
  map('k8s.node.name', node, 'k8s.cluster.name', 'prod-eu-1', 'k8s.namespace.name', ns, 'k8s.pod.name', pod) AS ResourceAttributes,
  '' AS ResourceSchemaUrl, 'otelcol/kubeletstatsreceiver' AS ScopeName, '0.120.0' AS ScopeVersion, map() AS ScopeAttributes,
  toUInt32(0) AS ScopeDroppedAttrCount, '' AS ScopeSchemaUrl, 'k8s' AS ServiceName,
  metric AS MetricName, '' AS MetricDescription,
  multiIf(metric = 'k8s.node.cpu.utilization', '1', metric = 'k8s.node.memory.working_set', 'By', '') AS MetricUnit,
  map() AS Attributes,
  toDateTime(t - 60, 'UTC') AS StartTimeUnix, toDateTime(t, 'UTC') AS TimeUnix,
  multiIf(
    metric = 'k8s.node.cpu.utilization', least(0.99, greatest(0.02, 0.38 + 0.22 * sin(2 * pi() * t / 86400 + n) + 0.06 * (${u(31)} - 0.5) + if(n = 3 AND ${ANCHOR_SECONDS} - t < 5400, 0.5, 0))),
    metric = 'k8s.node.memory.working_set', 6.2e9 + 1.5e9 * sin(2 * pi() * t / 86400 + n / 2) + 2e8 * ${u(32)},
    metric = 'k8s.node.condition_ready', if(n = 5 AND (${ANCHOR_SECONDS} - t) BETWEEN 7200 AND 9000, 0, 1),
    1
  ) AS Value,
  toUInt32(0) AS Flags,
  CAST([], 'Array(Map(String, String))') AS \`Exemplars.FilteredAttributes\`, CAST([], 'Array(DateTime)') AS \`Exemplars.TimeUnix\`,
  CAST([], 'Array(Float64)') AS \`Exemplars.Value\`, CAST([], 'Array(String)') AS \`Exemplars.SpanId\`, CAST([], 'Array(String)') AS \`Exemplars.TraceId\`
FROM (
  SELECT number, m, n, t, metric,
    concat('node-', toString(n + 1)) AS node,
    if(metric = 'k8s.pod.phase', ['shop', 'shop', 'web', 'kube-system', 'observability'][(n % 5) + 1], '') AS ns,
    if(metric = 'k8s.pod.phase', concat(['checkout', 'cart', 'frontend', 'coredns', 'otel-collector'][(n % 5) + 1], '-7d9f', toString(intDiv(number, 4) % 5)), '') AS pod
  FROM (
    SELECT number,
      intDiv(number, ${nodes * 4}) AS m,
      intDiv(number % ${nodes * 4}, 4) AS n,
      ${ANCHOR_SECONDS - WEEK} + 60 * (m + 1) AS t,
      ['k8s.node.cpu.utilization', 'k8s.node.memory.working_set', 'k8s.node.condition_ready', 'k8s.pod.phase'][(number % 4) + 1] AS metric
    FROM numbers(${minutes * nodes * 4})
  )
)`;

  const pods = [
    'checkout-7d9f0',
    'checkout-7d9f1',
    'checkout-7d9f2',
    'cart-7d9f0',
    'cart-7d9f1',
    'payment-7d9f0',
    'payment-7d9f1',
    'frontend-7d9f0',
    'search-7d9f0',
    'inventory-7d9f0',
  ];
  const fiveMin = WEEK / 300;
  const sum = `
SELECT
  if(isRestart, map('k8s.pod.name', pod, 'k8s.namespace.name', 'shop', 'k8s.node.name', concat('node-', toString(p % 6 + 1))), map('service.instance.id', concat('otel-collector-', toString(p % 3)))) AS ResourceAttributes,
  '' AS ResourceSchemaUrl, 'otelcol' AS ScopeName, '0.120.0' AS ScopeVersion, map() AS ScopeAttributes,
  toUInt32(0) AS ScopeDroppedAttrCount, '' AS ScopeSchemaUrl, if(isRestart, 'k8s', 'otel-collector') AS ServiceName,
  if(isRestart, 'k8s.container.restarts', 'otelcol_receiver_accepted_log_records') AS MetricName, '' AS MetricDescription, '' AS MetricUnit,
  map() AS Attributes,
  toDateTime(t - 300, 'UTC') AS StartTimeUnix, toDateTime(t, 'UTC') AS TimeUnix,
  if(isRestart, toFloat64(intDiv(s * (p + 1) * (p % 4 = 0 ? 7 : 1), ${fiveMin * 3})), toFloat64(2400 + cityHash64(number, 33) % 900)) AS Value,
  toUInt32(0) AS Flags,
  CAST([], 'Array(Map(String, String))') AS \`Exemplars.FilteredAttributes\`, CAST([], 'Array(DateTime)') AS \`Exemplars.TimeUnix\`,
  CAST([], 'Array(Float64)') AS \`Exemplars.Value\`, CAST([], 'Array(String)') AS \`Exemplars.SpanId\`, CAST([], 'Array(String)') AS \`Exemplars.TraceId\`,
  toInt32(if(isRestart, 2, 1)) AS AggregationTemporality, isRestart AS IsMonotonic
FROM (
  SELECT number, intDiv(number, 13) AS s, number % 13 AS p, p < 10 AS isRestart,
    ${ANCHOR_SECONDS - WEEK} + 300 * (s + 1) AS t,
    [${pods.map((x) => `'${x}'`).join(', ')}, '', '', ''][p + 1] AS pod
  FROM numbers(${fiveMin * 13})
)`;

  // A cumulative counter that rises steadily and resets: jobs processed by three workers, read every minute; worker
  // w adds 7 + w jobs a minute and restarts (from 0) every 240 + 60 × w minutes.
  const jobMinutes = WEEK / 60;
  const jobs = `
SELECT
  map('service.instance.id', concat('worker-', toString(w))) AS ResourceAttributes,
  '' AS ResourceSchemaUrl, 'jobs' AS ScopeName, '1.0.0' AS ScopeVersion, map() AS ScopeAttributes,
  toUInt32(0) AS ScopeDroppedAttrCount, '' AS ScopeSchemaUrl, 'jobs' AS ServiceName,
  'app.jobs.processed' AS MetricName, 'Jobs processed since the worker started.' AS MetricDescription, '{job}' AS MetricUnit,
  map('queue', 'default') AS Attributes,
  toDateTime(t - 60 * (m % (240 + 60 * w)), 'UTC') AS StartTimeUnix, toDateTime(t, 'UTC') AS TimeUnix,
  toFloat64((7 + w) * (m % (240 + 60 * w))) AS Value,
  toUInt32(0) AS Flags,
  CAST([], 'Array(Map(String, String))') AS \`Exemplars.FilteredAttributes\`, CAST([], 'Array(DateTime)') AS \`Exemplars.TimeUnix\`,
  CAST([], 'Array(Float64)') AS \`Exemplars.Value\`, CAST([], 'Array(String)') AS \`Exemplars.SpanId\`, CAST([], 'Array(String)') AS \`Exemplars.TraceId\`,
  toInt32(2) AS AggregationTemporality, true AS IsMonotonic
FROM (
  SELECT number % 3 AS w, intDiv(number, 3) AS m, ${ANCHOR_SECONDS - WEEK} + 60 * (m + 1) AS t
  FROM numbers(${jobMinutes * 3})
)`;

  const histogram = `
SELECT
  map('service.name', svc) AS ResourceAttributes, '' AS ResourceSchemaUrl, 'io.opentelemetry.http' AS ScopeName, '1.38.0' AS ScopeVersion,
  map() AS ScopeAttributes, toUInt32(0) AS ScopeDroppedAttrCount, '' AS ScopeSchemaUrl, svc AS ServiceName,
  'http.server.request.duration' AS MetricName, 'Duration of HTTP server requests.' AS MetricDescription, 's' AS MetricUnit,
  map('http.request.method', 'POST') AS Attributes,
  toDateTime(t - 300, 'UTC') AS StartTimeUnix, toDateTime(t, 'UTC') AS TimeUnix,
  toUInt64(arraySum(buckets)) AS Count, arraySum(buckets) * 0.12 AS Sum,
  buckets AS BucketCounts, [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5] AS ExplicitBounds,
  CAST([], 'Array(Map(String, String))') AS \`Exemplars.FilteredAttributes\`, CAST([], 'Array(DateTime)') AS \`Exemplars.TimeUnix\`,
  CAST([], 'Array(Float64)') AS \`Exemplars.Value\`, CAST([], 'Array(String)') AS \`Exemplars.SpanId\`, CAST([], 'Array(String)') AS \`Exemplars.TraceId\`,
  toUInt32(0) AS Flags, 0.002 AS Min, 4.8 AS Max, toInt32(1) AS AggregationTemporality
FROM (
  SELECT number, ['checkout', 'cart', 'payment', 'frontend', 'search', 'inventory'][(number % 6) + 1] AS svc,
    ${ANCHOR_SECONDS - WEEK} + 300 * (intDiv(number, 6) + 1) AS t,
    arrayMap(i -> toUInt64(cityHash64(number, i) % (40 - 3 * abs(i - 5))), range(11)) AS buckets
  FROM numbers(${fiveMin * 6})
)`;

  const sessions = `
SELECT
  fromUnixTimestamp64Nano(ts, 'UTC') AS Timestamp, toDateTime(intDiv(ts, 1000000000), 'UTC') AS TimestampTime,
  concat(${hex(8)}, ${hex(9)}) AS TraceId, ${hex(10)} AS SpanId, toUInt8(1) AS TraceFlags,
  'info' AS SeverityText, toUInt8(9) AS SeverityNumber, 'frontend' AS ServiceName,
  ${pick(['{"type":"click","target":"#checkout"}', '{"type":"navigation","url":"/product"}', '{"type":"input","target":"#search"}'], 5)} AS Body,
  '' AS ResourceSchemaUrl,
  map('service.name', 'frontend', 'rum.sessionId', lower(hex(cityHash64(intDiv(number, 40))))) AS ResourceAttributes,
  '' AS ScopeSchemaUrl, 'rrweb' AS ScopeName, '2.0' AS ScopeVersion, map() AS ScopeAttributes,
  map('rum.sessionId', lower(hex(cityHash64(intDiv(number, 40)))), 'userEmail', concat('user', toString(intDiv(number, 40) % 700), '@example.com')) AS LogAttributes
FROM (
  SELECT number, toInt64(${ANCHOR_SECONDS - WEEK}) * 1000000000 + toInt64(number) * ${(WEEK * 1e9) / 20000} AS ts
  FROM numbers(20000)
)`;

  return [
    { table: 'otel_logs', sql: logs },
    { table: 'otel_traces', sql: spans },
    { table: 'otel_metrics_gauge', sql: gauge },
    { table: 'otel_metrics_sum', sql: sum },
    { table: 'otel_metrics_sum', sql: jobs },
    { table: 'otel_metrics_histogram', sql: histogram },
    { table: 'hyperdx_sessions', sql: sessions },
  ];
}
