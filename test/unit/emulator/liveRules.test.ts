import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { FUTURE_PAGE_CAP, startEmulator, takeResponseIssues, type Emulator } from '../../emulator';
import { checkResponse } from '../../emulator/schemas';
import { client, failOnResponseIssues, resultOf } from './helpers';

type Json = Record<string, unknown>;

failOnResponseIssues();

describe('emulator: the live server rules', () => {
  let emu: Emulator;
  let api: ReturnType<typeof client>;
  let dashboard: { id: string; tiles: { id: string; config: Json }[] };
  let webhooks: { id: string }[];
  let savedSearches: { id: string }[];
  before(async () => {
    emu = await startEmulator({ rateLimit: false, futureFields: false, pageCap: false });
    api = client(emu);
  });
  beforeEach(async () => {
    emu.reset();
    const list = resultOf<(typeof dashboard & { name: string })[]>(await api.call('GET', '/dashboards'));
    dashboard = list.find((d) => d.name === 'Checkout service') as typeof dashboard;
    webhooks = resultOf(await api.call('GET', '/webhooks'));
    savedSearches = resultOf(await api.call('GET', '/saved-searches'));
  });
  after(() => emu.close());

  const tileAlert = (over: Json = {}): Json => ({
    source: 'tile',
    dashboardId: dashboard.id,
    tileId: dashboard.tiles[0]?.id,
    threshold: 10,
    thresholdType: 'above',
    interval: '1h',
    channel: { type: 'webhook', webhookId: webhooks[0]?.id },
    ...over,
  });

  const error = async (method: string, path: string, body: unknown): Promise<string> => {
    const r = await api.call(method, path, body);
    assert.equal(r.status, 400, `${JSON.stringify(body)} -> ${r.text}`);
    return String(r.json.error);
  };

  it('refuses null for optional fields the spec marks nullable but the server does not, with the server message', async () => {
    assert.equal(
      await error('POST', '/alerts', tileAlert({ thresholdMax: null })),
      'Body validation failed: thresholdMax: Expected number, received null',
    );
    assert.equal(
      await error('POST', '/alerts', tileAlert({ scheduleOffsetMinutes: null })),
      'Body validation failed: scheduleOffsetMinutes: Expected number, received null',
    );
    assert.equal(
      await error('POST', '/alerts', tileAlert({ thresholdMax: null, scheduleOffsetMinutes: null })),
      'Body validation failed: scheduleOffsetMinutes: Expected number, received null; thresholdMax: Expected number, received null',
    );
    // The spec itself has channels as a non-null array, so the spec check answers first.
    assert.match(
      await error('POST', '/alerts', tileAlert({ channels: null })),
      /^Body validation failed: \/?channels: /,
    );
    // null stays fine where the server allows it.
    const ok = await api.call(
      'POST',
      '/alerts',
      tileAlert({ name: null, message: null, note: null, numConsecutiveWindows: null, scheduleStartAt: null }),
    );
    assert.equal(ok.status, 200, ok.text);
  });

  it('accepts scheduleStartAt only in UTC (ending in Z)', async () => {
    const soon = new Date(Date.now() + 3600_000);
    const local = soon.toISOString().replace('Z', '+02:00');
    assert.equal(
      await error('POST', '/alerts', tileAlert({ scheduleStartAt: local })),
      'Body validation failed: scheduleStartAt: Invalid datetime',
    );
    // Without any zone the spec's date-time format already refuses it.
    assert.match(
      await error('POST', '/alerts', tileAlert({ scheduleStartAt: soon.toISOString().slice(0, 19) })),
      /^Body validation failed: \/?scheduleStartAt: /,
    );
    const ok = await api.call('POST', '/alerts', tileAlert({ scheduleStartAt: soon.toISOString() }));
    assert.equal(ok.status, 200, ok.text);
    assert.equal(resultOf<Json>(ok).scheduleStartAt, soon.toISOString());
    const noSeconds = await api.call(
      'POST',
      '/alerts',
      tileAlert({ scheduleStartAt: `${soon.toISOString().slice(0, 16)}Z` }),
    );
    assert.equal(noSeconds.status, 200, noSeconds.text);
  });

  it('needs thresholdMax >= threshold for between / not_between', async () => {
    for (const thresholdType of ['between', 'not_between']) {
      assert.equal(
        await error('POST', '/alerts', tileAlert({ thresholdType })),
        'Body validation failed: thresholdMax: thresholdMax is required for between/not_between threshold types',
      );
      assert.equal(
        await error('POST', '/alerts', tileAlert({ thresholdType, threshold: 10, thresholdMax: 5 })),
        'Body validation failed: thresholdMax: thresholdMax must be greater than or equal to threshold',
      );
      const ok = await api.call('POST', '/alerts', tileAlert({ thresholdType, threshold: 10, thresholdMax: 10 }));
      assert.equal(ok.status, 200, ok.text);
    }
  });

  it('accepts channels (1-10, no duplicates) beside channel, and the 30s interval', async () => {
    const a = { type: 'webhook', webhookId: webhooks[0]?.id };
    const b = { type: 'webhook', webhookId: webhooks[1]?.id };
    const both = await api.call('POST', '/alerts', tileAlert({ channel: a, channels: [a, b], interval: '30s' }));
    assert.equal(both.status, 200, both.text);
    assert.deepEqual(resultOf<Json>(both).channels, [a, b]);
    assert.equal(resultOf<Json>(both).interval, '30s');
    // Key order inside a channel does not matter; contents do.
    assert.equal(
      await error(
        'POST',
        '/alerts',
        tileAlert({ channel: undefined, channels: [a, { webhookId: a.webhookId, type: 'webhook' }] }),
      ),
      'Body validation failed: channels: Duplicate notification channels are not allowed',
    );
    assert.match(
      await error('POST', '/alerts', tileAlert({ channel: b, channels: [a, b] })),
      /"channel" must match the first entry of "channels"/,
    );
    assert.match(await error('POST', '/alerts', tileAlert({ channel: undefined, channels: [] })), /channels/);
    const eleven = Array.from({ length: 11 }, (_v, i) => ({ type: 'email', emailRecipients: [`p${i}@example.com`] }));
    assert.match(await error('POST', '/alerts', tileAlert({ channel: undefined, channels: eleven })), /channels/);
  });

  it('PUT keeps an omitted thresholdMax, scheduleStartAt and scheduleOffsetMinutes; nulls name, note, groupBy', async () => {
    const start = new Date(Date.now() + 3600_000).toISOString();
    const created = resultOf<Json>(
      await api.call('POST', '/alerts', {
        source: 'saved_search',
        savedSearchId: savedSearches[0]?.id,
        groupBy: 'ServiceName',
        threshold: 1,
        thresholdMax: 9,
        thresholdType: 'between',
        interval: '1h',
        scheduleStartAt: start,
        channel: { type: 'webhook', webhookId: webhooks[0]?.id },
        name: 'Range',
        note: 'runbook',
      }),
    );
    const put = await api.call('PUT', `/alerts/${String(created.id)}`, {
      source: 'saved_search',
      savedSearchId: savedSearches[0]?.id,
      threshold: 2,
      thresholdType: 'above',
      interval: '1h',
      channel: { type: 'webhook', webhookId: webhooks[0]?.id },
    });
    assert.equal(put.status, 200, put.text);
    const next = resultOf<Json>(put);
    assert.equal(next.thresholdMax, 9, 'omitted thresholdMax is kept');
    assert.equal(next.scheduleStartAt, start, 'omitted scheduleStartAt is kept');
    assert.equal(next.scheduleOffsetMinutes, 0);
    assert.equal(next.threshold, 2);
    assert.equal(next.name, null);
    assert.equal(next.note, null);
    assert.equal('groupBy' in next, false);

    // scheduleStartAt: null clears it, and an omitted offset resets to 0; a later omitted offset is kept.
    const base = {
      source: 'saved_search',
      savedSearchId: savedSearches[0]?.id,
      threshold: 2,
      thresholdType: 'above',
      interval: '1h',
      channel: { type: 'webhook', webhookId: webhooks[0]?.id },
    };
    const cleared = resultOf<Json>(
      await api.call('PUT', `/alerts/${String(created.id)}`, { ...base, scheduleStartAt: null }),
    );
    assert.equal('scheduleStartAt' in cleared, false);
    assert.equal(cleared.scheduleOffsetMinutes, 0);
    const offset = resultOf<Json>(
      await api.call('PUT', `/alerts/${String(created.id)}`, { ...base, scheduleOffsetMinutes: 15 }),
    );
    assert.equal(offset.scheduleOffsetMinutes, 15);
    const kept = resultOf<Json>(await api.call('PUT', `/alerts/${String(created.id)}`, base));
    assert.equal(kept.scheduleOffsetMinutes, 15, 'omitted scheduleOffsetMinutes is kept');
    assert.equal(kept.thresholdMax, 9);
  });

  it('strips unknown keys from write bodies, as the server does', async () => {
    const r = await api.call(
      'POST',
      '/alerts',
      tileAlert({ colour: 'red', channel: { type: 'webhook', webhookId: webhooks[0]?.id, extra: 1 } }),
    );
    assert.equal(r.status, 200, r.text);
    const a = resultOf<Json>(r);
    assert.equal('colour' in a, false);
    assert.deepEqual(a.channel, { type: 'webhook', webhookId: webhooks[0]?.id });
    const w = await api.call('POST', '/webhooks', {
      name: 'Strip me',
      service: 'generic',
      url: 'https://hooks.example.com/x',
      unknownKey: true,
    });
    assert.equal(w.status, 200, w.text);
    assert.equal('unknownKey' in resultOf<Json>(w), false);
  });

  it('does not serve GET for one source: the HTML 404 page, as the live Cloud answers', async () => {
    const sources = resultOf<{ id: string }[]>(await api.call('GET', '/sources'));
    const r = await api.call('GET', `/sources/${sources[0]?.id}`);
    assert.equal(r.status, 404);
    assert.match(r.headers.get('content-type') ?? '', /text\/html/);
    assert.match(r.text, /<pre>Cannot GET \/v1\/organizations\/.+\/sources\/[0-9a-f]{24}<\/pre>/);
  });

  it('query endpoint upsert keeps the fields it does not send', async () => {
    const path = `/v1/organizations/${emu.organizationId}/services/${emu.serviceIds[0]}/serviceQueryEndpoint`;
    const keys = resultOf<{ id: string }[]>(await api.call('GET', `/v1/organizations/${emu.organizationId}/keys`));
    const first = resultOf<Json>(
      await api.call('POST', path, {
        roles: ['sql_console_admin'],
        openApiKeys: [keys[0]?.id],
        allowedOrigins: 'https://a.example.com',
      }),
    );
    const onlyRoles = await api.call('POST', path, { roles: ['sql_console_read_only'] });
    assert.equal(onlyRoles.status, 200, onlyRoles.text);
    assert.deepEqual(resultOf(onlyRoles), { ...first, roles: ['sql_console_read_only'] });
    const onlyOrigins = resultOf<Json>(await api.call('POST', path, { allowedOrigins: '' }));
    assert.deepEqual(onlyOrigins, { ...first, roles: ['sql_console_read_only'], allowedOrigins: '' });
  });

  it('pages alerts, webhooks and saved searches with limit/offset (limit 1..1000)', async () => {
    const all = resultOf<Json[]>(await api.call('GET', '/alerts'));
    assert.ok(all.length > 3);
    assert.deepEqual(resultOf(await api.call('GET', '/alerts?limit=2&offset=1')), all.slice(1, 3));
    for (const path of ['/alerts', '/webhooks', '/saved-searches']) {
      assert.equal((await api.call('GET', `${path}?limit=0`)).status, 400);
      assert.equal((await api.call('GET', `${path}?limit=1001`)).status, 400);
      assert.equal((await api.call('GET', `${path}?offset=-1`)).status, 400);
      assert.equal((await api.call('GET', `${path}?limit=1000`)).status, 200);
    }
  });

  it('accepts the newer dashboard fields: filter variables, variable saved filter values, formulas, seriesLimit, quantile levels', async () => {
    const sourceId = (
      resultOf<{ id: string; kind: string }[]>(await api.call('GET', '/sources')).find((s) => s.kind === 'metric') ?? {
        id: '',
      }
    ).id;
    const body = {
      name: 'Newer fields',
      filters: [
        {
          type: 'QUERY_EXPRESSION',
          name: 'Service',
          expression: 'ServiceName',
          sourceId,
          isBroadcastEnabled: false,
          isVariableEnabled: true,
          variableName: 'service',
        },
      ],
      savedFilterValues: [
        { type: 'variable', name: 'service', values: ['checkout'] },
        { condition: "ServiceName = 'a'" },
      ],
      tiles: [
        {
          name: 'Ratio',
          x: 0,
          y: 0,
          w: 12,
          h: 4,
          config: {
            displayType: 'line',
            sourceId,
            select: [{ aggFn: 'quantile', level: 0.95, valueExpression: 'Value' }, { aggFn: 'count' }],
            formulas: [{ expression: 'A / B', alias: 'per request' }],
            showOperandSeries: false,
            seriesLimit: 0,
          },
        },
      ],
    };
    const r = await api.call('POST', '/dashboards', body);
    assert.equal(r.status, 200, r.text);
    const d = resultOf<{ tiles: { config: Json }[]; filters: Json[]; savedFilterValues: Json[] }>(r);
    assert.deepEqual(d.tiles[0]?.config.formulas, [{ expression: 'A / B', alias: 'per request' }]);
    assert.equal(d.tiles[0]?.config.seriesLimit, 0);
    assert.equal(d.filters[0]?.variableName, 'service');
    assert.deepEqual(d.savedFilterValues[0], { type: 'variable', name: 'service', values: ['checkout'] });
    const unknownFilterKey = await api.call('POST', '/dashboards', {
      ...body,
      filters: [{ ...body.filters[0], colour: 'red' }],
    });
    assert.equal(unknownFilterKey.status, 400, 'filters are strict on the server');
  });

  it('accepts serviceVersionExpression on log and trace sources', async () => {
    const connection = String(resultOf<Json[]>(await api.call('GET', '/sources'))[0]!.connection);
    const body = {
      name: 'Versions',
      kind: 'log',
      connection,
      from: { databaseName: 'otel', tableName: 'logs' },
      timestampValueExpression: 'ts',
      defaultTableSelectExpression: 'ts',
      serviceVersionExpression: "ResourceAttributes['service.version']",
    };
    const r = await api.call('POST', '/sources', body);
    assert.equal(r.status, 200, r.text);
    assert.equal(resultOf<Json>(r).serviceVersionExpression, body.serviceVersionExpression);
  });
});

