/**
 * The SQL pieces of a heatmap tile, as HyperDX's dashboard computes it (`DBHeatmapChart`): first the value bounds
 * (a low quantile of the non-negative values, 0.01 on a log scale and 0.001 on a linear one, and the maximum) over
 * the picked range, then the counts per time bucket × value bucket (`widthBucket` into 80 buckets between the
 * bounds, on the logarithm of the value for a log scale, the lower bound raised to at least max × 1e-4 there). The
 * time buckets are the automatic granularity of at most 245 buckets; the range is read as picked (not aligned, both
 * ends included). The preview runs both steps as one statement: the bounds query is a scalar subquery that the
 * counts query reads, so a dashboard preview still sends all its tiles in one batch.
 */

/** Value buckets between the bounds (HyperDX `HEATMAP_N_BUCKETS`); `widthBucket` also answers 0 and 81 (outside). */
export const HEATMAP_VALUE_BUCKETS = 80;
/** Most time buckets of a heatmap's automatic granularity (HyperDX's `convertDateRangeToGranularityString(…, 245)`). */
export const HEATMAP_MAX_TIME_BUCKETS = 245;

export type HeatmapScale = 'log' | 'linear';

/** The lower and upper bound the counts query reads (result columns of the preview's statement). */
export const HEATMAP_LO = '__hdx_heatmap_lo';
export const HEATMAP_HI = '__hdx_heatmap_hi';
const BOUNDS = '__hdx_heatmap_bounds';

/** Aggregate functions HyperDX looks for (`isAggregateFunction` in its ChartUtils): a value using one is bucketed per time bucket. */
const AGGREGATE_FUNCTIONS = [
  'count', 'countIf', 'countDistinct', 'sum', 'sumIf', 'avg', 'avgIf', 'min', 'max', 'any', 'anyLast', 'groupArray',
  'groupArrayInsertAt', 'groupArrayMovingAvg', 'groupArraySample', 'groupUniqArray', 'groupUniqArrayIf',
  'groupArrayIntersect', 'groupArrayIntersectIf', 'groupArrayReduce', 'groupBitmap', 'groupBitmapIf', 'groupBitmapOr',
  'groupBitmapXor', 'quantile', 'quantileIf', 'quantileExact', 'quantileExactWeighted', 'quantileTiming',
  'quantileTimingWeighted', 'quantileTDigest', 'quantileTDigestWeighted', 'quantileBFloat16',
  'quantileBFloat16Weighted', 'quantiles', 'median', 'medianExact', 'medianTDigest', 'medianBFloat16', 'stddevPop',
  'stddevPopIf', 'stddevSamp', 'stddevSampIf', 'varPop', 'varPopIf', 'varSamp', 'varSampIf', 'covarPop', 'covarSamp',
  'corr', 'uniq', 'uniqExact', 'uniqCombined', 'uniqCombined64', 'uniqHLL12', 'uniqTheta', 'groupBitAnd', 'groupBitOr',
  'groupBitXor', 'groupArrayMap', 'groupArrayTuple', 'groupArraySorted', 'topK', 'topKIf', 'topKWeighted', 'argMin',
  'argMax', 'minMap', 'maxMap', 'runningDifference', 'retention', 'sequenceCount', 'sequenceMatch', 'histogram',
  'simpleLinearRegression', 'stochasticLinearRegression', 'categoricalInformationValue', 'sumMap', 'sumMapFiltered',
  'sumWithOverflow', 'entropy', 'skewPop', 'skewSamp', 'kurtPop', 'kurtSamp',
]; // prettier-ignore

/** Whether HyperDX reads the value expression as an aggregate (any listed name followed by "(", any case). */
export function isAggregateExpression(value: string): boolean {
  const lower = value.toLowerCase();
  return AGGREGATE_FUNCTIONS.some((fn) => lower.includes(`${fn.toLowerCase()}(`));
}

/** The scale of the heatmap's select item (log unless it says linear, as HyperDX). */
export function heatmapScale(item: { heatmapScaleType?: unknown } | undefined): HeatmapScale {
  return item?.heatmapScaleType === 'linear' ? 'linear' : 'log';
}

/** The bounds query's two series: the low quantile of the non-negative values, and the maximum. */
export function boundsSelect(valueExpression: string, scale: HeatmapScale) {
  return [
    {
      aggFn: 'quantile',
      level: scale === 'log' ? 0.01 : 0.001,
      valueExpression,
      where: `${valueExpression} >= 0`,
      whereLanguage: 'sql',
      alias: 'min',
    },
    { aggFn: 'max', valueExpression, alias: 'max' },
  ];
}

/**
 * The WITH entries that run the bounds query once and name the bounds the counts query buckets between. A bound
 * that is not a finite number reads as 0 (HyperDX receives it as JSON null and reads 0); on a log scale the lower
 * bound is at least max × 1e-4 (1e-4 when that is 0), as HyperDX's `effectiveMin`.
 */
export function boundsWith(boundsSql: string, scale: HeatmapScale): string[] {
  const finite = (x: string) => `if(isFinite(${x}), ${x}, 0)`;
  const min = finite(`tupleElement(\`${BOUNDS}\`, 1)`);
  const lo =
    scale === 'log' ? `greatest(${min}, if(\`${HEATMAP_HI}\` * 1e-4 = 0, 1e-4, \`${HEATMAP_HI}\` * 1e-4))` : min;
  return [
    `(SELECT tuple(toFloat64(\`min\`), toFloat64(\`max\`)) FROM (${boundsSql})) AS \`${BOUNDS}\``,
    `${finite(`tupleElement(\`${BOUNDS}\`, 2)`)} AS \`${HEATMAP_HI}\``,
    `${lo} AS \`${HEATMAP_LO}\``,
  ];
}

/** The value bucket of a row (0 below the lower bound, 81 above the upper one), aliased `x_bucket` as HyperDX. */
export function valueBucketSql(valueExpression: string, scale: HeatmapScale): string {
  const lo = `\`${HEATMAP_LO}\``;
  const hi = `\`${HEATMAP_HI}\``;
  const n = HEATMAP_VALUE_BUCKETS;
  const expr =
    scale === 'log'
      ? `widthBucket(log(greatest(toFloat64(${valueExpression}), ${lo})), log(${lo}), log(${hi}), ${n})`
      : `widthBucket(${valueExpression}, ${lo}, ${hi}, ${n})`;
  return `${expr} AS x_bucket`;
}

/**
 * Edge `k` (0…80) of the value buckets: bucket j (1…80) holds [edge(j − 1), edge(j)); bucket 0 holds what is below
 * edge 0 and bucket 81 what is at or above edge 80. HyperDX draws row j at edge(j).
 */
export function bucketEdge(k: number, lo: number, hi: number, scale: HeatmapScale): number {
  if (scale === 'log' && lo > 0 && hi > lo) return lo * Math.pow(hi / lo, k / HEATMAP_VALUE_BUCKETS);
  return lo + k * ((hi - lo) / HEATMAP_VALUE_BUCKETS);
}
