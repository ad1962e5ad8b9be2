/**
 * Traces worth opening, beside the bulk sample data (data.ts), on services of their own so the bulk figures stay as
 * they are: an order placed through four services (HTTP, database, messaging spans nested five deep), a refund
 * that fails with a Java exception (span event `exception` with `exception.type`, `exception.message` and a JVM
 * stack trace), a consumer span whose parent was never exported (an orphan), and a 10,000-span import job. Logs
 * of the same services carry the trace and span IDs. Attributes follow the OpenTelemetry semantic conventions as
 * the SDKs' instrumentations write them. Times are seconds before the data's anchor (see data.ts).
 */
import { ANCHOR_SECONDS } from './data';

/** Trace IDs of the traces (32 hex digits), for tests and demos. */
export const SHOWCASE = {
  order: '4bf92f3577b34da6a3ce929d0e0e4736',
  refund: '0af7651916cd43dd8448eb211c80319c',
  orphan: 'b7ad6b7169203331a1f3c5d7e9b2c4d6',
  bulk: '5f2c8e1a9b3d4f6e8a0c2e4b6d8f1a3c',
  /** Seconds before the anchor each trace starts. */
  startsAgo: { order: 300, refund: 180, orphan: 480, bulk: 1200 },
  /** The orphan span's parent, which no span has. */
  missingParent: '9a3c5e7f1b2d4a6c',
  bulkSpans: 10_000,
} as const;

const q = (s: string): string =>
  `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\t/g, '\\t')}'`;
const map = (m: Record<string, string>): string =>
  `map(${Object.entries(m)
    .flatMap(([k, v]) => [q(k), q(v)])
    .join(', ')})`;

interface Runtime {
  language: string;
  sdk: string;
  runtime: string;
  version: string;
}
const JAVA: Runtime = { language: 'java', sdk: '1.40.0', runtime: 'OpenJDK Runtime Environment', version: '21.0.4' };
const NODE: Runtime = { language: 'nodejs', sdk: '1.25.1', runtime: 'nodejs', version: '20.15.1' };
const PYTHON: Runtime = { language: 'python', sdk: '1.26.0', runtime: 'cpython', version: '3.12.4' };
const GO: Runtime = { language: 'go', sdk: '1.28.0', runtime: 'go', version: 'go1.22.5' };

const SERVICES: Record<string, { rt: Runtime; version: string; pod: string }> = {
  gateway: { rt: NODE, version: '3.2.0', pod: 'gateway-6b8c9d7f5-x2k4q' },
  orders: { rt: JAVA, version: '1.18.3', pod: 'orders-5f7d8c6b4-m9p2r' },
  'fraud-check': { rt: PYTHON, version: '0.9.1', pod: 'fraud-check-7c9b5d4f8-h3j6t' },
  notifications: { rt: GO, version: '2.4.0', pod: 'notifications-8d6f4b2c9-w5n8v' },
  'batch-import': { rt: GO, version: '1.3.2', pod: 'batch-import-28731460-z7qxc' },
};

function resource(service: string): string {
  const s = SERVICES[service] as { rt: Runtime; version: string; pod: string };
  return map({
    'service.name': service,
    'service.version': s.version,
    'service.namespace': 'shop',
    'deployment.environment': 'production',
    'telemetry.sdk.name': 'opentelemetry',
    'telemetry.sdk.language': s.rt.language,
    'telemetry.sdk.version': s.rt.sdk,
    'process.runtime.name': s.rt.runtime,
    'process.runtime.version': s.rt.version,
    'host.name': s.pod,
    'k8s.namespace.name': 'shop',
    'k8s.pod.name': s.pod,
    'k8s.cluster.name': 'prod-eu-1',
  });
}

