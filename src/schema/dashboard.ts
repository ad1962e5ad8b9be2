/**
 * Dashboards: create and update bodies, tiles and their configs, and the responses.
 *
 * Request schemas follow the live server's validators (24-column grid, tile/tag/container
 * limits, container and tab references, the savedQuery rule, filter modes and variables,
 * formulas). Tile configs are chosen by `displayType` and, for raw SQL, `configType: "sql"`.
 * Known fields are checked; keys this version does not know (newer server fields) are kept
 * and sent unchanged at every depth (dashboard, tile, config, filter, container, tab).
 * Responses keep every field they carry.
 */
import * as z from 'zod';
import { AGG_FNS } from './aggregation';
import { nonEmpty, nonEmptyOrOmit, openEnum, requiredOr, resourceIdSchema } from './ids';
import { lazySchema } from './lazySchema';

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
  formulaExpressionLength: 1024,
  savedFilterConditionLength: 10000,
  variableNameLength: 64,
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

const queryLanguage = lazySchema(() => z.enum(QUERY_LANGUAGES, { error: requiredOr('must be "sql" or "lucene"') }));

export const numberFormatSchema = lazySchema(() =>
  z
    .looseObject({
      output: z
        .enum(NUMBER_FORMAT_OUTPUTS, { error: requiredOr(`must be one of ${NUMBER_FORMAT_OUTPUTS.join(', ')}`) })
        .describe('Kind of number shown (required).'),
      mantissa: z
        .number()
        .int({ error: 'must be a whole number' })
        .optional()
        .describe('Digits after the decimal point.'),
      thousandSeparated: z.boolean().optional(),
      average: z.boolean().optional(),
      decimalBytes: z.boolean().optional(),
      factor: z.number().optional().describe('Multiply values by this factor before display.'),
      currencySymbol: z.string().optional(),
      numericUnit: z.string().optional().describe('Unit of the raw value, e.g. "bytes_iec".'),
      unit: z.string().optional().describe('Free-text unit suffix, e.g. "ms".'),
    })
    .describe('How numbers are formatted.'),
);

export const selectItemSchema = lazySchema(() =>
  z
    .looseObject({
      aggFn: z.enum(AGG_FNS, { error: `must be one of ${AGG_FNS.join(', ')}` }).describe('Aggregate function.'),
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
      // As the service: "count" takes no value expression, every other function needs one.
      if (item.aggFn === 'count' && item.valueExpression) {
        ctx.addIssue({
          code: 'custom',
          path: ['valueExpression'],
          message: 'must be omitted (or empty) with aggFn "count"',
        });
      } else if (item.aggFn !== undefined && item.aggFn !== 'count' && !item.valueExpression) {
        ctx.addIssue({ code: 'custom', path: ['valueExpression'], message: `is required with aggFn "${item.aggFn}"` });
      }
    })
    .describe('One series of the chart.'),
);

const selectArray = lazySchema(() =>
  z
    .array(selectItemSchema)
    .min(1, { error: 'must hold at least one select item' })
    .max(L.selectItems, { error: `must hold at most ${L.selectItems} select items` })
    .describe('Series of the chart.'),
);

const sourceId = lazySchema(() => resourceIdSchema.describe('ID of the source (see the source list).'));
const chartColor = lazySchema(() => z.enum(CHART_COLORS, { error: `must be one of ${CHART_COLORS.join(', ')}` }));

/** Builder configs carry no configType; a value other than "sql" is an error. */
function noConfigType(displayType: string) {
  return z.undefined({ error: `must be omitted: "${displayType}" tiles have no raw SQL variant` }).optional();
}

export const formulaSchema = lazySchema(() =>
  z
    .looseObject({
      expression: z
        .string({ error: requiredOr('must be a string') })
        .max(L.formulaExpressionLength, { error: `must be at most ${L.formulaExpressionLength} characters` })
        .describe(
          'Arithmetic over the select items by letter: A = select[0], B = select[1], … e.g. "A / (A + B) * 100".',
        ),
      alias: z.string().optional().describe('Series name; the expression text when omitted.'),
      numberFormat: numberFormatSchema.optional(),
    })
    .describe('A derived series computed from the select items.'),
);

const formulas = lazySchema(() =>
  z
    .array(formulaSchema)
    .max(L.formulas, { error: `must hold at most ${L.formulas} formulas` })
    .optional()
    .describe('Derived series computed from the select items (metric, log and trace sources). Not with asRatio.'),
);

