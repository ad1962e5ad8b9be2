/**
 * The SQL client's ClickHouse HTTP transport against the self-hosted emulator's ClickHouse HTTP interface (the same
 * embedded ClickHouse data the Cloud flavor's query host and the chart series API read): same rows as the Cloud query
 * endpoint for the same SQL, ClickHouse's errors, refused credentials.
 */
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../emulator/server';
import { SAMPLE_KEY_UUID } from '../../emulator/seed';
import { RateLimiter } from '../../../src/api';
import { QueryClient, QueryError } from '../../../src/api/query';

async function failure(p: Promise<unknown>): Promise<QueryError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof QueryError, String(err));
    return err;
  }
  throw new Error('expected a rejection');
}

describe('QueryClient over the self-hosted emulator ClickHouse HTTP interface', () => {
  let oss: Emulator;
  let cloud: Emulator;
  let ch: QueryClient;
  let cloudClient: QueryClient;
  let svc: string;

  before(async () => {
    oss = await startEmulator({ flavor: 'oss', rateLimit: false });
    cloud = await startEmulator({ rateLimit: false });
    svc = cloud.serviceIds[0] as string;
    const data = cloud.state.data.get(svc);
    assert.ok(data);
    data.queryEndpoint = {
      id: 'b1f0c8e2-3a4d-4e5f-8a6b-7c8d9e0f1a2b',
      roles: ['sql_console_read_only'],
      openApiKeys: [SAMPLE_KEY_UUID],
      allowedOrigins: '',
    };
    ch = new QueryClient({
      transport: 'clickhouseHttp',
      queryUrl: oss.clickHouseHttpUrl,
      keyId: oss.clickHouseUser,
      getSecret: () => oss.clickHousePassword,
      limiter: new RateLimiter({ requests: 1000, windowMs: 1000 }),
    });
    cloudClient = new QueryClient({
      queryUrl: cloud.queryUrl,
      keyId: cloud.keyId,
      getSecret: () => cloud.keySecret,
      limiter: new RateLimiter({ requests: 1000, windowMs: 1000 }),
    });
  });

  after(async () => {
    await ch.dispose();
    await cloudClient.dispose();
    await oss.close();
    await cloud.close();
  });

  it(
    'answers a GROUP BY on the sample logs with the rows the Cloud query endpoint gives',
    { timeout: 180_000 },
    async () => {
      const sql = 'SELECT ServiceName, count() AS n FROM otel_logs GROUP BY ServiceName ORDER BY n DESC, ServiceName';
      const viaHttp = await ch.run({ sql });
      const viaCloud = await cloudClient.run({ serviceId: svc, sql });
      assert.deepEqual(viaHttp.columns, viaCloud.columns);
      assert.deepEqual(viaHttp.rows, viaCloud.rows);
      assert.equal(
        viaHttp.rows.reduce((s, r) => s + Number(r[1]), 0),
        // The bulk logs and the sample workspace's 1,610.
        1_002_220,
      );
      assert.ok(viaHttp.queryId, 'the query ID comes back');
      const sent = oss.requests.at(-1);
      assert.equal(sent?.authorized, true);
      assert.equal(sent?.query.default_format, 'JSONCompactEachRowWithNamesAndTypes');
    },
  );

  it('gives ClickHouse errors with their code, name and query ID', { timeout: 60_000 }, async () => {
    const err = await failure(ch.run({ sql: 'SELECT * FROM no_such_table_here' }));
    assert.equal(err.reason, 'sql');
    assert.equal(err.status, 400);
    assert.equal(err.clickHouse?.code, 60);
    assert.match(err.serverMessage ?? '', /^Code: 60\. DB::Exception: /);
    assert.ok(err.requestId, 'the query ID is named');
  });

  it(
    'takes the user and password from X-ClickHouse-User/Key too, and refuses an unknown URL setting',
    { timeout: 60_000 },
    async () => {
      const headers = { 'x-clickhouse-user': oss.clickHouseUser, 'x-clickhouse-key': oss.clickHousePassword };
      const ok = await fetch(`${oss.clickHouseHttpUrl}/?default_format=JSONCompactEachRowWithNamesAndTypes`, {
        method: 'POST',
        headers,
        body: 'SELECT 1 AS one',
      });
      assert.equal(ok.status, 200);
      assert.ok(ok.headers.get('x-clickhouse-query-id'));
      assert.equal(await ok.text(), '["one"]\n["UInt8"]\n[1]\n');
      const bad = await fetch(`${oss.clickHouseHttpUrl}/?no_such_setting=1`, {
        method: 'POST',
        headers,
        body: 'SELECT 1',
      });
      assert.equal(bad.status, 400);
      assert.equal(bad.headers.get('x-clickhouse-exception-code'), '115');
      assert.match(
        await bad.text(),
        /^Code: 115\. DB::Exception: Unknown setting 'no_such_setting'\. \(UNKNOWN_SETTING\)/,
      );
    },
  );

  it('refuses a wrong password as ClickHouse does, without showing it', { timeout: 60_000 }, async () => {
    const wrong = new QueryClient({
      transport: 'clickhouseHttp',
      queryUrl: oss.clickHouseHttpUrl,
      keyId: oss.clickHouseUser,
      getSecret: () => 'not-the-Password-42',
      limiter: new RateLimiter({ requests: 1000, windowMs: 1000 }),
    });
    try {
      const err = await failure(wrong.run({ sql: 'SELECT 1' }));
      assert.equal(err.reason, 'accessDenied');
      assert.equal(err.status, 403);
      assert.equal(err.clickHouse?.code, 516);
      assert.ok(!`${String(err)} ${JSON.stringify(err)}`.includes('not-the-Password-42'));
    } finally {
      await wrong.dispose();
    }
  });
});
