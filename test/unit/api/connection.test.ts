/** Connection validation: HTTPS unless loopback, no credentials/query/fragment, UUIDs, segment. */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  ApiError,
  ObservabilityClient,
  connectionIssues,
  isLoopbackHost,
  validateConnection,
  type ConnectionConfig,
} from '../../../src/api';
import { KEY_ID, ORG, SVC } from './helpers';

const base: ConnectionConfig = {
  baseUrl: 'https://api.clickhouse.cloud',
  organizationId: ORG,
  serviceIds: [SVC],
  keyId: KEY_ID,
  pathSegment: 'clickstack',
};

test('a valid connection passes', () => {
  validateConnection(base);
  validateConnection({ ...base, baseUrl: 'http://127.0.0.1:8080' });
  validateConnection({ ...base, baseUrl: 'http://localhost:3000/prefix/' });
  validateConnection({ ...base, baseUrl: 'http://[::1]:9000', pathSegment: 'observability' });
});

test('HTTPS is required for non-loopback hosts', () => {
  for (const baseUrl of [
    'http://api.clickhouse.cloud',
    'http://10.0.0.1',
    'http://localhost.example.com',
    'http://127.0.0.1.nip.io',
    'ftp://api.clickhouse.cloud',
  ]) {
    const issues = connectionIssues({ ...base, baseUrl });
    assert.ok(
      issues.some((i) => i.path === 'baseUrl' && /https/.test(i.message)),
      baseUrl,
    );
    assert.throws(
      () => new ObservabilityClient({ connection: { ...base, baseUrl }, getSecret: () => 'x' }),
      (e: unknown) => ApiError.is(e, 'invalidInput'),
    );
  }
});

test('credentials, query and fragment are refused in the base URL', () => {
  for (const [baseUrl, re] of [
    ['https://user:pass@api.clickhouse.cloud', /credentials/],
    ['https://api.clickhouse.cloud/?token=1', /query/],
    ['https://api.clickhouse.cloud/#x', /fragment/],
    ['not a url', /absolute URL/],
  ] as const) {
    const issues = connectionIssues({ ...base, baseUrl });
    assert.ok(
      issues.some((i) => re.test(i.message)),
      `${baseUrl}: ${JSON.stringify(issues)}`,
    );
  }
});

test('IDs, key ID and segment are checked', () => {
  const issues = connectionIssues({
    ...base,
    organizationId: 'org',
    serviceIds: [SVC, 'nope'],
    keyId: 'a:b',
    pathSegment: 'Click/Stack',
  });
  assert.deepEqual(
    issues.map((i) => i.path),
    ['organizationId', 'serviceIds.1', 'keyId', 'pathSegment'],
  );
  try {
    validateConnection({ ...base, organizationId: '../x' });
    assert.fail('expected an error');
  } catch (err) {
    assert.ok(ApiError.is(err, 'invalidInput'));
    assert.match(err.message, /organizationId: must be a UUID/);
  }
});

test('loopback detection', () => {
  for (const h of [
    'localhost',
    'LOCALHOST',
    '127.0.0.1',
    '127.1.2.3',
    '::1',
    '[::1]',
    '::ffff:127.0.0.1',
    '[::ffff:7f00:1]',
  ]) {
    assert.ok(isLoopbackHost(h), h);
  }
  // Names that DNS resolves are not loopback, even under .localhost or with the root dot.
  for (const h of [
    'localhost.evil.com',
    'a.localhost',
    'localhost.',
    '128.0.0.1',
    '127.0.0.256',
    '10.0.0.1',
    '::2',
    'example.com',
    '127.0.0.1.nip.io',
  ]) {
    assert.ok(!isLoopbackHost(h), h);
  }
});

test('a base URL path prefix is kept and path parts are percent-encoded', async () => {
  const { startServer, sendJson, envelope } = await import('./helpers');
  const server = await startServer((_req, res) => sendJson(res, 200, envelope([])));
  try {
    const client = new ObservabilityClient({
      connection: { ...base, baseUrl: `${server.url}/api/`, pathSegment: 'observability' },
      getSecret: () => 'secret-value',
    });
    await client.listSources(SVC);
    assert.equal(server.seen[0].url, `/api/v1/organizations/${ORG}/services/${SVC}/observability/sources`);
    await client.close();
  } finally {
    await server.close();
  }
});
