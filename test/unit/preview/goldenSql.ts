/** Golden SQL of the cases in renderCases.ts, reviewed against ClickStack's renderChartConfig (whitespace normalised). */
export const GOLDEN_SQL: Record<string, string> = {
  "line count per 5 minutes":
    "SELECT count(),toStartOfInterval(toDateTime(TimestampTime), INTERVAL 5 minute) AS `__hdx_time_bucket` FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000)) GROUP BY toStartOfInterval(toDateTime(TimestampTime), INTERVAL 5 minute) AS `__hdx_time_bucket` ORDER BY toStartOfInterval(toDateTime(TimestampTime), INTERVAL 5 minute) AS `__hdx_time_bucket`",
  "line count with automatic granularity (1 h → 1 minute)":
    "SELECT count(),toStartOfInterval(toDateTime(TimestampTime), INTERVAL 1 minute) AS `__hdx_time_bucket` FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000)) GROUP BY toStartOfInterval(toDateTime(TimestampTime), INTERVAL 1 minute) AS `__hdx_time_bucket` ORDER BY toStartOfInterval(toDateTime(TimestampTime), INTERVAL 1 minute) AS `__hdx_time_bucket`",
  "stacked bar count of errors by service":
    "SELECT countIf(((SeverityText ILIKE '%error%'))),ServiceName,toStartOfInterval(toDateTime(TimestampTime), INTERVAL 15 minute) AS `__hdx_time_bucket` FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000)) AND (((SeverityText ILIKE '%error%'))) GROUP BY ServiceName,toStartOfInterval(toDateTime(TimestampTime), INTERVAL 15 minute) AS `__hdx_time_bucket` ORDER BY toStartOfInterval(toDateTime(TimestampTime), INTERVAL 15 minute) AS `__hdx_time_bucket`",
  "line sum by user, top 3 series":
    "WITH `__hdx_series_limit` AS (SELECT `group` FROM (SELECT tuple(LogAttributes['user']) AS `group`, sum(toFloat64OrDefault(toString(LogAttributes['duration']))) AS `__hdx_series_rank` FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000)) AND LogAttributes['user'] IS NOT NULL GROUP BY LogAttributes['user'],toStartOfInterval(toDateTime(TimestampTime), INTERVAL 30 minute) AS `__hdx_time_bucket`) GROUP BY `group` ORDER BY max(`__hdx_series_rank`) DESC, `group` LIMIT 3) SELECT sum(toFloat64OrDefault(toString(LogAttributes['duration']))),LogAttributes['user'],toStartOfInterval(toDateTime(TimestampTime), INTERVAL 30 minute) AS `__hdx_time_bucket` FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000)) AND tuple(LogAttributes['user']) IN (SELECT `group` FROM `__hdx_series_limit`) GROUP BY LogAttributes['user'],toStartOfInterval(toDateTime(TimestampTime), INTERVAL 30 minute) AS `__hdx_time_bucket` ORDER BY toStartOfInterval(toDateTime(TimestampTime), INTERVAL 30 minute) AS `__hdx_time_bucket`",
  "number sum":
    "SELECT sum(toFloat64OrDefault(toString(LogAttributes['duration']))) FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000))",
  "number avg":
    "SELECT avg(toFloat64OrDefault(toString(LogAttributes['duration']))) FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000))",
  "number min":
    "SELECT min(toFloat64OrDefault(toString(LogAttributes['duration']))) FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000))",
  "number max":
    "SELECT max(toFloat64OrDefault(toString(LogAttributes['duration']))) FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000))",
  "number count_distinct":
    "SELECT count(DISTINCT LogAttributes['user']) FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000))",
  "number quantile 0.5":
    "SELECT quantile(0.5)(toFloat64OrDefault(toString(LogAttributes['duration']))) FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000))",
  "number quantile 0.9":
    "SELECT quantile(0.9)(toFloat64OrDefault(toString(LogAttributes['duration']))) FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000))",
  "number quantile 0.95":
    "SELECT quantile(0.95)(toFloat64OrDefault(toString(LogAttributes['duration']))) FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000))",
  "number quantile 0.99":
    "SELECT quantile(0.99)(toFloat64OrDefault(toString(LogAttributes['duration']))) FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000))",
  "number last_value":
    "SELECT last_value(toFloat64OrDefault(toString(LogAttributes['duration']))) FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000))",
  "number any":
    "SELECT any(ServiceName) FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000))",
  "number none (raw aggregate expression)":
    "SELECT count() * 2 FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000))",
  "number count with SQL series filter":
    "SELECT countIf(SeverityText = 'error') FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000)) AND (SeverityText = 'error')",
  "number avg with Lucene series filter on a map attribute":
    "SELECT avgIf(toFloat64OrDefault(toString(LogAttributes['duration'])), ((`LogAttributes`['status'] ILIKE '%500%' AND indexHint(mapContains(`LogAttributes`, 'status')))) AND toFloat64OrDefault(toString(LogAttributes['duration'])) IS NOT NULL) FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000)) AND (((`LogAttributes`['status'] ILIKE '%500%' AND indexHint(mapContains(`LogAttributes`, 'status')))))",
  "number count of a bare Lucene term (implicit column)":
    "SELECT countIf(((hasToken(lower(Body), lower('timeout'))))) FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000)) AND (((hasToken(lower(Body), lower('timeout')))))",
  "number count of a Lucene range":
    "SELECT countIf(((SeverityNumber BETWEEN 10 AND 20))) FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000)) AND (((SeverityNumber BETWEEN 10 AND 20)))",
  "table count and avg by service":
    "SELECT count() AS \"n\",avg(toFloat64OrDefault(toString(LogAttributes['duration']))) AS \"avg_duration\",ServiceName FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000)) GROUP BY ServiceName ORDER BY ServiceName",
  "table ratio (asRatio)":
    "SELECT divide(countIf(SeverityText = 'error'), count()) FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000))",
  "pie count by status":
    "SELECT count(),LogAttributes['status'] FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000)) GROUP BY LogAttributes['status']",
  "search api lines":
    "SELECT TimestampTime, ServiceName, Body FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000)) AND (((ServiceName ILIKE '%api%'))) ORDER BY TimestampTime DESC LIMIT 5",
  "raw SQL line with time macros and $__filters":
    "SELECT toStartOfInterval(toDateTime(TimestampTime), INTERVAL 600 second) AS ts, count() AS c FROM `preview_golden`.`otel_logs` WHERE TimestampTime >= toDateTime(fromUnixTimestamp64Milli(1767225600000)) AND TimestampTime <= toDateTime(fromUnixTimestamp64Milli(1767229200000)) AND (1=1 /** no filters applied */) GROUP BY ts ORDER BY ts",
  "raw SQL number with query parameters":
    "SELECT count() AS c FROM `preview_golden`.`otel_logs` WHERE TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime < fromUnixTimestamp64Milli(1767226200000)",
  "dashboard filter and saved search on a line tile":
    "SELECT count(),toStartOfInterval(toDateTime(TimestampTime), INTERVAL 1 hour) AS `__hdx_time_bucket` FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000)) AND ((((SeverityText ILIKE '%error%'))) AND (toString(ServiceName) IN ('api'))) GROUP BY toStartOfInterval(toDateTime(TimestampTime), INTERVAL 1 hour) AS `__hdx_time_bucket` ORDER BY toStartOfInterval(toDateTime(TimestampTime), INTERVAL 1 hour) AS `__hdx_time_bucket`",
  "dashboard filter scoped to another source is not applied":
    "SELECT count() FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime <= fromUnixTimestamp64Milli(1767229200000))",
};
