/**
 * Spans of the sample multi-language workspace in test/fixtures/codeWorkspace (TypeScript, Python, Java), on services
 * of their own (`code-cart`, `code-payments`, `code-stock`) so the bulk figures stay as they are. Each names the
 * function that made it with OpenTelemetry's code attributes, in the generation its runtime's agents send: the stable
 * keys (`code.function.name` fully qualified, `code.file.path`, `code.line.number`) or the deprecated ones
 * (`code.function`, `code.namespace`, `code.filepath`, `code.lineno`), with container paths (`/app/src/…`,
 * `/usr/src/app/…`) that differ from the workspace's. Some fail (status Error); the Java agent samples (`SampleRate`).
 * Failing spans of some functions carry an `exception` event (codeExceptions.ts). Every span lies within the 23 hours
 * before the data's anchor (see data.ts).
 */
import { QUIET_SECONDS, SPAN_EXCEPTIONS } from './codeExceptions';
import { ANCHOR_SECONDS } from './data';

export const CODE_SERVICES = ['code-cart', 'code-payments', 'code-stock'] as const;

interface CodeFunction {
  service: (typeof CODE_SERVICES)[number];
  /** The span's attributes naming the code. */
  attrs: Record<string, string>;
  spanName: string;
  spans: number;
  /** Every `errorEvery`-th span fails (0: none). */
  errorEvery: number;
  /** Durations spread over [baseMs, baseMs + spreadMs). */
  baseMs: number;
  spreadMs: number;
  sampleRate?: number;
}

const stable = (fn: string, file: string, line: number) => ({
  'code.function.name': fn,
  'code.file.path': file,
  'code.line.number': String(line),
});
const deprecated = (fn: string, namespace: string, file: string, line: number) => ({
  'code.function': fn,
  'code.namespace': namespace,
  'code.filepath': file,
  'code.lineno': String(line),
});

const CART = '/app/src/checkout/cart.ts';
const CHARGE = '/usr/src/app/app/payments/charge.py';
const STOCK = '/usr/src/app/src/main/java/com/shop/inventory/StockService.java';

export const CODE_FUNCTIONS: readonly CodeFunction[] = [
  {
    service: 'code-cart',
    attrs: stable('CartService.addItem', CART, 11),
    spanName: 'CartService.addItem',
    spans: 1200,
    errorEvery: 0,
    baseMs: 2,
    spreadMs: 30,
  },
  {
    service: 'code-cart',
    attrs: stable('CartService.removeItem', CART, 17),
    spanName: 'CartService.removeItem',
    spans: 150,
    errorEvery: 50,
    baseMs: 1,
    spreadMs: 10,
  },
  {
    service: 'code-cart',
    attrs: stable('CartService.total', CART, 22),
    spanName: 'CartService.total',
    spans: 640,
    errorEvery: 0,
    baseMs: 0.5,
    spreadMs: 2,
  },
  {
    service: 'code-cart',
    attrs: deprecated('total', 'Invoice', CART, 30),
    spanName: 'Invoice.total',
    spans: 90,
    errorEvery: 0,
    baseMs: 5,
    spreadMs: 40,
  },
  {
    service: 'code-cart',
    attrs: stable('applyCoupon', CART, 35),
    spanName: 'applyCoupon',
    spans: 300,
    errorEvery: 7,
    baseMs: 1,
    spreadMs: 4,
  },
  // A function the workspace no longer has: no lens anywhere.
  {
    service: 'code-cart',
    attrs: stable('CartService.checkout', CART, 40),
    spanName: 'CartService.checkout',
    spans: 20,
    errorEvery: 0,
    baseMs: 10,
    spreadMs: 10,
  },
  {
    service: 'code-payments',
    attrs: deprecated('charge', 'app.payments.charge.Charger', CHARGE, 9),
    spanName: 'Charger.charge',
    spans: 420,
    errorEvery: 30,
    baseMs: 120,
    spreadMs: 600,
  },
  {
    service: 'code-payments',
    attrs: deprecated('refund', 'app.payments.charge.Charger', CHARGE, 13),
    spanName: 'Charger.refund',
    spans: 60,
    errorEvery: 4,
    baseMs: 200,
    spreadMs: 900,
  },
  {
    service: 'code-payments',
    attrs: deprecated('validate_amount', 'app.payments.charge', CHARGE, 18),
    spanName: 'validate_amount',
    spans: 480,
    errorEvery: 40,
    baseMs: 0.1,
    spreadMs: 0.5,
  },
  {
    service: 'code-stock',
    attrs: stable('com.shop.inventory.StockService.reserve', STOCK, 10),
    spanName: 'StockService.reserve',
    spans: 250,
    errorEvery: 25,
    baseMs: 3,
    spreadMs: 60,
    sampleRate: 4,
  },
  {
    service: 'code-stock',
    attrs: stable('com.shop.inventory.StockService.release', STOCK, 19),
    spanName: 'StockService.release',
    spans: 80,
    errorEvery: 0,
    baseMs: 2,
    spreadMs: 20,
    sampleRate: 4,
  },
];

