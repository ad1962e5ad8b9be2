/**
 * "Run SQL on which service?" offers each service of a connection once: a connection with one service runs New
 * Query's SQL there without asking, however often the features are asked for, its services are chosen again (the
 * same one, in another case, twice in one list) or it changes. With two services the question is asked (the check
 * below sees a question when there is one).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import type { QueryTarget } from '../../src/query/targets';
import { activate, sleep, type ExtensionApi } from './support';

/**
 * What the SQL target pick answers, or 'asked' when it shows the quick pick (closed again here). With one service
 * it answers within this turn of the event loop; a quick pick waits for the workbench, which answers in a later one.
 */
async function pickTarget(api: ExtensionApi): Promise<QueryTarget | undefined | 'asked'> {
  let settled = false;
  const picking = api.query.targets.pick().finally(() => {
    settled = true;
  });
  const first = await Promise.race([picking, new Promise<'asked'>((resolve) => setImmediate(() => resolve('asked')))]);
  if (first !== 'asked') return first;
  while (!settled) {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await sleep(100);
  }
  assert.equal(await picking, undefined, 'the closed quick pick chose nothing');
  return 'asked';
}

describe('SQL target pick', function () {
  this.timeout(120_000);
  let emulator: Emulator;
  let api: ExtensionApi;
  let connectionId: string;
  let serviceA: string;
  let serviceB: string;

  before(async () => {
    emulator = await startEmulator({ rateLimit: false });
    api = await activate();
    [serviceA, serviceB] = emulator.serviceIds as [string, string];
    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: emulator.url,
      keyId: emulator.keyId,
      keySecret: emulator.keySecret,
      organizationId: emulator.organizationId,
      serviceIds: [serviceA],
      label: 'Targets (emulator)',
    });
  });

  after(async () => {
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, skipConfirmation: true });
    }
    await emulator?.close();
  });

  it("offers a connection's one service once, after the features are asked for again, its services are chosen again and it changes", async () => {
    assert.deepEqual(
      api.connections.list().map((c) => c.id),
      [connectionId],
      'no other connection is saved (one left by another suite would be offered too)',
    );
    const one: QueryTarget = { connectionId, serviceId: serviceA };
    const select = (serviceIds: string[]) =>
      vscode.commands.executeCommand('observability.selectServices', { connectionId, serviceIds });
    const steps: [string, () => unknown][] = [
      ['as added', () => undefined],
      ['the features asked for again', () => [api.connections, api.query, api.tree, api.query]],
      ['the same service chosen again', () => select([serviceA])],
      ['the same service twice, in another case', () => select([serviceA, serviceA.toUpperCase()])],
      ['the connection renamed', () => api.connections.update(connectionId, { label: 'Targets (renamed)' })],
    ];
    for (const [step, action] of steps) {
      await action();
      const saved = api.connections.list().filter((c) => c.id === connectionId);
      assert.equal(saved.length, 1, `${step}: the connection is saved once`);
      assert.deepEqual(saved[0]!.serviceIds, [serviceA], `${step}: its one service, once`);
      assert.deepEqual(await pickTarget(api), one, `${step}: New Query runs on the one service without asking`);
    }
    assert.equal(api.query.targets, api.query.targets, 'one set of SQL targets however often they are asked for');

    // Two services: the question is asked.
    await select([serviceA, serviceB]);
    assert.equal(await pickTarget(api), 'asked');
  });
});
