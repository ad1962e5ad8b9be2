/**
 * Series-route answers → what the panels draw (pure: no `vscode`, no network). The chart series rows
 * (`{ts_bucket, group, "series_<i>.data"}`) and the search rows (objects keyed by column) are laid out as the
 * column-and-row results the SQL route reads, then drawn by the same code (`../data`), so both routes draw alike.
 */
import { numberOf, tileDataOf, type ResultLike } from '../data';
import type { NumberFormat, TileData } from '../protocol';
import type { RenderResult } from '../../render';
import type { SeriesPlan } from './plan';

type SeriesPlanOk = Extract<SeriesPlan, { ok: true; route: 'series' }>;
type SearchPlanOk = Extract<SeriesPlan, { ok: true; route: 'search' }>;
type Rendered = Extract<RenderResult, { ok: true }>;

/** One answer row of the chart series API. */
export interface SeriesRow {
  ts_bucket: number;
  group?: unknown[] | undefined;
  [key: string]: unknown;
}

/** An answer the preview cannot read as the request asked (shown as the tile's error). */
export class SeriesAnswerError extends Error {}

const cell = (v: unknown): string =>
  v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

function groupOf(row: SeriesRow, count: number): string[] {
  const g = Array.isArray(row.group) ? row.group : [];
  return Array.from({ length: count }, (_, k) => cell(g[k]));
}

/**
 * The rows of one bucket per group (number, table and category tiles): each group at most once, else the server
 * did not answer in one bucket and the values cannot be read as totals over the range.
 */
function oneBucketPerGroup(plan: SeriesPlanOk, rows: readonly SeriesRow[]): SeriesRow[] {
  const seen = new Map<string, SeriesRow>();
  for (const row of rows) {
    const key = JSON.stringify(groupOf(row, plan.groupBy.length));
    if (seen.has(key)) {
      throw new SeriesAnswerError(
        'the server answered the range in more than one time bucket, so no single value over the range can be shown',
      );
    }
    seen.set(key, row);
  }
  return [...seen.values()];
}

const valueOf = (row: SeriesRow, i: number): number | null => numberOf(row[`series_${i}.data`]);

/** The drawing of a chart series answer. */
export function seriesTileData(
  plan: SeriesPlanOk,
  rows: readonly SeriesRow[],
  opts: {
    displayType?: string | undefined;
    range: { from: number; to: number };
    numberFormat?: NumberFormat | undefined;
  },
): TileData {
  const g = plan.groupBy.length;
  const n = plan.labels.length;
  const format = opts.numberFormat ? { numberFormat: opts.numberFormat } : {};
  if (plan.shape === 'timeseries') {
    const result: ResultLike = {
      columns: [
        { name: 'ts_bucket', type: 'DateTime64(3)' },
        ...plan.groupBy.map((name) => ({ name, type: 'String' })),
        ...plan.labels.map((name) => ({ name, type: 'Float64' })),
      ],
      rows: rows.map((r) => [r.ts_bucket, ...groupOf(r, g), ...plan.labels.map((_, i) => valueOf(r, i))]),
    };
    const rendered: Rendered = {
      ok: true,
      sql: '',
      shape: 'timeseries',
      columns: {
        time: { index: 0, name: 'ts_bucket' },
        groups: plan.groupBy.map((label, k) => ({ index: 1 + k, label })),
        values: plan.labels.map((label, i) => ({ index: 1 + g + i, label })),
      },
      granularity: { seconds: plan.stepMs / 1000, sql: '' },
      notes: plan.notes,
    };
    return tileDataOf(rendered, result, { displayType: opts.displayType, range: opts.range, ...format });
  }
  const totals = oneBucketPerGroup(plan, rows);
  if (plan.shape === 'number') {
    const row = totals[0];
    // No row: no event in the range. A count or sum of nothing is 0; other aggregations have no value.
    const fn = plan.body.series[0]?.aggFn;
    const empty = fn === 'count' || fn === 'sum' || fn === 'count_distinct' ? 0 : null;
    return { kind: 'number', value: row ? valueOf(row, 0) : empty, ...format };
  }
  // Tables and categories: values first, then the groups, as the SQL route's columns.
  let table = totals.map((r) => [...plan.labels.map((_, i) => valueOf(r, i)), ...groupOf(r, g)]);
  const order = plan.order;
  if (order) {
    const at = 'value' in order.by ? order.by.value : n + order.by.group;
    const dir = order.desc ? -1 : 1;
    table = [...table].sort((a, b) => {
      const x = a[at];
      const y = b[at];
      if (x === y) return 0;
      if (x === null || x === undefined) return 1;
      if (y === null || y === undefined) return -1;
      return (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))) * dir;
    });
  }
  if (plan.limit !== undefined) table = table.slice(0, plan.limit);
  const result: ResultLike = {
    columns: [
      ...plan.labels.map((name) => ({ name, type: 'Float64' })),
      ...plan.groupBy.map((name) => ({ name, type: 'String' })),
    ],
    rows: table,
  };
  const rendered: Rendered = {
    ok: true,
    sql: '',
    shape: plan.shape,
    columns: {
      values: plan.labels.map((label, i) => ({ index: i, label })),
      groups: plan.groupBy.map((label, k) => ({ index: n + k, label })),
    },
    notes: plan.notes,
  };
  return tileDataOf(rendered, result, { displayType: opts.displayType, range: opts.range, ...format });
}

/** The drawing of a search answer: log lines, newest first. */
export function searchTileData(plan: SearchPlanOk, rows: readonly Record<string, unknown>[]): TileData {
  const keys: string[] = [];
  for (const row of rows) for (const k of Object.keys(row)) if (!keys.includes(k)) keys.push(k);
  const timeKey =
    (plan.timeKey && keys.includes(plan.timeKey) ? plan.timeKey : undefined) ?? keys.find((k) => /timestamp/i.test(k));
  const result: ResultLike = {
    columns: keys.map((name) => ({ name, type: name === timeKey ? 'DateTime64(9)' : 'String' })),
    rows: rows.map((r) => keys.map((k) => r[k])),
  };
  const rendered: Rendered = {
    ok: true,
    sql: '',
    shape: 'search',
    columns: { values: [], groups: keys.map((label, index) => ({ index, label })) },
    notes: plan.notes,
  };
  return tileDataOf(rendered, result);
}
