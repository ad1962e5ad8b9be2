/**
 * Webhooks, saved searches, sources and roles through the client against a loopback server that answers like the
 * cloud API: the method and path of every operation, the body that goes out, the value that comes back, paging,
 * what the server says when it refuses (a webhook in use), and bodies that break the server's rules never sent.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ApiError } from '../../../src/api';
import { ORG, SVC, envelope, makeClient, rejects, sendJson, startServer, type TestServer } from './helpers';

const OID = '65f5e4a3b9e77c001a789012';
const BASE = `/v1/organizations/${ORG}/services/${SVC}/observability`;
const WEBHOOK = {
  id: OID,
  name: 'Ops',
  service: 'generic',
  url: 'https://hooks.example.com/a',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};
const SEARCH = {
  id: OID,
  name: 'Errors',
  sourceId: OID,
  where: 'level:error',
  whereLanguage: 'lucene',
  tags: [],
  filters: [],
};
const SOURCE = {
  id: OID,
  name: 'Logs',
  kind: 'log',
  connection: OID,
  from: { databaseName: 'default', tableName: 'otel_logs' },
  timestampValueExpression: 'T',
  defaultTableSelectExpression: '*',
};
const ROLE = {
  id: OID,
  name: 'Deploy Bot',
  permissions: [{ action: 'read', subject: 'dashboard' }],
  isPredefined: false,
};

describe('webhooks, saved searches, sources and roles through the client', () => {
  let server: TestServer;
  let reply: (method: string, url: string, body: string) => { status: number; value: unknown };

  before(async () => {
    server = await startServer((req, res, body) => {
      const r = reply(req.method ?? '', req.url ?? '', body);
      sendJson(res, r.status, r.value);
    });
  });
  after(() => server.close());
  beforeEach(() => {
    server.seen.length = 0;
  });

  const client = () => makeClient(server.url).client;
  const last = () => server.seen[server.seen.length - 1]!;

  it('webhooks: create POSTs the body, update PUTs it to the webhook, delete sends DELETE; results are read', async () => {
    reply = (method, _url, body) => ({
      status: 200,
      value:
        method === 'DELETE' ? { status: 200, requestId: 'r' } : envelope({ ...WEBHOOK, ...JSON.parse(body || '{}') }),
    });
    const c = client();
    const created = await c.createWebhook(SVC, {
      name: 'Ops',
      service: 'generic',
      url: 'https://hooks.example.com/a',
      headers: { Authorization: 'Bearer t' },
    });
    assert.equal(last().method, 'POST');
    assert.equal(last().url, `${BASE}/webhooks`);
    assert.deepEqual(JSON.parse(last().body), {
      name: 'Ops',
      service: 'generic',
      url: 'https://hooks.example.com/a',
      headers: { Authorization: 'Bearer t' },
    });
    assert.equal(created.data.id, OID);
    const updated = await c.updateWebhook(SVC, OID, {
      name: 'Ops 2',
      service: 'generic',
      url: 'https://hooks.example.com/a',
    });
    assert.equal(last().method, 'PUT');
    assert.equal(last().url, `${BASE}/webhooks/${OID}`);
    assert.equal(updated.data.name, 'Ops 2');
    await c.deleteWebhook(SVC, OID);
    assert.equal(last().method, 'DELETE');
    assert.equal(last().url, `${BASE}/webhooks/${OID}`);
  });

  it('webhooks: deleting one that alerts still use fails with the server message, 409 and request ID', async () => {
    reply = () => ({
      status: 409,
      value: {
        status: 409,
        error: 'Cannot delete webhook: 2 alert(s) still reference it. Reassign or remove those alerts first.',
        requestId: 'req-409',
      },
    });
    const err = await rejects(client().deleteWebhook(SVC, OID));
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 409);
    assert.equal(err.operation, 'Delete webhook');
    assert.match(err.serverMessage ?? '', /2 alert\(s\) still reference it/);
    assert.equal(err.requestId, 'req-409');
    assert.equal(server.count('DELETE'), 1, 'a refused delete is not retried');
  });

  it('webhooks: a slack webhook with a body is refused before sending, naming the field', async () => {
    reply = () => ({ status: 200, value: envelope(WEBHOOK) });
    const err = await rejects(
      client().createWebhook(SVC, { name: 'S', service: 'slack', url: 'https://hooks.slack.com/x', body: '{}' }),
    );
    assert.ok(err instanceof ApiError);
    assert.equal(err.kind, 'invalidInput');
    assert.ok(err.issues?.some((i) => i.path === 'body' && /not supported/.test(i.message)));
    assert.equal(server.seen.length, 0);
  });

  it('webhooks: the list is read page by page with limit/offset until totalCount', async () => {
    const all = Array.from({ length: 5 }, (_, i) => ({ ...WEBHOOK, id: `65f5e4a3b9e77c001a78901${i}`, name: `W${i}` }));
    reply = (_m, url) => {
      const q = new URL(url, 'http://x').searchParams;
      const offset = Number(q.get('offset'));
      const limit = Number(q.get('limit'));
      return { status: 200, value: { ...envelope(all.slice(offset, offset + limit)), totalCount: all.length } };
    };
    const list = await client().listWebhooks(SVC, { pageSize: 2 });
    assert.deepEqual(
      list.data.map((w) => w.name),
      ['W0', 'W1', 'W2', 'W3', 'W4'],
    );
    assert.equal(list.pages, 3);
    assert.deepEqual(
      server.seen.map((s) => new URL(s.url, 'http://x').search),
      ['?limit=2&offset=0', '?limit=2&offset=2', '?limit=2&offset=4'],
    );
  });

  it('saved searches: get, create, update and delete go to /saved-searches[/{id}] with the body as given', async () => {
    reply = (method, _url, body) => ({
      status: 200,
      value:
        method === 'DELETE'
          ? { status: 200, requestId: 'r' }
          : envelope(method === 'GET' ? SEARCH : { ...SEARCH, ...JSON.parse(body) }),
    });
    const c = client();
    assert.equal((await c.getSavedSearch(SVC, OID)).data.name, 'Errors');
    assert.equal(last().url, `${BASE}/saved-searches/${OID}`);
    await c.createSavedSearch(SVC, {
      name: 'E',
      sourceId: OID,
      filters: [{ condition: "ServiceName IN ('a')" }],
      futureField: 1,
    } as never);
    assert.equal(last().method, 'POST');
    assert.equal(last().url, `${BASE}/saved-searches`);
    assert.deepEqual(
      JSON.parse(last().body),
      { name: 'E', sourceId: OID, filters: [{ condition: "ServiceName IN ('a')" }], futureField: 1 },
      'unknown keys are sent',
    );
    await c.updateSavedSearch(SVC, OID, { name: 'E2', sourceId: OID });
    assert.equal(last().method, 'PUT');
    await c.deleteSavedSearch(SVC, OID);
    assert.equal(last().method, 'DELETE');
    assert.equal(last().url, `${BASE}/saved-searches/${OID}`);
  });

  it('sources: get, create (per-kind rules), update and delete go to /sources[/{id}]', async () => {
    reply = (method, _url, body) => ({
      status: 200,
      value:
        method === 'DELETE'
          ? { status: 200, requestId: 'r' }
          : envelope(method === 'GET' ? SOURCE : { ...SOURCE, ...JSON.parse(body) }),
    });
    const c = client();
    assert.equal((await c.getSource(SVC, OID)).data.kind, 'log');
    assert.equal(last().url, `${BASE}/sources/${OID}`);
    const { id: _id, ...body } = SOURCE;
    await c.createSource(SVC, body as never);
    assert.equal(last().method, 'POST');
    assert.equal(last().url, `${BASE}/sources`);
    await c.updateSource(SVC, OID, { ...body, name: 'Logs 2' } as never);
    assert.equal(last().method, 'PUT');
    await c.deleteSource(SVC, OID);
    assert.equal(last().method, 'DELETE');
    const sent = server.seen.length;
    const err = await rejects(c.createSource(SVC, { ...body, kind: 'trace' } as never));
    assert.ok(err instanceof ApiError && err.issues?.some((i) => i.path === 'durationExpression'));
    assert.equal(server.seen.length, sent, 'a trace source without its required expressions is not sent');
  });

  it('roles: list, get, create, update and delete go to /roles[/{id}]', async () => {
    reply = (method, url, body) => ({
      status: 200,
      value:
        method === 'DELETE'
          ? { status: 200, requestId: 'r' }
          : envelope(
              method === 'GET'
                ? url.endsWith('/roles')
                  ? [ROLE, { ...ROLE, id: 'predefined1', isPredefined: true }]
                  : ROLE
                : { ...ROLE, ...JSON.parse(body) },
            ),
    });
    const c = client();
    const list = await c.listRoles(SVC);
    assert.equal(list.data.length, 2);
    assert.equal(last().url, `${BASE}/roles`);
    assert.equal((await c.getRole(SVC, OID)).data.name, 'Deploy Bot');
    await c.createRole(SVC, { name: 'R', permissions: [{ action: 'read', subject: 'all' }] });
    assert.equal(last().method, 'POST');
    await c.updateRole(SVC, OID, { permissions: [] });
    assert.equal(last().method, 'PUT');
    assert.equal(last().url, `${BASE}/roles/${OID}`);
    await c.deleteRole(SVC, OID);
    assert.equal(last().method, 'DELETE');
    const err = await rejects(c.updateRole(SVC, OID, { name: 'x' } as never));
    assert.ok(err instanceof ApiError && err.issues?.some((i) => i.path === 'permissions'));
  });

  it('an ID that could change the path is refused before sending', async () => {
    reply = () => ({ status: 200, value: envelope(ROLE) });
    const err = await rejects(client().deleteRole(SVC, '../../keys'));
    assert.ok(err instanceof ApiError && err.kind === 'invalidInput');
    assert.equal(server.seen.length, 0);
  });
});
