/**
 * Data sources: the response (each kind has more fields than listed; all are kept) and the
 * create/update body, one shape per kind as the server's source schemas require them. PUT is a full
 * replace and may change the kind; an `id` in a body is ignored. Unknown keys are kept and sent.
 */
import * as z from 'zod';
import { MV_AGG_FNS } from './aggregation';
import { omitNullOr, openEnum, requiredOr, resourceIdSchema } from './ids';
import { lazySchema } from './lazySchema';

export const SOURCE_KINDS = ['log', 'trace', 'metric', 'session', 'promql'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** A filter column of a source's filter settings. */
export const sourceFilterColumnSchema = lazySchema(() =>
  z.looseObject({
    name: z.string(),
    label: z.string().optional(),
    /** SQL expression over the filter-values table (default: the column `name`). */
    valueExpression: z.string().nullable().optional(),
    /** Offer an "All" option (default false). */
    allowAll: z.boolean().optional(),
  }),
);

export const sourceSchema = lazySchema(() =>
  z.looseObject({
    id: z.string().min(1),
    name: z.string(),
    kind: openEnum(SOURCE_KINDS),
    connection: z.string().optional(),
    from: z
      .looseObject({
        databaseName: z.string().nullable().optional(),
        tableName: z.string().nullable().optional(),
      })
      .optional(),
    section: z.string().nullable().optional(),
    disabled: z.boolean().nullable().optional(),
    timestampValueExpression: z.string().nullable().optional(),
    /** Log and trace sources: the service version (default: the OpenTelemetry `service.version` attribute). */
    serviceVersionExpression: z.string().nullable().optional(),
    filterSettings: z
      .looseObject({
        columns: z.array(sourceFilterColumnSchema).optional(),
      })
      .nullable()
      .optional(),
  }),
);

export type Source = z.infer<typeof sourceSchema>;

// ---- Write body (per kind) ----

/** Kinds a source can be created with. */
export const SOURCE_WRITE_KINDS = ['log', 'trace', 'session', 'metric', 'promql'] as const;
export const METRIC_TABLE_KINDS = ['gauge', 'histogram', 'sum', 'summary', 'exponential histogram'] as const;
export const USE_TEXT_INDEX_VALUES = ['auto', 'enabled', 'disabled'] as const;
/** `5m`, `15s`, `1h`, `1d` (as read), or `5 minute` (the server's own form). */
export const GRANULARITY_PATTERN = /^(?:\d+(?:s|m|h|d)|\d+ (?:second|minute|hour|day))$/;
export const MAX_QUERY_SETTINGS = 10;
export const MAX_FILTER_COLUMNS = 10;

const required = (what: string) =>
  z.string({ error: requiredOr('must be a string') }).min(1, { error: `${what} is required` });
/** An optional string the server refuses as null (omit it instead). */
const optText = (describe: string) =>
  z
    .string({ error: omitNullOr('must be a string') })
    .optional()
    .describe(describe);
const optBool = (describe: string) =>
  z
    .boolean({ error: omitNullOr('must be true or false') })
    .optional()
    .describe(describe);

const highlightedExpressions = lazySchema(() =>
  z
    .array(
      z.looseObject({
        sqlExpression: required('Attribute SQL Expression'),
        luceneExpression: optText('Lucene form of the expression.'),
        alias: optText('Display name.'),
      }),
      { error: omitNullOr('must be a list') },
    )
    .optional(),
);

const granularity = lazySchema(() =>
  z
    .string({ error: requiredOr('must be a string') })
    .regex(GRANULARITY_PATTERN, { error: 'must be a granularity such as 15s, 5m, 1h or 1d' }),
);

const aggregatedColumn = lazySchema(() =>
  z
    .looseObject({
      sourceColumn: optText('Column of the source table (not needed for count).'),
      aggFn: z.enum(MV_AGG_FNS, { error: `must be one of ${MV_AGG_FNS.join(', ')}` }),
      mvColumn: required('Materialized View Column'),
    })
    .superRefine((v, ctx) => {
      if (v.aggFn !== 'count' && !(typeof v.sourceColumn === 'string' && v.sourceColumn.length > 0)) {
        ctx.addIssue({
          code: 'custom',
          path: ['sourceColumn'],
          message: 'Materialized View Source Column is required (unless aggFn is count)',
        });
      }
    }),
);

const materializedViews = lazySchema(() =>
  z
    .array(
      z.looseObject({
        databaseName: required('Materialized View Database'),
        tableName: required('Materialized View Table'),
        dimensionColumns: z.string({ error: requiredOr('must be a string') }),
        minGranularity: granularity,
        minDate: z.iso
          .datetime({ error: 'must be an ISO date-time in UTC (2025-01-01T00:00:00Z)' })
          .nullable()
          .optional(),
        timestampColumn: required('Materialized View Timestamp column'),
        aggregatedColumns: z
          .array(aggregatedColumn, { error: requiredOr('must be a list') })
          .min(1, { error: 'At least one aggregated column is required' }),
      }),
      { error: omitNullOr('must be a list') },
    )
    .optional(),
);

const metadataMaterializedViews = lazySchema(() =>
  z
    .looseObject(
      {
        keyRollupTable: z.string().nullable().optional(),
        kvRollupTable: required('KV rollup table name'),
        granularity,
      },
      { error: omitNullOr('must be an object') },
    )
    .optional(),
);

const filterSettings = lazySchema(() =>
  z
    .looseObject({
      databaseName: z.string(),
      tableName: z.string(),
      columns: z
        .array(
          z.looseObject({
            name: z.string(),
            label: z.string(),
            valueExpression: z.string().nullable().optional(),
            allowAll: z.boolean().optional(),
          }),
        )
        .max(MAX_FILTER_COLUMNS, { error: `at most ${MAX_FILTER_COLUMNS} columns` }),
    })
    .nullable()
    .optional()
    .describe('Filter values table and columns (cloud service).'),
);

const baseShape = lazySchema(() => ({
  id: z.unknown().optional().describe('Ignored: the server assigns the ID.'),
  name: required('Name').describe('Display name.'),
  section: z
    .string({ error: omitNullOr('must be a string') })
    .max(256, { error: 'must be at most 256 characters' })
    .optional()
    .describe('Section in the source list.'),
  connection: resourceIdSchema.describe('ID of the ClickHouse connection.'),
  from: z.looseObject(
    { databaseName: required('Database'), tableName: required('Table') },
    { error: requiredOr('must be an object with databaseName and tableName') },
  ),
  disabled: optBool('Hide the source (default false).'),
  querySettings: z
    .array(z.looseObject({ setting: required('setting'), value: required('value') }), {
      error: omitNullOr('must be a list'),
    })
    .max(MAX_QUERY_SETTINGS, { error: `at most ${MAX_QUERY_SETTINGS} query settings` })
    .optional()
    .describe('ClickHouse settings for queries of the source.'),
  timestampValueExpression: required('Timestamp Column').describe('Timestamp expression.'),
  filterSettings,
}));

const logExtras = lazySchema(() => ({
  serviceNameExpression: optText('Service name expression.'),
  serviceVersionExpression: optText('Service version expression (default: the service.version attribute).'),
  eventAttributesExpression: optText('Event attributes expression.'),
  resourceAttributesExpression: optText('Resource attributes expression.'),
  displayedTimestampValueExpression: optText('Displayed timestamp expression.'),
  metricSourceId: optText('Correlated metric source.'),
  implicitColumnExpression: optText('Implicit column for full-text search.'),
  knownColumnsListExpression: optText('Known columns list expression.'),
  highlightedTraceAttributeExpressions: highlightedExpressions,
  highlightedRowAttributeExpressions: highlightedExpressions,
  materializedViews,
  metadataMaterializedViews,
  orderByExpression: optText('ORDER BY expression.'),
  useTextIndexForImplicitColumn: z
    .enum(USE_TEXT_INDEX_VALUES, { error: omitNullOr(`must be one of ${USE_TEXT_INDEX_VALUES.join(', ')}`) })
    .optional(),
}));

export const logSourceWriteSchema = lazySchema(() =>
  z.looseObject({
    ...baseShape,
    ...logExtras,
    kind: z.literal('log'),
    defaultTableSelectExpression: required('Default Select Expression'),
    severityTextExpression: optText('Severity expression.'),
    bodyExpression: optText('Body expression.'),
    traceSourceId: optText('Correlated trace source.'),
    traceIdExpression: optText('Trace ID expression.'),
    spanIdExpression: optText('Span ID expression.'),
    tableFilterExpression: optText('Deprecated: SQL predicate added to every query.'),
  }),
);

export const traceSourceWriteSchema = lazySchema(() =>
  z.looseObject({
    ...baseShape,
    ...logExtras,
    kind: z.literal('trace'),
    defaultTableSelectExpression: required('Default Select Expression'),
    durationExpression: required('Duration Expression'),
    durationPrecision: z
      .number({ error: omitNullOr('must be a number') })
      .min(0, { error: 'must be from 0 to 9' })
      .max(9, { error: 'must be from 0 to 9' })
      .optional()
      .describe('Digits of the duration (default 3).'),
    traceIdExpression: required('Trace ID Expression'),
    spanIdExpression: required('Span ID Expression'),
    parentSpanIdExpression: required('Parent span ID expression'),
    spanNameExpression: required('Span Name Expression'),
    spanKindExpression: required('Span Kind Expression'),
    sampleRateExpression: optText('Sample rate expression.'),
    logSourceId: z.string().nullable().optional().describe('Correlated log source.'),
    sessionSourceId: optText('Correlated session source.'),
    statusCodeExpression: optText('Status code expression.'),
    statusMessageExpression: optText('Status message expression.'),
    spanEventsValueExpression: optText('Span events expression.'),
    spanLinksValueExpression: optText('Span links expression.'),
  }),
);

export const sessionSourceWriteSchema = lazySchema(() =>
  z.looseObject({
    ...baseShape,
    kind: z.literal('session'),
    traceSourceId: z
      .string({ error: requiredOr('must be a string') })
      .min(1, { error: 'Correlated Trace Source is required' }),
    resourceAttributesExpression: optText('Resource attributes expression.'),
  }),
);

export const metricSourceWriteSchema = lazySchema(() =>
  z.looseObject({
    ...baseShape,
    kind: z.literal('metric'),
    from: z.looseObject(
      {
        databaseName: required('Database'),
        tableName: z.string({ error: requiredOr('must be a string (it may be empty)') }),
      },
      { error: requiredOr('must be an object with databaseName and tableName') },
    ),
    metricTables: z
      .looseObject(
        Object.fromEntries(
          METRIC_TABLE_KINDS.map((k) => [k, z.string({ error: omitNullOr('must be a string') }).optional()]),
        ) as Record<(typeof METRIC_TABLE_KINDS)[number], z.ZodOptional<z.ZodString>>,
        { error: requiredOr('must be an object of metric table names') },
      )
      .refine((t) => METRIC_TABLE_KINDS.some((k) => typeof t[k] === 'string' && (t[k] as string).length > 0), {
        error: 'at least one metric table is required',
      }),
    resourceAttributesExpression: required('Resource Attributes'),
    serviceNameExpression: optText('Service name expression.'),
    logSourceId: optText('Correlated log source.'),
    seriesTable: optText('Unified metrics series table.'),
  }),
);

export const promqlSourceWriteSchema = lazySchema(() => z.looseObject({ ...baseShape, kind: z.literal('promql') }));

/** Create and update (PUT, a full replace) body of a source, by `kind`. */
export const sourceWriteSchema = lazySchema(() =>
  z.discriminatedUnion(
    'kind',
    [
      logSourceWriteSchema,
      traceSourceWriteSchema,
      sessionSourceWriteSchema,
      metricSourceWriteSchema,
      promqlSourceWriteSchema,
    ],
    { error: `kind must be one of ${SOURCE_WRITE_KINDS.join(', ')}` },
  ),
);

export type SourceWrite = z.input<typeof sourceWriteSchema>;

/** Fields of a source as read that do not belong in a body. */
export const SOURCE_READ_ONLY_FIELDS = ['id', 'teamId', 'team', 'createdAt', 'updatedAt'] as const;
/** Fields a body may hold as null (every other optional field is omitted instead). */
const NULLABLE_SOURCE_FIELDS = new Set(['logSourceId', 'filterSettings']);

/** An update body from a source as read: read-only fields and nulls the server refuses left out. */
export function sourceToWriteBody(source: Source): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if ((SOURCE_READ_ONLY_FIELDS as readonly string[]).includes(key)) continue;
    if (value === null && !NULLABLE_SOURCE_FIELDS.has(key)) continue;
    out[key] = value;
  }
  return out;
}
