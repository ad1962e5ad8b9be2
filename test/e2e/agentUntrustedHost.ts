/**
 * Runs inside the extension host of an untrusted window (see agentUntrusted.e2e.ts, which opens it and reads the exit
 * code): adds a Cloud connection to the emulator named by `$OBS_AGENT_EMULATOR` and calls the agent's tools as an
 * agent does (`vscode.lm.invokeTool`). Reading the service works; the tools that read the workspace's files or change
 * anything answer with a refusal and send nothing. Rejects (exit code 1) on the first failed check.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

interface EmulatorInfo {
  readonly url: string;
  readonly keyId: string;
  readonly keySecret: string;
  readonly organizationId: string;
  readonly serviceId: string;
}

const token = () => new vscode.CancellationTokenSource().token;

async function invoke(name: string, input: Record<string, unknown>): Promise<string> {
  const result = await vscode.lm.invokeTool(
    `observability_${name}`,
    { input, toolInvocationToken: undefined },
    token(),
  );
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

async function checks(): Promise<void> {
  const emulator = JSON.parse(process.env.OBS_AGENT_EMULATOR ?? '{}') as EmulatorInfo;
  assert.ok(emulator.url, 'the emulator is named');
  assert.equal(vscode.workspace.isTrusted, false, 'the window opened its folder in Restricted Mode');
  await vscode.extensions.getExtension('obs-tools.observability-explorer')?.activate();
  await vscode.commands.executeCommand<string>('observability.addConnection', {
    baseUrl: emulator.url,
    keyId: emulator.keyId,
    keySecret: emulator.keySecret,
    organizationId: emulator.organizationId,
    serviceIds: [emulator.serviceId],
    label: 'Untrusted agent',
    skipCheck: true,
  });

  const listed = await invoke('listConnections', {});
  assert.match(listed, /Untrusted agent/, listed);

  const refusal =
    /^Refused: this workspace is not trusted, so Observability tools do not read its files or change anything\. Nothing was sent\./;
  const planned = await invoke('planResourceFiles', {});
  assert.match(planned, refusal, planned);
  const created = await invoke('createAlert', {
    connection: 'Untrusted agent',
    alert: { name: 'From an untrusted workspace', source: 'saved_search', savedSearchId: 'x', threshold: 1 },
  });
  assert.match(created, refusal, created);
  const applied = await invoke('applyAlertPlan', {});
  assert.match(applied, refusal, applied);
}

export async function run(): Promise<void> {
  try {
    await checks();
    console.log('AGENT UNTRUSTED: all checks passed');
  } catch (error) {
    console.error(`AGENT UNTRUSTED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    throw error;
  }
}
