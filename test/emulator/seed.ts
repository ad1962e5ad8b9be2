/**
 * Deterministic sample data: one organization (an API key is org-scoped) with three services. The first two carry
 * observability data; the third has none. IDs never change between runs so docs and tests can rely on them.
 */
import { SeededIds } from './ids';
import type {
  AlertExecutionError,
  AlertState,
  ApiKeyRecord,
  EmulatorState,
  JsonObject,
  ServiceData,
  StoredAlert,
  StoredDashboard,
  StoredRole,
  StoredSavedSearch,
  StoredWebhook,
} from './types';

/** Sample API key: the key ID is the Basic-auth user name, the secret its password. */
export const SAMPLE_KEY_ID = 'emuK7QxLr9Tz2Wm5PdVa';
export const SAMPLE_KEY_SECRET = '4b1dEmuL8tR2vQ9sXc7Nw3Kp6Yh5Jf0Ga1Zb4Md2UeHs';
export const SAMPLE_KEY_UUID = '3f5a9c2e-7b14-4d8a-9e62-1c0b8f4d7a35';

export const SAMPLE_ORGANIZATION_ID = '6f1c8a2e-4b7d-4e3a-9c51-2d8f0b7a9e14';
export const SAMPLE_SERVICE_IDS = [
  'a3c7e9f1-2b4d-4c6e-8f0a-1b3d5e7f9a2c',
  'b8d2f4a6-c1e3-4a5b-9d7f-2e4a6c8b0d1e',
  'c5e1a7b3-d9f2-4e8c-a6b4-3f5d7e9c1a0b',
] as const;

const T0 = Date.parse('2026-10-06T09:12:00.000Z');
const hours = (n: number): number => n * 3600 * 1000;
const iso = (ms: number): string => new Date(ms).toISOString();

interface ServiceSeed {
  app: string;
  appTitle: string;
  database: string;
  rng: SeededIds;
  start: number;
}

function sources(s: ServiceSeed, connection: string): JsonObject[] {
  const { rng, database } = s;
  const logId = rng.objectId(s.start);
  const traceId = rng.objectId(s.start + 1000);
  const metricId = rng.objectId(s.start + 2000);
  const sessionId = rng.objectId(s.start + 3000);
  return [
    {
      id: logId,
      name: 'Logs',
      kind: 'log',
      connection,
      from: { databaseName: database, tableName: 'otel_logs' },
      timestampValueExpression: 'TimestampTime',
      displayedTimestampValueExpression: 'Timestamp',
      defaultTableSelectExpression: 'Timestamp, ServiceName, SeverityText, Body',
      serviceNameExpression: 'ServiceName',
      severityTextExpression: 'SeverityText',
      bodyExpression: 'Body',
      eventAttributesExpression: 'LogAttributes',
      resourceAttributesExpression: 'ResourceAttributes',
      traceIdExpression: 'TraceId',
      spanIdExpression: 'SpanId',
      implicitColumnExpression: 'Body',
      traceSourceId: traceId,
      metricSourceId: metricId,
      querySettings: [],
    },
    {
      id: traceId,
      name: 'Traces',
      kind: 'trace',
      connection,
      from: { databaseName: database, tableName: 'otel_traces' },
      timestampValueExpression: 'Timestamp',
      defaultTableSelectExpression: 'Timestamp, ServiceName, StatusCode, round(Duration / 1e6), SpanName',
      durationExpression: 'Duration',
      durationPrecision: 9,
      traceIdExpression: 'TraceId',
      spanIdExpression: 'SpanId',
      parentSpanIdExpression: 'ParentSpanId',
      spanNameExpression: 'SpanName',
      spanKindExpression: 'SpanKind',
      statusCodeExpression: 'StatusCode',
      statusMessageExpression: 'StatusMessage',
      serviceNameExpression: 'ServiceName',
      resourceAttributesExpression: 'ResourceAttributes',
      eventAttributesExpression: 'SpanAttributes',
      spanEventsValueExpression: 'Events',
      implicitColumnExpression: 'SpanName',
      logSourceId: logId,
      sessionSourceId: sessionId,
      metricSourceId: metricId,
      querySettings: [],
    },
    {
      id: metricId,
      name: 'Metrics',
      kind: 'metric',
      connection,
      from: { databaseName: database, tableName: '' },
      timestampValueExpression: 'TimeUnix',
      resourceAttributesExpression: 'ResourceAttributes',
      serviceNameExpression: 'ServiceName',
      metricTables: {
        gauge: 'otel_metrics_gauge',
        histogram: 'otel_metrics_histogram',
        sum: 'otel_metrics_sum',
        summary: 'otel_metrics_summary',
        'exponential histogram': 'otel_metrics_exponential_histogram',
      },
      logSourceId: logId,
      querySettings: [],
    },
    {
      id: sessionId,
      name: 'Sessions',
      kind: 'session',
      connection,
      from: { databaseName: database, tableName: 'hyperdx_sessions' },
      timestampValueExpression: 'TimestampTime',
      resourceAttributesExpression: 'ResourceAttributes',
      traceSourceId: traceId,
      querySettings: [],
    },
  ];
}

