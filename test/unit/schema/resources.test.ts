/**
 * Write rules of webhooks, saved searches, sources and roles as the live server checks them (newest spec and the
 * server's validators), one test per rule, named by field; and keys unknown to this version surviving a body.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  roleCreateSchema,
  roleUpdateSchema,
  savedSearchSchema,
  savedSearchToWriteBody,
  savedSearchWriteSchema,
  sourceSchema,
  sourceToWriteBody,
  sourceWriteSchema,
  webhookSchema,
  webhookToWriteBody,
  webhookWriteSchema,
} from '../../../src/schema';
import { assertIssue, assertValid } from './helpers';

const OID = '65f5e4a3b9e77c001a789012';

const webhook = (extra: Record<string, unknown> = {}) => ({
  name: 'Ops',
  service: 'generic',
  url: 'https://hooks.example.com/alerts',
  ...extra,
});
const slack = (extra: Record<string, unknown> = {}) => ({
  name: 'Slack',
  service: 'slack',
  url: 'https://hooks.slack.com/services/T0/B0/x',
  ...extra,
});

describe('webhook write rules of the live service', () => {
  it('accepts a minimal generic, incidentio and slack webhook', () => {
    assertValid(webhookWriteSchema, webhook());
    assertValid(webhookWriteSchema, webhook({ service: 'incidentio', body: '{"a":1}' }));
    assertValid(webhookWriteSchema, slack());
  });

  it('name: required, not blank after trimming, at most 1024 characters after trimming', () => {
    assertIssue(webhookWriteSchema, { service: 'generic', url: 'https://x.io' }, 'name', /required/);
    assertIssue(webhookWriteSchema, webhook({ name: '   ' }), 'name', /must not be empty/);
    assertIssue(webhookWriteSchema, webhook({ name: 'n'.repeat(1025) }), 'name', /at most 1024/);
    assertValid(webhookWriteSchema, webhook({ name: ` ${'n'.repeat(1024)} ` }));
  });

  it('service: slack, incidentio or generic (slack_api and pagerduty_api are read-only)', () => {
    assertIssue(
      webhookWriteSchema,
      webhook({ service: 'pagerduty_api' }),
      'service',
      /must be one of slack, incidentio, generic/,
    );
    assertIssue(webhookWriteSchema, webhook({ service: undefined }), 'service');
  });

  it('url: required, a valid URL of at most 2048 characters, http or https', () => {
    assertIssue(webhookWriteSchema, webhook({ url: undefined }), 'url', /required/);
    assertIssue(webhookWriteSchema, webhook({ url: 'not a url' }), 'url', /valid URL/);
    assertIssue(webhookWriteSchema, webhook({ url: 'ftp://files.example.com/x' }), 'url', /http or https/);
    assertIssue(webhookWriteSchema, webhook({ url: `https://x.io/${'a'.repeat(2048)}` }), 'url', /at most 2048/);
  });

  it('url of a slack webhook: the host name ends in slack.com', () => {
    assertIssue(webhookWriteSchema, slack({ url: 'https://hooks.example.com/x' }), 'url', /slack\.com/);
    assertValid(webhookWriteSchema, slack({ url: 'https://hooks.slack.com/x' }));
  });

  it('description: at most 2048 characters; null refused (omit it)', () => {
    assertIssue(webhookWriteSchema, webhook({ description: 'd'.repeat(2049) }), 'description', /at most 2048/);
    assertIssue(webhookWriteSchema, webhook({ description: null }), 'description', /must not be null \(omit it\)/);
  });

  it('body: at most 16384 characters; refused for slack', () => {
    assertIssue(webhookWriteSchema, webhook({ body: 'b'.repeat(16 * 1024 + 1) }), 'body', /at most 16384/);
    assertIssue(webhookWriteSchema, slack({ body: '{}' }), 'body', /not supported for the slack webhook service/);
  });

  it('headers: token names not starting with a digit, values without control characters, at most 100; refused for slack', () => {
    assertValid(webhookWriteSchema, webhook({ headers: { Authorization: 'Bearer t', 'X-Custom_1': 'v' } }));
    assertIssue(webhookWriteSchema, webhook({ headers: { '1st': 'v' } }), 'headers.1st', /cannot start with a number/);
    assertIssue(
      webhookWriteSchema,
      webhook({ headers: { 'Bad Name': 'v' } }),
      'headers.Bad Name',
      /Invalid header name/,
    );
    assertIssue(webhookWriteSchema, webhook({ headers: { X: 'a\r\nInjected: 1' } }), 'headers.X', /control characters/);
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`H${i}`, 'v']));
    assertIssue(webhookWriteSchema, webhook({ headers: many }), 'headers', /more than 100 headers/);
    assertIssue(
      webhookWriteSchema,
      slack({ headers: { X: 'v' } }),
      'headers',
      /not supported for the slack webhook service/,
    );
  });

  it('queryParams: names 1..1024 and values without control characters, at most 100; refused for slack', () => {
    assertValid(webhookWriteSchema, webhook({ queryParams: { token: 'abc' } }));
    assertIssue(webhookWriteSchema, webhook({ queryParams: { '': 'v' } }), 'queryParams.', /cannot be empty/);
    assertIssue(webhookWriteSchema, webhook({ queryParams: { k: 'a\tb' } }), 'queryParams.k', /control characters/);
    assertIssue(
      webhookWriteSchema,
      slack({ queryParams: { k: 'v' } }),
      'queryParams',
      /not supported for the slack webhook service/,
    );
  });

  it('keys unknown to this version are kept in the body; a webhook as read becomes a body without read-only fields', () => {
    const parsed = webhookWriteSchema.parse(webhook({ futureField: { a: 1 } }));
    assert.deepEqual(parsed.futureField, { a: 1 });
    const read = webhookSchema.parse({
      id: OID,
      name: 'Ops',
      service: 'generic',
      url: 'https://x.io',
      createdAt: 'c',
      updatedAt: 'u',
      description: null,
      futureField: 2,
    });
    const body = webhookToWriteBody(read);
    assert.deepEqual(body, { name: 'Ops', service: 'generic', url: 'https://x.io', futureField: 2 });
    assertValid(webhookWriteSchema, body);
  });
});

const search = (extra: Record<string, unknown> = {}) => ({ name: 'Errors', sourceId: OID, ...extra });

describe('saved search write rules of the live service', () => {
  it('accepts the minimal body (name and sourceId) and a full one', () => {
    assertValid(savedSearchWriteSchema, search());
    assertValid(
      savedSearchWriteSchema,
      search({
        select: 'Timestamp, Body',
        where: 'level:error',
        whereLanguage: 'lucene',
        orderBy: 'Timestamp DESC',
        tags: ['prod'],
        filters: [{ type: 'sql', condition: "ServiceName IN ('a')" }],
      }),
    );
  });

  it('name: required, not blank after trimming, at most 1024 characters', () => {
    assertIssue(savedSearchWriteSchema, { sourceId: OID }, 'name', /required/);
    assertIssue(savedSearchWriteSchema, search({ name: ' ' }), 'name', /must not be empty/);
    assertIssue(savedSearchWriteSchema, search({ name: 'n'.repeat(1025) }), 'name', /at most 1024/);
  });

  it('sourceId: required, an ID', () => {
    assertIssue(savedSearchWriteSchema, { name: 'x' }, 'sourceId');
    assertIssue(savedSearchWriteSchema, search({ sourceId: '../x' }), 'sourceId', /must be an ID/);
  });

  it('select <= 4096, where <= 8192, orderBy <= 1024 characters; null refused (omit it)', () => {
    assertIssue(savedSearchWriteSchema, search({ select: 's'.repeat(4097) }), 'select', /at most 4096/);
    assertIssue(savedSearchWriteSchema, search({ where: 'w'.repeat(8193) }), 'where', /at most 8192/);
    assertIssue(savedSearchWriteSchema, search({ orderBy: 'o'.repeat(1025) }), 'orderBy', /at most 1024/);
    assertIssue(savedSearchWriteSchema, search({ where: null }), 'where', /must not be null \(omit it\)/);
  });

  it('whereLanguage: lucene or sql', () => {
    assertIssue(savedSearchWriteSchema, search({ whereLanguage: 'promql' }), 'whereLanguage', /"lucene" or "sql"/);
  });

  it('tags: at most 50, each at most 32 characters', () => {
    assertIssue(savedSearchWriteSchema, search({ tags: ['t'.repeat(33)] }), 'tags.0', /at most 32/);
    assertIssue(
      savedSearchWriteSchema,
      search({ tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }),
      'tags',
      /at most 50 tags/,
    );
  });

  it('filters: at most 100; {type?: sql|lucene, condition <= 8192} or {type: sql_ast, operator, left, right}', () => {
    assertValid(
      savedSearchWriteSchema,
      search({ filters: [{ condition: 'a IN (1)' }, { type: 'sql_ast', operator: '>=', left: 'a', right: '1' }] }),
    );
    assertIssue(savedSearchWriteSchema, search({ filters: [{ type: 'regex', condition: 'x' }] }), 'filters.0');
    assertIssue(
      savedSearchWriteSchema,
      search({ filters: [{ condition: 'c'.repeat(8193) }] }),
      'filters.0.condition',
      /at most 8192/,
    );
    assertIssue(
      savedSearchWriteSchema,
      search({ filters: Array.from({ length: 101 }, () => ({ condition: 'a IN (1)' })) }),
      'filters',
      /at most 100 filters/,
    );
  });

  it('a saved search as read becomes a body without read-only fields, unknown keys kept', () => {
    const read = savedSearchSchema.parse({
      id: OID,
      name: 'E',
      sourceId: OID,
      teamId: 't',
      createdAt: 'c',
      updatedAt: 'u',
      where: '',
      futureField: 1,
    });
    const body = savedSearchToWriteBody(read);
    assert.deepEqual(body, { name: 'E', sourceId: OID, where: '', futureField: 1 });
    assertValid(savedSearchWriteSchema, body);
  });
});

const base = {
  name: 'Logs',
  connection: OID,
  from: { databaseName: 'default', tableName: 'otel_logs' },
  timestampValueExpression: 'TimestampTime',
};
const log = (extra: Record<string, unknown> = {}) => ({
  ...base,
  kind: 'log',
  defaultTableSelectExpression: 'Timestamp, Body',
  ...extra,
});
const trace = (extra: Record<string, unknown> = {}) => ({
  ...base,
  kind: 'trace',
  defaultTableSelectExpression: 'Timestamp, SpanName',
  durationExpression: 'Duration',
  traceIdExpression: 'TraceId',
  spanIdExpression: 'SpanId',
  parentSpanIdExpression: 'ParentSpanId',
  spanNameExpression: 'SpanName',
  spanKindExpression: 'SpanKind',
  ...extra,
});
const metric = (extra: Record<string, unknown> = {}) => ({
  ...base,
  kind: 'metric',
  from: { databaseName: 'default', tableName: '' },
  metricTables: { gauge: 'otel_metrics_gauge' },
  resourceAttributesExpression: 'ResourceAttributes',
  ...extra,
});
const session = (extra: Record<string, unknown> = {}) => ({ ...base, kind: 'session', traceSourceId: OID, ...extra });

describe('source write rules of the live service (per kind)', () => {
  it('accepts a minimal log, trace, metric, session and promql source', () => {
    for (const body of [log(), trace(), metric(), session(), { ...base, kind: 'promql' }]) {
      assertValid(sourceWriteSchema, body);
    }
  });

  it('kind: one of log, trace, session, metric, promql', () => {
    assertIssue(sourceWriteSchema, { ...base, kind: 'events' }, 'kind', /must be one of/);
  });

  it('name, connection, from.databaseName, from.tableName, timestampValueExpression: required and not empty (every kind)', () => {
    assertIssue(sourceWriteSchema, log({ name: '' }), 'name', /Name is required/);
    assertIssue(sourceWriteSchema, log({ connection: undefined }), 'connection');
    assertIssue(
      sourceWriteSchema,
      log({ from: { databaseName: '', tableName: 't' } }),
      'from.databaseName',
      /Database is required/,
    );
    assertIssue(
      sourceWriteSchema,
      log({ from: { databaseName: 'd', tableName: '' } }),
      'from.tableName',
      /Table is required/,
    );
    assertIssue(
      sourceWriteSchema,
      log({ timestampValueExpression: '' }),
      'timestampValueExpression',
      /Timestamp Column is required/,
    );
    assertIssue(
      sourceWriteSchema,
      session({ timestampValueExpression: undefined }),
      'timestampValueExpression',
      /required/,
    );
  });

  it('section: at most 256 characters; disabled: a boolean, null refused', () => {
    assertIssue(sourceWriteSchema, log({ section: 's'.repeat(257) }), 'section', /at most 256/);
    assertIssue(sourceWriteSchema, log({ disabled: null }), 'disabled', /must not be null \(omit it\)/);
  });

  it('querySettings: at most 10 of {setting, value}, both non-empty', () => {
    assertIssue(
      sourceWriteSchema,
      log({ querySettings: [{ setting: 'max_threads', value: '' }] }),
      'querySettings.0.value',
      /required/,
    );
    const eleven = Array.from({ length: 11 }, (_, i) => ({ setting: `s${i}`, value: '1' }));
    assertIssue(sourceWriteSchema, log({ querySettings: eleven }), 'querySettings', /at most 10/);
  });

  it('log: defaultTableSelectExpression required; optional expressions refuse null (omit them)', () => {
    assertIssue(
      sourceWriteSchema,
      log({ defaultTableSelectExpression: undefined }),
      'defaultTableSelectExpression',
      /required/,
    );
    assertIssue(
      sourceWriteSchema,
      log({ serviceNameExpression: null }),
      'serviceNameExpression',
      /must not be null \(omit it\)/,
    );
    assertIssue(
      sourceWriteSchema,
      log({ useTextIndexForImplicitColumn: 'always' }),
      'useTextIndexForImplicitColumn',
      /auto, enabled, disabled/,
    );
  });

  it('trace: duration, trace ID, span ID, parent span ID, span name and span kind expressions required', () => {
    for (const field of [
      'durationExpression',
      'traceIdExpression',
      'spanIdExpression',
      'parentSpanIdExpression',
      'spanNameExpression',
      'spanKindExpression',
      'defaultTableSelectExpression',
    ]) {
      assertIssue(sourceWriteSchema, trace({ [field]: '' }), field, /is required/);
    }
  });

  it('trace: durationPrecision optional, 0..9; logSourceId may be null', () => {
    assertValid(sourceWriteSchema, trace({ durationPrecision: 9, logSourceId: null }));
    assertIssue(sourceWriteSchema, trace({ durationPrecision: 10 }), 'durationPrecision', /from 0 to 9/);
  });

  it('session: traceSourceId required', () => {
    assertIssue(sourceWriteSchema, session({ traceSourceId: undefined }), 'traceSourceId', /required/);
    assertIssue(
      sourceWriteSchema,
      session({ traceSourceId: '' }),
      'traceSourceId',
      /Correlated Trace Source is required/,
    );
  });

  it('metric: metricTables with at least one table, resourceAttributesExpression required, from.tableName may be empty', () => {
    assertIssue(
      sourceWriteSchema,
      metric({ metricTables: { gauge: '' } }),
      'metricTables',
      /at least one metric table/,
    );
    assertIssue(sourceWriteSchema, metric({ metricTables: undefined }), 'metricTables', /required/);
    assertIssue(
      sourceWriteSchema,
      metric({ resourceAttributesExpression: '' }),
      'resourceAttributesExpression',
      /Resource Attributes is required/,
    );
    assertIssue(sourceWriteSchema, metric({ from: { databaseName: 'd' } }), 'from.tableName', /required/);
  });

  it('materializedViews: granularity 15s/5m/1h/1d, at least one aggregated column, sourceColumn unless count', () => {
    const mv = (extra: Record<string, unknown> = {}) => ({
      databaseName: 'default',
      tableName: 'logs_mv',
      dimensionColumns: 'ServiceName',
      minGranularity: '1m',
      timestampColumn: 'Timestamp',
      aggregatedColumns: [{ aggFn: 'count', mvColumn: 'count' }],
      ...extra,
    });
    assertValid(sourceWriteSchema, log({ materializedViews: [mv(), mv({ minGranularity: '15 second' })] }));
    assertIssue(
      sourceWriteSchema,
      log({ materializedViews: [mv({ minGranularity: '1w' })] }),
      'materializedViews.0.minGranularity',
      /granularity/,
    );
    assertIssue(
      sourceWriteSchema,
      log({ materializedViews: [mv({ aggregatedColumns: [] })] }),
      'materializedViews.0.aggregatedColumns',
      /At least one/,
    );
    assertIssue(
      sourceWriteSchema,
      log({ materializedViews: [mv({ aggregatedColumns: [{ aggFn: 'sum', mvColumn: 's' }] })] }),
      'materializedViews.0.aggregatedColumns.0.sourceColumn',
      /required/,
    );
  });

  it('a source as read becomes a body: id and nulls the server refuses left out, unknown keys kept', () => {
    const read = sourceSchema.parse({
      id: OID,
      ...log(),
      serviceNameExpression: null,
      logSourceId: null,
      futureField: { x: 1 },
    });
    const body = sourceToWriteBody(read);
    assert.equal('id' in body, false);
    assert.equal('serviceNameExpression' in body, false);
    assert.deepEqual(body.futureField, { x: 1 });
    assertValid(sourceWriteSchema, body);
    assert.deepEqual((sourceWriteSchema.parse(log({ futureField: [1] })) as Record<string, unknown>).futureField, [1]);
  });
});

describe('role write rules of the newest spec', () => {
  it('create: name and permissions required; each permission has action and subject', () => {
    assertValid(roleCreateSchema, { name: 'Deploy Bot', permissions: [{ action: 'read', subject: 'dashboard' }] });
    assertIssue(roleCreateSchema, { permissions: [] }, 'name', /required/);
    assertIssue(roleCreateSchema, { name: 'r' }, 'permissions', /required/);
    assertIssue(
      roleCreateSchema,
      { name: 'r', permissions: [{ action: 'read' }] },
      'permissions.0.subject',
      /required/,
    );
  });

  it('update: permissions required (the replacement set); name optional', () => {
    assertValid(roleUpdateSchema, { permissions: [] });
    assertIssue(roleUpdateSchema, { name: 'r' }, 'permissions', /required/);
  });

  it('permission: inverted a boolean, conditions an object, unknown keys kept', () => {
    assertIssue(
      roleCreateSchema,
      { name: 'r', permissions: [{ action: 'read', subject: 'all', inverted: 'yes' }] },
      'permissions.0.inverted',
      /true or false/,
    );
    const parsed = roleCreateSchema.parse({
      name: 'r',
      permissions: [{ action: 'read', subject: 'all', conditions: { team: 't' }, future: 1 }],
    });
    assert.deepEqual(parsed.permissions[0], { action: 'read', subject: 'all', conditions: { team: 't' }, future: 1 });
  });
});
