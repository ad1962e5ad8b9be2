/**
 * Test Connection on both kinds, against the emulators: a line per part saying what works and what does not. Cloud:
 * the API (a list call), and each shown service's query endpoint, where `SELECT 1` is sent only when the endpoint is
 * set up and the service is running (an idle one is never woken). Self-hosted: the API, and ClickHouse access when it
 * has some. Failures name the operation, HTTP status, server message and request ID, without any secret.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import { startEmulator, type Emulator } from '../emulator/server';
import { activate, type ExtensionApi } from './support';

interface Part {
  readonly part: string;
  readonly name: string;
  readonly outcome: 'ok' | 'failed' | 'skipped';
  readonly detail: string;
}
interface Report {
  readonly ok: boolean;
  readonly parts: readonly Part[];
}

const test = (connectionId: string) =>
  vscode.commands.executeCommand<Report>('observability.testConnection', { connectionId, noPrompt: true });

describe('Test Connection', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  let cloud: Emulator;
  let oss: Emulator;
  let cloudId = '';
  let ossId = '';
  const runs = (em: Emulator, since: number) => em.requests.slice(since).filter((r) => /\/run\/?$/.test(r.path));

  before(async () => {
    api = await activate();
    cloud = await startEmulator({ rateLimit: false });
    oss = await startEmulator({ flavor: 'oss', rateLimit: false });
    const [running, idle] = cloud.serviceIds as [string, string];
    assert.equal(cloud.state.services.find((s) => s.id === idle)?.state, 'idle', 'the seed has an idle service');
    cloudId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: cloud.url,
      keyId: cloud.keyId,
      keySecret: cloud.keySecret,
      organizationId: cloud.organizationId,
      serviceIds: [running, idle],
      label: 'Cloud to test',
    });
    await vscode.commands.executeCommand('observability.setQueryHost', {
      connectionId: cloudId,
      queryUrl: cloud.queryUrl,
    });
    ossId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      kind: 'selfHosted',
      baseUrl: oss.url,
      apiKey: oss.ossApiKey,
    });
  });

  after(async () => {
    for (const connectionId of [cloudId, ossId].filter((x) => x)) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, noPrompt: true });
    }
    await cloud?.close();
    await oss?.close();
  });

  it('Cloud: the API works; a query endpoint that is not set up is not tried', async () => {
    for (const id of cloud.serviceIds) cloud.state.data.get(id)!.queryEndpoint = null;
    const since = cloud.requests.length;
    const report = await test(cloudId);
    assert.equal(report.ok, true, JSON.stringify(report));
    assert.deepEqual(
      report.parts.map((p) => [p.part, p.outcome]),
      [
        ['api', 'ok'],
        ['queryEndpoint', 'skipped'],
        ['queryEndpoint', 'skipped'],
      ],
    );
    assert.match(report.parts[1]!.detail, /not set up/);
    assert.deepEqual(runs(cloud, since), [], 'no query sent');
  });

  it('Cloud: SELECT 1 on a set-up endpoint of a running service; an idle service is not woken', async () => {
    for (const id of cloud.serviceIds) {
      cloud.state.data.get(id)!.queryEndpoint = {
        id: 'e1f0c8e2-3a4d-4e5f-8a6b-7c8d9e0f1a3c',
        roles: ['sql_console_read_only'],
        openApiKeys: [SAMPLE_KEY_UUID],
        allowedOrigins: '',
      };
    }
    const [running, idle] = cloud.serviceIds as [string, string];
    const since = cloud.requests.length;
    const report = await test(cloudId);
    assert.equal(report.ok, true, JSON.stringify(report));
    const [, first, second] = report.parts;
    assert.equal(first?.outcome, 'ok');
    assert.match(first!.detail, /SELECT 1 answered/);
    assert.equal(second?.outcome, 'skipped');
    assert.match(second!.detail, /idle.*would wake/);
    const sent = runs(cloud, since).map((r) => r.path);
    assert.deepEqual(sent, [`/service/${running}/run`], 'one query, to the running service');
    assert.ok(!sent.some((p) => p.includes(idle)));
    assert.equal(cloud.state.services.find((s) => s.id === idle)?.state, 'idle', 'still idle');
  });

  it('Cloud: a refused key fails the API part with operation, status, server message and request ID, no secret', async () => {
    const wrong = 'not-the-secret-Kq81';
    await api.connections.setSecret(cloudId, wrong);
    try {
      const report = await test(cloudId);
      assert.equal(report.ok, false);
      const apiPart = report.parts.find((p) => p.part === 'api')!;
      assert.equal(apiPart.outcome, 'failed');
      assert.match(apiPart.detail, /^List services failed: HTTP 401/);
      assert.match(apiPart.detail, /requestId [\w-]+/);
      for (const p of report.parts) assert.ok(!p.detail.includes(wrong), p.detail);
    } finally {
      await api.connections.setSecret(cloudId, cloud.keySecret);
    }
  });

  it('Self-hosted: the API works; ClickHouse access is reported when set, and a wrong password fails it', async () => {
    let report = await test(ossId);
    assert.deepEqual(
      report.parts.map((p) => [p.part, p.outcome]),
      [
        ['api', 'ok'],
        ['clickHouse', 'skipped'],
      ],
    );
    assert.match(report.parts[1]!.detail, /not set/);

    await vscode.commands.executeCommand('observability.setClickHouseAccess', {
      connectionId: ossId,
      url: oss.clickHouseHttpUrl,
      user: oss.clickHouseUser,
      password: oss.clickHousePassword,
    });
    report = await test(ossId);
    assert.equal(report.ok, true, JSON.stringify(report));
    assert.equal(report.parts[1]?.outcome, 'ok');
    assert.match(report.parts[1]!.detail, /SELECT 1 answered/);

    const wrong = 'wrong-Reader-pa55';
    await vscode.commands.executeCommand('observability.setClickHouseAccess', {
      connectionId: ossId,
      url: oss.clickHouseHttpUrl,
      user: oss.clickHouseUser,
      password: wrong,
      skipCheck: true,
    });
    report = await test(ossId);
    assert.equal(report.ok, false);
    assert.equal(report.parts[0]?.outcome, 'ok', 'the API still works');
    const clickHouse = report.parts[1]!;
    assert.equal(clickHouse.outcome, 'failed');
    assert.match(clickHouse.detail, /failed: HTTP 403/);
    assert.match(clickHouse.detail, /Authentication failed/);
    assert.ok(!clickHouse.detail.includes(wrong), clickHouse.detail);
  });
});
