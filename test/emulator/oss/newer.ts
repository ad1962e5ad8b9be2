/**
 * What the newest self-hosted HyperDX accepts beyond the OSS OpenAPI document (oss-openapi-schemas.json, taken from an
 * older HyperDX): the self-hosted flavor answers as the newest HyperDX unless EmulatorOptions.hyperdxVersion is
 * 'older'. Evidence (see /work/shared/reference/hyperdx-after-b52.md; HyperDX `b52a6fa8` for the first point):
 *
 * - a select item or chart series `aggFn: "increase"` (sum metrics only; `AggregateFunctionSchema` in
 *   packages/common-utils/src/types.ts, #2246);
 * - dashboard filters: a union on `type` — `QUERY_EXPRESSION` as before, `STATIC_LIST` and `PROMETHEUS_LABEL` (strict,
 *   `isBroadcastEnabled: false`, `isVariableEnabled: true`; #3017, #3053). The documents found do not list every field
 *   of the new two, so the emulator checks what they do say (type, name, the two flags, `variableName`'s pattern) and
 *   keeps the rest as sent;
 * - inline alerts: `source: "inline"` with a `chartConfig` in the v2 tile dialect (line, stacked_bar or number, builder
 *   or raw SQL; raw SQL takes no `where`); a `chartConfig` on another source is refused (#3010, #3043);
 * - alert `displayName` (at most 512 characters) and `tags` (#3063, #3065, #3067), always in responses.
 *
 * The patched document serves both the request checks and the response checks (oss/schemas.ts); the Cloud flavor's
 * handlers, which the self-hosted flavor runs, get `cloudView`/`keepNewer` (routes.ts `NewerHyperdx`).
 */
import type { JsonObject } from '../types';

export const NEWER_FILTER_TYPES = ['STATIC_LIST', 'PROMETHEUS_LABEL'];

const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const newerFilter = (type: string): JsonObject => ({
  type: 'object',
  required: ['type', 'name'],
  properties: {
    type: { type: 'string', enum: [type] },
    name: { type: 'string', minLength: 1 },
    isBroadcastEnabled: { type: 'boolean', enum: [false] },
    isVariableEnabled: { type: 'boolean', enum: [true] },
    variableName: { type: 'string', maxLength: 64, pattern: '^[a-zA-Z][a-zA-Z0-9_]*$' },
  },
});

/** A copy of the OSS document's `schemas` with the newest HyperDX's additions. */
export function newerSchemas(schemas: JsonObject): JsonObject {
  const out = structuredClone(schemas) as Record<string, JsonObject>;
  const aggFns = out.AggregationFunction as { enum: string[] };
  aggFns.enum = [...aggFns.enum, 'increase'];
  const seriesAggFn = (out.ChartSeries as { properties: { aggFn: { enum: string[] } } }).properties.aggFn;
  seriesAggFn.enum = [...seriesAggFn.enum, 'increase'];

  out.QueryExpressionFilterInput = out.FilterInput as JsonObject;
  out.StaticListFilterInput = newerFilter('STATIC_LIST');
  out.PrometheusLabelFilterInput = newerFilter('PROMETHEUS_LABEL');
  out.FilterInput = {
    oneOf: [ref('QueryExpressionFilterInput'), ref('StaticListFilterInput'), ref('PrometheusLabelFilterInput')],
  };

  const source = out.AlertSource as { enum: string[] };
  source.enum = [...source.enum, 'inline'];
  out.InlineAlertChartConfig = {
    oneOf: [ref('LineChartConfig'), ref('BarChartConfig'), ref('NumberChartConfig')],
  };
  const alert = out.Alert as { properties: JsonObject };
  alert.properties = {
    ...alert.properties,
    chartConfig: ref('InlineAlertChartConfig'),
    displayName: { type: 'string', maxLength: 512 },
    tags: { type: 'array', items: { type: 'string' } },
  };
  return out;
}

/**
 * The body as the Cloud schema can judge it (the newer parts are checked by the patched OSS document already): an
 * `increase` select item as `sum`, the new filter types left out, an inline alert without its source and chartConfig.
 */
export function cloudView(body: unknown): unknown {
  if (!isObject(body)) return body;
  const out: JsonObject = { ...body };
  if (Array.isArray(body.tiles)) {
    out.tiles = body.tiles.map((tile: unknown) => {
      if (!isObject(tile) || !isObject(tile.config) || !Array.isArray(tile.config.select)) return tile;
      const select = tile.config.select.map((s: unknown) =>
        isObject(s) && s.aggFn === 'increase' ? { ...s, aggFn: 'sum' } : s,
      );
      return { ...tile, config: { ...tile.config, select } };
    });
  }
  if (Array.isArray(body.filters)) out.filters = body.filters.filter((f) => !isNewerFilter(f));
  if (body.source === 'inline') {
    delete out.source;
    delete out.chartConfig;
  }
  delete out.displayName;
  delete out.tags;
  return out;
}

export function isNewerFilter(f: unknown): boolean {
  return isObject(f) && typeof f.type === 'string' && NEWER_FILTER_TYPES.includes(f.type);
}

/**
 * The body after the Cloud schema dropped the keys it does not know, with the newer parts put back as sent: the new
 * filter types whole (they are strict on the server, so whatever passed the check is known to it), an alert's
 * `chartConfig`, `displayName` and `tags`.
 */
export function keepNewer(sent: unknown, stripped: JsonObject): JsonObject {
  if (!isObject(sent)) return stripped;
  const out: JsonObject = { ...stripped };
  if (Array.isArray(sent.filters) && Array.isArray(stripped.filters)) {
    const kept = stripped.filters as unknown[];
    out.filters = sent.filters.map((f, i) => (isNewerFilter(f) ? f : kept[i]));
  }
  for (const key of ['chartConfig', 'displayName', 'tags']) {
    if (sent[key] !== undefined) out[key] = sent[key];
  }
  return out;
}
