/**
 * MCP server definitions for the editor's agent, in a real VS Code: a self-hosted connection is offered as its
 * deployment's `/api/mcp` (HTTP), with the Bearer key added only when VS Code resolves the server to start it; a Cloud
 * connection gets none (its MCP address is not published). Moving or removing a connection fires the change event and
 * changes or drops the definition. The key never reaches settings, state or the log.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import { activate, configure, exportedApi, readLog, waitFor } from './support';

interface Mcp {
  readonly onDidChangeMcpServerDefinitions: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): vscode.McpHttpServerDefinition[];
  resolveMcpServerDefinition(
    server: vscode.McpHttpServerDefinition,
    token: vscode.CancellationToken,
  ): Promise<vscode.McpHttpServerDefinition | undefined>;
}

interface Connections {
  readonly globalState: vscode.Memento;
  update(id: string, patch: Record<string, unknown>, secret?: string): Promise<unknown>;
}

const token = () => new vscode.CancellationTokenSource().token;

describe('MCP server definitions', function () {
  this.timeout(120_000);
  let cloud: Emulator;
  let oss: Emulator;
  let moved: Emulator;
  let cloudId = '';
  let ossId = '';
  const mcp = () => (exportedApi() as unknown as { mcp: Mcp }).mcp;
  const connections = () => exportedApi().connections as unknown as Connections;
  const definitions = () => mcp().provideMcpServerDefinitions(token());
  const ours = () => definitions().filter((d) => d.label.includes('MCP (self-hosted)'));

  before(async () => {
    cloud = await startEmulator({ rateLimit: false });
    oss = await startEmulator({ flavor: 'oss', rateLimit: false });
    moved = await startEmulator({ flavor: 'oss', rateLimit: false });
    await activate();
    cloudId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: cloud.url,
      keyId: cloud.keyId,
      keySecret: cloud.keySecret,
      organizationId: cloud.organizationId,
      serviceIds: [cloud.serviceIds[0]],
      label: 'MCP (Cloud)',
      skipCheck: true,
    });
    ossId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      kind: 'selfHosted',
      baseUrl: oss.url,
      apiKey: oss.ossApiKey,
      label: 'MCP (self-hosted)',
    });
  });

  after(async () => {
    for (const connectionId of [cloudId, ossId]) {
      if (connectionId) {
        await vscode.commands.executeCommand('observability.removeConnection', {
          connectionId,
          skipConfirmation: true,
        });
      }
    }
    await configure('agent.enabled', undefined);
    await Promise.all([cloud?.close(), oss?.close(), moved?.close()]);
  });

  it("offers the self-hosted deployment's /api/mcp with no header; the key is added only when VS Code resolves it", async () => {
    const [definition, ...more] = ours();
    assert.ok(definition, 'the self-hosted connection has a definition');
    assert.equal(more.length, 0);
    assert.ok(definition instanceof vscode.McpHttpServerDefinition);
    assert.equal(definition.uri.toString(), vscode.Uri.parse(`${oss.url}/api/mcp`).toString());
    assert.deepEqual(definition.headers, {}, 'no key in what VS Code lists');
    assert.ok(!definitions().some((d) => d.label.includes('MCP (Cloud)')), 'no Cloud definition');

    const resolved = await mcp().resolveMcpServerDefinition(definition, token());
    assert.equal(resolved?.headers.Authorization, `Bearer ${oss.ossApiKey}`);

    const state = connections().globalState;
    const places: [string, string][] = [
      ['settings (mcp)', JSON.stringify(vscode.workspace.getConfiguration('mcp'))],
      ['settings (observability)', JSON.stringify(vscode.workspace.getConfiguration('observability'))],
      ['global state', JSON.stringify(state.keys().map((k) => [k, state.get<unknown>(k)]))],
      ['log', await readLog(exportedApi())],
    ];
    for (const [where, text] of places) assert.ok(!text.includes(oss.ossApiKey), `no key in ${where}`);
  });

  it('fires the change event when a connection moves or is removed, and follows it', async () => {
    let changes = 0;
    const listener = mcp().onDidChangeMcpServerDefinitions(() => changes++);
    try {
      const before = ours()[0]!;
      await connections().update(ossId, { baseUrl: moved.url }, moved.ossApiKey);
      await waitFor('the change event after the move', () => changes > 0);
      const after = ours()[0]!;
      assert.equal(after.uri.toString(), vscode.Uri.parse(`${moved.url}/api/mcp`).toString());
      assert.notEqual(after.version, before.version);
      // The old definition no longer resolves: its key would go to an address the connection left.
      assert.equal(await mcp().resolveMcpServerDefinition(before, token()), undefined);
      assert.equal(
        (await mcp().resolveMcpServerDefinition(after, token()))?.headers.Authorization,
        `Bearer ${moved.ossApiKey}`,
      );

      const seen = changes;
      await vscode.commands.executeCommand('observability.removeConnection', {
        connectionId: ossId,
        skipConfirmation: true,
      });
      ossId = '';
      await waitFor('the change event after the removal', () => changes > seen);
      assert.equal(ours().length, 0, 'a removed connection has no definition');
    } finally {
      listener.dispose();
    }
  });

  it('offers nothing while the tools are switched off', async () => {
    await configure('agent.enabled', false);
    try {
      assert.deepEqual(definitions(), []);
    } finally {
      await configure('agent.enabled', undefined);
    }
  });
});
