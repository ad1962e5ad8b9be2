/**
 * Exceptions and logs of the sample workspace in test/fixtures/codeWorkspace, as its runtimes record them:
 *   - on failing spans (codeSpans.ts), a span event named `exception` with `exception.type`, `exception.message` and
 *     `exception.stacktrace` — real Node, Python and Java stack traces whose frames point at the workspace's files
 *     under the container's paths (`/app/src/…`, `/usr/src/app/…`), often below a library's frame;
 *   - logs of the services `code-cart`, `code-payments` and `code-stock` whose bodies are what the fixture files'
 *     logger calls write (with some bodies that no call writes), and logged exceptions (Python's `log.exception`)
 *     carrying the same `exception.*` keys as log attributes.
 * Row values are SQL expressions of the row's `number`. Every row lies between QUIET_SECONDS and 23 hours before the
 * data's anchor: the search goldens' last 30 minutes stay as they were.
 */
import { ANCHOR_SECONDS } from './data';

/** Exceptions and logs of the workspace are at least this old (seconds before the anchor). */
export const QUIET_SECONDS = 1900;

/** The exception a failing span of a function records (SQL expressions of `number`). */
export interface SeededException {
  type: string;
  message: string;
  stack: string;
}

const q = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const pick = (items: string[], k: number): string =>
  `[${items.map(q).join(', ')}][(cityHash64(number, ${k}) % ${items.length}) + 1]`;
/** `concat` of literal text and SQL expressions (`{ sql: … }`). */
const cat = (...parts: (string | { sql: string })[]): string =>
  `concat(${parts.map((p) => (typeof p === 'string' ? q(p) : p.sql)).join(', ')})`;

const coupon = pick(['SAVE20', 'WELCOME5', 'BLACKFRIDAY'], 301);
const amount = `toString(-1 * toInt64(cityHash64(number, 302) % 50))`;
const sku = `concat('sku-', toString(cityHash64(number, 303) % 40))`;

export const PYTHON_VALUE_ERROR = (via: string): string =>
  cat(
    'Traceback (most recent call last):\n',
    '  File "/usr/local/lib/python3.12/site-packages/flask/app.py", line 880, in full_dispatch_request\n',
    '    rv = self.dispatch_request()\n',
    via,
    '  File "/usr/src/app/app/payments/charge.py", line 9, in charge\n',
    '    validate_amount(amount)\n',
    '  File "/usr/src/app/app/payments/charge.py", line 19, in validate_amount\n',
    '    raise ValueError(f"amount must be positive, got {amount}")\n',
    'ValueError: amount must be positive, got ',
    { sql: amount },
  );

/** By span name: the exception its failing spans record. */
export const SPAN_EXCEPTIONS: Record<string, SeededException> = {
  applyCoupon: {
    type: q('Error'),
    message: cat('unknown coupon ', { sql: coupon }),
    stack: cat(
      'Error: unknown coupon ',
      { sql: coupon },
      '\n    at applyCoupon (/app/src/checkout/cart.ts:36:9)',
      '\n    at placeOrder (/app/src/checkout/cart.ts:44:12)',
      '\n    at CheckoutController.submit (/app/src/api/checkoutController.ts:48:22)',
      '\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
    ),
  },
  'CartService.removeItem': {
    type: q('TypeError'),
    message: q("Cannot read properties of undefined (reading 'sku')"),
    stack: cat(
      "TypeError: Cannot read properties of undefined (reading 'sku')",
      '\n    at Array.findIndex (<anonymous>)',
      '\n    at CartService.removeItem (/app/src/checkout/cart.ts:17:28)',
      '\n    at Layer.handle [as handle_request] (/app/node_modules/express/lib/router/layer.js:95:5)',
    ),
  },
  'Charger.charge': {
    type: q('ValueError'),
    message: cat('amount must be positive, got ', { sql: amount }),
    stack: PYTHON_VALUE_ERROR(''),
  },
  'Charger.refund': {
    type: q('stripe._error.InvalidRequestError'),
    message: q('Charge has already been refunded.'),
    stack: cat(
      'Traceback (most recent call last):\n',
      '  File "/usr/src/app/app/payments/charge.py", line 14, in refund\n',
      '    return self.provider.refund(order_id, amount)\n',
      '  File "/usr/local/lib/python3.12/site-packages/stripe/_refund.py", line 212, in create\n',
      '    return cls._static_request("post", url, params=params)\n',
      'stripe._error.InvalidRequestError: Charge has already been refunded.',
    ),
  },
  'StockService.reserve': {
    type: q('java.lang.NullPointerException'),
    message: cat('stock of ', { sql: sku }, ' is not tracked'),
    stack: cat(
      'java.lang.NullPointerException: stock of ',
      { sql: sku },
      ' is not tracked',
      '\n\tat java.base/java.util.Objects.requireNonNull(Objects.java:259)',
      '\n\tat com.shop.inventory.StockService.reserve(StockService.java:10)',
      '\n\tat com.shop.api.StockController.reserve(StockController.java:31)',
      '\n\tat java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)',
    ),
  },
};