function tile(
  rng: SeededIds,
  at: number,
  name: string,
  pos: [number, number, number, number],
  config: JsonObject,
): JsonObject {
  return { id: rng.objectId(at), name, x: pos[0], y: pos[1], w: pos[2], h: pos[3], config };
}

function dashboards(
  s: ServiceSeed,
  src: { log: string; trace: string; metric: string },
  connection: string,
): StoredDashboard[] {
  const { rng, app, appTitle } = s;
  const at = s.start + hours(2);
  const base = { filters: [], savedQuery: null, savedQueryLanguage: null, savedFilterValues: [], containers: [] };
  const service: StoredDashboard = {
    ...base,
    id: rng.objectId(at),
    name: `${appTitle} service`,
    tags: [app, 'production', 'slo'],
    tiles: [
      tile(rng, at, 'p95 latency (ms)', [0, 0, 12, 4], {
        displayType: 'line',
        sourceId: src.trace,
        select: [
          {
            aggFn: 'quantile',
            level: 0.95,
            valueExpression: 'Duration / 1e6',
            alias: 'p95',
            where: `ServiceName:${app}`,
            whereLanguage: 'lucene',
          },
        ],
        groupBy: 'SpanName',
        fillNulls: true,
        numberFormat: { output: 'duration', factor: 0.001 }, // the values are milliseconds
      }),
      tile(rng, at, 'Requests by status code', [12, 0, 12, 4], {
        displayType: 'stacked_bar',
        sourceId: src.trace,
        select: [{ aggFn: 'count', where: `ServiceName:${app} AND SpanKind:Server`, whereLanguage: 'lucene' }],
        groupBy: "SpanAttributes['http.response.status_code']",
      }),
      tile(rng, at, 'Error rate', [0, 4, 6, 3], {
        displayType: 'number',
        sourceId: src.trace,
        select: [{ aggFn: 'count', where: `ServiceName:${app} AND StatusCode:Error`, whereLanguage: 'lucene' }],
        numberFormat: { output: 'number', thousandSeparated: true },
        color: 'chart-red',
      }),
      tile(rng, at, 'Slowest endpoints', [6, 4, 18, 5], {
        displayType: 'table',
        sourceId: src.trace,
        select: [
          { aggFn: 'quantile', level: 0.99, valueExpression: 'Duration / 1e6', alias: 'p99 (ms)' },
          { aggFn: 'count', alias: 'requests' },
        ],
        groupBy: 'SpanName',
        orderBy: '"p99 (ms)" DESC',
      }),
      tile(rng, at, 'Recent errors', [0, 9, 16, 6], {
        displayType: 'search',
        sourceId: src.log,
        select: 'Timestamp, ServiceName, SeverityText, Body',
        where: `ServiceName:${app} AND SeverityText:error`,
        whereLanguage: 'lucene',
      }),
      tile(rng, at, 'Runbook', [16, 9, 8, 6], {
        displayType: 'markdown',
        markdown: `### ${appTitle} runbook\n\n1. Check the latency panel for the failing span.\n2. Page the owning team via **#oncall-${app}**.\n3. Roll back the last deploy if the error rate stays above 2 %.`,
      }),
    ],
    filters: [
      {
        id: rng.objectId(at),
        type: 'QUERY_EXPRESSION',
        name: 'Environment',
        expression: "ResourceAttributes['deployment.environment']",
        sourceId: src.trace,
      },
    ],
  };
  const at2 = at + hours(30);
  const nodes: StoredDashboard = {
    ...base,
    id: rng.objectId(at2),
    name: 'Kubernetes nodes',
    tags: ['kubernetes', 'infrastructure'],
    tiles: [
      tile(rng, at2, 'CPU utilization by node', [0, 0, 12, 4], {
        displayType: 'line',
        sourceId: src.metric,
        select: [
          { aggFn: 'avg', metricName: 'k8s.node.cpu.utilization', metricType: 'gauge', valueExpression: 'Value' },
        ],
        groupBy: "ResourceAttributes['k8s.node.name']",
        numberFormat: { output: 'percent', mantissa: 1 },
      }),
      tile(rng, at2, 'Memory working set', [12, 0, 12, 4], {
        displayType: 'stacked_bar',
        sourceId: src.metric,
        select: [
          { aggFn: 'avg', metricName: 'k8s.node.memory.working_set', metricType: 'gauge', valueExpression: 'Value' },
        ],
        groupBy: "ResourceAttributes['k8s.node.name']",
        numberFormat: { output: 'byte', decimalBytes: false },
      }),
      tile(rng, at2, 'Pods by namespace', [0, 4, 8, 4], {
        displayType: 'pie',
        sourceId: src.metric,
        select: [
          {
            aggFn: 'count_distinct',
            metricName: 'k8s.pod.phase',
            metricType: 'gauge',
            valueExpression: "ResourceAttributes['k8s.pod.name']",
          },
        ],
        groupBy: "ResourceAttributes['k8s.namespace.name']",
        limit: 10,
      }),
      tile(rng, at2, 'Ready nodes', [8, 4, 4, 4], {
        displayType: 'number',
        sourceId: src.metric,
        select: [
          {
            aggFn: 'last_value',
            metricName: 'k8s.node.condition_ready',
            metricType: 'gauge',
            valueExpression: 'Value',
          },
        ],
        color: 'chart-green',
      }),
      tile(rng, at2, 'Restarts (raw SQL)', [12, 4, 12, 4], {
        configType: 'sql',
        displayType: 'table',
        connectionId: connection,
        sqlTemplate:
          "SELECT ResourceAttributes['k8s.pod.name'] AS pod, max(Value) AS restarts FROM otel_metrics_sum WHERE MetricName = 'k8s.container.restarts' AND TimeUnix >= $__fromTime AND TimeUnix < $__toTime GROUP BY pod ORDER BY restarts DESC LIMIT 20",
      }),
    ],
  };
  const at3 = at + hours(75);
  const ingest: StoredDashboard = {
    ...base,
    id: rng.objectId(at3),
    name: 'Ingest pipeline',
    tags: ['otel-collector', 'ingest'],
    containers: [
      { id: 'throughput', title: 'Throughput', collapsed: false, collapsible: true, bordered: true },
      {
        id: 'latency',
        title: 'Latency',
        collapsed: true,
        collapsible: true,
        tabs: [
          { id: 'spans', title: 'Spans' },
          { id: 'export', title: 'Export' },
        ],
      },
    ],
    tiles: [
      {
        ...tile(rng, at3, 'Rows ingested per minute', [0, 0, 16, 4], {
          configType: 'sql',
          displayType: 'line',
          connectionId: connection,
          sqlTemplate:
            'SELECT toStartOfInterval(TimestampTime, INTERVAL 1 minute) AS ts, count() AS rows FROM otel_logs WHERE TimestampTime >= $__fromTime AND TimestampTime < $__toTime GROUP BY ts ORDER BY ts',
        }),
        containerId: 'throughput',
      },
      {
        ...tile(rng, at3, 'Accepted log records', [16, 0, 8, 4], {
          displayType: 'number',
          sourceId: src.metric,
          select: [
            {
              aggFn: 'sum',
              metricName: 'otelcol_receiver_accepted_log_records',
              metricType: 'sum',
              valueExpression: 'Value',
              periodAggFn: 'delta',
            },
          ],
          numberFormat: { output: 'number', average: true },
        }),
        containerId: 'throughput',
      },
      {
        ...tile(rng, at3, 'Span duration distribution', [0, 4, 24, 5], {
          displayType: 'heatmap',
          sourceId: src.trace,
          select: [{ valueExpression: 'Duration / 1e6', heatmapScaleType: 'log' }],
          where: 'SpanKind:Server',
          whereLanguage: 'lucene',
        }),
        containerId: 'latency',
        tabId: 'spans',
      },
      {
        ...tile(rng, at3, 'Exporter queue size', [0, 9, 24, 4], {
          displayType: 'line',
          sourceId: src.metric,
          select: [
            { aggFn: 'max', metricName: 'otelcol_exporter_queue_size', metricType: 'gauge', valueExpression: 'Value' },
          ],
          groupBy: "ResourceAttributes['service.instance.id']",
        }),
        containerId: 'latency',
        tabId: 'export',
      },
    ],
  };
  return [service, nodes, ingest];
}

