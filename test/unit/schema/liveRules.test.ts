/**
 * The write rules of the live service (newer spec and the server's validators), each named by its
 * field, and fields unknown to this version surviving parse -> serialize at every depth.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  alertSchema,
  alertToWriteBody,
  alertWriteSchema,
  dashboardSchema,
  dashboardToUpdateBody,
  dashboardUpdateSchema,
  dashboardWriteSchema,
  deriveVariableName,
  formulaExpressionProblems,
  knownKeysAt,
  queryEndpointWriteSchema,
  sourceSchema,
  tileConfigSchema,
} from '../../../src/schema';
import { SOURCE_ID, WEBHOOK_ID, alertResponse, dashboardBody, dashboardResponse, seedAlertBody } from './fixtures';
import { assertIssue, assertValid } from './helpers';

const metricLine = (extra: Record<string, unknown> = {}) => ({
  displayType: 'line',
  sourceId: SOURCE_ID,
  select: [
    { aggFn: 'sum', valueExpression: 'Value', metricName: 'errors', metricType: 'sum' },
    { aggFn: 'sum', valueExpression: 'Value', metricName: 'requests', metricType: 'sum' },
  ],
  ...extra,
});

const filter = (extra: Record<string, unknown> = {}) => ({
  type: 'QUERY_EXPRESSION',
  name: 'Service',
  expression: 'ServiceName',
  sourceId: SOURCE_ID,
  ...extra,
});

const withFilters = (filters: unknown[], extra: Record<string, unknown> = {}) => ({
  name: 'D',
  tiles: [],
  filters,
  ...extra,
});
const alert = (extra: Record<string, unknown>) => ({ ...seedAlertBody(), ...extra });

describe('alert write rules of the live service', () => {
  it('interval "30s" is accepted (the service may refuse it without the team feature and says so)', () => {
    assertValid(alertWriteSchema, alert({ interval: '30s' }));
  });

  it('thresholdMax: null refused (omit it); required and >= threshold for between / not_between', () => {
    assertIssue(alertWriteSchema, alert({ thresholdMax: null }), 'thresholdMax', /must not be null \(omit it\)/);
    assertIssue(
      alertWriteSchema,
      alert({ thresholdType: 'between' }),
      'thresholdMax',
      /required when thresholdType is "between"/,
    );
    assertIssue(
      alertWriteSchema,
      alert({ thresholdType: 'not_between', thresholdMax: 50 }),
      'thresholdMax',
      />= threshold|greater than or equal/,
    );
    assertValid(alertWriteSchema, alert({ thresholdType: 'between', thresholdMax: 100 }));
  });

  it('scheduleOffsetMinutes: null refused (omit it), 0..1439 and below the interval, 0 with scheduleStartAt', () => {
    assertIssue(
      alertWriteSchema,
      alert({ scheduleOffsetMinutes: null }),
      'scheduleOffsetMinutes',
      /must not be null \(omit it\)/,
    );
    assertIssue(
      alertWriteSchema,
      alert({ interval: '1d', scheduleOffsetMinutes: 1440 }),
      'scheduleOffsetMinutes',
      /between 0 and 1439/,
    );
    assertIssue(
      alertWriteSchema,
      alert({ interval: '15m', scheduleOffsetMinutes: 15 }),
      'scheduleOffsetMinutes',
      /less than the interval/,
    );
    const startAt = new Date(Date.now() - 3600_000).toISOString();
    assertIssue(
      alertWriteSchema,
      alert({ scheduleStartAt: startAt, scheduleOffsetMinutes: 1 }),
      'scheduleOffsetMinutes',
      /must be 0/,
    );
  });

  it('scheduleStartAt: a UTC date-time ending in Z, within 1 year ahead and 10 years back; null clears it', () => {
    assertIssue(
      alertWriteSchema,
      alert({ scheduleStartAt: '2026-12-01T10:00:00+01:00' }),
      'scheduleStartAt',
      /UTC date-time ending in "Z"/,
    );
    assertIssue(alertWriteSchema, alert({ scheduleStartAt: '2026-12-01' }), 'scheduleStartAt', /ending in "Z"/);
    assertIssue(
      alertWriteSchema,
      alert({ scheduleStartAt: new Date(Date.now() + 366 * 86400_000).toISOString() }),
      'scheduleStartAt',
      /1 year/,
    );
    assertValid(alertWriteSchema, alert({ scheduleStartAt: null }));
  });

  it('numConsecutiveWindows: a whole number >= 1 (null allowed)', () => {
    assertIssue(alertWriteSchema, alert({ numConsecutiveWindows: 0 }), 'numConsecutiveWindows', /at least 1/);
    assertValid(alertWriteSchema, alert({ numConsecutiveWindows: null }));
  });

  it('channels: 1–10, no duplicates, channel (when both are sent) equal to channels[0], one of them required', () => {
    const webhook = { type: 'webhook', webhookId: WEBHOOK_ID };
    const other = { type: 'webhook', webhookId: 'w2' };
    const { channel: _c, ...noChannel } = seedAlertBody();
    assertIssue(alertWriteSchema, noChannel, 'channel', /notification channel is required/);
    assertValid(alertWriteSchema, { ...noChannel, channels: [webhook, other] });
    assertIssue(alertWriteSchema, { ...noChannel, channels: [] }, 'channels', /at least one/);
    assertIssue(
      alertWriteSchema,
      { ...noChannel, channels: Array.from({ length: 11 }, (_, i) => ({ type: 'webhook', webhookId: `w${i}` })) },
      'channels',
      /at most 10/,
    );
    assertIssue(
      alertWriteSchema,
      { ...noChannel, channels: [webhook, { webhookId: WEBHOOK_ID, type: 'webhook' }] },
      'channels.1',
      /duplicates channels\[0\]/,
    );
    assertIssue(
      alertWriteSchema,
      { ...noChannel, channel: other, channels: [webhook, other] },
      'channel',
      /channels\[0\]/,
    );
  });

  it('source: the links of the source are required; tileId is any text of at most 36 characters', () => {
    assertIssue(alertWriteSchema, alert({ dashboardId: null }), 'dashboardId', /required when source is "tile"/);
    assertValid(alertWriteSchema, alert({ tileId: 'my tile: p95' }));
  });

  it('a live alert with unset fields as null becomes a body the service takes (nulls it refuses are omitted)', () => {
    const live = alertSchema.parse({
      ...alertResponse(),
      thresholdMax: null,
      scheduleOffsetMinutes: null,
      scheduleStartAt: null,
    });
    const body = alertToWriteBody(live);
    assert.equal('thresholdMax' in body, false);
    assert.equal('scheduleOffsetMinutes' in body, false);
    assert.equal(body.scheduleStartAt, null);
    assertValid(alertWriteSchema, body);
  });
});

describe('dashboard write rules of the live service', () => {
  it('select items: valueExpression is required except with "count", where it must be omitted or empty', () => {
    assertIssue(
      tileConfigSchema,
      metricLine({ select: [{ aggFn: 'avg' }] }),
      'select.0.valueExpression',
      /required with aggFn "avg"/,
    );
    assertIssue(
      tileConfigSchema,
      metricLine({ select: [{ aggFn: 'count', valueExpression: 'Duration' }] }),
      'select.0.valueExpression',
      /omitted/,
    );
    assertValid(tileConfigSchema, metricLine({ select: [{ aggFn: 'count', valueExpression: '' }] }));
  });

  it('quantile level: numeric 0.5, 0.9, 0.95 or 0.99, only with "quantile"', () => {
    assertValid(
      tileConfigSchema,
      metricLine({ select: [{ aggFn: 'quantile', level: 0.95, valueExpression: 'Duration' }] }),
    );
    assertIssue(
      tileConfigSchema,
      metricLine({ select: [{ aggFn: 'quantile', level: '0.95', valueExpression: 'Duration' }] }),
      'select.0.level',
    );
  });

  it('numberFormat: output is required', () => {
    assertIssue(tileConfigSchema, metricLine({ numberFormat: { mantissa: 2 } }), 'numberFormat.output', /required/);
    assertValid(tileConfigSchema, metricLine({ numberFormat: { output: 'percent', mantissa: 2 } }));
  });

  it('pie, bar and heatmap tiles take exactly one select item', () => {
    const two = [{ aggFn: 'count' }, { aggFn: 'count' }];
    assertIssue(tileConfigSchema, { displayType: 'pie', sourceId: SOURCE_ID, select: two }, 'select', /exactly one/);
    assertIssue(tileConfigSchema, { displayType: 'bar', sourceId: SOURCE_ID, select: two }, 'select', /exactly one/);
    const heat = { valueExpression: 'Duration' };
    assertIssue(
      tileConfigSchema,
      { displayType: 'heatmap', sourceId: SOURCE_ID, select: [heat, heat] },
      'select',
      /exactly one/,
    );
  });

  it('formulas: letter references to existing select items, at most 10, not with asRatio, one on a number tile', () => {
    assertValid(
      tileConfigSchema,
      metricLine({ formulas: [{ expression: 'A / (A + B) * 100', alias: 'Error %' }], showOperandSeries: false }),
    );
    assertIssue(
      tileConfigSchema,
      metricLine({ formulas: [{ expression: 'A / C' }] }),
      'formulas.0.expression',
      /"C" names select item 3, but there are 2/,
    );
    assertIssue(
      tileConfigSchema,
      metricLine({ formulas: [{ expression: 'sum(A)' }] }),
      'formulas.0.expression',
      /functions are not supported/,
    );
    assertIssue(
      tileConfigSchema,
      metricLine({ formulas: [{ expression: '1 + 2' }] }),
      'formulas.0.expression',
      /at least one select item/,
    );
    assertIssue(tileConfigSchema, metricLine({ formulas: [{ alias: 'x' }] }), 'formulas.0.expression', /required/);
    assertIssue(
      tileConfigSchema,
      metricLine({ formulas: Array.from({ length: 11 }, () => ({ expression: 'A' })) }),
      'formulas',
      /at most 10/,
    );
    assertIssue(
      tileConfigSchema,
      metricLine({ asRatio: true, formulas: [{ expression: 'A / B' }] }),
      'formulas',
      /asRatio/,
    );
    const number = { displayType: 'number', sourceId: SOURCE_ID, select: metricLine().select };
    assertValid(tileConfigSchema, { ...number, formulas: [{ expression: 'A / B' }] });
    assertIssue(
      tileConfigSchema,
      { ...number, formulas: [{ expression: 'A' }, { expression: 'B' }] },
      'formulas',
      /at most one formula/,
    );
    assertIssue(tileConfigSchema, number, 'select', /exactly one select item unless formulas/);
    assert.deepEqual(formulaExpressionProblems('(A + B', 2), ['has unbalanced parentheses']);
  });

  it('table onClick: search / dashboard (target by id or template) / external (urlTemplate)', () => {
    const table = { displayType: 'table', sourceId: SOURCE_ID, select: [{ aggFn: 'count' }] };
    assertValid(tileConfigSchema, {
      ...table,
      onClick: {
        type: 'search',
        target: { mode: 'id', id: SOURCE_ID },
        whereTemplate: "ServiceName = '{{ServiceName}}'",
      },
    });
    assertValid(tileConfigSchema, {
      ...table,
      onClick: { type: 'external', urlTemplate: 'https://runbooks.example.com/{{ServiceName}}' },
    });
    assertIssue(tileConfigSchema, { ...table, onClick: { type: 'external' } }, 'onClick.urlTemplate', /required/);
    assertIssue(
      tileConfigSchema,
      { ...table, onClick: { type: 'dashboard', target: { mode: 'name' } } },
      'onClick.target.mode',
      /"mode":"id"/,
    );
    assertIssue(
      tileConfigSchema,
      { ...table, onClick: { type: 'popup' } },
      'onClick.type',
      /"search", "dashboard" or "external"/,
    );
  });

  it('number colorRules: numeric, between [min, max] and equality operators with a palette color, at most 10', () => {
    const number = { displayType: 'number', sourceId: SOURCE_ID, select: [{ aggFn: 'count' }] };
    assertValid(tileConfigSchema, {
      ...number,
      colorRules: [
        { operator: 'gt', value: 5, color: 'chart-error' },
        { operator: 'between', value: [1, 5], color: 'chart-warning', label: 'warn' },
      ],
    });
    assertIssue(
      tileConfigSchema,
      { ...number, colorRules: [{ operator: 'regex', value: 'x', color: 'chart-red' }] },
      'colorRules.0.operator',
    );
    assertIssue(
      tileConfigSchema,
      { ...number, colorRules: [{ operator: 'between', value: [1], color: 'chart-red' }] },
      'colorRules.0.value',
      /\[min, max\]/,
    );
    assertIssue(
      tileConfigSchema,
      { ...number, colorRules: [{ operator: 'eq', value: 1, color: 'red' }] },
      'colorRules.0.color',
    );
    assertIssue(
      tileConfigSchema,
      { ...number, colorRules: Array.from({ length: 11 }, () => ({ operator: 'gt', value: 1, color: 'chart-red' })) },
      'colorRules',
      /at most 10/,
    );
  });

  it('seriesLimit: a whole number >= 0 on line and stacked_bar tiles', () => {
    assertValid(tileConfigSchema, metricLine({ seriesLimit: 0 }));
    assertIssue(tileConfigSchema, metricLine({ seriesLimit: -1 }), 'seriesLimit');
    assertIssue(tileConfigSchema, { ...metricLine(), displayType: 'stacked_bar', seriesLimit: 2.5 }, 'seriesLimit');
  });

  it('filters: variableName pattern and length', () => {
    assertValid(dashboardWriteSchema, withFilters([filter({ isVariableEnabled: true, variableName: 'service_name' })]));
    assertIssue(
      dashboardWriteSchema,
      withFilters([filter({ isVariableEnabled: true, variableName: '1service' })]),
      'filters.0.variableName',
      /start with a letter/,
    );
    assertIssue(
      dashboardWriteSchema,
      withFilters([filter({ isVariableEnabled: true, variableName: 'svc-name' })]),
      'filters.0.variableName',
      /letters, digits and "_"/,
    );
    assertIssue(
      dashboardWriteSchema,
      withFilters([filter({ isVariableEnabled: true, variableName: `v${'x'.repeat(64)}` })]),
      'filters.0.variableName',
      /at most 64/,
    );
  });

  it('filters: variableName only with isVariableEnabled true', () => {
    assertIssue(
      dashboardWriteSchema,
      withFilters([filter({ variableName: 'svc' })]),
      'filters.0.variableName',
      /only allowed with isVariableEnabled true/,
    );
    assertIssue(
      dashboardWriteSchema,
      withFilters([filter({ isVariableEnabled: false, variableName: 'svc' })]),
      'filters.0.variableName',
      /isVariableEnabled/,
    );
  });

  it('filters: variable names (own or derived from the name) are unique among variable-enabled filters', () => {
    assert.equal(deriveVariableName(' Service name! '), 'Service_name');
    assert.equal(deriveVariableName('5xx rate'), 'v5xx_rate');
    const dup = [
      filter({ isVariableEnabled: true }),
      filter({ isVariableEnabled: true, expression: 'ServiceNamespace' }),
    ];
    assertIssue(dashboardWriteSchema, withFilters(dup), 'filters.1.variableName', /"Service" is already used/);
    assertValid(dashboardWriteSchema, withFilters([filter({ isVariableEnabled: true }), filter({})]));
    assertIssue(
      dashboardWriteSchema,
      withFilters([filter({ name: '!!!', isVariableEnabled: true })]),
      'filters.0.variableName',
      /is required/,
    );
  });

  it('filters: appliesToSourceIds only when the filter broadcasts; a filter must broadcast, be a variable, or both', () => {
    assertIssue(
      dashboardWriteSchema,
      withFilters([filter({ isBroadcastEnabled: false, isVariableEnabled: true, appliesToSourceIds: [SOURCE_ID] })]),
      'filters.0.appliesToSourceIds',
      /only allowed when the filter broadcasts/,
    );
    assertValid(
      dashboardWriteSchema,
      withFilters([filter({ isBroadcastEnabled: false, isVariableEnabled: true, appliesToSourceIds: [] })]),
    );
    assertIssue(
      dashboardWriteSchema,
      withFilters([filter({ isBroadcastEnabled: false })]),
      'filters.0.isBroadcastEnabled',
      /broadcast .* variable/,
    );
  });

  it('savedFilterValues: the SQL variant and the variable variant (naming a variable-enabled filter)', () => {
    const filters = [filter({ isVariableEnabled: true, variableName: 'svc' })];
    const values = [{ type: 'variable', name: 'svc', values: ['api', 'web'] }, { condition: "ServiceName = 'api'" }];
    assertValid(dashboardWriteSchema, withFilters(filters, { savedFilterValues: values }));
    assertIssue(
      dashboardWriteSchema,
      withFilters(filters, { savedFilterValues: [{ type: 'variable', name: 'env', values: [] }] }),
      'savedFilterValues.0.name',
      /no variable-enabled filter/,
    );
    assertIssue(
      dashboardWriteSchema,
      withFilters(filters, { savedFilterValues: [{ type: 'variable', name: 'svc' }] }),
      'savedFilterValues.0.values',
    );
  });

  it('filters in a create body carry no id', () => {
    assertIssue(dashboardWriteSchema, withFilters([filter({ id: 'f1' })]), 'filters.0.id', /not allowed when creating/);
    assertValid(dashboardUpdateSchema, withFilters([filter({ id: 'f1' })]));
  });
});

describe('query endpoint and the shipped template', () => {
  it('empty roles and openApiKeys are accepted (revoking every key)', () => {
    assertValid(queryEndpointWriteSchema, { roles: [], openApiKeys: [], allowedOrigins: '' });
    // The template of a query endpoint that is not configured yet.
    assertValid(queryEndpointWriteSchema, { roles: ['sql_console_read_only'], openApiKeys: [], allowedOrigins: '' });
  });
});

describe('responses of the newer spec', () => {
  it('reads QUERY_TIMEOUT execution errors, channels, savedFilterValues variables, serviceVersionExpression and filter columns', () => {
    const live = alertSchema.parse({
      ...alertResponse(),
      executionErrors: [{ type: 'QUERY_TIMEOUT', message: 'too slow' }],
    });
    assert.equal(live.executionErrors?.[0]?.type, 'QUERY_TIMEOUT');
    const dashboard = dashboardSchema.parse({
      ...dashboardResponse(),
      savedFilterValues: [{ type: 'variable', name: 'svc', values: ['a'] }],
    });
    assert.equal(dashboard.savedFilterValues?.[0]?.type, 'variable');
    const source = sourceSchema.parse({
      id: 's1',
      name: 'Logs',
      kind: 'log',
      serviceVersionExpression: "ResourceAttributes['service.version']",
      filterSettings: {
        databaseName: 'default',
        tableName: 'f',
        columns: [{ name: 'env', label: 'Env', valueExpression: 'lower(env)', allowAll: true }],
      },
    });
    assert.equal(source.serviceVersionExpression, "ResourceAttributes['service.version']");
    assert.equal(source.filterSettings?.columns?.[0]?.allowAll, true);
  });

  it('an alert may lack every field the spec does not require', () => {
    assertValid(alertSchema, { id: 'a1' });
  });
});

describe('fields unknown to this version survive parse -> serialize at every depth', () => {
  it('dashboard: top level, tile, config, select item, numberFormat, formula, filter, container, tab, saved value', () => {
    const body = dashboardBody();
    body.layoutVersion = 3;
    const tiles = body.tiles as Record<string, unknown>[];
    tiles[0] = {
      ...tiles[0],
      pinned: true,
      config: {
        ...metricLine(),
        futureOption: { a: 1 },
        numberFormat: { output: 'number', compact: true },
        formulas: [{ expression: 'A / B', colorHint: 'red' }],
        select: metricLine().select.map((s, i) => ({ ...s, legendSlot: i })),
      },
    };
    tiles[1] = { ...tiles[1], config: { ...(tiles[1].config as object), rawOption: 'x' } };
    body.filters = [filter({ isVariableEnabled: true, variableName: 'svc', sortValues: 'desc' })];
    body.containers = [
      {
        id: 'health',
        title: 'Health',
        collapsed: false,
        theme: 'dark',
        tabs: [{ id: 'errors', title: 'Errors', icon: 'bug' }],
      },
    ];
    body.savedFilterValues = [
      { condition: 'x = 1', pinned: true },
      { type: 'variable', name: 'svc', values: ['a'], origin: 'url' },
    ];
    const parsed = dashboardWriteSchema.parse(body);
    assert.deepEqual(JSON.parse(JSON.stringify(parsed)), body);
  });

  it('dashboard: get -> edit -> update keeps unknown fields of the response unchanged', () => {
    const response = dashboardResponse();
    (response.tiles as Record<string, unknown>[])[1].renderHint = 'compact';
    response.schemaRevision = 7;
    (response.filters as Record<string, unknown>[])[0].sortValues = 'asc';
    const body = dashboardToUpdateBody(dashboardSchema.parse(response));
    body.name = 'Renamed';
    const update = dashboardUpdateSchema.parse(body) as Record<string, unknown>;
    const expected: Record<string, unknown> = { ...response, name: 'Renamed' };
    delete expected.id;
    assert.deepEqual(JSON.parse(JSON.stringify(update)), expected);
  });

  it('alert: top level, channel and each of channels', () => {
    const body = {
      ...seedAlertBody(),
      escalationPolicy: { after: '15m' },
      channel: { type: 'webhook', webhookId: WEBHOOK_ID, routingKey: 'r1' },
      channels: [
        { type: 'webhook', webhookId: WEBHOOK_ID, routingKey: 'r1' },
        { type: 'email', emailRecipients: ['a@example.com'], digest: true },
      ],
    };
    assert.deepEqual(JSON.parse(JSON.stringify(alertWriteSchema.parse(body))), body);
  });
});

describe('knownKeysAt', () => {
  it('lists the known keys of the object at a path, resolving tile configs by the document', () => {
    const doc = dashboardBody();
    const top = knownKeysAt('dashboard', [], doc) ?? [];
    assert.ok(top.includes('tiles') && top.includes('savedFilterValues') && !top.includes('layoutVersion'));
    const line = knownKeysAt('dashboard', ['tiles', 0, 'config'], doc) ?? [];
    assert.ok(line.includes('seriesLimit') && line.includes('formulas') && line.includes('fitYAxisToData'));
    assert.ok(!line.includes('sqlTemplate') && !line.includes('markdown'));
    const raw = knownKeysAt('dashboard', ['tiles', 1, 'config'], doc) ?? [];
    assert.ok(raw.includes('sqlTemplate') && raw.includes('connectionId') && !raw.includes('select'));
    assert.deepEqual(knownKeysAt('dashboard', ['tiles', 2, 'config'], doc), ['configType', 'displayType', 'markdown']);
    const select = knownKeysAt('dashboard', ['tiles', 0, 'config', 'select', 0], doc) ?? [];
    assert.ok(select.includes('aggFn') && select.includes('level'));
    const filterKeys = knownKeysAt('dashboard', ['filters', 0], doc) ?? [];
    assert.ok(
      filterKeys.includes('variableName') && filterKeys.includes('isBroadcastEnabled') && !filterKeys.includes('id'),
    );
    assert.ok((knownKeysAt('dashboard-update', ['filters', 0], doc) ?? []).includes('id'));
    assert.deepEqual(knownKeysAt('dashboard', ['containers', 0, 'tabs', 0], doc), ['id', 'title']);
  });

  it('picks the saved filter value variant and the alert channel variant by value', () => {
    const doc = { savedFilterValues: [{ type: 'variable', name: 'a', values: [] }, { condition: 'x' }] };
    assert.deepEqual(knownKeysAt('dashboard', ['savedFilterValues', 0], doc), ['name', 'type', 'values']);
    assert.deepEqual(knownKeysAt('dashboard', ['savedFilterValues', 1], doc), ['condition', 'type']);
    const alertDoc = { channels: [{ type: 'email', emailRecipients: [] }] };
    assert.deepEqual(knownKeysAt('alert', ['channels', 0], alertDoc), ['emailRecipients', 'type']);
    const both = knownKeysAt('alert', ['channel']) ?? [];
    assert.ok(both.includes('webhookId') && both.includes('emailRecipients'));
  });

  it('is undefined where the schema has no object', () => {
    assert.equal(knownKeysAt('alert', ['threshold']), undefined);
    assert.equal(knownKeysAt('alert', ['nonsense', 'deeper']), undefined);
    assert.deepEqual(knownKeysAt('query-endpoint', []), ['allowedOrigins', 'openApiKeys', 'roles']);
  });
});
