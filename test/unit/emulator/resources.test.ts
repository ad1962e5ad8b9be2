/**
 * Roles, sources, webhooks and saved searches as the live server serves them: every operation of the newest spec,
 * the server's body rules in its words, and the side effects of its controllers.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEmulator, takeResponseIssues, type Emulator } from '../../emulator';
import { TABLES } from '../../emulator/clickhouse/schema';
import { isRenderableFilter } from '../../emulator/savedSearchFilters';
import { checkErrorResponse } from '../../emulator/schemas';
import { client, failOnResponseIssues, OBJECT_ID, resultOf } from './helpers';

failOnResponseIssues();

type Json = Record<string, unknown>;

describe('emulator: roles', () => {
  let emu: Emulator;
  let api: ReturnType<typeof client>;
  let roles: Json[];
  before(async () => {
    emu = await startEmulator({ rateLimit: false, segment: 'clickstack' });
    api = client(emu, 0, 'clickstack');
  });
  beforeEach(async () => {
    emu.reset();
    roles = resultOf<Json[]>(await api.call('GET', '/roles'));
  });
  after(() => emu.close());

  const byName = (name: string): Json => roles.find((r) => r.name === name) as Json;

  it('lists the predefined roles and the custom ones, and gets one by id', async () => {
    assert.deepEqual(
      roles.map((r) => [r.name, r.isPredefined]),
      [
        ['Admin', true],
        ['Member', true],
        ['Read Only', true],
        ['Deploy Bot', false],
        ['On-call responders', false],
      ],
    );
    for (const r of roles) assert.match(String(r.id), OBJECT_ID);
    const bot = byName('Deploy Bot');
    assert.deepEqual(resultOf(await api.call('GET', `/roles/${String(bot.id)}`)), bot);
    assert.ok(
      (bot.permissions as Json[]).some((p) => p.inverted === true && typeof p.conditions === 'object'),
      'a permission with conditions and inverted',
    );
    // The server's own bookkeeping stays inside.
    assert.equal('isDefault' in bot || 'userCount' in bot, false);
    const missing = await api.call('GET', '/roles/ffffffffffffffffffffffff');
    assert.equal(missing.status, 404);
    assert.equal(missing.json.error, 'Role not found');
    assert.equal((await api.call('GET', '/roles/not-an-id')).status, 400);
    // The same roles every run; the empty data keeps the predefined ones.
    const other = await startEmulator({ rateLimit: false, data: 'empty' });
    try {
      const names = resultOf<Json[]>(await client(other).call('GET', '/roles')).map((r) => r.name);
      assert.deepEqual(names, ['Admin', 'Member', 'Read Only']);
    } finally {
      await other.close();
    }
  });

  it('creates a role: name and permissions required, unknown keys dropped, conditions kept whole', async () => {
    const body = {
      name: '  Release managers ',
      description: 'Ships dashboards',
      permissions: [
        { action: 'manage', subject: 'Dashboard', colour: 'red', conditions: { tags: { $in: ['release'] } } },
      ],
      extra: 1,
    };
    const r = await api.call('POST', '/roles', body);
    assert.equal(r.status, 200, r.text);
    const role = resultOf<Json>(r);
    assert.match(String(role.id), OBJECT_ID);
    assert.equal(role.name, 'Release managers');
    assert.equal(role.isPredefined, false);
    assert.deepEqual(role.permissions, [
      { action: 'manage', subject: 'Dashboard', conditions: { tags: { $in: ['release'] } } },
    ]);
    assert.equal('extra' in role, false);
    assert.deepEqual(resultOf(await api.call('GET', `/roles/${String(role.id)}`)), role);

    const noPermissions = await api.call('POST', '/roles', { name: 'X' });
    assert.equal(noPermissions.status, 400);
    assert.equal(noPermissions.json.error, 'Body validation failed: /permissions: is required');
    const noSubject = await api.call('POST', '/roles', { name: 'X', permissions: [{ action: 'read' }] });
    assert.equal(noSubject.json.error, 'Body validation failed: /permissions/0/subject: is required');
    const noName = await api.call('POST', '/roles', { permissions: [] });
    assert.equal(noName.json.error, 'Body validation failed: /name: is required');
  });

  it('refuses a name taken by another role or by a predefined one', async () => {
    const dup = await api.call('POST', '/roles', { name: 'deploy bot', permissions: [] });
    assert.equal(dup.status, 400);
    assert.equal(dup.json.error, 'A role named "deploy bot" already exists');
    const reserved = await api.call('POST', '/roles', { name: 'Read only', permissions: [] });
    assert.equal(reserved.status, 400);
    assert.equal(reserved.json.error, 'Role name "Read only" is reserved for a predefined role');
    const rename = await api.call('PUT', `/roles/${String(byName('Deploy Bot').id)}`, {
      name: 'Admin',
      permissions: [],
    });
    assert.equal(rename.status, 400);
    const other = emu.serviceIds[1] as string;
    const elsewhere = await api.call(
      'POST',
      `/v1/organizations/${emu.organizationId}/services/${other}/clickstack/roles`,
      { name: 'Deploy Bot 2', permissions: [] },
    );
    assert.equal(elsewhere.status, 200, 'names are unique per team (service), not per organization');
  });

  it('PUT replaces the permissions, keeps an omitted name and description; predefined roles cannot change', async () => {
    const bot = byName('Deploy Bot');
    const r = await api.call('PUT', `/roles/${String(bot.id)}`, { permissions: [{ action: 'read', subject: 'all' }] });
    assert.equal(r.status, 200, r.text);
    const next = resultOf<Json>(r);
    assert.equal(next.name, 'Deploy Bot');
    assert.equal(next.description, bot.description);
    assert.deepEqual(next.permissions, [{ action: 'read', subject: 'all' }]);
    assert.equal(next.createdAt, bot.createdAt);
    assert.notEqual(next.updatedAt, bot.updatedAt);
    const renamed = resultOf<Json>(
      await api.call('PUT', `/roles/${String(bot.id)}`, { name: 'Terraform', description: 'IaC', permissions: [] }),
    );
    assert.deepEqual([renamed.name, renamed.description, renamed.permissions], ['Terraform', 'IaC', []]);

    const missingPermissions = await api.call('PUT', `/roles/${String(bot.id)}`, { name: 'Y' });
    assert.equal(missingPermissions.json.error, 'Body validation failed: /permissions: is required');
    const admin = byName('Admin');
    const refused = await api.call('PUT', `/roles/${String(admin.id)}`, { permissions: [] });
    assert.equal(refused.status, 400);
    assert.equal(refused.json.error, 'Predefined roles cannot be modified');
    assert.deepEqual(resultOf(await api.call('GET', `/roles/${String(admin.id)}`)), admin, 'unchanged');
    assert.equal((await api.call('PUT', '/roles/ffffffffffffffffffffffff', { permissions: [] })).status, 404);
  });

  it('deletes a custom role; refuses predefined roles, the default role and roles users hold', async () => {
    const refusals: [string, string][] = [
      ['Admin', 'Predefined roles cannot be deleted'],
      ['Member', 'Predefined roles cannot be deleted'],
      ['On-call responders', 'Cannot delete role: it is assigned to 3 user(s)'],
    ];
    for (const [name, message] of refusals) {
      const r = await api.call('DELETE', `/roles/${String(byName(name).id)}`);
      assert.equal(r.status, 400, name);
      assert.equal(r.json.error, message);
    }
    // A custom role made the team default (the server's own state) cannot go either.
    const data = emu.state.data.get(emu.serviceIds[0] as string);
    const responders = data?.roles.get(String(byName('On-call responders').id));
    assert.ok(responders);
    responders.userCount = 0;
    responders.isDefault = true;
    assert.equal(
      (await api.call('DELETE', `/roles/${responders.id}`)).json.error,
      'The team default user role cannot be deleted',
    );

    const bot = String(byName('Deploy Bot').id);
    const del = await api.call('DELETE', `/roles/${bot}`);
    assert.equal(del.status, 200, del.text);
    assert.deepEqual(Object.keys(del.json).sort(), ['requestId', 'status']);
    assert.equal((await api.call('GET', `/roles/${bot}`)).status, 404);
    assert.equal((await api.call('DELETE', `/roles/${bot}`)).status, 404);
    assert.equal(resultOf<Json[]>(await api.call('GET', '/roles')).length, roles.length - 1);
  });

  it('faults apply to the role routes', async () => {
    emu.faults.add({ method: 'GET', path: /\/roles$/, status: 503, times: 1 });
    assert.equal((await api.call('GET', '/roles')).status, 503);
    assert.equal((await api.call('GET', '/roles')).status, 200);
  });

  it('answers like a newer server: future fields on roles and permissions, kept when sent back', async () => {
    const future = await startEmulator({ rateLimit: false, futureFields: true });
    try {
      const fapi = client(future);
      const list = resultOf<Json[]>(await fapi.call('GET', '/roles'));
      const bot = list.find((r) => r.name === 'Deploy Bot') as Json;
      assert.ok('futureField_role' in bot);
      assert.ok((bot.permissions as Json[]).every((p) => 'futureField_permission' in p));
      const { id, isPredefined: _p, createdAt: _c, updatedAt: _u, ...body } = bot;
      const put = resultOf<Json>(await fapi.call('PUT', `/roles/${String(id)}`, body));
      const stored = future.state.data.get(future.serviceIds[0] as string)?.roles.get(String(id));
      assert.deepEqual(stored?.extra, { futureField_role: bot.futureField_role });
      assert.deepEqual(stored?.permissions, bot.permissions, 'permission-level future fields stored as sent');
      assert.deepEqual(put.futureField_role, bot.futureField_role);
    } finally {
      await future.close();
    }
  });
});

describe('emulator: sources', () => {
  let emu: Emulator;
  let api: ReturnType<typeof client>;
  before(async () => {
    emu = await startEmulator({ rateLimit: false, sourceGetById: true });
    api = client(emu);
  });
  beforeEach(() => emu.reset());
  after(() => emu.close());

  it('seeds one source of each kind on the ClickHouse tables of the query host', async () => {
    const sources = resultOf<Json[]>(await api.call('GET', '/sources'));
    assert.deepEqual(
      sources.map((s) => s.kind),
      ['log', 'trace', 'metric', 'session'],
    );
    const tables = sources.map((s) => (s.from as Json).tableName);
    assert.deepEqual(tables, ['otel_logs', 'otel_traces', '', 'hyperdx_sessions']);
    assert.deepEqual(Object.values(sources[2]?.metricTables as Json).sort(), [
      'otel_metrics_exponential_histogram',
      'otel_metrics_gauge',
      'otel_metrics_histogram',
      'otel_metrics_sum',
      'otel_metrics_summary',
    ]);
    // Every table a source names exists in the query host's ClickHouse, in the database that has the sample data.
    const known = new Set(TABLES.map((t) => t.name));
    for (const t of [...tables.filter((x) => x !== ''), ...Object.values(sources[2]?.metricTables as Json)]) {
      assert.ok(known.has(String(t)), String(t));
    }
    for (const s of sources) assert.equal((s.from as Json).databaseName, 'otel');
  });

  it('serves GET for one source when asked to (the spec has it)', async () => {
    const sources = resultOf<Json[]>(await api.call('GET', '/sources'));
    for (const s of sources) assert.deepEqual(resultOf(await api.call('GET', `/sources/${String(s.id)}`)), s);
    const missing = await api.call('GET', '/sources/ffffffffffffffffffffffff');
    assert.equal(missing.status, 404);
    assert.equal(missing.json.error, 'Source not found');
    assert.equal((await api.call('GET', '/sources/x')).status, 400);
  });

  it('deleting a source leaves the tiles, filters, saved searches and alerts that use it as they were', async () => {
    const sources = resultOf<Json[]>(await api.call('GET', '/sources'));
    const logs = String(sources.find((s) => s.kind === 'log')?.id);
    const before = {
      dashboards: resultOf<Json[]>(await api.call('GET', '/dashboards')),
      searches: resultOf<Json[]>(await api.call('GET', '/saved-searches')),
      alerts: resultOf<Json[]>(await api.call('GET', '/alerts')),
    };
    assert.ok(
      before.searches.some((s) => s.sourceId === logs),
      'a saved search uses the log source',
    );
    assert.ok(JSON.stringify(before.dashboards).includes(logs), 'a tile uses the log source');
    const del = await api.call('DELETE', `/sources/${logs}`);
    assert.equal(del.status, 200, del.text);
    assert.equal((await api.call('GET', `/sources/${logs}`)).status, 404);
    assert.deepEqual(resultOf(await api.call('GET', '/dashboards')), before.dashboards);
    assert.deepEqual(resultOf(await api.call('GET', '/saved-searches')), before.searches);
    assert.deepEqual(resultOf(await api.call('GET', '/alerts')), before.alerts);
    const trace = resultOf<Json[]>(await api.call('GET', '/sources')).find((s) => s.kind === 'trace');
    assert.equal(trace?.logSourceId, logs, "another source's link keeps the dangling id");
    // A saved search can no longer be written on it.
    const search = before.searches.find((s) => s.sourceId === logs) as Json;
    const put = await api.call('PUT', `/saved-searches/${String(search.id)}`, { name: search.name, sourceId: logs });
    assert.equal(put.status, 400);
    assert.equal(put.json.error, 'sourceId must be an existing source id');
  });

  it('PUT may change the kind (a full replace) and keeps the id', async () => {
    const sources = resultOf<Json[]>(await api.call('GET', '/sources'));
    const session = sources.find((s) => s.kind === 'session') as Json;
    const { id, ...rest } = sources.find((s) => s.kind === 'log') as Json;
    const r = await api.call('PUT', `/sources/${String(session.id)}`, { ...rest, name: 'Logs again', id: 'ignored' });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(resultOf(r), { id: session.id, ...rest, name: 'Logs again' });
    assert.notEqual(id, session.id);
  });
});

describe('emulator: webhooks', () => {
  let emu: Emulator;
  let api: ReturnType<typeof client>;
  let hooks: Json[];
  before(async () => {
    emu = await startEmulator({ rateLimit: false });
    api = client(emu);
  });
  beforeEach(async () => {
    emu.reset();
    hooks = resultOf<Json[]>(await api.call('GET', '/webhooks'));
  });
  after(() => emu.close());

  const stored = (id: unknown) => emu.state.data.get(emu.serviceIds[0] as string)?.webhooks.get(String(id));

  it('seeds slack, generic (with a token header, never returned) and pagerduty webhooks, listed by id', async () => {
    assert.deepEqual(
      hooks.map((h) => h.service),
      ['slack', 'generic', 'pagerduty_api'],
    );
    const generic = hooks[1] as Json;
    assert.equal('headers' in generic, false);
    assert.match(stored(generic.id)?.headers?.Authorization ?? '', /^Bearer /);
    const created = resultOf<Json>(
      await api.call('POST', '/webhooks', { name: 'Later', service: 'generic', url: 'https://later.example.com/' }),
    );
    const ids = resultOf<Json[]>(await api.call('GET', '/webhooks')).map((h) => String(h.id));
    assert.deepEqual(ids, [...ids].sort());
    assert.equal(ids.at(-1), created.id);
  });

  it('refuses a second webhook of the same service and name (400, the server words), allows it on another service', async () => {
    const slack = hooks[0] as Json;
    const dup = await api.call('POST', '/webhooks', {
      name: slack.name,
      service: 'slack',
      url: 'https://hooks.slack.com/services/T0/B0/x',
    });
    assert.equal(dup.status, 400);
    assert.equal(dup.json.error, 'A webhook with this service and name already exists');
    const generic = await api.call('POST', '/webhooks', {
      name: slack.name,
      service: 'generic',
      url: 'https://relay.example.com/',
    });
    assert.equal(generic.status, 200, generic.text);
    const rename = await api.call('PUT', `/webhooks/${String(resultOf<Json>(generic).id)}`, {
      name: 'Ops relay',
      service: 'generic',
      url: 'https://relay.example.com/',
    });
    assert.equal(rename.json.error, 'A webhook with this service and name already exists');
  });

  it('checks the url as the server does', async () => {
    const cases: [Json, string][] = [
      [{ service: 'generic', url: 'not a url' }, 'Body validation failed: /url: Invalid url'],
      [{ service: 'generic', url: 'ftp://files.example.com/x' }, 'Webhook URL must use HTTP or HTTPS'],
      [
        { service: 'slack', url: 'https://hooks.example.com/services/x' },
        "Slack Webhook URL https://hooks.example.com/services/x does not have hostname that ends in 'slack.com'",
      ],
      [
        { service: 'generic', url: 'http://127.0.0.1:9000/hook' },
        'Webhook URL resolves to a private or reserved address.',
      ],
      [{ service: 'generic', url: 'http://localhost/hook' }, 'Webhook URL resolves to a private or reserved address.'],
      [{ service: 'generic', url: 'https://10.2.3.4/hook' }, 'Webhook URL resolves to a private or reserved address.'],
      [{ service: 'generic', url: 'https://[::1]/hook' }, 'Webhook URL resolves to a private or reserved address.'],
      [
        { service: 'generic', url: 'https://[::ffff:192.168.1.1]/hook' },
        'Webhook URL resolves to a private or reserved address.',
      ],
      [
        { service: 'incidentio', url: 'https://169.254.169.254/latest' },
        'Webhook URL resolves to a private or reserved address.',
      ],
      [
        { service: 'generic', url: 'https://x.example.com/', headers: { 'X-Token': 'a\r\nInjected: 1' } },
        'Body validation failed: /headers/X-Token: Header values cannot contain control characters',
      ],
      [
        { service: 'generic', url: 'https://x.example.com/', headers: { 'Bad Header': 'v' } },
        "Body validation failed: /headers/Bad Header: Invalid header name. Only alphanumeric characters and !#$%&'*+-.^_`|~ are allowed",
      ],
      [
        { service: 'slack', url: 'https://hooks.slack.com/services/x', headers: { 'X-Token': 't' } },
        'Body validation failed: /headers: headers is not supported for the slack webhook service',
      ],
      [
        { service: 'slack', url: 'https://hooks.slack.com/services/x', body: '{}' },
        'Body validation failed: /body: body is not supported for the slack webhook service',
      ],
      [
        { service: 'pagerduty_api', url: 'https://events.pagerduty.com/v2/enqueue' },
        'Body validation failed: /service: must be one of "slack", "incidentio", "generic"',
      ],
    ];
    for (const [over, message] of cases) {
      const r = await api.call('POST', '/webhooks', { name: 'Probe', ...over });
      assert.equal(r.status, 400, JSON.stringify(over));
      assert.equal(r.json.error, message, JSON.stringify(over));
    }
    assert.equal(
      (await api.call('POST', '/webhooks', { name: 'Public', service: 'generic', url: 'https://8.8.8.8/hook' })).status,
      200,
    );
  });

  it('PUT: 404 for an unknown webhook after the body rules; headers kept when omitted, cleared by {} or a new url', async () => {
    assert.equal(
      (
        await api.call('PUT', '/webhooks/ffffffffffffffffffffffff', {
          name: 'x',
          service: 'generic',
          url: 'https://a.example.com/',
        })
      ).status,
      404,
    );
    assert.equal(
      (
        await api.call('PUT', '/webhooks/ffffffffffffffffffffffff', {
          name: ' ',
          service: 'generic',
          url: 'https://a.example.com/',
        })
      ).status,
      400,
    );
    const generic = hooks[1] as Json;
    const same = { name: generic.name, service: 'generic', url: generic.url };
    assert.equal((await api.call('PUT', `/webhooks/${String(generic.id)}`, same)).status, 200);
    assert.deepEqual(stored(generic.id)?.headers, { Authorization: 'Bearer relay-token' }, 'kept when omitted');
    assert.equal(
      resultOf<Json>(await api.call('PUT', `/webhooks/${String(generic.id)}`, same)).body,
      undefined,
      'body cleared when omitted',
    );
    await api.call('PUT', `/webhooks/${String(generic.id)}`, { ...same, headers: {} });
    assert.equal(stored(generic.id)?.headers, undefined, '{} clears');
    await api.call('PUT', `/webhooks/${String(generic.id)}`, {
      ...same,
      headers: { 'X-Key': 'k' },
      queryParams: { token: 't' },
    });
    await api.call('PUT', `/webhooks/${String(generic.id)}`, { ...same, url: 'https://elsewhere.example.com/' });
    assert.equal(stored(generic.id)?.headers, undefined, 'a new destination never gets the old secrets');
    assert.equal(stored(generic.id)?.queryParams, undefined);
  });

  it('delete: 409 counts the alerts whose first channel uses the webhook, as the server does', async () => {
    const searches = resultOf<Json[]>(await api.call('GET', '/saved-searches'));
    const a = resultOf<Json>(
      await api.call('POST', '/webhooks', { name: 'First', service: 'generic', url: 'https://first.example.com/' }),
    );
    const b = resultOf<Json>(
      await api.call('POST', '/webhooks', { name: 'Second', service: 'generic', url: 'https://second.example.com/' }),
    );
    const alert = await api.call('POST', '/alerts', {
      source: 'saved_search',
      savedSearchId: searches[0]?.id,
      threshold: 1,
      thresholdType: 'above',
      interval: '5m',
      channels: [
        { type: 'webhook', webhookId: a.id },
        { type: 'webhook', webhookId: b.id },
      ],
    });
    assert.equal(alert.status, 200, alert.text);
    const first = await api.call('DELETE', `/webhooks/${String(a.id)}`);
    assert.equal(first.status, 409);
    assert.equal(
      first.json.error,
      'Cannot delete webhook: 1 alert(s) still reference it. Reassign or remove those alerts first.',
    );
    // Only `channel` (channels[0]) is counted: the second webhook goes, and the alert keeps a dangling id.
    assert.equal((await api.call('DELETE', `/webhooks/${String(b.id)}`)).status, 200);
    const after = resultOf<Json>(await api.call('GET', `/alerts/${String(resultOf<Json>(alert).id)}`));
    assert.deepEqual(
      (after.channels as Json[]).map((c) => c.webhookId),
      [a.id, b.id],
    );
    assert.equal((await api.call('DELETE', '/webhooks/ffffffffffffffffffffffff')).status, 404);
  });
});

describe('emulator: saved searches', () => {
  let emu: Emulator;
  let api: ReturnType<typeof client>;
  let sourceId: string;
  before(async () => {
    emu = await startEmulator({ rateLimit: false });
    api = client(emu);
  });
  beforeEach(async () => {
    emu.reset();
    sourceId = String(resultOf<Json[]>(await api.call('GET', '/sources'))[0]?.id);
  });
  after(() => emu.close());

  it('seeds saved searches that seeded alerts use', async () => {
    const searches = resultOf<Json[]>(await api.call('GET', '/saved-searches'));
    const alerts = resultOf<Json[]>(await api.call('GET', '/alerts'));
    assert.equal(searches.length, 3);
    for (const s of searches) {
      assert.ok(
        alerts.some((a) => a.savedSearchId === s.id),
        String(s.name),
      );
    }
  });

  it('create and PUT are full writes with the server defaults', async () => {
    const c = await api.call('POST', '/saved-searches', {
      name: ' Minimal ',
      sourceId,
      filters: [{ condition: "ServiceName IN ('a')" }],
    });
    assert.equal(c.status, 200, c.text);
    const s = resultOf<Json>(c);
    assert.deepEqual(
      {
        name: s.name,
        select: s.select,
        where: s.where,
        whereLanguage: s.whereLanguage,
        orderBy: s.orderBy,
        tags: s.tags,
        filters: s.filters,
      },
      {
        name: 'Minimal',
        select: '',
        where: '',
        whereLanguage: 'lucene',
        orderBy: '',
        tags: [],
        filters: [{ type: 'sql', condition: "ServiceName IN ('a')" }],
      },
    );
    const full = await api.call('PUT', `/saved-searches/${String(s.id)}`, {
      name: 'Full',
      sourceId,
      select: 'Body',
      where: 'x',
      whereLanguage: 'sql',
      orderBy: 'Timestamp',
      tags: ['t', 't'],
    });
    assert.deepEqual(resultOf<Json>(full).tags, ['t']);
    const reset = resultOf<Json>(await api.call('PUT', `/saved-searches/${String(s.id)}`, { name: 'Full', sourceId }));
    assert.deepEqual(
      [reset.select, reset.where, reset.whereLanguage, reset.orderBy, reset.tags, reset.filters],
      ['', '', 'lucene', '', [], []],
    );
    assert.equal(reset.createdAt, s.createdAt);
  });

  it('sourceId must name a source of the team; body rules come before the 404', async () => {
    const unknown = await api.call('POST', '/saved-searches', { name: 'x', sourceId: 'ffffffffffffffffffffffff' });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.json.error, 'sourceId must be an existing source id');
    const otherService = String(
      resultOf<Json[]>(
        await api.call(
          'GET',
          `/v1/organizations/${emu.organizationId}/services/${emu.serviceIds[1]}/observability/sources`,
        ),
      )[0]?.id,
    );
    assert.equal(
      (await api.call('POST', '/saved-searches', { name: 'x', sourceId: otherService })).status,
      400,
      "another team's source",
    );
    assert.equal(
      (await api.call('POST', '/saved-searches', { name: 'x', sourceId: 'abc' })).json.error,
      'Body validation failed: /sourceId: Invalid ObjectId',
    );
    assert.equal((await api.call('POST', '/saved-searches', { name: '   ', sourceId })).status, 400);
    const longTag = await api.call('POST', '/saved-searches', { name: 'x', sourceId, tags: ['t'.repeat(33)] });
    assert.equal(longTag.json.error, 'Body validation failed: /tags/0: String must contain at most 32 character(s)');
    const manyTags = await api.call('POST', '/saved-searches', {
      name: 'x',
      sourceId,
      tags: Array.from({ length: 51 }, (_v, i) => `t${i}`),
    });
    assert.equal(manyTags.json.error, 'Body validation failed: /tags: Array must contain at most 50 element(s)');
    assert.equal(
      (
        await api.call('PUT', '/saved-searches/ffffffffffffffffffffffff', {
          name: 'x',
          sourceId: 'ffffffffffffffffffffffff',
        })
      ).status,
      400,
    );
    const missing = await api.call('PUT', '/saved-searches/ffffffffffffffffffffffff', { name: 'x', sourceId });
    assert.equal(missing.status, 404);
    assert.equal(missing.json.error, 'Saved search not found');
  });
});

describe('emulator: saved-search filters must render in the sidebar', () => {
  it('accepts one IN, NOT IN or numeric BETWEEN facet and nothing else, as the server does', () => {
    const renders = [
      "ServiceName IN ('checkout', 'cart')",
      "ServiceName NOT IN ('a')",
      'Duration BETWEEN 1 AND 2.5',
      "ResourceAttributes['k8s.namespace.name'] IN ('prod')",
      "Body IN ('it''s', 'a AND b', 'x = y')",
      "Timestamp IN (parseDateTime64BestEffort('2026-01-01 00:00:00', 9))",
      "lower(ServiceName) in ('a')",
    ];
    const refused = [
      "ServiceName = 'checkout'",
      "ServiceName IN ('a') AND SeverityText IN ('error')",
      "ServiceName IN ('a') AND foo = 1",
      "ServiceName IN ('a') OR x IN ('b')",
      "Duration BETWEEN '2024-01-01' AND '2024-02-01'",
      'Duration NOT BETWEEN 1 AND 2',
      "NOT (ServiceName IN ('a'))",
      // A column key holding AND/OR/NOT is refused even inside parentheses (the server's rule).
      "if(x BETWEEN 1 AND 2, 'a', 'b') IN ('a')",
      'ServiceName IN ()',
      'Duration > 5',
      '',
    ];
    for (const condition of renders) assert.equal(isRenderableFilter({ type: 'sql', condition }), true, condition);
    for (const condition of refused) assert.equal(isRenderableFilter({ type: 'sql', condition }), false, condition);
    assert.equal(isRenderableFilter({ type: 'lucene', condition: "ServiceName IN ('a')" }), false);
  });

  it('refuses a non-renderable filter on create; on PUT only a new or changed one', async () => {
    const emu = await startEmulator({ rateLimit: false });
    try {
      const api = client(emu);
      const sourceId = String(resultOf<Json[]>(await api.call('GET', '/sources'))[0]?.id);
      const bad = await api.call('POST', '/saved-searches', {
        name: 'x',
        sourceId,
        filters: [{ condition: "A IN ('1')" }, { condition: 'B = 2' }],
      });
      assert.equal(bad.status, 400);
      assert.equal(
        bad.json.error,
        `filters[1] must be a sidebar-renderable SQL predicate (e.g. "<column> IN ('<value>', ...)", "NOT IN (...)", or "BETWEEN <n> AND <n>"). Other shapes are only accepted on update when preserved unchanged from the stored saved search.`,
      );
      // A legacy filter already stored (written by the UI) survives a read-modify-write, but may not be changed.
      const s = resultOf<Json>(
        await api.call('POST', '/saved-searches', { name: 'Legacy', sourceId, filters: [{ condition: "A IN ('1')" }] }),
      );
      const stored = emu.state.data.get(emu.serviceIds[0] as string)?.savedSearches.get(String(s.id));
      assert.ok(stored);
      stored.filters = [{ type: 'sql', condition: 'B = 2' }];
      const echo = await api.call('PUT', `/saved-searches/${String(s.id)}`, {
        name: 'Legacy',
        sourceId,
        filters: [{ type: 'sql', condition: 'B = 2' }, { condition: "C NOT IN ('x')" }],
      });
      assert.equal(echo.status, 200, echo.text);
      const changed = await api.call('PUT', `/saved-searches/${String(s.id)}`, {
        name: 'Legacy',
        sourceId,
        filters: [{ type: 'sql', condition: 'B = 3' }],
      });
      assert.equal(changed.status, 400);
      assert.match(String(changed.json.error), /^filters\[0\] must be a sidebar-renderable SQL predicate/);
    } finally {
      await emu.close();
    }
  });
});

describe('emulator: error bodies against the spec', () => {
  it('the 4xx answers of the routes fit the error schema; a body that does not is recorded', async () => {
    const emu = await startEmulator({ rateLimit: { requests: 1, windowMs: 60_000 } });
    try {
      const api = client(emu);
      await api.call('GET', '/roles');
      const limited = await api.call('GET', '/roles');
      assert.equal(limited.status, 429);
      assert.equal((await api.call('GET', '/roles', undefined, { authorization: 'Basic eDp5' })).status, 401);
      assert.equal(emu.responseIssues.length, 0);
    } finally {
      await emu.close();
    }
    assert.deepEqual(
      checkErrorResponse('POST /clickstack/roles', 400, {
        status: 400,
        error: 'x',
        requestId: '3f5a9c2e-7b14-4d8a-9e62-1c0b8f4d7a35',
      }),
      [],
    );
    assert.deepEqual(
      checkErrorResponse('DELETE /clickstack/webhooks/{clickStackWebhookId}', 409, {
        message: 'Cannot delete webhook',
        status: '409',
      }).map((i) => i.path),
      ['/status', '/error', '/requestId', '/status'],
    );
    assert.deepEqual(takeResponseIssues(), []);
  });
});
