/** Tiles and options of the golden SQL tests (shared by the test and by the golden printer). */
import type { RenderOptions, TileLike } from '../../../src/render';
import { METRIC_SOURCE, SOURCE, T0 } from './golden';

export const HOUR = 3600_000;
export const RANGE = { from: T0, to: T0 + HOUR };
const base: RenderOptions = { range: RANGE, source: SOURCE };

export interface Case {
  name: string;
  tile: TileLike;
  opts: RenderOptions;
}

const line = (select: unknown[], extra: Record<string, unknown> = {}): TileLike => ({
  name: 'line',
  config: { displayType: 'line', sourceId: 'src-logs', select, ...extra },
});
const number = (select: unknown[]): TileLike => ({
  name: 'number',
  config: { displayType: 'number', sourceId: 'src-logs', select },
});
const dur = "LogAttributes['duration']";

export const CASES: Case[] = [
  { name: 'line count per 5 minutes', tile: line([{ aggFn: 'count' }]), opts: { ...base, granularity: '5 minute' } },
  { name: 'line count with automatic granularity (1 h → 1 minute)', tile: line([{ aggFn: 'count' }]), opts: base },
  {
    name: 'stacked bar count of errors by service',
    tile: {
      config: {
        displayType: 'stacked_bar',
        sourceId: 'src-logs',
        select: [{ aggFn: 'count', where: 'SeverityText:error', whereLanguage: 'lucene' }],
        groupBy: 'ServiceName',
      },
    },
    opts: { ...base, granularity: '15 minute' },
  },
  {
    name: 'line sum by user, top 3 series',
    tile: line([{ aggFn: 'sum', valueExpression: dur }], { groupBy: "LogAttributes['user']", seriesLimit: 3 }),
    opts: { ...base, granularity: '30 minute' },
  },
  { name: 'number sum', tile: number([{ aggFn: 'sum', valueExpression: dur }]), opts: base },
  { name: 'number avg', tile: number([{ aggFn: 'avg', valueExpression: dur }]), opts: base },
  { name: 'number min', tile: number([{ aggFn: 'min', valueExpression: dur }]), opts: base },
  { name: 'number max', tile: number([{ aggFn: 'max', valueExpression: dur }]), opts: base },
  {
    name: 'number count_distinct',
    tile: number([{ aggFn: 'count_distinct', valueExpression: "LogAttributes['user']" }]),
    opts: base,
  },
  { name: 'number quantile 0.5', tile: number([{ aggFn: 'quantile', level: 0.5, valueExpression: dur }]), opts: base },
  { name: 'number quantile 0.9', tile: number([{ aggFn: 'quantile', level: 0.9, valueExpression: dur }]), opts: base },
  {
    name: 'number quantile 0.95',
    tile: number([{ aggFn: 'quantile', level: 0.95, valueExpression: dur }]),
    opts: base,
  },
  {
    name: 'number quantile 0.99',
    tile: number([{ aggFn: 'quantile', level: 0.99, valueExpression: dur }]),
    opts: base,
  },
  { name: 'number last_value', tile: number([{ aggFn: 'last_value', valueExpression: dur }]), opts: base },
  { name: 'number any', tile: number([{ aggFn: 'any', valueExpression: 'ServiceName' }]), opts: base },
  {
    name: 'number none (raw aggregate expression)',
    tile: number([{ aggFn: 'none', valueExpression: 'count() * 2' }]),
    opts: base,
  },
  {
    name: 'number count with SQL series filter',
    tile: number([{ aggFn: 'count', where: "SeverityText = 'error'", whereLanguage: 'sql' }]),
    opts: base,
  },
  {
    name: 'number avg with Lucene series filter on a map attribute',
    tile: number([{ aggFn: 'avg', valueExpression: dur, where: 'LogAttributes.status:500', whereLanguage: 'lucene' }]),
    opts: base,
  },
  {
    name: 'number count of a bare Lucene term (implicit column)',
    tile: number([{ aggFn: 'count', where: 'timeout', whereLanguage: 'lucene' }]),
    opts: base,
  },
  {
    name: 'number count of a Lucene range',
    tile: number([{ aggFn: 'count', where: 'SeverityNumber:[10 TO 20]', whereLanguage: 'lucene' }]),
    opts: {
      ...base,
      columns: {
        SeverityNumber: 'UInt8',
        SeverityText: 'LowCardinality(String)',
        Body: 'String',
        LogAttributes: 'Map(LowCardinality(String), String)',
      },
    },
  },
  {
    name: 'table count and avg by service',
    tile: {
      config: {
        displayType: 'table',
        sourceId: 'src-logs',
        select: [
          { aggFn: 'count', alias: 'n' },
          { aggFn: 'avg', valueExpression: dur, alias: 'avg_duration' },
        ],
        groupBy: 'ServiceName',
        orderBy: 'ServiceName',
      },
    },
    opts: base,
  },
  {
    name: 'table ratio (asRatio)',
    tile: {
      config: {
        displayType: 'table',
        sourceId: 'src-logs',
        asRatio: true,
        select: [{ aggFn: 'count', where: "SeverityText = 'error'", whereLanguage: 'sql' }, { aggFn: 'count' }],
      },
    },
    opts: base,
  },
  {
    name: 'pie count by status',
    tile: {
      config: {
        displayType: 'pie',
        sourceId: 'src-logs',
        select: [{ aggFn: 'count' }],
        groupBy: "LogAttributes['status']",
      },
    },
    opts: base,
  },
  {
    name: 'search api lines',
    tile: {
      config: {
        displayType: 'search',
        sourceId: 'src-logs',
        select: 'TimestampTime, ServiceName, Body',
        where: 'ServiceName:api',
        whereLanguage: 'lucene',
      },
    },
    opts: { ...base, searchLimit: 5 },
  },
  {
    name: 'raw SQL line with time macros and $__filters',
    tile: {
      config: {
        displayType: 'line',
        configType: 'sql',
        connectionId: 'c1',
        sourceId: 'src-logs',
        sqlTemplate:
          'SELECT $__timeInterval(TimestampTime) AS ts, count() AS c FROM $__sourceTable WHERE $__timeFilter(TimestampTime) AND $__filters GROUP BY ts ORDER BY ts',
      },
    },
    opts: { ...base, granularity: '10 minute' },
  },
  {
    name: 'raw SQL number with query parameters',
    tile: {
      config: {
        displayType: 'number',
        configType: 'sql',
        connectionId: 'c1',
        sqlTemplate: `SELECT count() AS c FROM ${'`preview_golden`.`otel_logs`'} WHERE TimestampTime >= fromUnixTimestamp64Milli({startDateMilliseconds:Int64}) AND TimestampTime < fromUnixTimestamp64Milli({endDateMilliseconds:Int64})`,
      },
    },
    opts: { range: { from: T0, to: T0 + 600_000 } },
  },
  {
    name: 'dashboard filter and saved search on a line tile',
    tile: line([{ aggFn: 'count' }]),
    opts: {
      ...base,
      granularity: '1 hour',
      dashboard: {
        filters: [{ name: 'Service', expression: 'ServiceName', appliesToSourceIds: ['src-logs'] }],
        savedFilterValues: [{ condition: "ServiceName IN ('api')" }],
        savedQuery: 'SeverityText:error',
        savedQueryLanguage: 'lucene',
      },
    },
  },
  {
    name: "gauge metric line: average of the hosts' last values per 5 minutes",
    tile: {
      config: {
        displayType: 'line',
        sourceId: 'src-metrics',
        select: [{ aggFn: 'avg', metricName: 'cpu', metricType: 'gauge', valueExpression: 'Value' }],
      },
    },
    opts: { range: RANGE, source: METRIC_SOURCE, granularity: '5 minute' },
  },
  {
    name: 'gauge metric line grouped by host: max per minute',
    tile: {
      config: {
        displayType: 'line',
        sourceId: 'src-metrics',
        select: [{ aggFn: 'max', metricName: 'cpu', metricType: 'gauge', valueExpression: 'Value' }],
        groupBy: "Attributes['host']",
      },
    },
    opts: { range: RANGE, source: METRIC_SOURCE, granularity: '1 minute' },
  },
  {
    name: 'sum metric line: counter increase per 5 minutes (delta period)',
    tile: {
      config: {
        displayType: 'line',
        sourceId: 'src-metrics',
        select: [
          { aggFn: 'sum', metricName: 'requests', metricType: 'sum', valueExpression: 'Value', periodAggFn: 'delta' },
        ],
      },
    },
    opts: { range: RANGE, source: METRIC_SOURCE, granularity: '5 minute' },
  },
  {
    name: 'dashboard filter scoped to another source is not applied',
    tile: number([{ aggFn: 'count' }]),
    opts: {
      ...base,
      dashboard: {
        filters: [{ name: 'Service', expression: 'ServiceName', appliesToSourceIds: ['src-traces'] }],
        savedFilterValues: [{ condition: "ServiceName IN ('api')" }],
      },
    },
  },
];