/**
 * Problems of a formula expression, as the service's parser reports them: only `+ - * /`,
 * parentheses, numbers and single upper-case letters that name an existing select item.
 */
export function formulaExpressionProblems(expression: string, selectCount: number): string[] {
  const text = expression.trim();
  if (text === '') return ['must not be empty'];
  const problems: string[] = [];
  const bad = /[^A-Za-z0-9.+\-*/()\s]/.exec(text);
  if (bad) problems.push(`unexpected character "${bad[0]}"`);
  const words = text.match(/[A-Za-z]+/g) ?? [];
  for (const word of words) {
    if (!/^[A-Z]$/.test(word)) {
      problems.push(
        `unexpected "${word}": series references are single upper-case letters (A, B, C, …) and functions are not supported`,
      );
      continue;
    }
    const index = word.charCodeAt(0) - 65;
    if (index >= selectCount) {
      problems.push(
        `"${word}" names select item ${index + 1}, but there ${selectCount === 1 ? 'is 1 select item' : `are ${selectCount} select items`}`,
      );
    }
  }
  if (words.length === 0 && problems.length === 0) problems.push('must reference at least one select item (A, B, …)');
  let depth = 0;
  for (const ch of text) {
    if (ch === '(') depth++;
    else if (ch === ')' && --depth < 0) break;
  }
  if (depth !== 0) problems.push('has unbalanced parentheses');
  return [...new Set(problems)];
}
const seriesLimit = lazySchema(() =>
  z.number().int().min(0).optional().describe('Series cap: omitted = default, 0 = unlimited.'),
);
const onClickTarget = lazySchema(() =>
  z.discriminatedUnion(
    'mode',
    [
      z.looseObject({ mode: z.literal('id'), id: resourceIdSchema.describe('ID of the saved search or dashboard.') }),
      z.looseObject({
        mode: z.literal('template'),
        template: nonEmpty(L.expressionLength).describe('Template that renders the name of the target.'),
      }),
    ],
    { error: 'must be {"mode":"id","id":…} or {"mode":"template","template":…}' },
  ),
);
const onClickFilters = lazySchema(() =>
  z
    .array(
      z.looseObject({
        kind: z.literal('expressionTemplate'),
        expression: nonEmpty(L.expressionLength),
        template: nonEmpty(L.expressionLength),
      }),
    )
    .max(50, { error: 'must hold at most 50 filters' })
    .optional(),
);
const onClickLink = (type: 'search' | 'dashboard') =>
  z.looseObject({
    type: z.literal(type),
    target: onClickTarget,
    whereTemplate: z.string().max(L.expressionLength).optional(),
    whereLanguage: queryLanguage.optional(),
    filters: onClickFilters,
  });
const onClick = lazySchema(() =>
  z
    .discriminatedUnion(
      'type',
      [
        onClickLink('search'),
        onClickLink('dashboard'),
        z.looseObject({
          type: z.literal('external'),
          urlTemplate: nonEmpty(L.expressionLength).describe('URL template.'),
        }),
      ],
      { error: 'must have "type" "search", "dashboard" or "external"' },
    )
    .optional()
    .describe('Link-out when a table row is clicked.'),
);

const colorRuleBase = lazySchema(() => ({
  color: z.enum(CHART_COLORS, { error: requiredOr(`must be one of ${CHART_COLORS.join(', ')}`) }),
  label: z.string().max(40, { error: 'must be at most 40 characters' }).optional(),
}));
const finiteNumber = lazySchema(() => z.number().refine(Number.isFinite, { error: 'must be a finite number' }));
const colorRules = lazySchema(() =>
  z
    .array(
      z.discriminatedUnion(
        'operator',
        [
          z.looseObject({ operator: z.enum(['gt', 'gte', 'lt', 'lte']), value: finiteNumber, ...colorRuleBase }),
          z.looseObject({
            operator: z.literal('between'),
            value: z.array(finiteNumber).length(2, { error: 'must be [min, max]' }),
            ...colorRuleBase,
          }),
          z.looseObject({
            operator: z.enum(['eq', 'neq']),
            value: z.union([finiteNumber, z.string().max(200)]),
            ...colorRuleBase,
          }),
        ],
        { error: 'operator must be one of gt, gte, lt, lte, between, eq, neq' },
      ),
    )
    .max(L.colorRules, { error: `must hold at most ${L.colorRules} rules` })
    .optional()
    .describe('Conditional colors (last match wins).'),
);

