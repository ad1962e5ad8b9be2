/**
 * The demo's code-insights pick: when `$OBS_DEMO_CODE_INSIGHTS` names a service and trace source
 * (`{"serviceId": …, "sourceId": …}`), the helper sets the first workspace folder's pick to them on the demo
 * connection — through the extension's command, as a user would with "Choose Service for Code Insights…" — once the
 * connection has its query host, and opens the workspace's TypeScript file, so its lenses show at once.
 */
import * as vscode from 'vscode';
import type { DemoApi } from './connection';

export const DEMO_CODE_INSIGHTS_ENV = 'OBS_DEMO_CODE_INSIGHTS';
/** The file opened once the pick is set (test/fixtures/codeWorkspace). */
export const DEMO_CODE_FILE = 'src/checkout/cart.ts';

const trimmed = (url: string) => url.replace(/\/+$/, '');

/** Sets the pick and opens the file; resolves with what happened. */
export async function presetCodeInsights(
  api: DemoApi,
  connection: { baseUrl: string; queryUrl?: unknown },
  raw: string,
): Promise<string> {
  let pick: { serviceId?: unknown; sourceId?: unknown };
  try {
    pick = JSON.parse(raw) as typeof pick;
  } catch {
    return `${DEMO_CODE_INSIGHTS_ENV} is not valid JSON; no code-insights pick.`;
  }
  if (typeof pick.serviceId !== 'string' || typeof pick.sourceId !== 'string') {
    return `${DEMO_CODE_INSIGHTS_ENV} needs serviceId and sourceId; no code-insights pick.`;
  }
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return 'No workspace folder; no code-insights pick.';
  const base = trimmed(connection.baseUrl);
  const target = api.connections.list().find((c) => trimmed(c.baseUrl) === base);
  if (!target) return 'The demo connection is missing; no code-insights pick.';
  // The aggregate runs as soon as the pick is set: the query host first.
  if (
    typeof connection.queryUrl === 'string' &&
    api.query.targets.queryHost(target.id) !== trimmed(connection.queryUrl)
  ) {
    await api.query.targets.setQueryHost(target.id, connection.queryUrl);
  }
  await vscode.commands.executeCommand('observability.codeInsights.chooseService', {
    folder: folder.uri.toString(),
    connectionId: target.id,
    serviceId: pick.serviceId,
    sourceId: pick.sourceId,
  });
  const file = vscode.Uri.joinPath(folder.uri, DEMO_CODE_FILE);
  try {
    await vscode.window.showTextDocument(file, { preview: false });
  } catch {
    // A workspace without the sample file: the pick is set all the same.
  }
  return `Code insights of ${folder.name} read ${pick.serviceId} / ${pick.sourceId}.`;
}