describe('emulator: answering like a newer server', () => {
  let emu: Emulator;
  let api: ReturnType<typeof client>;
  const saved = process.env.OBS_EMULATOR_FUTURE;
  before(async () => {
    emu = await startEmulator({ rateLimit: false, futureFields: true, pageCap: 7, alertCount: 20 });
    api = client(emu);
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.OBS_EMULATOR_FUTURE;
    else process.env.OBS_EMULATOR_FUTURE = saved;
  });
  after(() => emu.close());

  const FUTURE = /^futureField_/;
  const futureKeysOf = (o: unknown): string[] =>
    o && typeof o === 'object' ? Object.keys(o).filter((k) => FUTURE.test(k)) : [];

  it('adds unknown fields at every level of everything it returns', async () => {
    const dashboards = resultOf<Json[]>(await api.call('GET', '/dashboards'));
    const withAll =
      dashboards.find(
        (d) =>
          Array.isArray(d.containers) && (d.containers as unknown[]).length > 0 && (d.filters as unknown[]).length > 0,
      ) ?? dashboards[0];
    assert.deepEqual(futureKeysOf(withAll), ['futureField_dashboard']);
    const tiles = withAll?.tiles as Json[];
    assert.ok(
      tiles.every(
        (t) =>
          futureKeysOf(t).includes('futureField_tile') && futureKeysOf(t.config).includes('futureField_tileConfig'),
      ),
    );
    for (const d of dashboards) {
      for (const f of d.filters as Json[]) assert.deepEqual(futureKeysOf(f), ['futureField_filter']);
    }
    const containers = dashboards.flatMap((d) => (d.containers as Json[] | undefined) ?? []);
    assert.ok(containers.length > 0 && containers.every((c) => futureKeysOf(c).includes('futureField_container')));
    assert.ok(
      dashboards.some((d) => (d.filters as Json[]).length > 0),
      'the sample data has a dashboard filter',
    );

    const alerts = resultOf<Json[]>(await api.call('GET', '/alerts'));
    for (const a of alerts) {
      assert.deepEqual(futureKeysOf(a), ['futureField_alert']);
      assert.deepEqual(futureKeysOf(a.channel), ['futureField_channel']);
      assert.ok(Array.isArray(a.channels));
      assert.deepEqual(a.channel, (a.channels as Json[])[0]);
    }
    for (const s of resultOf<Json[]>(await api.call('GET', '/sources'))) {
      assert.ok(futureKeysOf(s).includes('futureField_source'));
      assert.deepEqual(futureKeysOf(s.from), ['futureField_sourceFrom']);
    }
    for (const w of resultOf<Json[]>(await api.call('GET', '/webhooks'))) {
      assert.deepEqual(futureKeysOf(w), ['futureField_webhook']);
    }
    for (const s of resultOf<Json[]>(await api.call('GET', '/saved-searches'))) {
      assert.deepEqual(futureKeysOf(s), ['futureField_savedSearch']);
    }
    const path = `/v1/organizations/${emu.organizationId}/services/${emu.serviceIds[0]}/serviceQueryEndpoint`;
    const q = resultOf<Json>(
      await api.call('POST', path, { roles: ['sql_console_read_only'], openApiKeys: [], allowedOrigins: '' }),
    );
    assert.deepEqual(futureKeysOf(q), ['futureField_queryEndpoint']);
  });

  it('keeps its own future fields when a client sends them back (read-modify-write)', async () => {
    const alert = resultOf<Json[]>(await api.call('GET', '/alerts'))[0] as Json;
    const { id, state, teamId, silenced, executionErrors, createdAt, updatedAt, ...writable } = alert;
    void [state, teamId, silenced, executionErrors, createdAt, updatedAt];
    const put = await api.call('PUT', `/alerts/${String(id)}`, { ...writable, threshold: 42 });
    assert.equal(put.status, 200, put.text);
    assert.equal(resultOf<Json>(put).threshold, 42);
    assert.deepEqual(emu.state.data.get(emu.serviceIds[0] as string)?.alerts.get(String(id))?.extra, {
      futureField_alert: alert.futureField_alert,
    });
    assert.deepEqual(
      emu.state.data.get(emu.serviceIds[0] as string)?.alerts.get(String(id))?.channels[0],
      alert.channel,
      'the channel is stored with its future field',
    );

    const dashboard = resultOf<Json[]>(await api.call('GET', '/dashboards'))[0] as Json;
    const { id: dashboardId, ...dashBody } = dashboard;
    const dput = await api.call('PUT', `/dashboards/${String(dashboardId)}`, dashBody);
    assert.equal(dput.status, 200, dput.text);
    const stored = emu.state.data.get(emu.serviceIds[0] as string)?.dashboards.get(String(dashboardId));
    assert.deepEqual(stored?.extra, { futureField_dashboard: dashboard.futureField_dashboard });
    assert.ok(
      stored?.tiles.every(
        (t) => t.futureField_tile !== undefined && (t.config as Json).futureField_tileConfig !== undefined,
      ),
    );
    assert.ok(stored?.filters.every((f) => f.futureField_filter !== undefined));
  });

  it(`caps paged lists at ${FUTURE_PAGE_CAP} items whatever the limit`, async () => {
    const first = resultOf<Json[]>(await api.call('GET', '/alerts?limit=1000'));
    assert.equal(first.length, 7);
    const second = resultOf<Json[]>(await api.call('GET', '/alerts?limit=1000&offset=7'));
    assert.equal(second.length, 7);
    assert.notDeepEqual(second[0], first[0]);
    assert.equal(resultOf<Json[]>(await api.call('GET', '/alerts?limit=3')).length, 3);
    assert.ok(
      resultOf<Json[]>(await api.call('GET', '/dashboards')).length >= 3,
      'lists without paging are not capped',
    );
  });

  it('turns both on from OBS_EMULATOR_FUTURE=1 unless the options say otherwise', async () => {
    process.env.OBS_EMULATOR_FUTURE = '1';
    const env = await startEmulator({ rateLimit: false });
    const off = await startEmulator({ rateLimit: false, futureFields: false, pageCap: false });
    try {
      assert.equal(env.futureFields, true);
      assert.equal(env.pageCap, FUTURE_PAGE_CAP);
      assert.equal(off.futureFields, false);
      assert.equal(off.pageCap, 0);
    } finally {
      await env.close();
      await off.close();
    }
    delete process.env.OBS_EMULATOR_FUTURE;
    const plain = await startEmulator({ rateLimit: false });
    assert.equal(plain.futureFields, false);
    assert.equal(plain.pageCap, 0);
    await plain.close();
  });
});

