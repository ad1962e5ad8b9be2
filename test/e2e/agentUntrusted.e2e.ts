/**
 * The agent's tools in an untrusted workspace, in a real workbench (code-server, workspace trust on, the folder opened
 * in Restricted Mode): agentUntrustedHost.ts runs in that window's extension host against a Cloud emulator and calls
 * the tools through `vscode.lm.invokeTool`. Listing connections works; planning the workspace's files, creating an
 * alert and applying the alert plan are refused, and the emulator receives no change and no alert or dashboard read.
 *
 * Run: `tsc -p . && node esbuild.mjs && node --test out/test/e2e/agentUntrusted.e2e.js`.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { startEmulator, type Emulator } from '../emulator/server';
import { runTestsInCodeServer } from '../host/runInCodeServer';

let emulator: Emulator;
let workspace: string;

before(async () => {
  emulator = await startEmulator({ flavor: 'cloud', rateLimit: { requests: 10_000, windowMs: 1000 } });
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'obs-agent-untrusted-'));
  // An alert file the plan tool would read in a trusted workspace.
  fs.writeFileSync(
    path.join(workspace, 'from-the-workspace.alert.json'),
    `${JSON.stringify({ organizationId: emulator.organizationId, serviceId: emulator.serviceIds[0], name: 'x' })}\n`,
  );
});

after(async () => {
  await emulator?.close();
  if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
});

test(
  'in Restricted Mode the tools read the service but neither the workspace nor change anything',
  { timeout: 600_000 },
  async () => {
    const lines: string[] = [];
    const code = await runTestsInCodeServer({
      workspace,
      workspaceTrust: true,
      extensionTestsPath: path.join(__dirname, 'agentUntrustedHost.js'),
      userSettings: {
        'security.workspace.trust.startupPrompt': 'never',
        'security.workspace.trust.enabled': true,
      },
      env: {
        OBS_AGENT_EMULATOR: JSON.stringify({
          url: emulator.url,
          keyId: emulator.keyId,
          keySecret: emulator.keySecret,
          organizationId: emulator.organizationId,
          serviceId: emulator.serviceIds[0],
        }),
      },
      onLog: (line) => {
        lines.push(line);
        process.stdout.write(`${line}\n`);
      },
    });
    assert.equal(
      code,
      0,
      `the checks in the untrusted window passed:\n${lines.filter((l) => /AGENT UNTRUSTED/.test(l)).join('\n')}`,
    );
    assert.ok(lines.some((l) => l.includes('AGENT UNTRUSTED: all checks passed')));
    const touched = emulator.requests
      .filter((r) => r.method !== 'GET' || /\/(alerts|dashboards|webhooks|saved-searches)(\/|$)/.test(r.path))
      .map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(touched, [], 'no change and no read of what the workspace files name');
  },
);
