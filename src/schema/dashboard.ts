/**
 * Dashboards: create and update bodies, tiles and their configs, and the responses.
 *
 * Request schemas follow the service's rules (24-column grid, tile/tag/container limits,
 * container and tab references, the savedQuery rule). Tile configs are chosen by
 * `displayType` and, for raw SQL, `configType: "sql"`; their known fields and enums are
 * checked, while further config fields (newer chart options) are let through, as the
 * service's own contract allows. Responses keep every field they carry.
 */
import * as z from 'zod';
import { nonEmpty, nonEmptyOrOmit, openEnum, requiredOr, resourceIdSchema } from './ids';

export const TILE_DISPLAY_TYPES = [
  'line',
  'stacked_bar',
  'table',
  'number',
  'pie',
  'bar',
  'heatmap',
  'search',
  'event_patterns',
  'markdown',
] as const;
/** Display types that also have a raw SQL variant (`configType: "sql"`). */
export const RAW_SQL_DISPLAY_TYPES = ['line', 'stacked_bar', 'table', 'number', 'pie', 'bar'] as const;
/** Display types an alert can watch. */
export const ALERTABLE_DISPLAY_TYPES = ['line', 'stacked_bar', 'number'] as const;
export const AGG_FNS = [
  'avg',
  'count',
  'count_distinct',
  'last_value',
  'max',
  'min',
  'quantile',
  'sum',
  'any',
  'none',
] as const;
export const QUANTILE_LEVELS = [0.5, 0.9, 0.95, 0.99] as const;
export const METRIC_TYPES = ['sum', 'gauge', 'histogram', 'summary', 'exponential histogram'] as const;
export const QUERY_LANGUAGES = ['sql', 'lucene'] as const;
export const CHART_COLORS = [
  'chart-blue',
  'chart-orange',
  'chart-red',
  'chart-cyan',
  'chart-green',
  'chart-pink',
  'chart-purple',
  'chart-light-blue',
  'chart-brown',
  'chart-gray',
  'chart-success',
  'chart-warning',
  'chart-error',
] as const;
export const NUMBER_FORMAT_OUTPUTS = [
  'currency',
  'percent',
  'byte',
  'time',
  'number',
  'data_rate',
  'throughput',
  'duration',
] as const;

export const DASHBOARD_LIMITS = {
  nameLength: 1024,
  tiles: 500,
  tileIdLength: 36,
  tags: 50,
  tagLength: 32,
  containers: 50,
  tabsPerContainer: 20,
  containerIdLength: 256,
  gridColumns: 24,
  selectItems: 20,
  expressionLength: 10000,
  sqlTemplateLength: 100000,
  markdownLength: 50000,
  colorRules: 10,
  formulas: 10,
  savedFilterConditionLength: 10000,
} as const;

export type TileDisplayType = (typeof TILE_DISPLAY_TYPES)[number];
export type AlertableDisplayType = (typeof ALERTABLE_DISPLAY_TYPES)[number];

export function isAlertableDisplayType(value: unknown): value is AlertableDisplayType {
  return typeof value === 'string' && (ALERTABLE_DISPLAY_TYPES as readonly string[]).includes(value);
}

// ---------------------------------------------------------------------------------------------
// Config building blocks
// ---------------------------------------------------------------------------------------------

const L = DASHBOARD_LIMITS;

function expression(description: string) {
  // Query fragments may be empty (the service stores "" for "no filter").
  return z
    .string()
    .max(L.expressionLength, { error: `must be at most ${L.expressionLength} characters` })
    .optional()
    .describe(description);
}

const queryLanguage = z.enum(QUERY_LANGUAGES, { error: requiredOr('must be "sql" or "lucene"') });

export const numberFormatSchema = z
  .looseObject({
    output: z.enum(NUMBER_FORMAT_OUTPUTS).optional().describe('Kind of number shown.'),
    mantissa: z.number().int().min(0).optional().describe('Digits after the decimal point.'),
    thousandSeparated: z.boolean().optional(),
    average: z.boolean().optional(),
    decimalBytes: z.boolean().optional(),
    factor: z.number().optional().describe('Multiply values by this factor before display.'),
    currencySymbol: z.string().optional(),
    numericUnit: z.string().optional().describe('Unit of the raw value, e.g. "bytes_iec".'),
    unit: z.string().optional().describe('Free-text unit suffix, e.g. "ms".'),
  })
  .describe('How numbers are formatted.');