/**
 * Tiles of the kinds the other dashboards do not cover: metric tiles with several series, and a cumulative counter
 * that rises steadily with resets (as a time series, a number and a table), and the event patterns of the payment
 * service's logs. Made after every other seeded resource,
 * so their IDs stay as they were.
 */
function runtimeDashboard(s: ServiceSeed, src: { metric: string; log: string }): StoredDashboard {
  const { rng } = s;
  const at = s.start + hours(120);
  const jobs = { metricName: 'app.jobs.processed', metricType: 'sum', valueExpression: 'Value' };
  return {
    filters: [],
    savedQuery: null,
    savedQueryLanguage: null,
    savedFilterValues: [],
    containers: [],
    id: rng.objectId(at),
    name: 'Runtime',
    tags: ['runtime', 'workers'],
    tiles: [
      tile(rng, at, 'Jobs processed per worker', [0, 0, 12, 4], {
        displayType: 'line',
        sourceId: src.metric,
        select: [{ aggFn: 'sum', ...jobs }],
        groupBy: "ResourceAttributes['service.instance.id']",
      }),
      tile(rng, at, 'Jobs processed', [12, 0, 4, 4], {
        displayType: 'number',
        sourceId: src.metric,
        select: [{ aggFn: 'sum', ...jobs }],
        numberFormat: { output: 'number', thousandSeparated: true },
      }),
      tile(rng, at, 'Jobs by worker', [16, 0, 8, 4], {
        displayType: 'table',
        sourceId: src.metric,
        select: [{ aggFn: 'sum', ...jobs, alias: 'jobs' }],
        groupBy: "ResourceAttributes['service.instance.id']",
      }),
      tile(rng, at, 'Collector load', [0, 4, 24, 4], {
        displayType: 'line',
        sourceId: src.metric,
        select: [
          { aggFn: 'max', metricName: 'otelcol_exporter_queue_size', metricType: 'gauge', valueExpression: 'Value' },
          {
            aggFn: 'sum',
            metricName: 'otelcol_receiver_accepted_log_records',
            metricType: 'sum',
            valueExpression: 'Value',
            alias: 'accepted',
          },
        ],
      }),
      // HyperDX's event patterns of the payment service's logs (last: the tiles above keep their IDs).
      tile(rng, at, 'Payment log patterns', [0, 8, 24, 6], {
        displayType: 'event_patterns',
        sourceId: src.log,
        where: "ServiceName = 'payment'",
        whereLanguage: 'sql',
      }),
    ],
  };
}

