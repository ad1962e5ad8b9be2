/**
 * The self-hosted adapter: a deployment behind the cloud client's surface (one pseudo service whose ID every method
 * ignores), against the emulator's OSS flavor; what the External API v2 lacks is refused before anything is sent.
 */
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../emulator/server';
import { ossData, SAMPLE_OSS_TEAM_NAME } from '../../emulator/oss/seed';
import { ApiError, RateLimiter, type ObservabilityApi } from '../../../src/api';
import { SELF_HOSTED_SERVICE_ID, SelfHostedServiceClient } from '../../../src/api/oss';

describe('self-hosted adapter (one service behind the client surface)', () => {
  let emu: Emulator;
  let client: ObservabilityApi;
  before(async () => {
    emu = await startEmulator({ flavor: 'oss', rateLimit: false });
    client = new SelfHostedServiceClient({
      connection: { baseUrl: emu.url },
      getSecret: () => emu.ossApiKey,
      limiter: new RateLimiter({ requests: 10_000, windowMs: 1000 }),
    });
  });
  after(async () => {
    await emu.close();
  });

  it('lists the deployment as its one service, named after the team', async () => {
    const services = await client.listServices();
    assert.deepEqual(
      services.data.map((s) => [s.id, s.name]),
      [[SELF_HOSTED_SERVICE_ID, SAMPLE_OSS_TEAM_NAME]],
    );
    assert.deepEqual(client.connection.serviceIds, [SELF_HOSTED_SERVICE_ID]);
  });

  it('serves dashboards, alerts, sources, webhooks and saved searches from /api/v2', async () => {
    const mark = emu.requests.length;
    const [dashboards, alerts, sources, webhooks, searches] = await Promise.all([
      client.listDashboards(SELF_HOSTED_SERVICE_ID),
      client.listAlerts(SELF_HOSTED_SERVICE_ID),
      client.listSources(SELF_HOSTED_SERVICE_ID),
      client.listWebhooks(SELF_HOSTED_SERVICE_ID),
      client.listSavedSearches(SELF_HOSTED_SERVICE_ID),
    ]);
    const data = ossData(emu.state);
    assert.equal(dashboards.data.length, data.dashboards.size);
    assert.equal(alerts.data.length, data.alerts.size);
    assert.equal(sources.data.length, data.sources.size);
    assert.equal(webhooks.data.length, data.webhooks.size);
    assert.ok(searches.data.length >= 0);
    const paths = emu.requests.slice(mark).map((r) => r.path);
    assert.ok(
      paths.every((p) => p.startsWith('/api/v2/')),
      paths.join(', '),
    );
    const dashboard = dashboards.data[0]!;
    const one = await client.getDashboard(SELF_HOSTED_SERVICE_ID, dashboard.id);
    assert.equal(one.data.id, dashboard.id);
  });

  it('refuses the query endpoint, roles, organizations and API keys before sending anything', async () => {
    const mark = emu.requests.length;
    const refusals: [Promise<unknown>, RegExp][] = [
      [client.getQueryEndpoint(SELF_HOSTED_SERVICE_ID), /no service query endpoint/],
      [client.deleteQueryEndpoint(SELF_HOSTED_SERVICE_ID), /no service query endpoint/],
      [client.listRoles(SELF_HOSTED_SERVICE_ID), /no roles/],
      [client.listOrganizations(), /no organizations/],
      [client.listApiKeys(), /no API key listing/],
    ];
    for (const [promise, message] of refusals) {
      const error = await promise.then(
        () => assert.fail('expected a refusal'),
        (e: unknown) => e,
      );
      assert.ok(ApiError.is(error, 'invalidInput'), String(error));
      assert.match(error.message, message);
      assert.match(error.message, /self-hosted/);
      assert.equal(error.retryable, false);
    }
    assert.equal(emu.requests.length, mark, 'nothing was sent');
  });
});