export const selectItemSchema = z
  .looseObject({
    aggFn: z
      .enum(AGG_FNS, { error: `must be one of ${AGG_FNS.join(', ')}` })
      .describe('Aggregate function.'),
    valueExpression: expression('Expression to aggregate (not used with "count").'),
    alias: expression('Series name shown in the chart.'),
    level: z
      .literal(QUANTILE_LEVELS, { error: `must be one of ${QUANTILE_LEVELS.join(', ')}` })
      .optional()
      .describe('Quantile level for aggFn "quantile": 0.5, 0.9, 0.95 or 0.99.'),
    where: expression('Filter for this series.'),
    whereLanguage: queryLanguage.optional().describe('Language of "where": "sql" or "lucene".'),
    metricName: z.string().optional().describe('Metric name (metric sources).'),
    metricType: z
      .enum(METRIC_TYPES, { error: `must be one of ${METRIC_TYPES.join(', ')}` })
      .optional()
      .describe('Metric type (metric sources).'),
    periodAggFn: z.literal('delta').optional().describe('Per-period aggregation: "delta".'),
    numberFormat: numberFormatSchema.optional(),
  })
  .superRefine((item, ctx) => {
    if (item.level !== undefined && item.aggFn !== 'quantile') {
      ctx.addIssue({ code: 'custom', path: ['level'], message: 'is only used with aggFn "quantile"' });
    }
  })
  .describe('One series of the chart.');

const selectArray = z
  .array(selectItemSchema)
  .min(1, { error: 'must hold at least one select item' })
  .max(L.selectItems, { error: `must hold at most ${L.selectItems} select items` })
  .describe('Series of the chart.');

const sourceId = resourceIdSchema.describe('ID of the source (see the source list).');
const chartColor = z.enum(CHART_COLORS, { error: `must be one of ${CHART_COLORS.join(', ')}` });

/** Builder configs carry no configType; a value other than "sql" is an error. */
function noConfigType(displayType: string) {
  return z
    .undefined({ error: `must be omitted: "${displayType}" tiles have no raw SQL variant` })
    .optional();
}

const formulas = z
  .array(z.looseObject({}))
  .max(L.formulas)
  .optional()
  .describe('Derived series computed from the select items (metric sources).');
const seriesLimit = z.number().int().min(0).optional().describe('Series cap: omitted = default, 0 = unlimited.');
const onClick = z.looseObject({ type: z.string() }).optional().describe('Link-out when a table row is clicked.');
const colorRules = z
  .array(z.looseObject({}))
  .max(L.colorRules)
  .optional()
  .describe('Conditional colors (last match wins).');

function builderChecks(
  config: { displayType: string; asRatio?: boolean | undefined; select: unknown[]; formulas?: unknown[] | undefined },
  ctx: z.RefinementCtx,
): void {
  if (config.asRatio === true && config.select.length !== 2) {
    ctx.addIssue({ code: 'custom', path: ['asRatio'], message: 'needs exactly two select items' });
  }
  if (config.displayType === 'number' && (config.formulas?.length ?? 0) === 0 && config.select.length !== 1) {
    ctx.addIssue({
      code: 'custom',
      path: ['select'],
      message: 'a number tile has exactly one select item unless formulas are used',
    });
  }
}

/** Fields of the time-series builder tiles (line and stacked_bar). */
const timeSeriesFields = {
  sourceId,
  select: selectArray,
  groupBy: expression('Group series by this expression.'),
  asRatio: z.boolean().optional().describe('Plot select[0] / select[1] (exactly two select items).'),
  alignDateRangeToGranularity: z.boolean().optional(),
  fillNulls: z.boolean().optional(),
  numberFormat: numberFormatSchema.optional(),
  formulas,
  showOperandSeries: z.boolean().optional(),
  seriesLimit,
};

const lineBuilder = z
  .looseObject({
    displayType: z.literal('line'),
    configType: noConfigType('line'),
    ...timeSeriesFields,
    fitYAxisToData: z.boolean().optional(),
    compareToPreviousPeriod: z.boolean().optional(),
  })
  .superRefine(builderChecks);

const stackedBarBuilder = z
  .looseObject({
    displayType: z.literal('stacked_bar'),
    configType: noConfigType('stacked_bar'),
    ...timeSeriesFields,
  })
  .superRefine(builderChecks);