function webhooks(s: ServiceSeed): StoredWebhook[] {
  const { rng, app } = s;
  const at = s.start + hours(1);
  return [
    {
      id: rng.objectId(at),
      name: `#oncall-${app}`,
      service: 'slack',
      url: 'https://hooks.slack.com/services/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',
      description: 'On-call channel',
      createdAt: iso(at),
      updatedAt: iso(at),
    },
    {
      id: rng.objectId(at + 60000),
      name: 'Ops relay',
      service: 'generic',
      url: 'https://ops-relay.internal.example.com/v1/alerts',
      body: '{"alert":"{{title}}","link":"{{link}}","state":"{{state}}"}',
      headers: { Authorization: 'Bearer relay-token' },
      createdAt: iso(at + 60000),
      updatedAt: iso(at + hours(48)),
    },
    {
      id: rng.objectId(at + 120000),
      name: `PagerDuty – ${s.appTitle}`,
      service: 'pagerduty_api',
      url: 'https://events.pagerduty.com/v2/enqueue',
      createdAt: iso(at + 120000),
      updatedAt: iso(at + 120000),
    },
  ];
}

function savedSearches(s: ServiceSeed, teamId: string, src: { log: string; trace: string }): StoredSavedSearch[] {
  const { rng, app } = s;
  const at = s.start + hours(3);
  const mk = (offset: number, fields: JsonObject & { name: string; sourceId: string }): StoredSavedSearch => ({
    id: rng.objectId(at + offset),
    teamId,
    createdAt: iso(at + offset),
    updatedAt: iso(at + offset),
    tags: [],
    filters: [],
    ...fields,
  });
  return [
    mk(0, {
      name: `${s.appTitle} errors`,
      sourceId: src.log,
      select: 'Timestamp, ServiceName, SeverityText, Body',
      where: `ServiceName:${app} AND SeverityText:error`,
      whereLanguage: 'lucene',
      orderBy: 'Timestamp DESC',
      tags: [app],
    }),
    mk(60000, {
      name: 'Payment declines',
      sourceId: src.log,
      select: 'Timestamp, Body, LogAttributes',
      where: "LogAttributes['payment.status'] = 'declined'",
      whereLanguage: 'sql',
      orderBy: 'Timestamp DESC',
      tags: ['payments'],
    }),
    mk(120000, {
      name: 'Slow server spans (> 2 s)',
      sourceId: src.trace,
      select: 'Timestamp, ServiceName, SpanName, Duration',
      where: 'SpanKind:Server AND Duration:>2000000000',
      whereLanguage: 'lucene',
      orderBy: 'Duration DESC',
      filters: [{ type: 'sql', condition: "ServiceName IN ('checkout', 'cart')" }],
    }),
  ];
}

/**
 * Roles of a team: the predefined ones (immutable; `Member` is the default role of new users) and, with sample data,
 * two custom roles (one held by users, one not). Their IDs come from their own generator, so adding roles moved no
 * other seeded ID.
 */
