/**
 * The search golden corpus: a Lucene (or SQL) condition over the emulator's sample logs or traces, and the same
 * condition written by hand in plain ClickHouse SQL — deliberately in other words than the translation (regular
 * expressions for token search, `position…` for substrings, `has`/`mapContains` for arrays and maps, epoch seconds
 * through `toUnixTimestamp`) — which must find the same rows on the sample data.
 */
import { SHOWCASE } from '../../emulator/clickhouse/traces';

export interface SearchCase {
  source: 'logs' | 'traces';
  condition: string;
  language?: 'lucene' | 'sql';
  /** The hand-written WHERE condition (ANDed with the range). */
  sql: string;
  /** At least this many rows match in the range (so a case cannot pass by matching nothing by mistake). */
  atLeast: number;
  /** Exactly this many rows match, where the seeded data fixes it. */
  exactly?: number;
}

/** Whole-word search on the implicit column as ClickHouse's `hasToken` reads it (ASCII, case-insensitive). */
const word = (col: string, w: string): string => `match(lower(${col}), '(^|[^a-z0-9])${w}([^a-z0-9]|$)')`;
const has = (col: string, s: string): string => `positionCaseInsensitive(${col}, '${s}') > 0`;

/** `now` is the frozen clock in Unix seconds. */
export function searchCases(now: number): SearchCase[] {
  const tenMinAgo = now - 600;
  const fiveMinAgo = now - 300;
  const t = SHOWCASE;
  return [
    // Logs: free text.
    { source: 'logs', condition: '', sql: '1', atLeast: 1000 },
    { source: 'logs', condition: 'timeout', sql: word('Body', 'timeout'), atLeast: 1 },
    { source: 'logs', condition: 'DEADLOCK', sql: word('Body', 'deadlock'), atLeast: 1 },
    {
      source: 'logs',
      condition: 'reset peer',
      sql: `${word('Body', 'reset')} AND ${word('Body', 'peer')}`,
      atLeast: 1,
    },
    { source: 'logs', condition: '"connection reset"', sql: has('Body', 'connection reset'), atLeast: 1 },
    { source: 'logs', condition: 'Payment*', sql: "startsWith(lower(Body), 'payment')", atLeast: 100 },
    { source: 'logs', condition: '*ms', sql: "endsWith(lower(Body), 'ms')", atLeast: 100 },
    { source: 'logs', condition: '*insufficient*', sql: has('Body', 'insufficient'), atLeast: 10 },
    { source: 'logs', condition: '-timeout', sql: `NOT ${word('Body', 'timeout')}`, atLeast: 1000 },
    // Logs: field:value, quoted phrases, negation, boolean operators, groups.
    { source: 'logs', condition: 'ServiceName:payment', sql: "ServiceName = 'payment'", atLeast: 600 },
    { source: 'logs', condition: 'SeverityText:"error"', sql: "SeverityText = 'error'", atLeast: 600 },
    { source: 'logs', condition: 'SeverityText:error', sql: "lower(SeverityText) = 'error'", atLeast: 600 },
    { source: 'logs', condition: '-SeverityText:info', sql: "lower(SeverityText) != 'info'", atLeast: 600 },
    { source: 'logs', condition: 'NOT SeverityText:info', sql: "lower(SeverityText) != 'info'", atLeast: 600 },
    {
      source: 'logs',
      condition: 'SeverityText:error AND ServiceName:checkout',
      sql: "lower(SeverityText) = 'error' AND ServiceName = 'checkout'",
      atLeast: 1,
    },
    {
      source: 'logs',
      condition: 'SeverityText:warn OR SeverityText:debug',
      sql: "SeverityText IN ('warn', 'debug')",
      atLeast: 10,
    },
    {
      source: 'logs',
      condition: '(ServiceName:cart OR ServiceName:checkout) AND -SeverityText:info',
      sql: "ServiceName IN ('cart', 'checkout') AND lower(SeverityText) != 'info'",
      atLeast: 10,
    },
    {
      source: 'logs',
      condition: 'ServiceName:(cart OR search)',
      sql: "ServiceName IN ('cart', 'search')",
      atLeast: 10,
    },
    {
      source: 'logs',
      condition: 'Body:"Order ord-5d1e9b placed"',
      sql: "Body = 'Order ord-5d1e9b placed'",
      atLeast: 1,
      exactly: 1,
    },
    { source: 'logs', condition: 'Body:Declined', sql: has('Body', 'declined'), atLeast: 600 },
    // Logs: map attributes, missing keys, a key with a question mark.
    {
      source: 'logs',
      condition: 'LogAttributes.payment.status:declined',
      sql: "LogAttributes['payment.status'] = 'declined'",
      atLeast: 600,
    },
    {
      source: 'logs',
      condition: 'LogAttributes.payment.provider:"adyen" AND -LogAttributes.payment.status:declined',
      sql: "LogAttributes['payment.provider'] = 'adyen' AND LogAttributes['payment.status'] != 'declined'",
      atLeast: 1,
    },
    {
      source: 'logs',
      condition: 'LogAttributes.user.id:*',
      sql: "mapContains(LogAttributes, 'user.id')",
      atLeast: 100,
    },
    {
      source: 'logs',
      condition: '-LogAttributes.user.id:*',
      sql: "NOT mapContains(LogAttributes, 'user.id')",
      atLeast: 600,
    },
    { source: 'logs', condition: 'LogAttributes.no.such.key:*', sql: '0', atLeast: 0, exactly: 0 },
    { source: 'logs', condition: 'LogAttributes.no.such.key:anything', sql: '0', atLeast: 0, exactly: 0 },
    { source: 'logs', condition: '-LogAttributes.no.such.key:*', sql: '1', atLeast: 1000 },
    {
      source: 'logs',
      condition: 'LogAttributes.checkout.express?:true',
      sql: "LogAttributes['checkout.express?'] = 'true'",
      atLeast: 1,
      exactly: 1,
    },
    {
      source: 'logs',
      condition: 'ResourceAttributes.k8s.pod.name:checkout-7d9f1',
      sql: "ResourceAttributes['k8s.pod.name'] = 'checkout-7d9f1'",
      atLeast: 1,
    },
    {
      source: 'logs',
      condition: 'LogAttributes.exception.type:"java.lang.IllegalStateException"',
      sql: `TraceId = '${t.refund}' AND SeverityText = 'ERROR'`,
      atLeast: 1,
      exactly: 1,
    },
    // Logs: numbers, ranges, dates as numbers.
    { source: 'logs', condition: 'SeverityNumber:17', sql: 'SeverityNumber = 17', atLeast: 600 },
    { source: 'logs', condition: 'SeverityNumber:>=13', sql: 'SeverityNumber >= 13', atLeast: 600 },
    { source: 'logs', condition: 'SeverityNumber:<9', sql: 'SeverityNumber < 9', atLeast: 1 },
    {
      source: 'logs',
      condition: 'SeverityNumber:[9 TO 13]',
      sql: 'SeverityNumber >= 9 AND SeverityNumber <= 13',
      atLeast: 100,
    },
    { source: 'logs', condition: 'SeverityNumber:{9 TO 17]', sql: 'SeverityNumber IN (13, 17)', atLeast: 600 },
    {
      source: 'logs',
      condition: `TimestampTime:>${tenMinAgo}`,
      sql: `toUnixTimestamp(TimestampTime) > ${tenMinAgo}`,
      atLeast: 600,
    },
    {
      source: 'logs',
      condition: `TimestampTime:[${tenMinAgo} TO ${fiveMinAgo}]`,
      sql: `toUnixTimestamp(TimestampTime) BETWEEN ${tenMinAgo} AND ${fiveMinAgo}`,
      atLeast: 300,
    },
    {
      source: 'logs',
      condition: `TimestampTime:${fiveMinAgo}`,
      sql: `toUnixTimestamp(TimestampTime) = ${fiveMinAgo}`,
      atLeast: 1,
    },
    // Logs: trace IDs, and SQL conditions.
    { source: 'logs', condition: `TraceId:${t.order}`, sql: `TraceId = '${t.order}'`, atLeast: 5, exactly: 5 },
    { source: 'logs', condition: `TraceId:"${t.bulk}"`, sql: `TraceId = '${t.bulk}'`, atLeast: 2, exactly: 2 },
    {
      source: 'logs',
      condition: "SeverityText = 'error' AND ServiceName = 'cart'",
      language: 'sql',
      sql: "ServiceName = 'cart' AND SeverityText = 'error'",
      atLeast: 1,
    },
    { source: 'logs', condition: "Body ILIKE '%deadlock%'", language: 'sql', sql: has('Body', 'deadlock'), atLeast: 1 },

    // Traces: free text on the span name.
    { source: 'traces', condition: '', sql: '1', atLeast: 10_000 },
    { source: 'traces', condition: 'checkout', sql: word('SpanName', 'checkout'), atLeast: 100 },
    { source: 'traces', condition: 'refund', sql: word('SpanName', 'refund'), atLeast: 2 },
    // Traces: status, kinds, services.
    { source: 'traces', condition: 'StatusCode:Error', sql: "StatusCode = 'Error'", atLeast: 4 },
    {
      source: 'traces',
      condition: 'SpanKind:Consumer OR SpanKind:Producer',
      sql: "SpanKind IN ('Consumer', 'Producer')",
      atLeast: 3,
      exactly: 3,
    },
    {
      source: 'traces',
      condition: 'ServiceName:orders AND NOT StatusCode:Error',
      sql: "ServiceName = 'orders' AND StatusCode != 'Error'",
      atLeast: 6,
    },
    // Traces: span events (array columns), by name and by attribute.
    {
      source: 'traces',
      condition: 'Events.Name:exception',
      sql: "has(`Events.Name`, 'exception')",
      atLeast: 1,
      exactly: 1,
    },
    {
      source: 'traces',
      condition: 'Events.Name:"exception"',
      sql: "indexOf(`Events.Name`, 'exception') > 0",
      atLeast: 1,
      exactly: 1,
    },
    { source: 'traces', condition: '-Events.Name:exception', sql: 'empty(`Events.Name`)', atLeast: 10_000 },
    {
      source: 'traces',
      condition: 'Events.Attributes.exception.type:*',
      sql: "arrayExists(a -> mapContains(a, 'exception.type'), `Events.Attributes`)",
      atLeast: 1,
      exactly: 1,
    },
    {
      source: 'traces',
      condition: 'Events.Attributes.exception.type:"java.lang.IllegalStateException"',
      sql: "arrayCount(a -> a['exception.type'] = 'java.lang.IllegalStateException', `Events.Attributes`) > 0",
      atLeast: 1,
      exactly: 1,
    },
    {
      source: 'traces',
      condition: 'Events.Attributes.exception.stacktrace:RefundService.java',
      sql: `arrayExists(a -> ${has("a['exception.stacktrace']", 'RefundService.java')}, \`Events.Attributes\`)`,
      atLeast: 1,
      exactly: 1,
    },
    // Traces: numbers, ranges, DateTime64 compared as numbers.
    { source: 'traces', condition: 'Duration:>1000000000', sql: 'Duration > 1e9', atLeast: 10 },
    {
      source: 'traces',
      condition: 'Duration:[100000000 TO 200000000]',
      sql: 'Duration BETWEEN 1e8 AND 2e8',
      atLeast: 100,
    },
    {
      source: 'traces',
      condition: `Timestamp:>=${fiveMinAgo}`,
      sql: `Timestamp >= toDateTime64(${fiveMinAgo}, 9)`,
      atLeast: 100,
    },
    // Traces: map attributes and IDs.
    {
      source: 'traces',
      condition: 'SpanAttributes.http.response.status_code:500',
      sql: "SpanAttributes['http.response.status_code'] LIKE '%500%'",
      atLeast: 4,
    },
    {
      source: 'traces',
      condition: 'SpanAttributes.db.system:postgresql AND ServiceName:orders',
      sql: "SpanAttributes['db.system'] = 'postgresql' AND ServiceName = 'orders'",
      atLeast: 3,
      exactly: 3,
    },
    {
      source: 'traces',
      condition: 'SpanAttributes.messaging.destination.name:"order.placed"',
      sql: "SpanAttributes['messaging.destination.name'] = 'order.placed'",
      atLeast: 2,
      exactly: 2,
    },
    {
      source: 'traces',
      condition: 'ResourceAttributes.telemetry.sdk.language:java',
      sql: "ResourceAttributes['telemetry.sdk.language'] = 'java'",
      // The showcase refund trace's 9 Java spans, and 8 of the sample workspace's Java service in the last 30 minutes.
      atLeast: 9,
      exactly: 17,
    },
    { source: 'traces', condition: 'SpanAttributes.no.such.key:*', sql: '0', atLeast: 0, exactly: 0 },
    {
      source: 'traces',
      condition: `TraceId:${t.bulk}`,
      sql: `TraceId = '${t.bulk}'`,
      atLeast: 10_000,
      exactly: 10_000,
    },
    {
      source: 'traces',
      condition: `TraceId:${t.bulk} AND SpanName:"import.batch"`,
      sql: `TraceId = '${t.bulk}' AND SpanName = 'import.batch'`,
      atLeast: 99,
      exactly: 99,
    },
    {
      source: 'traces',
      condition: `ParentSpanId:${t.missingParent}`,
      sql: `TraceId = '${t.orphan}' AND ParentSpanId != '' AND SpanKind = 'Consumer'`,
      atLeast: 1,
      exactly: 1,
    },
    {
      source: 'traces',
      condition: "StatusCode = 'Error' AND ServiceName = 'gateway'",
      language: 'sql',
      sql: `TraceId = '${t.refund}' AND ServiceName = 'gateway'`,
      atLeast: 2,
      exactly: 2,
    },
  ];
}
