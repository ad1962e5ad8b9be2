/**
 * Changes whose answer is lost, against the emulator: the user is told the change may have been applied (never
 * invited to resend a create blindly), a create is sent once, and a DELETE retried after a cut answer that finds the
 * resource gone counts as done.
 */
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../emulator/server';
import { ApiError, ObservabilityClient, RateLimiter } from '../../../src/api';
import type { AlertWrite } from '../../../src/schema';

describe('changes whose answer is lost', () => {
  let emu: Emulator;
  let client: ObservabilityClient;
  let svc: string;
  let body: AlertWrite;
  const alertsPath = () => `/v1/organizations/${emu.organizationId}/services/${svc}/observability/alerts`;
  const posts = () => emu.requests.filter((r) => r.method === 'POST' && r.path === alertsPath()).length;

  async function rejection(p: Promise<unknown>): Promise<ApiError> {
    try {
      await p;
    } catch (err) {
      assert.ok(err instanceof ApiError, String(err));
      return err;
    }
    throw new Error('expected a rejection');
  }

  before(async () => {
    emu = await startEmulator({ rateLimit: false });
    svc = emu.serviceIds[0]!;
    client = new ObservabilityClient({
      connection: {
        baseUrl: emu.url,
        organizationId: emu.organizationId,
        serviceIds: emu.serviceIds,
        keyId: emu.keyId,
        pathSegment: 'observability',
      },
      getSecret: () => emu.keySecret,
      limiter: new RateLimiter({ requests: 10_000, windowMs: 1000 }),
      retry: { baseDelayMs: 20, maxDelayMs: 100 },
      timeouts: { headersMs: 1000, bodyMs: 1000 },
    });
    const data = emu.state.data.get(svc)!;
    const dashboard = [...data.dashboards.values()].find((d) =>
      d.tiles.some((t) => (t.config as { displayType?: string } | undefined)?.displayType === 'line'),
    )!;
    const tile = dashboard.tiles.find((t) => (t.config as { displayType?: string }).displayType === 'line')!;
    body = {
      source: 'tile',
      dashboardId: dashboard.id,
      tileId: String(tile.id),
      threshold: 7,
      thresholdType: 'above',
      interval: '1h',
      channel: { type: 'webhook', webhookId: [...data.webhooks.values()][0]!.id },
      name: 'Lost answer',
    } as AlertWrite;
  });
  after(async () => {
    await client.close();
    await emu.close();
  });

  it('a create whose answer never comes is sent once and says it may have been applied', async () => {
    emu.faults.clear();
    const before = posts();
    emu.faults.add({ method: 'POST', path: alertsPath(), delayMs: 3000, times: 1 });
    const error = await rejection(client.createAlert(svc, body));
    assert.equal(error.kind, 'timeout');
    assert.equal(posts() - before, 1, 'the create was sent exactly once');
    assert.match(error.message, /Create alert failed/);
    assert.match(error.message, /may have reached the service and been applied: refresh and check before trying again/);
    emu.faults.clear();
  });

  it('a create accepted with an unreadable answer says so instead of inviting a retry', async () => {
    emu.faults.clear();
    const before = posts();
    const countBefore = emu.state.data.get(svc)!.alerts.size;
    emu.faults.add({ method: 'POST', path: alertsPath(), malformedJson: true, times: 1 });
    const error = await rejection(client.createAlert(svc, body));
    assert.equal(error.kind, 'invalidResponse');
    assert.equal(error.status, 200);
    assert.equal(posts() - before, 1, 'the create was sent exactly once');
    assert.equal(emu.state.data.get(svc)!.alerts.size, countBefore + 1, 'the service did create it');
    assert.match(error.message, /accepted the request, but its answer could not be read: refresh and check/);
    emu.faults.clear();
  });

  it('a DELETE whose answer is cut, retried and finding the alert gone, succeeded', async () => {
    emu.faults.clear();
    const created = await client.createAlert(svc, { ...body, name: 'Deleted once' });
    const path = `${alertsPath()}/${created.data.id}`;
    emu.faults.add({ method: 'DELETE', path, reset: 'mid-body', times: 1 });
    const result = await client.deleteAlert(svc, created.data.id);
    const deletes = emu.requests.filter((r) => r.method === 'DELETE' && r.path === path);
    assert.equal(deletes.length, 2, 'the DELETE was retried once');
    assert.equal(deletes[1]!.status, 404);
    assert.ok(result.status === 404 || result.status === 200);
    assert.equal(emu.state.data.get(svc)!.alerts.has(created.data.id), false);
  });

  it('a DELETE of an alert that never existed is still an error', async () => {
    emu.faults.clear();
    const error = await rejection(client.deleteAlert(svc, 'ffffffffffffffffffffffff'));
    assert.equal(error.kind, 'notFound');
    assert.equal(error.status, 404);
  });
});