function roles(teamId: string, start: number, full: boolean): StoredRole[] {
  let seed = 0x201e5;
  for (const ch of teamId) seed = (Math.imul(seed, 31) + ch.charCodeAt(0)) >>> 0;
  const rng = new SeededIds(seed);
  const at = start - hours(24 * 60);
  const mk = (offset: number, r: Pick<StoredRole, 'name' | 'permissions'> & Partial<StoredRole>): StoredRole => ({
    id: rng.objectId(at + offset),
    isPredefined: false,
    isDefault: false,
    userCount: 0,
    createdAt: iso(at + offset),
    updatedAt: iso(at + offset),
    ...r,
  });
  const list = [
    mk(0, {
      name: 'Admin',
      description: 'Full access to every resource of the team',
      permissions: [{ action: 'manage', subject: 'all' }],
      isPredefined: true,
      userCount: 2,
    }),
    mk(1000, {
      name: 'Member',
      description: 'Creates and edits dashboards, searches and alerts',
      permissions: [
        { action: 'manage', subject: 'Dashboard' },
        { action: 'manage', subject: 'SavedSearch' },
        { action: 'manage', subject: 'Alert' },
        { action: 'read', subject: 'all' },
      ],
      isPredefined: true,
      isDefault: true,
      userCount: 5,
    }),
    mk(2000, {
      name: 'Read Only',
      description: 'Read-only access to all resources',
      permissions: [{ action: 'read', subject: 'all' }],
      isPredefined: true,
    }),
  ];
  if (full) {
    list.push(
      mk(hours(24 * 20), {
        name: 'Deploy Bot',
        description: 'Manages dashboards via Terraform',
        permissions: [
          { action: 'manage', subject: 'Dashboard' },
          { action: 'read', subject: 'Source' },
          { action: 'delete', subject: 'Dashboard', inverted: true, conditions: { tags: { $in: ['protected'] } } },
        ],
      }),
      mk(hours(24 * 21), {
        name: 'On-call responders',
        description: 'Silences and edits alerts; reads everything else',
        permissions: [
          { action: 'manage', subject: 'Alert' },
          { action: 'read', subject: 'all' },
          { action: 'read', subject: 'Connection', integration: 'clickhouse' },
        ],
        userCount: 3,
      }),
    );
  }
  return list;
}

interface AlertSeed {
  name: string | null;
  state: AlertState;
  tile?: [dashboard: StoredDashboard, tileIndex: number];
  savedSearch?: StoredSavedSearch;
  groupBy?: string;
  threshold: number;
  thresholdMax?: number;
  thresholdType: string;
  interval: string;
  webhook: StoredWebhook;
  severity?: string;
  message?: string;
  note?: string;
  numConsecutiveWindows?: number;
  scheduleOffsetMinutes?: number;
  silenced?: boolean;
  executionErrors?: AlertExecutionError[];
}

function alert(s: ServiceSeed, teamId: string, at: number, a: AlertSeed): StoredAlert {
  const channel: JsonObject = { type: 'webhook', webhookId: a.webhook.id };
  if (a.webhook.service === 'slack_api') channel.webhookService = 'slack_api';
  if (a.severity) channel.severity = a.severity;
  const t = a.tile ? a.tile[0].tiles[a.tile[1]] : undefined;
  return {
    id: s.rng.objectId(at),
    teamId,
    source: a.tile ? 'tile' : 'saved_search',
    dashboardId: a.tile ? a.tile[0].id : null,
    tileId: t ? String(t.id) : null,
    savedSearchId: a.savedSearch ? a.savedSearch.id : null,
    groupBy: a.groupBy ?? null,
    threshold: a.threshold,
    thresholdMax: a.thresholdMax ?? null,
    thresholdType: a.thresholdType,
    interval: a.interval,
    scheduleOffsetMinutes: a.scheduleOffsetMinutes ?? null,
    scheduleStartAt: null,
    channels: [channel],
    name: a.name,
    message: a.message ?? null,
    note: a.note ?? null,
    numConsecutiveWindows: a.numConsecutiveWindows ?? null,
    state: a.state,
    silenced: a.silenced
      ? { by: 'maria.keller@example.com', at: iso(T0 + hours(24 * 44)), until: '2027-01-15T08:00:00.000Z' }
      : null,
    executionErrors: a.executionErrors ?? [],
    createdAt: iso(at),
    updatedAt: iso(at + hours(5)),
  };
}

