/**
 * The Team folder's data in the resource cache: a self-hosted deployment's team and members, read with the real
 * self-hosted client from the emulator's OSS flavor (two requests, kept until invalidated, fields the server adds
 * kept); a Cloud service's client has no team and the entry holds that error instead of a value, sending nothing.
 */
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../emulator/server';
import { ossData, SAMPLE_OSS_MEMBERS, SAMPLE_OSS_TEAM_NAME } from '../../emulator/oss/seed';
import { ObservabilityClient, RateLimiter } from '../../../src/api';
import { SELF_HOSTED_SERVICE_ID, SelfHostedServiceClient } from '../../../src/api/oss';
import { ResourceCache } from '../../../src/resources/cache';
import type { ConnectionSource, ConnectionView, ResourceClient } from '../../../src/resources/model';

function source(clients: Record<string, ResourceClient>): ConnectionSource {
  return {
    list: () => [],
    get: (): ConnectionView | undefined => undefined,
    onDidChange: () => ({ dispose: () => undefined }),
    clientFor: (id) => clients[id]!,
  };
}

describe('resource cache: the team of a self-hosted deployment', () => {
  let oss: Emulator;
  let cloud: Emulator;
  let cache: ResourceCache;
  before(async () => {
    oss = await startEmulator({ flavor: 'oss', rateLimit: false });
    cloud = await startEmulator({ rateLimit: false });
    const limiter = new RateLimiter({ requests: 10_000, windowMs: 1000 });
    cache = new ResourceCache(
      source({
        selfHosted: new SelfHostedServiceClient({
          connection: { baseUrl: oss.url },
          getSecret: () => oss.ossApiKey,
          limiter,
        }),
        cloud: new ObservabilityClient({
          connection: {
            baseUrl: cloud.url,
            organizationId: cloud.organizationId,
            serviceIds: cloud.serviceIds,
            keyId: cloud.keyId,
            pathSegment: 'observability',
          },
          getSecret: () => cloud.keySecret,
          limiter,
        }),
      }),
    );
  });
  after(async () => {
    cache.dispose();
    await oss.close();
    await cloud.close();
  });

  it('loads the team and its members once, and again after an invalidation', async () => {
    const mark = oss.requests.length;
    const entry = await cache.ensure('selfHosted', SELF_HOSTED_SERVICE_ID, 'team');
    assert.equal(entry.error, undefined);
    assert.deepEqual(entry.value?.team, { id: ossData(oss.state).teamId, name: SAMPLE_OSS_TEAM_NAME });
    assert.deepEqual(entry.value?.members, SAMPLE_OSS_MEMBERS);
    assert.deepEqual(
      oss.requests
        .slice(mark)
        .map((r) => r.path)
        .sort(),
      ['/api/v2/team', '/api/v2/team/members'],
    );

    await cache.ensure('selfHosted', SELF_HOSTED_SERVICE_ID, 'team');
    assert.equal(oss.requests.length, mark + 2, 'served from the cache');
    cache.invalidate('selfHosted', SELF_HOSTED_SERVICE_ID, ['team']);
    await cache.ensure('selfHosted', SELF_HOSTED_SERVICE_ID, 'team');
    assert.equal(oss.requests.length, mark + 4, 'read again after the invalidation');
  });

  it('keeps fields a newer server adds to the team and its members', async () => {
    const newer = await startEmulator({ flavor: 'oss', rateLimit: false });
    try {
      const client = new SelfHostedServiceClient({
        connection: { baseUrl: newer.url },
        getSecret: () => newer.ossApiKey,
        limiter: new RateLimiter({ requests: 10_000, windowMs: 1000 }),
      });
      newer.faults.add({
        method: 'GET',
        path: '/api/v2/team/members',
        times: 1,
        status: 200,
        body: { data: [{ ...SAMPLE_OSS_MEMBERS[1], role: 'admin', lastLoginAt: '2026-11-01T00:00:00Z' }] },
      });
      const own = new ResourceCache(source({ c: client }));
      const entry = await own.ensure('c', SELF_HOSTED_SERVICE_ID, 'team');
      assert.equal(entry.error, undefined, String(entry.error?.message));
      assert.equal(entry.value?.members[0]?.role, 'admin');
      assert.equal(entry.value?.members[0]?.lastLoginAt, '2026-11-01T00:00:00Z');
      own.dispose();
      await client.close();
    } finally {
      await newer.close();
    }
  });

  it('has no team for a Cloud service: an error entry, nothing sent', async () => {
    const mark = cloud.requests.length;
    const entry = await cache.ensure('cloud', cloud.serviceIds[0]!, 'team');
    assert.equal(entry.value, undefined);
    assert.match(entry.error?.message ?? '', /Only a self-hosted deployment/);
    assert.equal(cloud.requests.length, mark);
  });
});