function builderChecks(
  config: {
    displayType: string;
    asRatio?: boolean | undefined;
    select: unknown[];
    formulas?: { expression: string }[] | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  if (config.asRatio === true && config.select.length !== 2) {
    ctx.addIssue({ code: 'custom', path: ['asRatio'], message: 'needs exactly two select items' });
  }
  const list = config.formulas ?? [];
  if (list.length > 0) {
    list.forEach((formula, index) => {
      const problems = formulaExpressionProblems(formula.expression, config.select.length);
      if (problems.length > 0) {
        ctx.addIssue({ code: 'custom', path: ['formulas', index, 'expression'], message: problems.join('; ') });
      }
    });
    if (config.asRatio === true) {
      ctx.addIssue({
        code: 'custom',
        path: ['formulas'],
        message: 'cannot be combined with asRatio; write the ratio as a formula (e.g. "A / B")',
      });
    }
    if (config.displayType === 'number' && list.length > 1) {
      ctx.addIssue({ code: 'custom', path: ['formulas'], message: 'a number tile has at most one formula' });
    }
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
const timeSeriesFields = lazySchema(() => ({
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
}));

const lineBuilder = lazySchema(() =>
  z
    .looseObject({
      displayType: z.literal('line'),
      configType: noConfigType('line'),
      ...timeSeriesFields,
      fitYAxisToData: z.boolean().optional(),
      compareToPreviousPeriod: z.boolean().optional(),
    })
    .superRefine(builderChecks),
);

const stackedBarBuilder = lazySchema(() =>
  z
    .looseObject({
      displayType: z.literal('stacked_bar'),
      configType: noConfigType('stacked_bar'),
      ...timeSeriesFields,
    })
    .superRefine(builderChecks),
);

const tableBuilder = lazySchema(() =>
  z
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
    .superRefine(builderChecks),
);

const numberBuilder = lazySchema(() =>
  z
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
    .superRefine(builderChecks),
);

function categoricalBuilder<const D extends 'pie' | 'bar'>(displayType: D) {
  return z
    .looseObject({
      displayType: z.literal(displayType),
      configType: noConfigType(displayType),
      sourceId,
      select: z
        .array(selectItemSchema)
        .length(1, { error: 'must hold exactly one select item' })
        .describe('The one series of the chart.'),
      groupBy: expression('Category expression.'),
      orderBy: expression('ORDER BY expression.'),
      numberFormat: numberFormatSchema.optional(),
      limit: z.number().int().min(0).optional().describe('Number of categories: omitted = default, 0 = all.'),
    })
    .superRefine(builderChecks);
}

const heatmapBuilder = lazySchema(() =>
  z.looseObject({
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
      .length(1, { error: 'must hold exactly one select item' })
      .describe('The heatmap series (exactly one).'),
    where: expression('Filter.'),
    whereLanguage: queryLanguage.optional(),
    numberFormat: numberFormatSchema.optional(),
  }),
);

const searchBuilder = lazySchema(() =>
  z.looseObject({
    displayType: z.literal('search'),
    configType: noConfigType('search'),
    sourceId,
    select: z.string().max(L.expressionLength).describe('Columns to show, e.g. "Timestamp, ServiceName, Body".'),
    where: expression('Search filter.'),
    whereLanguage: queryLanguage.optional().describe('Language of "where": "sql" or "lucene".'),
  }),
);

const eventPatternsBuilder = lazySchema(() =>
  z.looseObject({
    displayType: z.literal('event_patterns'),
    configType: noConfigType('event_patterns'),
    sourceId,
    select: expression('Expression to mine patterns from, e.g. "Body".'),
    where: expression('Filter.'),
    whereLanguage: queryLanguage.optional(),
  }),
);

const markdownConfig = lazySchema(() =>
  z.looseObject({
    displayType: z.literal('markdown'),
    configType: noConfigType('markdown'),
    markdown: z
      .string()
      .max(L.markdownLength, { error: `must be at most ${L.markdownLength} characters` })
      .optional()
      .describe('Markdown text of the tile.'),
  }),
);

const rawBase = lazySchema(() => ({
  configType: z.literal('sql').describe('Raw SQL tile.'),
  connectionId: resourceIdSchema.describe('ID of the connection the SQL runs on.'),
  sqlTemplate: z
    .string({ error: requiredOr('must be a string') })
    .max(L.sqlTemplateLength, { error: `must be at most ${L.sqlTemplateLength} characters` })
    .describe('SQL query template.'),
  sourceId: resourceIdSchema.optional().describe('Optional source, for filters and links.'),
  numberFormat: numberFormatSchema.optional(),
}));

const lineRaw = lazySchema(() =>
  z.looseObject({
    ...rawBase,
    displayType: z.literal('line'),
    compareToPreviousPeriod: z.boolean().optional(),
    fillNulls: z.boolean().optional(),
    alignDateRangeToGranularity: z.boolean().optional(),
    fitYAxisToData: z.boolean().optional(),
    seriesLimit,
  }),
);
const stackedBarRaw = lazySchema(() =>
  z.looseObject({
    ...rawBase,
    displayType: z.literal('stacked_bar'),
    fillNulls: z.boolean().optional(),
    alignDateRangeToGranularity: z.boolean().optional(),
    seriesLimit,
  }),
);
const tableRaw = lazySchema(() => z.looseObject({ ...rawBase, displayType: z.literal('table'), onClick }));
const numberRaw = lazySchema(() =>
  z.looseObject({
    ...rawBase,
    displayType: z.literal('number'),
    color: chartColor.optional(),
    colorRules,
  }),
);
const pieRaw = lazySchema(() => z.looseObject({ ...rawBase, displayType: z.literal('pie') }));
const barRaw = lazySchema(() => z.looseObject({ ...rawBase, displayType: z.literal('bar') }));

const CONFIG_TYPE_ERROR = 'must be "sql" (raw SQL) or omitted (builder)';

/** A tile's chart configuration, chosen by displayType (and configType "sql" for raw SQL). */
export const tileConfigSchema = lazySchema(() =>
  z
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
    .describe('Chart configuration of the tile, chosen by "displayType" (add "configType": "sql" for raw SQL).'),
);

export type TileConfig = z.infer<typeof tileConfigSchema>;

// ---------------------------------------------------------------------------------------------
// Tiles, filters, containers
// ---------------------------------------------------------------------------------------------

// The service takes any number on the grid (the editor writes whole numbers).
const gridInt = (description: string) => z.number({ error: requiredOr('must be a number') }).describe(description);

/** A tile in a create or update body. Unknown keys are kept. */
export const tileSchema = lazySchema(() =>
  z
    .looseObject({
      id: z
        .string()
        .max(L.tileIdLength, { error: `must be at most ${L.tileIdLength} characters` })
        .optional()
        .describe(
          'Tile ID (at most 36 characters). Keep it on update: a tile whose ID changes (or is empty) gets a new one and loses its alerts.',
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
    .describe('A dashboard tile on the 24-column grid.'),
);

export type Tile = z.infer<typeof tileSchema>;

/** Pattern of a dashboard variable name: a letter, then letters, digits or "_" (at most 64 in all). */
export const VARIABLE_NAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_]*$/;

const filterShape = lazySchema(() => ({
  type: z
    .literal('QUERY_EXPRESSION', { error: requiredOr('must be "QUERY_EXPRESSION"') })
    .describe('Filter kind: "QUERY_EXPRESSION".'),
  name: nonEmpty().describe('Label of the filter.'),
  expression: nonEmpty().describe(
    'SQL expression whose values the filter offers and applies to tiles, e.g. "ServiceName".',
  ),
  sourceId: resourceIdSchema.describe('Source the values come from.'),
  sourceMetricType: z.enum(METRIC_TYPES).optional().describe('Metric type, for metric sources.'),
  where: z.string().optional().describe('Condition that limits the offered values.'),
  whereLanguage: queryLanguage.optional(),
  appliesToSourceIds: z
    .array(nonEmpty())
    .optional()
    .describe('Sources the filter applies to (all when omitted or empty). Not with isBroadcastEnabled false.'),
  isBroadcastEnabled: z
    .boolean()
    .optional()
    .describe('Apply the selected value as a condition on matching tiles (omitted = true).'),
  isVariableEnabled: z
    .boolean()
    .optional()
    .describe('Expose the selected value to tile queries as $variableName (omitted = false).'),
  variableName: z
    .string()
    .max(L.variableNameLength, { error: `must be at most ${L.variableNameLength} characters` })
    .regex(VARIABLE_NAME_PATTERN, { error: 'must start with a letter and hold only letters, digits and "_"' })
    .optional()
    .describe(
      'Name tiles use as $name. Only with isVariableEnabled true; defaults to the filter name with spaces as "_"; unique in the dashboard.',
    ),
}));

/** A dashboard filter in a create body (no id). Unknown keys are kept. */
export const filterInputSchema = lazySchema(() => z.looseObject(filterShape).describe('Dashboard filter.'));
/** A dashboard filter in an update body or a response (with id). Unknown keys are kept. */
export const filterSchema = lazySchema(() =>
  z
    .looseObject({
      ...filterShape,
      id: z.string({ error: requiredOr('must be a string') }).describe('ID of the filter (keep it).'),
    })
    .describe('Dashboard filter.'),
);

/** The default variable name of a filter, derived from its name as the service does. */
export function deriveVariableName(filterName: string): string {
  const sanitized = filterName
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^A-Za-z0-9_]+/g, '');
  return /^[0-9_]/.test(sanitized) ? `v${sanitized}` : sanitized;
}

/** The variable name a filter is referenced by (its own, else the derived one), or undefined. */
export function filterVariableName(filter: { name?: unknown; variableName?: unknown }): string | undefined {
  const own = typeof filter.variableName === 'string' ? filter.variableName.trim() : '';
  return own || deriveVariableName(typeof filter.name === 'string' ? filter.name : '') || undefined;
}

export const sqlSavedFilterValueSchema = lazySchema(() =>
  z
    .looseObject({
      type: z.literal('sql').optional().describe('"sql" (the default).'),
      condition: z
        .string({ error: requiredOr('must be a string') })
        .max(L.savedFilterConditionLength, { error: `must be at most ${L.savedFilterConditionLength} characters` })
        .describe('SQL condition, e.g. "ServiceName IN (\'api\')".'),
    })
    .describe('A saved SQL filter condition.'),
);

export const variableSavedFilterValueSchema = lazySchema(() =>
  z
    .looseObject({
      type: z.literal('variable').describe('"variable".'),
      name: nonEmpty().describe('variableName of a variable-enabled filter of this dashboard.'),
      values: z.array(z.string()).describe('Selected values.'),
    })
    .describe('A saved selection of a dashboard variable.'),
);

/** A saved filter selection: an SQL condition, or the values of a dashboard variable. */
export const savedFilterValueSchema = lazySchema(() =>
  z
    .discriminatedUnion('type', [variableSavedFilterValueSchema, sqlSavedFilterValueSchema], {
      error: 'must be an SQL condition {"condition": …} or {"type": "variable", "name": …, "values": […]}',
    })
    .describe('Saved filter selection: {"condition": …} (SQL) or {"type":"variable","name":…,"values":[…]}.'),
);

const containerTabSchema = lazySchema(() =>
  z.looseObject({
    id: nonEmpty(L.containerIdLength).describe('Tab ID (unique in the container).'),
    title: nonEmpty(L.containerIdLength).describe('Tab title.'),
  }),
);

export const containerSchema = lazySchema(() =>
  z
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
    .describe('A container (section) grouping tiles.'),
);

// ---------------------------------------------------------------------------------------------
// Create and update bodies
// ---------------------------------------------------------------------------------------------

function dashboardShape<F extends z.ZodType>(filter: F) {
  return {
    name: z
      .string({ error: requiredOr('must be a string') })
      .max(L.nameLength, { error: `must be at most ${L.nameLength} characters` })
      .describe('Dashboard name (at most 1024 characters).'),
    tiles: z
      .array(tileSchema)
      .max(L.tiles, { error: `must hold at most ${L.tiles} tiles` })
      .describe('Tiles (at most 500, unique IDs).'),
    tags: z
      .array(z.string().max(L.tagLength, { error: `must be at most ${L.tagLength} characters` }))
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

interface FilterShape {
  name: string;
  id?: unknown;
  appliesToSourceIds?: string[] | undefined;
  isBroadcastEnabled?: boolean | undefined;
  isVariableEnabled?: boolean | undefined;
  variableName?: string | undefined;
}

interface DashboardBodyShape {
  tiles: Tile[];
  filters?: FilterShape[] | undefined;
  savedQuery?: string | null | undefined;
  savedQueryLanguage?: string | null | undefined;
  savedFilterValues?: z.infer<typeof savedFilterValueSchema>[] | undefined;
  containers?: z.infer<typeof containerSchema>[] | undefined;
}

/** The filter rules of the service: modes, field gating and unique variable names. */
function checkFilters(
  filters: FilterShape[],
  issue: (path: (string | number)[], message: string) => void,
): Set<string> {
  const variables = new Set<string>();
  filters.forEach((filter, index) => {
    const broadcast = filter.isBroadcastEnabled !== false;
    const variable = filter.isVariableEnabled === true;
    if (!broadcast && !variable) {
      issue(
        ['filters', index, 'isBroadcastEnabled'],
        'a filter must broadcast its value (isBroadcastEnabled), be a variable (isVariableEnabled), or both',
      );
    }
    if (filter.variableName !== undefined && !variable) {
      issue(
        ['filters', index, 'variableName'],
        'is only allowed with isVariableEnabled true (set it, or remove variableName)',
      );
    }
    if (!broadcast && (filter.appliesToSourceIds?.length ?? 0) > 0) {
      issue(
        ['filters', index, 'appliesToSourceIds'],
        'is only allowed when the filter broadcasts (isBroadcastEnabled true or omitted)',
      );
    }
    if (!variable) return;
    const name = filterVariableName(filter);
    if (name === undefined) {
      issue(
        ['filters', index, 'variableName'],
        `is required: no variable name can be derived from the filter name "${filter.name}"`,
      );
    } else if (variables.has(name)) {
      issue(
        ['filters', index, 'variableName'],
        `variable name "${name}" is already used by another filter of this dashboard`,
      );
    } else {
      variables.add(name);
    }
  });
  return variables;
}

function checkDashboard(
  body: DashboardBodyShape,
  ctx: z.RefinementCtx,
  checkRefsWithoutContainers: boolean,
  isCreate: boolean,
): void {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });

  if (body.filters !== undefined) {
    if (isCreate) {
      body.filters.forEach((filter, index) => {
        if (filter.id !== undefined) {
          issue(['filters', index, 'id'], 'is not allowed when creating a dashboard (the service assigns filter IDs)');
        }
      });
    }
    const variables = checkFilters(body.filters, issue);
    body.savedFilterValues?.forEach((value, index) => {
      if (value.type === 'variable' && !variables.has(value.name)) {
        issue(
          ['savedFilterValues', index, 'name'],
          `no variable-enabled filter of this dashboard is named "${value.name}"`,
        );
      }
    });
  }

  const tileIds = new Map<string, number>();
  body.tiles.forEach((tile, index) => {
    if (!tile.id) return;
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
export const dashboardWriteSchema = lazySchema(() =>
  z
    .looseObject(dashboardShape(filterInputSchema))
    .superRefine((body, ctx) => checkDashboard(body, ctx, true, true))
    .describe('Dashboard create body.'),
);

/**
 * Body of a dashboard update (PUT). name and tiles are always replaced; other omitted fields
 * are kept by the service, so container references are checked only when containers are sent.
 */
export const dashboardUpdateSchema = lazySchema(() =>
  z
    .looseObject(dashboardShape(filterSchema))
    .superRefine((body, ctx) => checkDashboard(body, ctx, false, false))
    .describe('Dashboard update body.'),
);

export type DashboardWrite = z.infer<typeof dashboardWriteSchema>;
export type DashboardUpdate = z.infer<typeof dashboardUpdateSchema>;

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

export const tileResponseSchema = lazySchema(() =>
  z.looseObject({
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
  }),
);

export type TileResponse = z.infer<typeof tileResponseSchema>;

/** A dashboard as returned by the service (containers only when non-empty; unknown fields kept). */
export const dashboardSchema = lazySchema(() =>
  z.looseObject({
    id: z.string().min(1),
    // The spec lists no required field; a dashboard without name or tiles cannot be shown or
    // written back, so it is reported as an unreadable list item instead.
    name: z.string(),
    tiles: z.array(tileResponseSchema),
    tags: z.array(z.string()).optional(),
    filters: z.array(z.looseObject({ id: z.string().optional(), name: z.string().optional() })).optional(),
    savedQuery: z.string().nullable().optional(),
    savedQueryLanguage: z.string().nullable().optional(),
    savedFilterValues: z.array(z.looseObject({ type: z.string().optional() })).optional(),
    containers: z
      .array(
        z.looseObject({
          id: z.string(),
          title: z.string().optional(),
          tabs: z.array(z.looseObject({ id: z.string(), title: z.string().optional() })).optional(),
        }),
      )
      .optional(),
  }),
);

export type Dashboard = z.infer<typeof dashboardSchema>;

/** Result of the validate operation (never persisted). */
export const dashboardValidationSchema = lazySchema(() =>
  z.looseObject({
    valid: z.boolean(),
    errors: z.array(z.looseObject({ path: z.string(), message: z.string() })),
    normalized: z.looseObject({}).nullable().optional(),
  }),
);

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
