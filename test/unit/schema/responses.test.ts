import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import {
  alertSchema,
  alertToWriteBody,
  alertWriteSchema,
  apiKeySchema,
  dashboardSchema,
  dashboardToUpdateBody,
  dashboardUpdateSchema,
  dashboardValidationSchema,
  deleteEnvelopeSchema,
  errorEnvelopeSchema,
  isAlertableTile,
  organizationSchema,
  savedSearchSchema,
  serviceSchema,
  sourceSchema,
  successEnvelopeSchema,
  webhookSchema,
} from '../../../src/schema';
import { SOURCE_ID, WEBHOOK_ID, alertResponse, dashboardResponse } from './fixtures';
import { assertValid } from './helpers';

const REQUEST_ID = '0c5f3b8e-1d2a-4b6c-9e7f-8a9b0c1d2e3f';
const ORG_ID = '6e2a1c0d-4f3b-4a59-8d7e-1b2c3d4e5f60';
const SERVICE_ID = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';

describe('envelopes', () => {
  it('parses a list envelope with a bare array result', () => {
    const body = { status: 200, requestId: REQUEST_ID, result: [alertResponse()] };
    const parsed = successEnvelopeSchema(z.array(alertSchema)).parse(body);
    assert.equal(parsed.result.length, 1);
    assert.equal(parsed.result[0]?.id, '65f5e4a3b9e77c001a123456');
  });

  it('parses delete and error envelopes', () => {
    assertValid(deleteEnvelopeSchema, { status: 200, requestId: REQUEST_ID });
    const error = errorEnvelopeSchema.parse({ status: 400, error: 'Tile not found', requestId: REQUEST_ID });
    assert.equal(error.error, 'Tile not found');
    assertValid(errorEnvelopeSchema, { status: 500, error: 'Internal error' });
  });

  it('rejects an envelope without result', () => {
    assert.equal(successEnvelopeSchema(alertSchema).safeParse({ status: 200, requestId: REQUEST_ID }).success, false);
  });
});

describe('alert responses', () => {
  it('parses a live-shaped alert and keeps unknown fields', () => {
    const sample = { ...alertResponse(), futureField: { nested: true } };
    assert.deepEqual(alertSchema.parse(sample), sample);
  });

  it('parses alerts with omitted links, silenced, errors and unknown enum values', () => {
    const sample = {
      id: 'a2',
      source: 'saved_search',
      savedSearchId: 's1',
      threshold: 1,
      thresholdType: 'below',
      interval: '5m',
      state: 'SOME_NEW_STATE',
      note: null,
      numConsecutiveWindows: 2,
      silenced: { by: null, at: '2026-03-19T08:00:00.000Z', until: '2026-03-20T08:00:00.000Z' },
      executionErrors: [
        { timestamp: '2026-04-17T12:00:00.000Z', type: 'QUERY_TIMEOUT', message: 'Query timed out after 30s' },
      ],
      channel: { type: 'email', emailRecipients: ['a@example.com'] },
    };
    const parsed = alertSchema.parse(sample);
    assert.equal(parsed.state, 'SOME_NEW_STATE');
    assert.equal(parsed.dashboardId, undefined);
  });

  it('rejects an alert response without id or threshold', () => {
    const { id: _id, ...noId } = alertResponse();
    assert.equal(alertSchema.safeParse(noId).success, false);
    assert.equal(alertSchema.safeParse({ ...alertResponse(), threshold: '100' }).success, false);
  });

  it('round-trips get -> edit -> put without losing fields', () => {
    const alert = alertSchema.parse(alertResponse());
    const body = alertToWriteBody(alert);
    assert.equal('id' in body, false);
    assert.equal('state' in body, false);
    body.threshold = 250;
    const write = alertWriteSchema.parse(body);
    assert.equal(write.threshold, 250);
    assert.deepEqual(write.channels, [{ type: 'webhook', webhookId: WEBHOOK_ID }]);
    assert.equal(write.note, null);
    assert.equal(write.tileId, alertResponse().tileId);
  });

  it('keeps response fields unknown to the write schema in the body that is sent', () => {
    const alert = alertSchema.parse({ ...alertResponse(), displayName: 'x' });
    const result = alertWriteSchema.parse(alertToWriteBody(alert));
    assert.equal((result as Record<string, unknown>).displayName, 'x');
  });
});