interface SeededLog {
  service: string;
  severity: 'info' | 'warn' | 'error';
  body: string;
  rows: number;
  /** Log attributes (SQL map entries as [key, SQL expression]). */
  attrs?: [string, string][];
  /** The row's trace ID (SQL), '' when none. */
  traceId?: string;
}

const order = `concat('o-', toString(number))`;

export const CODE_LOGS: readonly SeededLog[] = [
  {
    service: 'code-cart',
    severity: 'info',
    body: cat('placing order ', { sql: order }, ' with ', { sql: `toString((number % 90) + 0.5)` }, ' in the cart'),
    rows: 500,
  },
  {
    service: 'code-cart',
    severity: 'warn',
    body: cat('coupon ', { sql: coupon }, ' rejected for order ', { sql: order }),
    rows: 120,
  },
  // Written by no logger call of the workspace.
  { service: 'code-cart', severity: 'info', body: cat('order ', { sql: order }, ' placed'), rows: 300 },
  {
    service: 'code-payments',
    severity: 'info',
    body: cat('settling order ', { sql: order }, ' for ', { sql: `toString(10 + number % 200)` }, '.00'),
    rows: 400,
  },
  // Close to a logger call's message, yet not what it writes.
  { service: 'code-payments', severity: 'info', body: cat('settling order ', { sql: order }, ' deferred'), rows: 60 },
  {
    service: 'code-payments',
    severity: 'error',
    body: cat('settlement of order ', { sql: order }, ' failed'),
    rows: 30,
    attrs: [
      ['exception.type', q('ValueError')],
      ['exception.message', cat('amount must be positive, got ', { sql: amount })],
      [
        'exception.stacktrace',
        PYTHON_VALUE_ERROR(
          '  File "/usr/src/app/app/payments/charge.py", line 30, in settle\n        return charger.charge(order_id, amount)\n',
        ),
      ],
    ],
    // The trace of a failing charge span (every 30th of its 420 fails: row 29, 59, …, 419).
    traceId: `lower(hex(MD5(concat('Charger.charge', toString((number % 14) * 30 + 29)))))`,
  },
  {
    service: 'code-stock',
    severity: 'info',
    body: cat('restocking ', { sql: `toString(1 + number % 9)` }, ' units of ', { sql: sku }),
    rows: 200,
  },
];

function logSelect(l: SeededLog, k: number): string {
  const spacing = Math.floor((82_000 - QUIET_SECONDS) / l.rows);
  const ns = `toInt64((${ANCHOR_SECONDS} - ${QUIET_SECONDS} - number * ${spacing}) * 1000000000 + (cityHash64(number, ${k}) % 1000000000))`;
  const sevNumber = l.severity === 'error' ? 17 : l.severity === 'warn' ? 13 : 9;
  const attrs = l.attrs ? `map(${l.attrs.map(([key, v]) => `${q(key)}, ${v}`).join(', ')})` : 'map()';
  const resource = `map('service.name', ${q(l.service)}, 'deployment.environment', 'production')`;
  return `SELECT fromUnixTimestamp64Nano(${ns}, 'UTC'), toDateTime(intDiv(${ns}, 1000000000), 'UTC'),
  ${l.traceId ?? "''"}, '', toUInt8(1), ${q(l.severity)}, toUInt8(${sevNumber}), ${q(l.service)}, ${l.body},
  '', ${resource}, '', ${q(`${l.service}/logging`)}, '1.0', map(), CAST(${attrs}, 'Map(String, String)'), ''
  FROM numbers(${l.rows})`;
}

/** The workspace's logs for data.ts's generators (one INSERT … SELECT). */
export function codeLogGenerators(): { table: string; sql: string }[] {
  return [{ table: 'otel_logs', sql: CODE_LOGS.map((l, i) => logSelect(l, 7500 + i)).join('\nUNION ALL\n') }];
}