const tableBuilder = z
  .looseObject({
    displayType: z.literal('table'),
    configType: noConfigType('table'),
    sourceId,
    select: selectArray,
    groupBy: expression('Group rows by this expression.'),
    having: expression('HAVING condition.'),
    orderBy: expression('ORDER BY expression.'),
    asRatio: z.boolean().optional(),
    groupByColumnsOnLeft: z.boolean().optional(),
    numberFormat: numberFormatSchema.optional(),
    onClick,
    formulas,
    showOperandSeries: z.boolean().optional(),
  })
  .superRefine(builderChecks);

const numberBuilder = z
  .looseObject({
    displayType: z.literal('number'),
    configType: noConfigType('number'),
    sourceId,
    select: selectArray,
    numberFormat: numberFormatSchema.optional(),
    color: chartColor.optional().describe('Palette color of the value.'),
    colorRules,
    backgroundChart: z
      .looseObject({ type: z.enum(['line', 'area']), color: chartColor.optional() })
      .optional()
      .describe('Background trend sparkline.'),
    formulas,
  })
  .superRefine(builderChecks);

function categoricalBuilder<const D extends 'pie' | 'bar'>(displayType: D) {
  return z
    .looseObject({
      displayType: z.literal(displayType),
      configType: noConfigType(displayType),
      sourceId,
      select: selectArray,
      groupBy: expression('Category expression.'),
      orderBy: expression('ORDER BY expression.'),
      numberFormat: numberFormatSchema.optional(),
      limit: z.number().int().min(0).optional().describe('Number of categories: omitted = default, 0 = all.'),
    })
    .superRefine(builderChecks);
}

const heatmapBuilder = z.looseObject({
  displayType: z.literal('heatmap'),
  configType: noConfigType('heatmap'),
  sourceId: sourceId.describe('ID of a trace source.'),
  select: z
    .array(
      z.looseObject({
        valueExpression: nonEmpty(L.expressionLength).describe('Value to bucket, e.g. "Duration".'),
        countExpression: expression('Count expression, e.g. "count()".'),
        heatmapScaleType: z.enum(['log', 'linear']).optional(),
      }),
    )
    .min(1, { error: 'must hold at least one select item' })
    .describe('The heatmap series.'),
  where: expression('Filter.'),
  whereLanguage: queryLanguage.optional(),
  numberFormat: numberFormatSchema.optional(),
});

const searchBuilder = z.looseObject({
  displayType: z.literal('search'),
  configType: noConfigType('search'),
  sourceId,
  select: z.string().max(L.expressionLength).describe('Columns to show, e.g. "Timestamp, ServiceName, Body".'),
  where: expression('Search filter.'),
  whereLanguage: queryLanguage.describe('Language of "where": "sql" or "lucene".'),
});

const eventPatternsBuilder = z.looseObject({
  displayType: z.literal('event_patterns'),
  configType: noConfigType('event_patterns'),
  sourceId,
  select: expression('Expression to mine patterns from, e.g. "Body".'),
  where: expression('Filter.'),
  whereLanguage: queryLanguage.optional(),
});

const markdownConfig = z.looseObject({
  displayType: z.literal('markdown'),
  configType: noConfigType('markdown'),
  markdown: z
    .string()
    .max(L.markdownLength, { error: `must be at most ${L.markdownLength} characters` })
    .optional()
    .describe('Markdown text of the tile.'),
});

const rawBase = {
  configType: z.literal('sql').describe('Raw SQL tile.'),
  connectionId: resourceIdSchema.describe('ID of the connection the SQL runs on.'),
  sqlTemplate: nonEmpty(L.sqlTemplateLength).describe('SQL query template.'),
  sourceId: resourceIdSchema.optional().describe('Optional source, for filters and links.'),
  numberFormat: numberFormatSchema.optional(),
};

const lineRaw = z.looseObject({
  ...rawBase,
  displayType: z.literal('line'),
  compareToPreviousPeriod: z.boolean().optional(),
  fillNulls: z.boolean().optional(),
  alignDateRangeToGranularity: z.boolean().optional(),
  fitYAxisToData: z.boolean().optional(),
  seriesLimit,
});
const stackedBarRaw = z.looseObject({
  ...rawBase,
  displayType: z.literal('stacked_bar'),
  fillNulls: z.boolean().optional(),
  alignDateRangeToGranularity: z.boolean().optional(),
  seriesLimit,
});
const tableRaw = z.looseObject({ ...rawBase, displayType: z.literal('table'), onClick });
const numberRaw = z.looseObject({
  ...rawBase,
  displayType: z.literal('number'),
  color: chartColor.optional(),
  colorRules,
});
const pieRaw = z.looseObject({ ...rawBase, displayType: z.literal('pie') });
const barRaw = z.looseObject({ ...rawBase, displayType: z.literal('bar') });