function serviceData(s: ServiceSeed, teamId: string, full: boolean): ServiceData {
  const connection = s.rng.objectId(s.start);
  const srcList = sources(s, connection);
  const src = { log: String(srcList[0]?.id), trace: String(srcList[1]?.id), metric: String(srcList[2]?.id) };
  const hooks = webhooks(s);
  const [slack, generic, pagerduty] = hooks as [StoredWebhook, StoredWebhook, StoredWebhook];
  const dash = dashboards(s, src, connection);
  const [svc, nodes] = dash as [StoredDashboard, StoredDashboard, StoredDashboard];
  const searches = savedSearches(s, teamId, src);
  const [errors, declines, slow] = searches as [StoredSavedSearch, StoredSavedSearch, StoredSavedSearch];
  const at = s.start + hours(100);
  const alerts: StoredAlert[] = [
    alert(s, teamId, at, {
      name: `${s.appTitle} p95 latency above 1.5 s`,
      state: 'ALERT',
      tile: [svc, 0],
      threshold: 1500,
      thresholdType: 'above',
      interval: '5m',
      webhook: slack,
      message: 'p95 latency is {{value}} ms on {{groupBy}}. Dashboard: {{link}}',
      note: 'Usually a slow payment provider. See the runbook tile.',
      numConsecutiveWindows: 2,
    }),
    alert(s, teamId, at + 60000, {
      name: `${s.appTitle} error count`,
      state: 'OK',
      tile: [svc, 2],
      threshold: 50,
      thresholdType: 'above_exclusive',
      interval: '15m',
      webhook: pagerduty,
      severity: 'error',
    }),
    alert(s, teamId, at + 120000, {
      name: 'Request volume drop',
      state: 'PENDING',
      tile: [svc, 1],
      threshold: 100,
      thresholdType: 'below',
      interval: '5m',
      webhook: slack,
      numConsecutiveWindows: 3,
      message: 'Traffic fell below {{threshold}} requests per 5 minutes.',
    }),
  ];
  if (full) {
    alerts.push(
      alert(s, teamId, at + 180000, {
        name: 'Node CPU saturation',
        state: 'INSUFFICIENT_DATA',
        tile: [nodes, 0],
        threshold: 0.85,
        thresholdType: 'above',
        interval: '1h',
        webhook: generic,
        scheduleOffsetMinutes: 5,
      }),
      alert(s, teamId, at + 240000, {
        name: 'Ready nodes out of range',
        state: 'DISABLED',
        tile: [nodes, 3],
        threshold: 3,
        thresholdMax: 12,
        thresholdType: 'not_between',
        interval: '30m',
        webhook: generic,
      }),
      alert(s, teamId, at + 300000, {
        name: 'Payment declines spike',
        state: 'ALERT',
        savedSearch: declines,
        groupBy: 'ServiceName',
        threshold: 25,
        thresholdType: 'above',
        interval: '1m',
        webhook: pagerduty,
        severity: 'critical',
        silenced: true,
        note: 'Silenced while the provider incident is open.',
      }),
      alert(s, teamId, at + 360000, {
        name: `${s.appTitle} error logs`,
        state: 'OK',
        savedSearch: errors,
        threshold: 10,
        thresholdType: 'above',
        interval: '5m',
        webhook: slack,
        executionErrors: [
          {
            timestamp: iso(T0 + hours(24 * 45)),
            type: 'QUERY_ERROR',
            message:
              'Code: 241. DB::Exception: Memory limit (for query) exceeded: would use 9.32 GiB. (MEMORY_LIMIT_EXCEEDED)',
          },
          {
            timestamp: iso(T0 + hours(24 * 45) + 60000),
            type: 'WEBHOOK_ERROR',
            message: 'Slack webhook returned HTTP 404: channel_not_found',
          },
        ],
      }),
      alert(s, teamId, at + 420000, {
        name: null,
        state: 'OK',
        savedSearch: slow,
        // A band the seeded traffic never reaches in 12 h, so the seeded OK is what a backtest of the data finds.
        threshold: 50_000,
        thresholdMax: 400_000,
        thresholdType: 'between',
        interval: '12h',
        webhook: generic,
        scheduleOffsetMinutes: 30,
      }),
    );
  }
  if (full) dash.push(runtimeDashboard(s, src));
  return {
    teamId,
    dashboards: new Map(dash.map((d) => [d.id, d])),
    alerts: new Map(alerts.map((a) => [a.id, a])),
    sources: new Map(srcList.map((x) => [String(x.id), x])),
    webhooks: new Map(hooks.map((w) => [w.id, w])),
    savedSearches: new Map(searches.map((x) => [x.id, x])),
    roles: new Map(roles(teamId, s.start, true).map((r) => [r.id, r])),
    connections: connectionsOf(connection, s.database),
    queryEndpoint: null,
  };
}

function emptyData(teamId: string, start: number): ServiceData {
  const predefined = roles(teamId, start, false);
  return {
    teamId,
    dashboards: new Map(),
    alerts: new Map(),
    sources: new Map(),
    webhooks: new Map(),
    savedSearches: new Map(),
    roles: new Map(predefined.map((r) => [r.id, r])),
    connections: connectionsOf(new SeededIds(start ^ 0xc0ffee).objectId(start), 'default'),
    queryEndpoint: null,
  };
}

