/** Request bodies and response samples shaped like the live service's (see the API notes). */

export const DASHBOARD_ID = '65f5e4a3b9e77c001a567890';
export const TILE_ID = '65f5e4a3b9e77c001a901234';
export const WEBHOOK_ID = '65f5e4a3b9e77c001a789012';
export const SAVED_SEARCH_ID = '65f5e4a3b9e77c001a345678';
export const SOURCE_ID = '65f5e4a3b9e77c001a111111';
export const CONNECTION_ID = '65f5e4a3b9e77c001a222222';

/** The create-alert body of the specification: exactly its nine fields. */
export function seedAlertBody(): Record<string, unknown> {
  return {
    dashboardId: DASHBOARD_ID,
    tileId: TILE_ID,
    threshold: 100,
    interval: '1h',
    source: 'tile',
    thresholdType: 'above',
    channel: { type: 'webhook', webhookId: WEBHOOK_ID },
    name: 'Test Alert',
    message: 'Test Alert Message',
  };
}

export function savedSearchAlertBody(): Record<string, unknown> {
  return {
    source: 'saved_search',
    savedSearchId: SAVED_SEARCH_ID,
    groupBy: 'ServiceName',
    threshold: 5,
    thresholdType: 'above_exclusive',
    interval: '15m',
    channel: { type: 'email', emailRecipients: ['oncall@example.com'] },
  };
}

/** An alert as GET returns it: unset links omitted, note and numConsecutiveWindows present. */
export function alertResponse(): Record<string, unknown> {
  return {
    id: '65f5e4a3b9e77c001a123456',
    teamId: '65f5e4a3b9e77c001a000001',
    name: 'Test Alert',
    message: 'Test Alert Message',
    note: null,
    numConsecutiveWindows: null,
    source: 'tile',
    dashboardId: DASHBOARD_ID,
    tileId: TILE_ID,
    threshold: 100,
    thresholdType: 'above',
    interval: '1h',
    channel: { type: 'webhook', webhookId: WEBHOOK_ID },
    channels: [{ type: 'webhook', webhookId: WEBHOOK_ID }],
    state: 'OK',
    executionErrors: [],
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-02T11:30:00.000Z',
  };
}

export function lineTile(id = TILE_ID): Record<string, unknown> {
  return {
    id,
    name: 'Error rate',
    x: 0,
    y: 0,
    w: 12,
    h: 4,
    config: {
      displayType: 'line',
      sourceId: SOURCE_ID,
      select: [{ aggFn: 'count', where: 'SeverityText:error', whereLanguage: 'lucene', valueExpression: '' }],
      groupBy: 'ServiceName',
    },
  };
}

export function dashboardBody(): Record<string, unknown> {
  return {
    name: 'Service overview',
    tags: ['production'],
    tiles: [
      lineTile(),
      {
        name: 'Requests',
        x: 12,
        y: 0,
        w: 12,
        h: 4,
        containerId: 'health',
        tabId: 'errors',
        config: {
          configType: 'sql',
          displayType: 'number',
          connectionId: CONNECTION_ID,
          sqlTemplate: 'SELECT count() FROM otel_logs',
        },
      },
      { name: 'Notes', x: 0, y: 4, w: 24, h: 2, config: { displayType: 'markdown', markdown: '# Runbook' } },
    ],
    containers: [{ id: 'health', title: 'Health', collapsed: false, tabs: [{ id: 'errors', title: 'Errors' }] }],
    filters: [{ type: 'QUERY_EXPRESSION', name: 'Service', expression: 'ServiceName', sourceId: SOURCE_ID }],
    savedQuery: "ServiceName = 'api'",
    savedQueryLanguage: 'sql',
  };
}

/** A dashboard as GET returns it (tile config carries fields this version does not know). */
export function dashboardResponse(): Record<string, unknown> {
  return {
    id: DASHBOARD_ID,
    name: 'Service overview',
    tiles: [
      {
        ...lineTile(),
        config: {
          ...(lineTile().config as object),
          seriesLimit: 0,
          futureChartOption: { enabled: true },
        },
      },
      {
        id: '65f5e4a3b9e77c001a901235',
        name: 'Latency',
        x: 0,
        y: 4,
        w: 8,
        h: 3,
        config: {
          displayType: 'heatmap',
          sourceId: SOURCE_ID,
          select: [{ valueExpression: 'Duration', heatmapScaleType: 'log' }],
          where: '',
        },
      },
    ],
    tags: [],
    filters: [{ id: 'f1', type: 'QUERY_EXPRESSION', name: 'Service', expression: 'ServiceName', sourceId: SOURCE_ID }],
    savedQuery: null,
    savedQueryLanguage: null,
    savedFilterValues: [],
  };
}