const CONFIG_TYPE_ERROR = 'must be "sql" (raw SQL) or omitted (builder)';

/** A tile's chart configuration, chosen by displayType (and configType "sql" for raw SQL). */
export const tileConfigSchema = z
  .discriminatedUnion(
    'displayType',
    [
      z.discriminatedUnion('configType', [lineRaw, lineBuilder], { error: CONFIG_TYPE_ERROR }),
      z.discriminatedUnion('configType', [stackedBarRaw, stackedBarBuilder], { error: CONFIG_TYPE_ERROR }),
      z.discriminatedUnion('configType', [tableRaw, tableBuilder], { error: CONFIG_TYPE_ERROR }),
      z.discriminatedUnion('configType', [numberRaw, numberBuilder], { error: CONFIG_TYPE_ERROR }),
      z.discriminatedUnion('configType', [pieRaw, categoricalBuilder('pie')], { error: CONFIG_TYPE_ERROR }),
      z.discriminatedUnion('configType', [barRaw, categoricalBuilder('bar')], { error: CONFIG_TYPE_ERROR }),
      heatmapBuilder,
      searchBuilder,
      eventPatternsBuilder,
      markdownConfig,
    ],
    { error: `must be one of ${TILE_DISPLAY_TYPES.join(', ')}` },
  )
  .describe('Chart configuration of the tile, chosen by "displayType" (add "configType": "sql" for raw SQL).');

export type TileConfig = z.infer<typeof tileConfigSchema>;

// ---------------------------------------------------------------------------------------------
// Tiles, filters, containers
// ---------------------------------------------------------------------------------------------

const gridInt = (description: string) => z.number().int({ error: 'must be a whole number' }).describe(description);

/** A tile in a create or update body. */
export const tileSchema = z
  .looseObject({
    id: nonEmptyOrOmit(L.tileIdLength).optional().describe(
      'Tile ID (at most 36 characters). Keep it on update: a tile whose ID changes loses its alerts. Ignored on create.',
    ),
    name: z.string().describe('Title of the tile.'),
    x: gridInt('Column of the left edge (0–23).')
      .min(0, { error: 'must be between 0 and 23' })
      .max(L.gridColumns - 1, { error: 'must be between 0 and 23' }),
    y: gridInt('Row of the top edge (0 or more).').min(0, { error: 'must be 0 or more' }),
    w: gridInt('Width in columns (1–24).')
      .min(1, { error: 'must be between 1 and 24' })
      .max(L.gridColumns, { error: 'must be between 1 and 24' }),
    h: gridInt('Height in rows (1 or more).').min(1, { error: 'must be 1 or more' }),
    config: tileConfigSchema.optional(),
    containerId: nonEmptyOrOmit(L.containerIdLength)
      .optional()
      .describe('ID of the container (section) that holds the tile; must be declared in "containers".'),
    tabId: nonEmptyOrOmit(L.containerIdLength)
      .optional()
      .describe('ID of a tab of that container; needs "containerId".'),
    series: z
      .array(z.looseObject({ type: z.string() }))
      .min(1)
      .optional()
      .describe('Deprecated legacy series format; use "config".'),
    asRatio: z.boolean().optional().describe('Deprecated; use config.asRatio.'),
  })
  .superRefine((tile, ctx) => {
    if (tile.config !== undefined && tile.series !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['series'], message: 'a tile has either "config" or "series", not both' });
    } else if (tile.config === undefined && tile.series === undefined) {
      ctx.addIssue({ code: 'custom', path: ['config'], message: 'is required' });
    }
    if (tile.asRatio !== undefined && tile.config !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['asRatio'], message: 'is not used with "config"; set config.asRatio' });
    }
  })
  .describe('A dashboard tile on the 24-column grid.');

export type Tile = z.infer<typeof tileSchema>;

const filterShape = {
  type: z.literal('QUERY_EXPRESSION').describe('Filter kind: "QUERY_EXPRESSION".'),
  name: nonEmpty(1024).describe('Label of the filter.'),
  expression: nonEmpty(L.expressionLength).describe('Expression whose values the filter offers, e.g. "ServiceName".'),
  sourceId: resourceIdSchema.describe('Source the values come from.'),
  sourceMetricType: z.enum(METRIC_TYPES).optional().describe('Metric type, for metric sources.'),
  where: expression('Condition that limits the offered values.'),
  whereLanguage: queryLanguage.optional(),
  appliesToSourceIds: z.array(resourceIdSchema).optional().describe('Sources the filter applies to.'),
  isBroadcastEnabled: z.boolean().optional(),
  isVariableEnabled: z.boolean().optional(),
  variableName: z
    .string()
    .regex(/^[a-zA-Z][a-zA-Z0-9_]{0,63}$/, { error: 'must start with a letter; letters, digits, "_"; at most 64' })
    .optional()
    .describe('Variable name for SQL templates.'),
};

