import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator';
import { client, resultOf, UUID_V4, failOnResponseIssues } from './helpers';

failOnResponseIssues();

describe('emulator: service query endpoint', () => {
  let emu: Emulator;
  let api: ReturnType<typeof client>;
  let path: string;
  let keyIds: string[];
  before(async () => {
    emu = await startEmulator({ rateLimit: false });
    api = client(emu);
    path = `/v1/organizations/${emu.organizationId}/services/${emu.serviceIds[0]}/serviceQueryEndpoint`;
    keyIds = resultOf<{ id: string }[]>(await api.call('GET', `/v1/organizations/${emu.organizationId}/keys`)).map(
      (k) => k.id,
    );
  });
  after(() => emu.close());

  it('is 404 (JSON envelope) until upserted, keeps its id on re-upsert, and deletes', async () => {
    const none = await api.call('GET', path);
    assert.equal(none.status, 404);
    assert.equal(none.json.status, 404);
    assert.match(String(none.json.requestId), UUID_V4);

    const first = await api.call('POST', path, {
      roles: ['sql_console_read_only'],
      openApiKeys: [keyIds[0]],
      allowedOrigins: '',
    });
    assert.equal(first.status, 200, first.text);
    const created = resultOf<{ id: string; roles: string[]; openApiKeys: string[]; allowedOrigins: string }>(first);
    assert.deepEqual(Object.keys(created).sort(), ['allowedOrigins', 'id', 'openApiKeys', 'roles']);

    const second = await api.call('POST', path, {
      roles: ['sql_console_admin'],
      openApiKeys: keyIds.slice(0, 2),
      allowedOrigins: 'https://app.example.com',
    });
    assert.notEqual(second.json.requestId, first.json.requestId);
    const updated = resultOf<typeof created>(second);
    assert.equal(updated.id, created.id);
    assert.deepEqual(updated.roles, ['sql_console_admin']);
    assert.equal(updated.openApiKeys.length, 2);
    assert.deepEqual(resultOf(await api.call('GET', path)), updated);

    const del = await api.call('DELETE', path);
    assert.equal(del.status, 200);
    assert.deepEqual(Object.keys(del.json).sort(), ['requestId', 'status']);
    assert.equal((await api.call('GET', path)).status, 404);
    assert.equal((await api.call('DELETE', path)).status, 404);
  });

  it('checks roles against the schema and keys against the organization', async () => {
    const role = await api.call('POST', path, { roles: ['owner'], openApiKeys: [] });
    assert.equal(role.status, 400);
    assert.match(String(role.json.error), /\/roles\/0: must be one of/);
    const notUuid = await api.call('POST', path, { roles: [], openApiKeys: [emu.keyId] });
    assert.equal(notUuid.status, 400);
    assert.match(String(notUuid.json.error), /UUID of an API key/);
    const unknown = await api.call('POST', path, { roles: [], openApiKeys: ['11111111-2222-4333-8444-555555555555'] });
    assert.equal(unknown.status, 400);
  });
});