/** The one ClickHouse connection a service's team has (Cloud provisions it with the service). */
function connectionsOf(id: string, database: string): Map<string, JsonObject> {
  return new Map([
    [id, { id, name: `ClickHouse (${database})`, host: 'https://clickhouse.invalid:8443', username: 'default' }],
  ]);
}

const ALERT_STATES: AlertState[] = ['OK', 'ALERT', 'PENDING', 'INSUFFICIENT_DATA', 'DISABLED'];
const INTERVALS = ['1m', '5m', '15m', '30m', '1h', '6h', '12h', '1d'];

/** Adds `count` generated tile alerts to `data` (fast enough for tens of thousands). */
export function addGeneratedAlerts(data: ServiceData, count: number): void {
  const targets: [string, string][] = [];
  for (const d of data.dashboards.values()) {
    for (const t of d.tiles) {
      const config = t.config as JsonObject | undefined;
      if (config && ['line', 'stacked_bar', 'number'].includes(String(config.displayType))) {
        targets.push([d.id, String(t.id)]);
      }
    }
  }
  const webhookId = data.webhooks.keys().next().value;
  if (targets.length === 0 || webhookId === undefined) return;
  const rng = new SeededIds(0x5eed + count);
  const start = T0 + hours(24 * 40);
  for (let i = 0; i < count; i++) {
    const [dashboardId, tileId] = targets[i % targets.length] as [string, string];
    const at = start + i * 1000;
    const id = rng.objectId(at);
    data.alerts.set(id, {
      id,
      teamId: data.teamId,
      source: 'tile',
      dashboardId,
      tileId,
      savedSearchId: null,
      groupBy: null,
      threshold: (i % 97) + 1,
      thresholdMax: null,
      thresholdType: i % 2 === 0 ? 'above' : 'below',
      interval: INTERVALS[i % INTERVALS.length] ?? '5m',
      scheduleOffsetMinutes: null,
      scheduleStartAt: null,
      channels: [{ type: 'webhook', webhookId }],
      name: `Generated alert ${String(i + 1).padStart(5, '0')}`,
      message: null,
      note: null,
      numConsecutiveWindows: null,
      state: ALERT_STATES[i % ALERT_STATES.length] ?? 'OK',
      silenced: null,
      executionErrors: [],
      createdAt: iso(at),
      updatedAt: iso(at),
    });
  }
}

function service(
  id: string,
  name: string,
  provider: string,
  region: string,
  state: string,
  createdAt: number,
  host: string,
  tags: { key: string; value: string }[],
): JsonObject & { id: string; name: string } {
  return {
    id,
    name,
    provider,
    region,
    state,
    clickhouseVersion: '25.8.1.8346',
    endpoints: [
      { protocol: 'nativesecure', host, port: 9440, username: 'default' },
      { protocol: 'https', host, port: 8443, username: 'default' },
    ],
    minReplicaMemoryGb: 8,
    maxReplicaMemoryGb: 120,
    numReplicas: 3,
    idleScaling: state === 'idle',
    idleTimeoutMinutes: 15,
    autoscalingMode: 'vertical',
    currentScaling: {
      effectiveAutoscalingMode: 'vertical',
      effectiveMinReplicaMemoryGb: 8,
      effectiveMaxReplicaMemoryGb: 120,
      effectiveMinReplicas: 3,
      effectiveMaxReplicas: 3,
      effectiveIdleScaling: state === 'idle',
      effectiveIdleTimeoutMinutes: 15,
    },
    ipAccessList: [{ source: '0.0.0.0/0', description: 'Anywhere' }],
    createdAt: iso(createdAt),
    iamRole: `arn:aws:iam::211125614781:role/CH-S3-${name}-Role`,
    privateEndpointIds: [],
    availablePrivateEndpointIds: [],
    dataWarehouseId: id,
    isPrimary: true,
    isReadonly: false,
    releaseChannel: 'default',
    tags,
  };
}