/** A dashboard filter in a create body (no id). */
/** Strict, as on the service: a new dashboard carries no fields a service sent. */
export const filterInputSchema = z.strictObject(filterShape).describe('Dashboard filter.');
/** A dashboard filter in an update body or a response (with id). */
export const filterSchema = z
  .looseObject({ ...filterShape, id: nonEmpty(L.containerIdLength).describe('ID of the filter (keep it).') })
  .describe('Dashboard filter.');

export const savedFilterValueSchema = z.looseObject({
  type: z.literal('sql').optional(),
  condition: nonEmpty(L.savedFilterConditionLength).describe('SQL condition, e.g. "ServiceName IN (\'api\')".'),
});

const containerTabSchema = z.looseObject({
  id: nonEmpty(L.containerIdLength).describe('Tab ID (unique in the container).'),
  title: nonEmpty(L.containerIdLength).describe('Tab title.'),
});

export const containerSchema = z
  .looseObject({
    id: nonEmpty(L.containerIdLength).describe('Container ID (unique in the dashboard).'),
    title: nonEmpty(L.containerIdLength).describe('Container title.'),
    collapsed: z.boolean().describe('Whether the container starts collapsed.'),
    collapsible: z.boolean().optional(),
    bordered: z.boolean().optional(),
    tabs: z
      .array(containerTabSchema)
      .max(L.tabsPerContainer, { error: `must hold at most ${L.tabsPerContainer} tabs` })
      .optional()
      .describe('Tabs of the container (at most 20).'),
  })
  .describe('A container (section) grouping tiles.');

// ---------------------------------------------------------------------------------------------
// Create and update bodies
// ---------------------------------------------------------------------------------------------

function dashboardShape<F extends z.ZodType>(filter: F) {
  return {
    name: nonEmpty(L.nameLength).describe('Dashboard name (at most 1024 characters).'),
    tiles: z
      .array(tileSchema)
      .max(L.tiles, { error: `must hold at most ${L.tiles} tiles` })
      .describe('Tiles (at most 500, unique IDs).'),
    tags: z
      .array(nonEmpty(L.tagLength))
      .max(L.tags, { error: `must hold at most ${L.tags} tags` })
      .optional()
      .describe('Tags (at most 50, each at most 32 characters).'),
    filters: z.array(filter).optional().describe('Dashboard filters.'),
    savedQuery: z.string().nullable().optional().describe('Default query of the dashboard.'),
    savedQueryLanguage: queryLanguage
      .nullable()
      .optional()
      .describe('Language of savedQuery: "sql" or "lucene"; not null while savedQuery is set.'),
    savedFilterValues: z.array(savedFilterValueSchema).optional().describe('Saved filter selections.'),
    containers: z
      .array(containerSchema)
      .max(L.containers, { error: `must hold at most ${L.containers} containers` })
      .optional()
      .describe('Containers (sections) of the dashboard (at most 50).'),
  };
}

interface DashboardBodyShape {
  tiles: Tile[];
  savedQuery?: string | null | undefined;
  savedQueryLanguage?: string | null | undefined;
  containers?: z.infer<typeof containerSchema>[] | undefined;
}

