/**
 * Tables of ClickStack's default OpenTelemetry schema (column names and types as in HyperDX's
 * `docker/otel-collector/schema/seed/*.sql`), for the embedded ClickHouse behind the emulator's query host.
 * Skipping indexes, codecs and TTLs are left out: they change nothing a query can see.
 */

export interface TableSpec {
  name: string;
  /** Column definitions (ordinary columns first, in insert order). */
  columns: string;
  /** Names of the ordinary (insertable) columns, in order. */
  insertColumns: string[];
  /** Time columns of the ordinary columns: shifted to "now" when the cached data is loaded. */
  timeColumns: string[];
  /** Arrays of times (span events' times): each element shifted as the time columns are. */
  timeArrayColumns?: string[];
  engine: string;
}

const ATTR_MAP = 'Map(LowCardinality(String), String)';

const METRIC_COMMON: [string, string][] = [
  ['ResourceAttributes', ATTR_MAP],
  ['ResourceSchemaUrl', 'String'],
  ['ScopeName', 'String'],
  ['ScopeVersion', 'String'],
  ['ScopeAttributes', ATTR_MAP],
  ['ScopeDroppedAttrCount', 'UInt32'],
  ['ScopeSchemaUrl', 'String'],
  ['ServiceName', 'LowCardinality(String)'],
  ['MetricName', 'LowCardinality(String)'],
  ['MetricDescription', 'String'],
  ['MetricUnit', 'String'],
  ['Attributes', ATTR_MAP],
  ['StartTimeUnix', 'DateTime'],
  ['TimeUnix', 'DateTime'],
];

const EXEMPLARS: [string, string][] = [
  ['Exemplars.FilteredAttributes', `Array(${ATTR_MAP})`],
  ['Exemplars.TimeUnix', 'Array(DateTime)'],
  ['Exemplars.Value', 'Array(Float64)'],
  ['Exemplars.SpanId', 'Array(String)'],
  ['Exemplars.TraceId', 'Array(String)'],
];

const METRIC_ENGINE =
  'MergeTree PARTITION BY toDate(TimeUnix) ORDER BY (ServiceName, MetricName, toStartOfHour(TimeUnix), cityHash64(Attributes), TimeUnix)';

function spec(
  name: string,
  cols: [string, string][],
  extra: string[],
  timeColumns: string[],
  engine: string,
  timeArrayColumns?: string[],
): TableSpec {
  const defs = cols.map(([n, t]) => `\`${n}\` ${t}`).concat(extra);
  const insertColumns = cols.map(([n]) => n);
  return {
    name,
    columns: defs.join(',\n  '),
    insertColumns,
    timeColumns,
    ...(timeArrayColumns ? { timeArrayColumns } : {}),
    engine,
  };
}

