/**
 * Entry loaded in the extension host of a UI test (`extensionTestsPath`). It adds the connection described by
 * `$OBS_E2E_CONNECTION` (the argument object of `observability.addConnection`) and then stays pending, so the
 * workbench keeps running for the browser-driven steps; the test closes the workbench when it is done.
 */
import * as vscode from 'vscode';

export async function run(): Promise<void> {
  const raw = process.env.OBS_E2E_CONNECTION;
  if (!raw) throw new Error('OBS_E2E_CONNECTION is not set');
  const args = JSON.parse(raw) as Record<string, unknown>;
  await vscode.commands.executeCommand('observability.addConnection', args);
  await vscode.commands.executeCommand('setContext', 'observability.e2eReady', true);
  console.log('E2E SETUP READY');
  await new Promise<void>(() => undefined);
}