const SCOPES: Record<string, [string, string]> = {
  'gateway/http': ['@opentelemetry/instrumentation-http', '0.52.1'],
  'orders/http': ['io.opentelemetry.spring-webmvc-6.0', '2.6.0-alpha'],
  'orders/code': ['io.opentelemetry.opentelemetry-instrumentation-annotations-1.16', '2.6.0-alpha'],
  'orders/db': ['io.opentelemetry.jdbc', '2.6.0-alpha'],
  'orders/kafka': ['io.opentelemetry.kafka-clients-2.6', '2.6.0-alpha'],
  'orders/client': ['io.opentelemetry.java-http-client', '2.6.0-alpha'],
  'fraud-check/http': ['opentelemetry.instrumentation.flask', '0.47b0'],
  'fraud-check/code': ['fraud_check.scoring', ''],
  'notifications/kafka': ['github.com/IBM/sarama/otelsarama', '0.53.0'],
  'notifications/http': ['go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp', '0.53.0'],
};

interface Span {
  trace: keyof typeof SHOWCASE.startsAgo;
  id: string;
  parent: string;
  name: string;
  kind: 'Server' | 'Client' | 'Internal' | 'Producer' | 'Consumer';
  service: string;
  scope: string;
  /** Start and duration in milliseconds from the trace's start. */
  at: number;
  ms: number;
  attrs: Record<string, string>;
  error?: string;
  events?: { at: number; name: string; attrs: Record<string, string> }[];
}

const nanos = (trace: Span['trace'], atMs: number): string =>
  `toInt64(${ANCHOR_SECONDS - SHOWCASE.startsAgo[trace]}) * 1000000000 + ${Math.round(atMs * 1e6)}`;

const REFUND_MESSAGE = 'Refund amount 120.00 EUR exceeds captured amount 80.00 EUR for order ord-7f3a2c';
const STACKTRACE = [
  `java.lang.IllegalStateException: ${REFUND_MESSAGE}`,
  '\tat com.example.orders.refund.RefundService.refund(RefundService.java:87)',
  '\tat com.example.orders.refund.RefundService$$SpringCGLIB$$0.refund(<generated>)',
  '\tat com.example.orders.api.OrderController.refund(OrderController.java:142)',
  '\tat java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)',
  '\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)',
  '\tat org.springframework.web.method.support.InvocableHandlerMethod.doInvoke(InvocableHandlerMethod.java:255)',
  '\tat org.springframework.web.servlet.DispatcherServlet.doDispatch(DispatcherServlet.java:1089)',
  '\tat org.springframework.web.servlet.FrameworkServlet.processRequest(FrameworkServlet.java:1014)',
  '\tat jakarta.servlet.http.HttpServlet.service(HttpServlet.java:590)',
  '\tat org.apache.tomcat.util.threads.TaskThread$WrappingRunnable.run(TaskThread.java:61)',
  '\tat java.base/java.lang.Thread.run(Thread.java:1583)',
].join('\n');

const http = (method: string, route: string, status: string, extra: Record<string, string> = {}) => ({
  'http.request.method': method,
  'http.route': route,
  'http.response.status_code': status,
  'url.scheme': 'http',
  'network.protocol.version': '1.1',
  ...extra,
});
const client = (method: string, url: string, status: string) => {
  const u = new URL(url);
  return {
    'http.request.method': method,
    'url.full': url,
    'server.address': u.hostname,
    'server.port': u.port || (u.protocol === 'https:' ? '443' : '80'),
    'http.response.status_code': status,
  };
};
const db = (op: string, table: string, statement: string) => ({
  'db.system': 'postgresql',
  'db.name': 'shop',
  'db.operation': op,
  'db.sql.table': table,
  'db.statement': statement,
  'server.address': 'orders-db.shop.svc.cluster.local',
  'server.port': '5432',
});
const kafka = (op: string, topic: string) => ({
  'messaging.system': 'kafka',
  'messaging.operation': op,
  'messaging.destination.name': topic,
  'messaging.kafka.destination.partition': '2',
});

