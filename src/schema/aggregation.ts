/**
 * The aggregate functions of HyperDX (packages/common-utils `AggregateFunctionSchema` and
 * `InternalAggregateFunctionSchema`), one list for every place that names them.
 */

/** What a dashboard tile's series (`aggFn`) takes. */
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

/** The chart series route of a self-hosted deployment: the tiles' list and `increase` (sum metrics only). */
export const SERIES_AGG_FNS = [...AGG_FNS, 'increase'] as const;

/** Aggregated columns of a source's materialized views: the series route's list and `histogram`. */
export const MV_AGG_FNS = [...SERIES_AGG_FNS, 'histogram'] as const;