describe('dashboard responses', () => {
  it('parses a live-shaped dashboard and keeps unknown fields', () => {
    const sample = { ...dashboardResponse(), layoutVersion: 3 };
    assert.deepEqual(dashboardSchema.parse(sample), sample);
  });

  it('parses a dashboard without tags, filters or containers', () => {
    assertValid(dashboardSchema, { id: 'd', name: 'Empty', tiles: [] });
  });

  it('round-trips get -> edit -> put keeping tile ids and unknown config fields', () => {
    const dashboard = dashboardSchema.parse(dashboardResponse());
    const body = dashboardToUpdateBody(dashboard);
    body.name = 'Renamed';
    const update = dashboardUpdateSchema.parse(body);
    assert.equal(update.name, 'Renamed');
    assert.deepEqual(
      update.tiles.map((tile) => tile.id),
      dashboard.tiles.map((tile) => tile.id),
    );
    const config = update.tiles[0]?.config as Record<string, unknown>;
    assert.deepEqual(config.futureChartOption, { enabled: true });
    assert.deepEqual(JSON.parse(JSON.stringify(update)), JSON.parse(JSON.stringify(body)));
  });

  it('tells alertable tiles apart', () => {
    const dashboard = dashboardSchema.parse(dashboardResponse());
    assert.deepEqual(dashboard.tiles.map(isAlertableTile), [true, false]);
  });

  it('parses the validate result', () => {
    assertValid(dashboardValidationSchema, {
      valid: false,
      errors: [{ path: 'tiles.0.config', message: 'Required' }],
      normalized: null,
    });
    assertValid(dashboardValidationSchema, { valid: true, errors: [], normalized: { name: 'x', tiles: [] } });
  });
});

describe('sources, webhooks, saved searches, cloud objects', () => {
  it('parses sources of every kind and unknown kinds', () => {
    const sources = [
      {
        id: 's1',
        name: 'Logs',
        kind: 'log',
        connection: 'c1',
        from: { databaseName: 'default', tableName: 'otel_logs' },
        timestampValueExpression: 'TimestampTime',
        defaultTableSelectExpression: 'Timestamp, Body',
      },
      {
        id: 's2',
        name: 'Traces',
        kind: 'trace',
        connection: 'c1',
        from: { databaseName: 'default', tableName: 'otel_traces' },
        durationPrecision: 9,
      },
      {
        id: 's3',
        name: 'Metrics',
        kind: 'metric',
        connection: 'c1',
        from: { databaseName: 'default', tableName: null },
        metricTables: { gauge: 'otel_metrics_gauge' },
      },
      {
        id: 's4',
        name: 'Sessions',
        kind: 'session',
        connection: 'c1',
        from: { databaseName: 'default', tableName: 'hyperdx_sessions' },
        timestampValueExpression: null,
        traceSourceId: 's2',
      },
      { id: 's5', name: 'Prom', kind: 'promql', connection: 'c1', from: { databaseName: 'default', tableName: '' } },
      { id: SOURCE_ID, name: 'Future', kind: 'profile' },
    ];
    for (const source of sources) assert.deepEqual(sourceSchema.parse(source), source);
  });

  it('parses webhooks of every service and saved searches', () => {
    for (const service of ['slack', 'incidentio', 'generic', 'slack_api', 'pagerduty_api']) {
      assertValid(webhookSchema, {
        id: WEBHOOK_ID,
        name: `hook ${service}`,
        service,
        url: 'https://hooks.example.com/x',
        createdAt: '2025-01-01T00:00:00.000Z',
        updatedAt: '2025-06-15T10:30:00.000Z',
      });
    }
    assertValid(savedSearchSchema, {
      id: 'ss1',
      name: 'Production errors',
      sourceId: SOURCE_ID,
      where: 'SeverityText:ERROR',
      whereLanguage: 'lucene',
      tags: ['errors'],
      teamId: 't1',
    });
  });

  it('parses organizations, services and API keys', () => {
    assertValid(organizationSchema, {
      id: ORG_ID,
      name: 'Acme',
      createdAt: '2024-01-01T00:00:00Z',
      privateEndpoints: [],
      byocConfig: [],
      enableCoreDumps: false,
    });
    assertValid(serviceSchema, {
      id: SERVICE_ID,
      name: 'prod',
      provider: 'aws',
      region: 'us-east-1',
      state: 'running',
      clickhouseVersion: '25.8',
      endpoints: [{ protocol: 'https', host: 'abc.us-east-1.aws.clickhouse.cloud', port: 8443, username: 'default' }],
      tags: [{ key: 'Environment', value: 'Production' }],
      isReadonly: false,
    });
    assertValid(apiKeySchema, {
      id: '5f6e7d8c-9b0a-4c1d-8e2f-3a4b5c6d7e8f',
      name: 'ci',
      state: 'enabled',
      keySuffix: 'AbCd',
      assignedRoles: [],
      expireAt: null,
      usedAt: '2026-01-01T00:00:00Z',
    });
    assert.equal(organizationSchema.safeParse({ id: 'not-a-uuid', name: 'x' }).success, false);
  });
});