const SPANS: Span[] = [
  // An order placed: gateway → orders → (database, fraud-check, database, Kafka) → notifications → mail provider.
  {
    trace: 'order',
    id: 'a1b2c3d4e5f60001',
    parent: '',
    name: 'POST /api/orders',
    kind: 'Server',
    service: 'gateway',
    scope: 'gateway/http',
    at: 0,
    ms: 412,
    attrs: http('POST', '/api/orders', '201', {
      'url.path': '/api/orders',
      'user_agent.original':
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      'client.address': '203.0.113.24',
    }),
  },
  {
    trace: 'order',
    id: 'a1b2c3d4e5f60002',
    parent: 'a1b2c3d4e5f60001',
    name: 'POST',
    kind: 'Client',
    service: 'gateway',
    scope: 'gateway/http',
    at: 8,
    ms: 397,
    attrs: client('POST', 'http://orders:8080/orders', '201'),
  },
  {
    trace: 'order',
    id: 'a1b2c3d4e5f60003',
    parent: 'a1b2c3d4e5f60002',
    name: 'POST /orders',
    kind: 'Server',
    service: 'orders',
    scope: 'orders/http',
    at: 12,
    ms: 386,
    attrs: http('POST', '/orders', '201', { 'url.path': '/orders' }),
  },
  {
    trace: 'order',
    id: 'a1b2c3d4e5f60004',
    parent: 'a1b2c3d4e5f60003',
    name: 'OrderService.placeOrder',
    kind: 'Internal',
    service: 'orders',
    scope: 'orders/code',
    at: 15,
    ms: 375,
    attrs: {
      'code.namespace': 'com.example.orders.OrderService',
      'code.function': 'placeOrder',
      'order.id': 'ord-5d1e9b',
    },
  },
  {
    trace: 'order',
    id: 'a1b2c3d4e5f60005',
    parent: 'a1b2c3d4e5f60004',
    name: 'SELECT shop.products',
    kind: 'Client',
    service: 'orders',
    scope: 'orders/db',
    at: 20,
    ms: 18,
    attrs: db('SELECT', 'products', 'SELECT id, price, stock FROM products WHERE id = ANY(?)'),
  },
  {
    trace: 'order',
    id: 'a1b2c3d4e5f60006',
    parent: 'a1b2c3d4e5f60004',
    name: 'POST',
    kind: 'Client',
    service: 'orders',
    scope: 'orders/client',
    at: 45,
    ms: 215,
    attrs: client('POST', 'http://fraud-check:5000/score', '200'),
  },
  {
    trace: 'order',
    id: 'a1b2c3d4e5f60007',
    parent: 'a1b2c3d4e5f60006',
    name: 'POST /score',
    kind: 'Server',
    service: 'fraud-check',
    scope: 'fraud-check/http',
    at: 50,
    ms: 205,
    attrs: http('POST', '/score', '200', { 'url.path': '/score' }),
  },
  {
    trace: 'order',
    id: 'a1b2c3d4e5f60008',
    parent: 'a1b2c3d4e5f60007',
    name: 'score_order',
    kind: 'Internal',
    service: 'fraud-check',
    scope: 'fraud-check/code',
    at: 60,
    ms: 190,
    attrs: { 'fraud.score': '0.12', 'fraud.decision': 'approve', 'fraud.model': 'gbm-2024-06' },
  },
  {
    trace: 'order',
    id: 'a1b2c3d4e5f60009',
    parent: 'a1b2c3d4e5f60004',
    name: 'INSERT shop.orders',
    kind: 'Client',
    service: 'orders',
    scope: 'orders/db',
    at: 265,
    ms: 25,
    attrs: db('INSERT', 'orders', 'INSERT INTO orders (id, customer_id, total) VALUES (?, ?, ?)'),
  },
  {
    trace: 'order',
    id: 'a1b2c3d4e5f6000a',
    parent: 'a1b2c3d4e5f60004',
    name: 'order.placed publish',
    kind: 'Producer',
    service: 'orders',
    scope: 'orders/kafka',
    at: 295,
    ms: 10,
    attrs: kafka('publish', 'order.placed'),
  },
  {
    trace: 'order',
    id: 'a1b2c3d4e5f6000b',
    parent: 'a1b2c3d4e5f6000a',
    name: 'order.placed process',
    kind: 'Consumer',
    service: 'notifications',
    scope: 'notifications/kafka',
    at: 320,
    ms: 60,
    attrs: { ...kafka('process', 'order.placed'), 'messaging.kafka.consumer.group': 'notifications' },
  },
  {
    trace: 'order',
    id: 'a1b2c3d4e5f6000c',
    parent: 'a1b2c3d4e5f6000b',
    name: 'POST',
    kind: 'Client',
    service: 'notifications',
    scope: 'notifications/http',
    at: 330,
    ms: 45,
    attrs: client('POST', 'https://api.mailprovider.example/v3/mail/send', '202'),
  },
  // A refund that fails: the exception is recorded on the span that threw it.
  {
    trace: 'refund',
    id: 'b2c3d4e5f6a70001',
    parent: '',
    name: 'POST /api/orders/:id/refund',
    kind: 'Server',
    service: 'gateway',
    scope: 'gateway/http',
    at: 0,
    ms: 96,
    attrs: http('POST', '/api/orders/:id/refund', '500', {
      'url.path': '/api/orders/ord-7f3a2c/refund',
      'client.address': '198.51.100.7',
    }),
    error: '',
  },
  {
    trace: 'refund',
    id: 'b2c3d4e5f6a70002',
    parent: 'b2c3d4e5f6a70001',
    name: 'POST',
    kind: 'Client',
    service: 'gateway',
    scope: 'gateway/http',
    at: 3,
    ms: 89,
    attrs: client('POST', 'http://orders:8080/orders/ord-7f3a2c/refund', '500'),
    error: '',
  },
  {
    trace: 'refund',
    id: 'b2c3d4e5f6a70003',
    parent: 'b2c3d4e5f6a70002',
    name: 'POST /orders/{orderId}/refund',
    kind: 'Server',
    service: 'orders',
    scope: 'orders/http',
    at: 6,
    ms: 84,
    attrs: {
      ...http('POST', '/orders/{orderId}/refund', '500', { 'url.path': '/orders/ord-7f3a2c/refund' }),
      'error.type': 'java.lang.IllegalStateException',
    },
    error: '',
  },
  {
    trace: 'refund',
    id: 'b2c3d4e5f6a70004',
    parent: 'b2c3d4e5f6a70003',
    name: 'RefundService.refund',
    kind: 'Internal',
    service: 'orders',
    scope: 'orders/code',
    at: 10,
    ms: 75,
    attrs: {
      'code.namespace': 'com.example.orders.refund.RefundService',
      'code.function': 'refund',
      'order.id': 'ord-7f3a2c',
    },
    error: '',
    events: [
      {
        at: 84,
        name: 'exception',
        attrs: {
          'exception.type': 'java.lang.IllegalStateException',
          'exception.message': REFUND_MESSAGE,
          'exception.stacktrace': STACKTRACE,
        },
      },
    ],
  },
  {
    trace: 'refund',
    id: 'b2c3d4e5f6a70005',
    parent: 'b2c3d4e5f6a70004',
    name: 'SELECT shop.payments',
    kind: 'Client',
    service: 'orders',
    scope: 'orders/db',
    at: 14,
    ms: 16,
    attrs: db('SELECT', 'payments', 'SELECT amount, status FROM payments WHERE order_id = ?'),
  },
  // A consumer whose producer span was never exported: its parent is missing.
  {
    trace: 'orphan',
    id: 'c3d4e5f6a7b80001',
    parent: SHOWCASE.missingParent,
    name: 'order.shipped process',
    kind: 'Consumer',
    service: 'notifications',
    scope: 'notifications/kafka',
    at: 0,
    ms: 52,
    attrs: { ...kafka('process', 'order.shipped'), 'messaging.kafka.consumer.group': 'notifications' },
  },
  {
    trace: 'orphan',
    id: 'c3d4e5f6a7b80002',
    parent: 'c3d4e5f6a7b80001',
    name: 'POST',
    kind: 'Client',
    service: 'notifications',
    scope: 'notifications/http',
    at: 6,
    ms: 41,
    attrs: client('POST', 'https://api.mailprovider.example/v3/mail/send', '202'),
  },
];

