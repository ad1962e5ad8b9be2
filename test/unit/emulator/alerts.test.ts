import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator';
import { client, OBJECT_ID, resultOf, failOnResponseIssues } from './helpers';

failOnResponseIssues();

type Json = Record<string, unknown>;

describe('emulator: alerts, webhooks, saved searches', () => {
  let emu: Emulator;
  let api: ReturnType<typeof client>;
  let dashboard: { id: string; tiles: { id: string; config: Json }[] };
  let webhooks: { id: string; service: string }[];
  let savedSearches: { id: string }[];
  before(async () => {
    emu = await startEmulator({ rateLimit: false });
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
    dashboardId: dashboard.id,
    tileId: dashboard.tiles[0]?.id,
    threshold: 1500,
    interval: '1h',
    source: 'tile',
    thresholdType: 'above',
    channel: { type: 'webhook', webhookId: webhooks[0]?.id },
    name: 'Latency',
    message: 'p95 is {{value}}',
    ...over,
  });

  it('creates the seed body with 200 and the documented response quirks', async () => {
    const r = await api.call('POST', '/alerts', tileAlert());
    assert.equal(r.status, 200, r.text);
    const a = resultOf<Json>(r);
    assert.match(String(a.id), OBJECT_ID);
    assert.equal(a.state, 'OK');
    assert.equal(a.note, null);
    assert.equal(a.numConsecutiveWindows, null);
    assert.equal('savedSearchId' in a, false);
    assert.equal('groupBy' in a, false);
    assert.equal('silenced' in a, false);
    assert.equal('scheduleOffsetMinutes' in a, false);
    assert.deepEqual(a.channel, { type: 'webhook', webhookId: webhooks[0]?.id });
    assert.deepEqual(a.channels, [a.channel]);
    assert.deepEqual(resultOf(await api.call('GET', `/alerts/${String(a.id)}`)), a);
  });

  it('PUT replaces: omitted name/message/note become null, read-only fields stay', async () => {
    const all = resultOf<Json[]>(await api.call('GET', '/alerts'));
    const silenced = all.find((a) => a.silenced) as Json;
    const body: Json = {
      source: 'saved_search',
      savedSearchId: silenced.savedSearchId,
      threshold: 30,
      thresholdType: 'above',
      interval: '5m',
      channel: silenced.channel,
    };
    const r = await api.call('PUT', `/alerts/${String(silenced.id)}`, body);
    assert.equal(r.status, 200, r.text);
    const next = resultOf<Json>(r);
    assert.equal(next.name, null);
    assert.equal(next.message, null);
    assert.equal(next.note, null);
    assert.equal('groupBy' in next, false);
    assert.equal(next.threshold, 30);
    assert.equal(next.state, silenced.state);
    assert.deepEqual(next.silenced, silenced.silenced);
    assert.equal(next.createdAt, silenced.createdAt);
  });

  it('applies the business rules', async () => {
    const otherTile = dashboard.tiles.find((t) => t.config.displayType === 'markdown');
    const cases: [Json, number, string | RegExp][] = [
      [tileAlert({ dashboardId: 'ffffffffffffffffffffffff' }), 400, 'Dashboard not found'],
      [tileAlert({ tileId: 'ffffffffffffffffffffffff' }), 400, 'Tile not found'],
      [tileAlert({ channel: { type: 'webhook', webhookId: 'ffffffffffffffffffffffff' } }), 400, 'Webhook not found'],
      [
        { ...tileAlert(), source: 'saved_search', savedSearchId: 'ffffffffffffffffffffffff' },
        400,
        'Saved search not found',
      ],
      [tileAlert({ name: '' }), 400, 'Body validation failed: name: String must contain at least 1 character(s)'],
      [tileAlert({ note: '' }), 400, 'Body validation failed: note: String must contain at least 1 character(s)'],
      [
        tileAlert({ thresholdType: 'between' }),
        400,
        'Body validation failed: thresholdMax: thresholdMax is required for between/not_between threshold types',
      ],
      [tileAlert({ thresholdType: 'between', thresholdMax: 10 }), 400, /greater than or equal/],
      [tileAlert({ threshold: 'high' }), 400, 'Body validation failed: /threshold: must be number'],
      [tileAlert({ interval: '2h' }), 400, /\/interval: must be one of/],
      [tileAlert({ source: undefined }), 400, 'Body validation failed: Invalid input'],
      [
        tileAlert({ channel: undefined }),
        400,
        'Body validation failed: channels: Provide either "channel" or "channels"',
      ],
      [tileAlert({ channel: { type: 'webhook' } }), 400, /\/channel\/webhookId: is required/],
      [
        tileAlert({ scheduleOffsetMinutes: 90 }),
        400,
        /scheduleOffsetMinutes: scheduleOffsetMinutes must be less than \d+ minutes/,
      ],
      [
        tileAlert({ scheduleOffsetMinutes: 5, scheduleStartAt: new Date().toISOString() }),
        400,
        /must be 0 when scheduleStartAt/,
      ],
      [
        tileAlert({ scheduleStartAt: '2099-01-01T00:00:00Z' }),
        400,
        'Body validation failed: scheduleStartAt: scheduleStartAt must be within 1 year from now',
      ],
      [
        tileAlert({ numConsecutiveWindows: 0 }),
        400,
        'Body validation failed: numConsecutiveWindows: Number must be greater than or equal to 1',
      ],
      [tileAlert({ tileId: otherTile?.id }), 200, ''],
    ];
    for (const [body, status, expected] of cases) {
      const r = await api.call('POST', '/alerts', body);
      assert.equal(r.status, status, `${JSON.stringify(body)} -> ${r.text}`);
      if (status === 400) {
        if (typeof expected === 'string') assert.equal(r.json.error, expected);
        else assert.match(String(r.json.error), expected);
      }
    }
  });

  it('rejects alerts on raw SQL tiles that are not line, stacked_bar or number', async () => {
    const nodes = resultOf<{ id: string; name: string; tiles: { id: string; config: Json }[] }[]>(
      await api.call('GET', '/dashboards'),
    ).find((d) => d.name === 'Kubernetes nodes');
    const sqlTable = nodes?.tiles.find((t) => t.config.configType === 'sql');
    const r = await api.call('POST', '/alerts', tileAlert({ dashboardId: nodes?.id, tileId: sqlTable?.id }));
    assert.equal(r.status, 400);
    assert.equal(
      r.json.error,
      'Alerts on Raw SQL tiles are only supported for Line, Stacked Bar, or Number display types',
    );
  });

  it('supports channels (1-10, channel = channels[0]) and the email channel', async () => {
    const channels = [
      { type: 'webhook', webhookId: webhooks[0]?.id },
      { type: 'email', emailRecipients: ['oncall@example.com'] },
    ];
    const ok = await api.call('POST', '/alerts', tileAlert({ channel: undefined, channels }));
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(resultOf<Json>(ok).channel, channels[0]);
    const mismatch = await api.call('POST', '/alerts', tileAlert({ channels, channel: channels[1] }));
    assert.equal(mismatch.status, 400);
    const dup = await api.call(
      'POST',
      '/alerts',
      tileAlert({ channel: undefined, channels: [channels[0], channels[0]] }),
    );
    assert.equal(dup.status, 400);
  });

  it('pages with limit/offset and rejects out-of-range values', async () => {
    const big = await startEmulator({ rateLimit: false, alertCount: 10_000 });
    try {
      const api2 = client(big);
      const first = resultOf<Json[]>(await api2.call('GET', '/alerts'));
      assert.equal(first.length, 1000);
      const page = resultOf<Json[]>(await api2.call('GET', '/alerts?limit=250&offset=9900'));
      assert.equal(page.length, 10_008 - 9900);
      const ids = new Set<unknown>();
      for (let offset = 0; ; offset += 1000) {
        const p = resultOf<Json[]>(await api2.call('GET', `/alerts?limit=1000&offset=${offset}`));
        for (const a of p) ids.add(a.id);
        if (p.length < 1000) break;
      }
      assert.equal(ids.size, 10_008);
      for (const q of ['limit=0', 'limit=1001', 'limit=abc', 'offset=-1', 'limit=2.5']) {
        const r = await api2.call('GET', `/alerts?${q}`);
        assert.equal(r.status, 400, q);
        assert.match(String(r.json.error), /Query validation failed/);
      }
    } finally {
      await big.close();
    }
  });

  it('refuses to delete a webhook in use (409) and deletes it once unused', async () => {
    const used = webhooks[0]?.id ?? '';
    const r = await api.call('DELETE', `/webhooks/${used}`);
    assert.equal(r.status, 409);
    assert.equal(r.json.status, 409);
    // HyperDX routers/external-api/v2/webhooks.ts, word for word.
    assert.match(
      String(r.json.error),
      /^Cannot delete webhook: \d+ alert\(s\) still reference it\. Reassign or remove those alerts first\.$/,
    );
    for (const a of resultOf<Json[]>(await api.call('GET', '/alerts'))) {
      if ((a.channels as Json[]).some((c) => c.webhookId === used)) {
        assert.equal((await api.call('DELETE', `/alerts/${String(a.id)}`)).status, 200);
      }
    }
    assert.equal((await api.call('DELETE', `/webhooks/${used}`)).status, 200);
    assert.equal((await api.call('DELETE', `/webhooks/${used}`)).status, 404);
  });

  it('creates and replaces webhooks without returning headers', async () => {
    const r = await api.call('POST', '/webhooks', {
      name: 'Relay 2',
      service: 'generic',
      url: 'https://relay.example.com/hook',
      body: '{"t":"{{title}}"}',
      headers: { 'X-Token': 'secret' },
    });
    assert.equal(r.status, 200, r.text);
    const w = resultOf<Json>(r);
    assert.equal('headers' in w, false);
    assert.equal(w.body, '{"t":"{{title}}"}');
    const slackBody = await api.call('POST', '/webhooks', {
      name: 'S',
      service: 'slack',
      url: 'https://hooks.slack.com/x',
      body: 'no',
    });
    assert.equal(slackBody.status, 400);
    const put = await api.call('PUT', `/webhooks/${String(w.id)}`, {
      name: 'Relay 3',
      service: 'generic',
      url: 'https://relay.example.com/v2',
    });
    assert.equal(resultOf<Json>(put).name, 'Relay 3');
    assert.equal(resultOf<Json>(put).id, w.id);
  });

  it('deleting a saved search deletes its alerts', async () => {
    const ssId = savedSearches[1]?.id ?? '';
    const attached = resultOf<Json[]>(await api.call('GET', '/alerts')).filter((a) => a.savedSearchId === ssId);
    assert.ok(attached.length > 0);
    assert.equal((await api.call('DELETE', `/saved-searches/${ssId}`)).status, 200);
    for (const a of attached) assert.equal((await api.call('GET', `/alerts/${String(a.id)}`)).status, 404);
    assert.equal((await api.call('GET', `/saved-searches/${ssId}`)).status, 404);
  });

  it('saved search CRUD round-trips', async () => {
    const sourceId = String(resultOf<Json[]>(await api.call('GET', '/sources'))[0]?.id);
    const c = await api.call('POST', '/saved-searches', {
      name: 'Timeouts',
      sourceId,
      where: 'Body:timeout',
      whereLanguage: 'lucene',
    });
    assert.equal(c.status, 200, c.text);
    const s = resultOf<Json>(c);
    const u = await api.call('PUT', `/saved-searches/${String(s.id)}`, { name: 'Timeouts (all)', sourceId });
    assert.equal(resultOf<Json>(u).name, 'Timeouts (all)');
    // A PUT is a full write: an omitted where is reset to its default, "" (the server's savedSearchRequestSchema).
    assert.equal(resultOf<Json>(u).where, '');
    const bad = await api.call('POST', '/saved-searches', { name: 'x', sourceId, whereLanguage: 'kql' });
    assert.equal(bad.status, 400);
    const noSource = await api.call('POST', '/saved-searches', { name: 'x', sourceId: 'abc' });
    assert.equal(noSource.status, 400);
  });

  it('source CRUD drops a client id and checks the schema per kind', async () => {
    // The team's own ClickHouse connection (the one its sources use).
    const connection = String(resultOf<Json[]>(await api.call('GET', '/sources'))[0]!.connection);
    const body = {
      id: 'mine',
      name: 'Audit logs',
      kind: 'log',
      connection,
      from: { databaseName: 'audit', tableName: 'events' },
      timestampValueExpression: 'ts',
      defaultTableSelectExpression: 'ts, msg',
    };
    const c = await api.call('POST', '/sources', body);
    assert.equal(c.status, 200, c.text);
    const s = resultOf<Json>(c);
    assert.match(String(s.id), OBJECT_ID);
    assert.deepEqual(
      resultOf<Json[]>(await api.call('GET', '/sources')).find((x) => x.id === s.id),
      s,
    );
    const bad = await api.call('PUT', `/sources/${String(s.id)}`, { ...body, kind: 'trace' });
    assert.equal(bad.status, 400);
    assert.match(String(bad.json.error), /durationExpression: is required/);
    // A connection of another team, or not a connection ID at all, is refused (HyperDX validateConnectionId).
    const foreign = await api.call('PUT', `/sources/${String(s.id)}`, {
      ...body,
      connection: '65f1c2a9d4e8b7f3a1c9ffff',
    });
    assert.equal(foreign.status, 400);
    assert.match(String(foreign.json.error), /connection must be an existing connection id/);
    const notAnId = await api.call('POST', '/sources', { ...body, connection: 'c1' });
    assert.equal(notAnId.status, 400);
    assert.match(String(notAnId.json.error), /connection must be a valid connection id/);
    assert.equal((await api.call('DELETE', `/sources/${String(s.id)}`)).status, 200);
  });

  it("refuses a raw-SQL tile naming a connection of another team, and takes the team's own", async () => {
    const connection = String(resultOf<Json[]>(await api.call('GET', '/sources'))[0]!.connection);
    const foreign = '65f1c2a9d4e8b7f3a1c9ffff';
    const body = (connectionId: string) => ({
      name: 'Raw rows',
      tiles: [
        {
          name: 'Rows',
          x: 0,
          y: 0,
          w: 12,
          h: 4,
          config: { configType: 'sql', displayType: 'table', connectionId, sqlTemplate: 'SELECT 1' },
        },
      ],
    });
    const refused = await api.call('POST', '/dashboards', body(foreign));
    assert.equal(refused.status, 400, refused.text);
    assert.match(String(refused.json.error), new RegExp(`Could not find the following connection IDs: ${foreign}`));
    const created = await api.call('POST', '/dashboards', body(connection));
    assert.equal(created.status, 200, created.text);
    assert.equal((await api.call('DELETE', `/dashboards/${String(resultOf<Json>(created).id)}`)).status, 200);
  });
});
