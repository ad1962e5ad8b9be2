/**
 * Entry loaded in the extension host of a UI test (`extensionTestsPath`). It adds the connection described by
 * `$OBS_E2E_CONNECTION` (the argument object of `observability.addConnection`; with `$OBS_E2E_CLICKHOUSE`, its
 * ClickHouse access too) and then stays pending, so the
 * workbench keeps running for the browser-driven steps; the test closes the workbench when it is done.
 *
 * The workbench runs this entry again in every extension host it starts: after Developer: Reload Window too (the
 * page's address keeps the test entry). The connection is added once per workbench: the file `$OBS_E2E_SETUP_MARKER`
 * is written once it is, and a later run finds it and adds nothing, so the reloaded window has the one connection a
 * user's window would have (and loads nothing of the extension the user's window would not).
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';

export async function run(): Promise<void> {
  const raw = process.env.OBS_E2E_CONNECTION;
  if (!raw) throw new Error('OBS_E2E_CONNECTION is not set');
  const marker = process.env.OBS_E2E_SETUP_MARKER;
  if (marker !== undefined && fs.existsSync(marker)) {
    console.log('E2E SETUP: the connection was added before this window reload');
  } else {
    await addConnection(raw);
    if (marker !== undefined) fs.writeFileSync(marker, 'added\n');
  }
  await vscode.commands.executeCommand('setContext', 'observability.e2eReady', true);
  console.log('E2E SETUP READY');
  await new Promise<void>(() => undefined);
}

async function addConnection(raw: string): Promise<void> {
  const args = JSON.parse(raw) as Record<string, unknown>;
  const connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', args);
  // A self-hosted connection's ClickHouse access (SQL, search and traces), as `{ url, user, password }`.
  const clickHouse = process.env.OBS_E2E_CLICKHOUSE;
  if (clickHouse) {
    await vscode.commands.executeCommand('observability.setClickHouseAccess', {
      connectionId,
      ...(JSON.parse(clickHouse) as Record<string, unknown>),
    });
  }
}