/** ID of the n-th extra data service (n from 1), deterministic. */
export function extraServiceId(n: number): string {
  return `5e7a1c00-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

export function buildState(data: 'sample' | 'empty', alertCount: number, extraServices = 0): EmulatorState {
  const ids = SAMPLE_SERVICE_IDS;
  const organization = {
    id: SAMPLE_ORGANIZATION_ID,
    name: 'Northwind Observability',
    createdAt: iso(T0 - hours(24 * 400)),
    privateEndpoints: [],
    byocConfig: [],
    enableCoreDumps: false,
  };
  const services = [
    service(
      ids[0],
      'checkout-prod',
      'aws',
      'us-east-1',
      'running',
      T0 - hours(24 * 300),
      'k7x2mq9p4d.us-east-1.aws.clickhouse.cloud',
      [{ key: 'Environment', value: 'Production' }],
    ),
    service(
      ids[1],
      'search-staging',
      'gcp',
      'europe-west4',
      'idle',
      T0 - hours(24 * 120),
      'p3w8zr1t6f.europe-west4.gcp.clickhouse.cloud',
      [{ key: 'Environment', value: 'Staging' }],
    ),
    service(
      ids[2],
      'analytics-sandbox',
      'azure',
      'eastus2',
      'stopped',
      T0 - hours(24 * 20),
      'h5n0bc7y2s.eastus2.azure.clickhouse.cloud',
      [{ key: 'Environment', value: 'Development' }],
    ),
  ];
  const keys: ApiKeyRecord[] = [
    {
      id: SAMPLE_KEY_UUID,
      name: 'vscode-observability',
      state: 'enabled',
      keySuffix: SAMPLE_KEY_ID.slice(-4),
      assignedRoles: [{ roleId: 'c0a8e5f2-9d41-4b37-8e6a-5f2c1d9b7e30', roleName: 'Admin', roleType: 'system' }],
      expireAt: null,
      createdAt: iso(T0 - hours(24 * 30)),
      usedAt: iso(T0 + hours(24 * 46)),
      ipAccessList: [{ source: '0.0.0.0/0', description: 'Anywhere' }],
    },
    {
      id: '9e2b6d4f-1a3c-4e5b-8d7f-6a0c2e4b8d19',
      name: 'terraform-ci',
      state: 'enabled',
      keySuffix: 'Qm7x',
      assignedRoles: [{ roleId: 'd1b9f6a3-0e52-4c48-9f7b-6a3d2e0c8f41', roleName: 'Developer', roleType: 'system' }],
      expireAt: '2027-06-30T00:00:00.000Z',
      createdAt: iso(T0 - hours(24 * 200)),
      usedAt: iso(T0 + hours(24 * 40)),
      ipAccessList: [{ source: '203.0.113.0/24', description: 'CI runners' }],
    },
    {
      id: '5c8e0a2d-4f6b-4a9c-b1e3-7d5f9a1c3e62',
      name: 'old-laptop',
      state: 'disabled',
      keySuffix: 'Zr2L',
      assignedRoles: [{ roleId: 'e2c0a7b4-1f63-4d59-a08c-7b4e3f1d9a52', roleName: 'Member', roleType: 'system' }],
      expireAt: null,
      createdAt: iso(T0 - hours(24 * 380)),
      ipAccessList: [],
    },
  ];
  const teamIds = ['65f1c2a9d4e8b7f3a1c9e201', '65f1c2a9d4e8b7f3a1c9e202', '65f1c2a9d4e8b7f3a1c9e203'];
  const map = new Map<string, ServiceData>();
  if (data === 'sample') {
    map.set(
      ids[0],
      serviceData(
        { app: 'checkout', appTitle: 'Checkout', database: 'otel', rng: new SeededIds(0xc0ffee), start: T0 },
        teamIds[0] as string,
        true,
      ),
    );
    map.set(
      ids[1],
      serviceData(
        {
          app: 'search',
          appTitle: 'Search API',
          database: 'otel_staging',
          rng: new SeededIds(0xbeef),
          start: T0 + hours(24 * 9),
        },
        teamIds[1] as string,
        false,
      ),
    );
  } else {
    map.set(ids[0], emptyData(teamIds[0] as string, T0));
    map.set(ids[1], emptyData(teamIds[1] as string, T0 + hours(24 * 9)));
  }
  map.set(ids[2], emptyData(teamIds[2] as string, T0 + hours(24 * 18)));
  // Extra running services with their own sample data (browsing many services, rate-limit scenarios).
  for (let n = 1; n <= extraServices; n++) {
    const id = extraServiceId(n);
    const teamId = `65f1c2a9d4e8b7f3a1c9${(0xe000 + n).toString(16)}`;
    services.push(
      service(
        id,
        `extra-${n}`,
        'aws',
        'eu-central-1',
        'running',
        T0 - hours(24 * (10 + n)),
        `x${n}q4m8z2t6.eu-central-1.aws.clickhouse.cloud`,
        [{ key: 'Environment', value: 'Extra' }],
      ),
    );
    map.set(
      id,
      data === 'sample'
        ? serviceData(
            {
              app: `app${n}`,
              appTitle: `App ${n}`,
              database: `otel_app${n}`,
              rng: new SeededIds(0xa11ce + n),
              start: T0 + hours(24 * n),
            },
            teamId,
            false,
          )
        : emptyData(teamId, T0 + hours(24 * n)),
    );
  }
  if (alertCount > 0) {
    const first = map.get(ids[0]) as ServiceData;
    addGeneratedAlerts(first, alertCount);
  }
  return { organization, services, keys, data: map };
}