function spanSelect(s: Span): string {
  const [scope, version] = SCOPES[s.scope] as [string, string];
  const events = s.events ?? [];
  return `SELECT fromUnixTimestamp64Nano(${nanos(s.trace, s.at)}, 'UTC'), ${q(SHOWCASE[s.trace])}, ${q(s.id)}, ${q(s.parent)}, '',
  ${q(s.name)}, ${q(s.kind)}, ${q(s.service)}, ${resource(s.service)}, ${q(scope)}, ${q(version)}, ${map(s.attrs)},
  toUInt64(${Math.round(s.ms * 1e6)}), ${q(s.error !== undefined ? 'Error' : 'Unset')}, ${q(s.error ?? '')},
  CAST([${events.map((e) => `fromUnixTimestamp64Nano(${nanos(s.trace, e.at)}, 'UTC')`).join(', ')}], 'Array(DateTime64(9))'),
  CAST([${events.map((e) => q(e.name)).join(', ')}], 'Array(String)'),
  CAST([${events.map((e) => map(e.attrs)).join(', ')}], 'Array(Map(String, String))'),
  CAST([], 'Array(String)'), CAST([], 'Array(String)'), CAST([], 'Array(String)'), CAST([], 'Array(Map(String, String))')`;
}

/** The 10,000-span import job: a root, 99 batches under it, 100 inserts under each batch. */
function bulkSelect(): string {
  const id = (n: string): string => `leftPad(lower(hex(cityHash64(${n}, 4242))), 16, '0')`;
  return `SELECT fromUnixTimestamp64Nano(${nanos('bulk', 0)} + atMs * 1000000, 'UTC'), ${q(SHOWCASE.bulk)}, ${id('number')},
  multiIf(number = 0, '', number < 100, ${id('toUInt64(0)')}, ${id('toUInt64(intDiv(number - 100, 100) + 1)')}), '',
  multiIf(number = 0, 'ImportJob.run', number < 100, 'import.batch', 'INSERT shop.products'),
  if(number < 100, 'Internal', 'Client'), 'batch-import', ${resource('batch-import')},
  if(number < 100, 'batch-import', 'github.com/XSAM/otelsql'), if(number < 100, '', '0.32.0'),
  multiIf(number = 0, map('import.file', 's3://shop-imports/products-2000-01-07.csv', 'import.rows', '9900'),
    number < 100, map('import.batch.index', toString(number - 1), 'import.batch.size', '100'),
    map('db.system', 'postgresql', 'db.name', 'shop', 'db.operation', 'INSERT', 'db.sql.table', 'products',
        'db.statement', 'INSERT INTO products (sku, name, price) VALUES ($1, $2, $3) ON CONFLICT (sku) DO UPDATE SET price = $3')),
  toUInt64(durMs * 1000000), 'Unset', '',
  CAST([], 'Array(DateTime64(9))'), CAST([], 'Array(String)'), CAST([], 'Array(Map(String, String))'),
  CAST([], 'Array(String)'), CAST([], 'Array(String)'), CAST([], 'Array(String)'), CAST([], 'Array(Map(String, String))')
FROM (
  SELECT number,
    multiIf(number = 0, 0, number < 100, 50 + (number - 1) * 1200, 50 + intDiv(number - 100, 100) * 1200 + 5 + ((number - 100) % 100) * 11) AS atMs,
    multiIf(number = 0, 99 * 1200 + 100, number < 100, 1150, 6 + cityHash64(number, 4343) % 5) AS durMs
  FROM numbers(${SHOWCASE.bulkSpans})
)`;
}