function checkDashboard(body: DashboardBodyShape, ctx: z.RefinementCtx, checkRefsWithoutContainers: boolean): void {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });

  const tileIds = new Map<string, number>();
  body.tiles.forEach((tile, index) => {
    if (tile.id === undefined) return;
    const first = tileIds.get(tile.id);
    if (first !== undefined) issue(['tiles', index, 'id'], `duplicates the id of tiles[${first}]`);
    else tileIds.set(tile.id, index);
  });

  const containers = new Map<string, Set<string>>();
  body.containers?.forEach((container, index) => {
    if (containers.has(container.id)) {
      issue(['containers', index, 'id'], `duplicate container id "${container.id}"`);
      return;
    }
    const tabs = new Set<string>();
    container.tabs?.forEach((tab, tabIndex) => {
      if (tabs.has(tab.id)) issue(['containers', index, 'tabs', tabIndex, 'id'], `duplicate tab id "${tab.id}"`);
      tabs.add(tab.id);
    });
    containers.set(container.id, tabs);
  });

  if (body.containers !== undefined || checkRefsWithoutContainers) {
    body.tiles.forEach((tile, index) => {
      if (tile.tabId !== undefined && tile.containerId === undefined) {
        issue(['tiles', index, 'tabId'], 'needs "containerId"');
      }
      if (tile.containerId === undefined) return;
      const tabs = containers.get(tile.containerId);
      if (tabs === undefined) {
        issue(['tiles', index, 'containerId'], `no container with id "${tile.containerId}" in "containers"`);
      } else if (tile.tabId !== undefined && !tabs.has(tile.tabId)) {
        issue(['tiles', index, 'tabId'], `container "${tile.containerId}" has no tab with id "${tile.tabId}"`);
      }
    });
  } else {
    body.tiles.forEach((tile, index) => {
      if (tile.tabId !== undefined && tile.containerId === undefined) {
        issue(['tiles', index, 'tabId'], 'needs "containerId"');
      }
    });
  }

  if (body.savedQuery != null && body.savedQueryLanguage === null) {
    issue(['savedQueryLanguage'], 'must not be null while savedQuery is set');
  }
}

/** Body of a dashboard create (POST). Tile IDs are regenerated by the service. */
export const dashboardWriteSchema = z
  .looseObject(dashboardShape(filterInputSchema))
  .superRefine((body, ctx) => checkDashboard(body, ctx, true))
  .describe('Dashboard create body.');

/**
 * Body of a dashboard update (PUT). name and tiles are always replaced; other omitted fields
 * are kept by the service, so container references are checked only when containers are sent.
 */
export const dashboardUpdateSchema = z
  .looseObject(dashboardShape(filterSchema))
  .superRefine((body, ctx) => checkDashboard(body, ctx, false))
  .describe('Dashboard update body.');

export type DashboardWrite = z.infer<typeof dashboardWriteSchema>;
export type DashboardUpdate = z.infer<typeof dashboardUpdateSchema>;

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

export const tileResponseSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
  config: z
    .looseObject({
      displayType: openEnum(TILE_DISPLAY_TYPES).optional(),
      configType: z.string().optional(),
      sourceId: z.string().optional(),
    })
    .optional(),
  containerId: z.string().optional(),
  tabId: z.string().optional(),
});

export type TileResponse = z.infer<typeof tileResponseSchema>;

/** A dashboard as returned by the service (containers only when non-empty; unknown fields kept). */
export const dashboardSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  tiles: z.array(tileResponseSchema),
  tags: z.array(z.string()).optional(),
  filters: z.array(z.looseObject({ id: z.string().optional(), name: z.string().optional() })).optional(),
  savedQuery: z.string().nullable().optional(),
  savedQueryLanguage: z.string().nullable().optional(),
  savedFilterValues: z.array(z.looseObject({})).optional(),
  containers: z
    .array(
      z.looseObject({
        id: z.string(),
        title: z.string().optional(),
        tabs: z.array(z.looseObject({ id: z.string(), title: z.string().optional() })).optional(),
      }),
    )
    .optional(),
});

export type Dashboard = z.infer<typeof dashboardSchema>;

/** Result of the validate operation (never persisted). */
export const dashboardValidationSchema = z.looseObject({
  valid: z.boolean(),
  errors: z.array(z.looseObject({ path: z.string(), message: z.string() })),
  normalized: z.looseObject({}).nullable().optional(),
});

export type DashboardValidation = z.infer<typeof dashboardValidationSchema>;

/** Fields the service sets; they are not part of an update body. */
export const DASHBOARD_READ_ONLY_FIELDS = ['id', 'createdAt', 'updatedAt'] as const;

/**
 * Turns a dashboard response into the body of an update: read-only fields are removed,
 * tile IDs and everything else are kept (so alerts on tiles survive the update). The result
 * must still be checked with `dashboardUpdateSchema`.
 */
export function dashboardToUpdateBody(dashboard: Dashboard): Record<string, unknown> {
  const body: Record<string, unknown> = { ...dashboard };
  for (const field of DASHBOARD_READ_ONLY_FIELDS) delete body[field];
  return body;
}

/** True when alerts can be attached to the tile. */
export function isAlertableTile(tile: Pick<TileResponse, 'config'>): boolean {
  return isAlertableDisplayType(tile.config?.displayType);
}