describe('emulator: response check', () => {
  it('catches a response that does not fit the spec and records it', async () => {
    const emu = await startEmulator({ rateLimit: false });
    try {
      const api = client(emu);
      const id = emu.serviceIds[0] as string;
      const data = emu.state.data.get(id);
      const alert = [...(data?.alerts.values() ?? [])][0];
      assert.ok(alert);
      (alert as unknown as Json).threshold = 'high';
      (alert as unknown as Json).state = 'EXPLODED';
      const r = await api.call('GET', `/alerts/${alert.id}`);
      assert.equal(r.status, 200);
      assert.equal(emu.responseIssues.length, 1);
      const issue = emu.responseIssues[0];
      assert.equal(issue?.operation, 'GET /clickstack/alerts/{clickStackAlertId}');
      assert.equal(issue?.requestId, r.json.requestId);
      assert.match(JSON.stringify(issue?.issues), /\/result\/(threshold|state)/);
      const taken = takeResponseIssues();
      assert.equal(taken.length, 1, 'the process-wide log has it too, for the test harness');
      assert.equal(takeResponseIssues().length, 0);
    } finally {
      await emu.close();
    }
  });

  it('finds no mismatch in any response of the sample data', () => {
    assert.deepEqual(
      checkResponse('GET /clickstack/alerts', {
        status: 200,
        requestId: '3f5a9c2e-7b14-4d8a-9e62-1c0b8f4d7a35',
        result: [],
      }),
      [],
    );
    assert.notDeepEqual(checkResponse('GET /clickstack/alerts', { status: 200, requestId: 'x', result: {} }), []);
  });
});