interface Log {
  trace: keyof typeof SHOWCASE.startsAgo;
  span: string;
  at: number;
  service: string;
  severity: [string, number];
  body: string;
  attrs?: Record<string, string>;
  scope: string;
}

const INFO: [string, number] = ['INFO', 9];
const ERROR: [string, number] = ['ERROR', 17];

const LOGS: Log[] = [
  {
    trace: 'order',
    span: 'a1b2c3d4e5f60001',
    at: 410,
    service: 'gateway',
    severity: ['info', 9],
    body: 'POST /api/orders 201 412ms',
    scope: 'pino',
    // A key with a question mark (the gateway logs its request flags as written): searched as it stands.
    attrs: { 'http.request.method': 'POST', 'http.response.status_code': '201', 'checkout.express?': 'true' },
  },
  {
    trace: 'order',
    span: 'a1b2c3d4e5f60004',
    at: 30,
    service: 'orders',
    severity: INFO,
    body: 'Placing order ord-5d1e9b for customer cus-1042 (3 items, total 86.40 EUR)',
    scope: 'com.example.orders.OrderService',
  },
  {
    trace: 'order',
    span: 'a1b2c3d4e5f60008',
    at: 248,
    service: 'fraud-check',
    severity: INFO,
    body: 'order ord-5d1e9b scored 0.12: approve',
    scope: 'fraud_check.scoring',
    attrs: { 'code.function': 'score_order' },
  },
  {
    trace: 'order',
    span: 'a1b2c3d4e5f60004',
    at: 388,
    service: 'orders',
    severity: INFO,
    body: 'Order ord-5d1e9b placed',
    scope: 'com.example.orders.OrderService',
  },
  {
    trace: 'order',
    span: 'a1b2c3d4e5f6000c',
    at: 376,
    service: 'notifications',
    severity: INFO,
    body: 'order confirmation email sent to cus-1042',
    scope: 'notifications/mailer',
  },
  {
    trace: 'refund',
    span: 'b2c3d4e5f6a70004',
    at: 84,
    service: 'orders',
    severity: ERROR,
    body: `Refund failed for order ord-7f3a2c: ${REFUND_MESSAGE}`,
    scope: 'com.example.orders.refund.RefundService',
    attrs: {
      'exception.type': 'java.lang.IllegalStateException',
      'exception.message': REFUND_MESSAGE,
      'exception.stacktrace': STACKTRACE,
    },
  },
  {
    trace: 'refund',
    span: 'b2c3d4e5f6a70001',
    at: 95,
    service: 'gateway',
    severity: ['error', 17],
    body: 'POST /api/orders/ord-7f3a2c/refund 500 96ms',
    scope: 'pino',
    attrs: { 'http.request.method': 'POST', 'http.response.status_code': '500' },
  },
  {
    trace: 'orphan',
    span: 'c3d4e5f6a7b80002',
    at: 48,
    service: 'notifications',
    severity: INFO,
    body: 'shipping notification sent for order ord-2b9d4e',
    scope: 'notifications/mailer',
  },
  {
    trace: 'bulk',
    span: '',
    at: 10,
    service: 'batch-import',
    severity: INFO,
    body: 'import started: 9900 products in 99 batches from s3://shop-imports/products-2000-01-07.csv',
    scope: 'batch-import',
  },
  {
    trace: 'bulk',
    span: '',
    at: 99 * 1200 + 90,
    service: 'batch-import',
    severity: INFO,
    body: 'import finished: 9900 products upserted in 118.9 s',
    scope: 'batch-import',
  },
];

function logSelect(l: Log): string {
  const ns = nanos(l.trace, l.at);
  const span = l.span || `leftPad(lower(hex(cityHash64(toUInt64(0), 4242))), 16, '0')`;
  return `SELECT fromUnixTimestamp64Nano(${ns}, 'UTC'), toDateTime(intDiv(${ns}, 1000000000), 'UTC'), ${q(SHOWCASE[l.trace])},
  ${l.span ? q(span) : span}, toUInt8(1), ${q(l.severity[0])}, toUInt8(${l.severity[1]}), ${q(l.service)}, ${q(l.body)},
  'https://opentelemetry.io/schemas/1.24.0', ${resource(l.service)}, '', ${q(l.scope)}, '', map(), ${map(l.attrs ?? {})}, ''`;
}

/** The showcase's rows for data.ts's generators (one INSERT … SELECT each). */
export function showcaseGenerators(): { table: string; sql: string }[] {
  return [
    { table: 'otel_traces', sql: SPANS.map(spanSelect).join('\nUNION ALL\n') },
    { table: 'otel_traces', sql: bulkSelect() },
    { table: 'otel_logs', sql: LOGS.map(logSelect).join('\nUNION ALL\n') },
  ];
}