const q = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const map = (m: Record<string, string>): string =>
  `map(${Object.entries(m)
    .flatMap(([k, v]) => [q(k), q(v)])
    .join(', ')})`;

const LANGUAGE: Record<CodeFunction['service'], string> = {
  'code-cart': 'nodejs',
  'code-payments': 'python',
  'code-stock': 'java',
};

/** `Events.Timestamp`, `Events.Name`, `Events.Attributes`: an `exception` event on the failing spans of a function that records one. */
function events(f: CodeFunction, failed: string, ns: string, spacing: number): string {
  const exception = SPAN_EXCEPTIONS[f.spanName];
  if (!exception) {
    return "CAST([], 'Array(DateTime64(9))'), CAST([], 'Array(String)'), CAST([], 'Array(Map(String, String))')";
  }
  // Older than the search goldens' last 30 minutes (see codeExceptions.ts).
  const recorded = `(${failed}) AND 60 + number * ${spacing} > ${QUIET_SECONDS}`;
  const attrs = `map('exception.type', ${exception.type}, 'exception.message', ${exception.message}, 'exception.stacktrace', ${exception.stack})`;
  return [
    `CAST(if(${recorded}, [fromUnixTimestamp64Nano(${ns} + 500000, 'UTC')], []), 'Array(DateTime64(9))')`,
    `CAST(if(${recorded}, ['exception'], []), 'Array(String)')`,
    `CAST(if(${recorded}, [${attrs}], []), 'Array(Map(String, String))')`,
  ].join(',\n  ');
}

function functionSelect(f: CodeFunction, k: number): string {
  const spacing = Math.floor(82_000 / f.spans);
  const ns = `toInt64((${ANCHOR_SECONDS} - 60 - number * ${spacing}) * 1000000000 + (cityHash64(number, ${k}) % 1000000000))`;
  const attrs = { ...f.attrs, ...(f.sampleRate ? { SampleRate: String(f.sampleRate) } : {}) };
  const resource = map({
    'service.name': f.service,
    'service.version': '1.0.0',
    'deployment.environment': 'production',
    'telemetry.sdk.language': LANGUAGE[f.service],
  });
  const failed = f.errorEvery > 0 ? `number % ${f.errorEvery} = ${f.errorEvery - 1}` : '0';
  const nanos = `toUInt64(${Math.round(f.baseMs * 1e6)} + (cityHash64(number, ${k + 100}) % ${Math.round(f.spreadMs * 1e6)}))`;
  return `SELECT fromUnixTimestamp64Nano(${ns}, 'UTC'), lower(hex(MD5(concat(${q(f.spanName)}, toString(number))))),
  leftPad(lower(hex(cityHash64(number, ${k + 200}))), 16, '0'), '', '', ${q(f.spanName)}, 'Internal', ${q(f.service)},
  ${resource}, ${q(`${f.service}/code`)}, '', ${map(attrs)}, ${nanos},
  if(${failed}, 'Error', 'Unset'), if(${failed}, 'operation failed', ''),
  ${events(f, failed, ns, spacing)},
  CAST([], 'Array(String)'), CAST([], 'Array(String)'), CAST([], 'Array(String)'), CAST([], 'Array(Map(String, String))')
  FROM numbers(${f.spans})`;
}

/** The workspace's spans for data.ts's generators (one INSERT … SELECT). */
export function codeSpanGenerators(): { table: string; sql: string }[] {
  return [
    { table: 'otel_traces', sql: CODE_FUNCTIONS.map((f, i) => functionSelect(f, 7000 + i)).join('\nUNION ALL\n') },
  ];
}