export const TABLES: TableSpec[] = [
  spec(
    'otel_logs',
    [
      ['Timestamp', 'DateTime64(9)'],
      ['TimestampTime', 'DateTime'],
      ['TraceId', 'String'],
      ['SpanId', 'String'],
      ['TraceFlags', 'UInt8'],
      ['SeverityText', 'LowCardinality(String)'],
      ['SeverityNumber', 'UInt8'],
      ['ServiceName', 'LowCardinality(String)'],
      ['Body', 'String'],
      ['ResourceSchemaUrl', 'LowCardinality(String)'],
      ['ResourceAttributes', ATTR_MAP],
      ['ScopeSchemaUrl', 'LowCardinality(String)'],
      ['ScopeName', 'String'],
      ['ScopeVersion', 'LowCardinality(String)'],
      ['ScopeAttributes', ATTR_MAP],
      ['LogAttributes', ATTR_MAP],
      ['EventName', 'String'],
    ],
    [
      "`__hdx_materialized_k8s.namespace.name` LowCardinality(String) MATERIALIZED ResourceAttributes['k8s.namespace.name']",
      "`__hdx_materialized_k8s.node.name` LowCardinality(String) MATERIALIZED ResourceAttributes['k8s.node.name']",
      "`__hdx_materialized_k8s.pod.name` LowCardinality(String) MATERIALIZED ResourceAttributes['k8s.pod.name']",
    ],
    ['Timestamp', 'TimestampTime'],
    'MergeTree PARTITION BY toDate(Timestamp) ORDER BY (toStartOfFiveMinutes(Timestamp), ServiceName, Timestamp)',
  ),
  spec(
    'otel_traces',
    [
      ['Timestamp', 'DateTime64(9)'],
      ['TraceId', 'String'],
      ['SpanId', 'String'],
      ['ParentSpanId', 'String'],
      ['TraceState', 'String'],
      ['SpanName', 'LowCardinality(String)'],
      ['SpanKind', 'LowCardinality(String)'],
      ['ServiceName', 'LowCardinality(String)'],
      ['ResourceAttributes', ATTR_MAP],
      ['ScopeName', 'String'],
      ['ScopeVersion', 'String'],
      ['SpanAttributes', ATTR_MAP],
      ['Duration', 'UInt64'],
      ['StatusCode', 'LowCardinality(String)'],
      ['StatusMessage', 'String'],
      ['Events.Timestamp', 'Array(DateTime64(9))'],
      ['Events.Name', 'Array(LowCardinality(String))'],
      ['Events.Attributes', `Array(${ATTR_MAP})`],
      ['Links.TraceId', 'Array(String)'],
      ['Links.SpanId', 'Array(String)'],
      ['Links.TraceState', 'Array(String)'],
      ['Links.Attributes', `Array(${ATTR_MAP})`],
    ],
    [
      "`__hdx_materialized_rum.sessionId` String MATERIALIZED ResourceAttributes['rum.sessionId']",
      "`SampleRate` UInt64 MATERIALIZED greatest(toUInt64OrZero(SpanAttributes['SampleRate']), 1)",
    ],
    ['Timestamp'],
    'MergeTree PARTITION BY toDate(Timestamp) ORDER BY (ServiceName, SpanName, toDateTime(Timestamp))',
    ['Events.Timestamp'],
  ),
  spec(
    'otel_metrics_gauge',
    [...METRIC_COMMON, ['Value', 'Float64'], ['Flags', 'UInt32'], ...EXEMPLARS],
    [],
    ['StartTimeUnix', 'TimeUnix'],
    METRIC_ENGINE,
  ),
  spec(
    'otel_metrics_sum',
    [
      ...METRIC_COMMON,
      ['Value', 'Float64'],
      ['Flags', 'UInt32'],
      ...EXEMPLARS,
      ['AggregationTemporality', 'Int32'],
      ['IsMonotonic', 'Bool'],
    ],
    [],
    ['StartTimeUnix', 'TimeUnix'],
    METRIC_ENGINE,
  ),
  spec(
    'otel_metrics_histogram',
    [
      ...METRIC_COMMON,
      ['Count', 'UInt64'],
      ['Sum', 'Float64'],
      ['BucketCounts', 'Array(UInt64)'],
      ['ExplicitBounds', 'Array(Float64)'],
      ...EXEMPLARS,
      ['Flags', 'UInt32'],
      ['Min', 'Float64'],
      ['Max', 'Float64'],
      ['AggregationTemporality', 'Int32'],
    ],
    [],
    ['StartTimeUnix', 'TimeUnix'],
    METRIC_ENGINE,
  ),
  spec(
    'otel_metrics_exponential_histogram',
    [
      ...METRIC_COMMON,
      ['Count', 'UInt64'],
      ['Sum', 'Float64'],
      ['Scale', 'Int32'],
      ['ZeroCount', 'UInt64'],
      ['PositiveOffset', 'Int32'],
      ['PositiveBucketCounts', 'Array(UInt64)'],
      ['NegativeOffset', 'Int32'],
      ['NegativeBucketCounts', 'Array(UInt64)'],
      ...EXEMPLARS,
      ['Flags', 'UInt32'],
      ['Min', 'Float64'],
      ['Max', 'Float64'],
      ['AggregationTemporality', 'Int32'],
    ],
    [],
    ['StartTimeUnix', 'TimeUnix'],
    METRIC_ENGINE,
  ),
  spec(
    'otel_metrics_summary',
    [
      ...METRIC_COMMON,
      ['Count', 'UInt64'],
      ['Sum', 'Float64'],
      ['ValueAtQuantiles.Quantile', 'Array(Float64)'],
      ['ValueAtQuantiles.Value', 'Array(Float64)'],
      ['Flags', 'UInt32'],
    ],
    [],
    ['StartTimeUnix', 'TimeUnix'],
    METRIC_ENGINE,
  ),
  spec(
    'hyperdx_sessions',
    [
      ['Timestamp', 'DateTime64(9)'],
      ['TimestampTime', 'DateTime'],
      ['TraceId', 'String'],
      ['SpanId', 'String'],
      ['TraceFlags', 'UInt8'],
      ['SeverityText', 'LowCardinality(String)'],
      ['SeverityNumber', 'UInt8'],
      ['ServiceName', 'LowCardinality(String)'],
      ['Body', 'String'],
      ['ResourceSchemaUrl', 'LowCardinality(String)'],
      ['ResourceAttributes', ATTR_MAP],
      ['ScopeSchemaUrl', 'LowCardinality(String)'],
      ['ScopeName', 'String'],
      ['ScopeVersion', 'LowCardinality(String)'],
      ['ScopeAttributes', ATTR_MAP],
      ['LogAttributes', ATTR_MAP],
    ],
    [],
    ['Timestamp', 'TimestampTime'],
    'MergeTree PARTITION BY toDate(TimestampTime) PRIMARY KEY (ServiceName, TimestampTime) ORDER BY (ServiceName, TimestampTime, Timestamp)',
  ),
];

/**
 * Names of a table's MATERIALIZED columns (`SampleRate`, HyperDX's `__hdx_materialized_*`): computed when a row is
 * written, left out of `SELECT *`, selectable by name.
 */
export function materializedColumns(t: TableSpec): string[] {
  return [...t.columns.matchAll(/^\s*`([^`]+)` [^,\n]* MATERIALIZED /gm)].map((m) => m[1] as string);
}

export function createTableSql(database: string, t: TableSpec): string {
  return `CREATE TABLE IF NOT EXISTS \`${database}\`.\`${t.name}\`\n(\n  ${t.columns}\n)\nENGINE = ${t.engine}`;
}
