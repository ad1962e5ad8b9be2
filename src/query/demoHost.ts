import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/manager';
import type { QueryTargets } from './targets';

/**
 * `npm run demo`: the demo connection's query host comes from `$OBS_DEMO_CONNECTION.queryUrl` (development mode
 * only): every connection to the demo's `baseUrl` gets that query host, now and whenever the connections change.
 * `raw` is the variable's text; nothing happens when it is missing, not JSON or has no `baseUrl` and `queryUrl`.
 */
export function applyDemoQueryHost(
  connections: ConnectionManager,
  targets: QueryTargets,
  raw: string | undefined,
): vscode.Disposable {
  let demo: { baseUrl?: unknown; queryUrl?: unknown } | undefined;
  try {
    demo = JSON.parse(raw ?? 'null') as typeof demo;
  } catch {
    return new vscode.Disposable(() => undefined);
  }
  if (!demo || typeof demo.queryUrl !== 'string' || typeof demo.baseUrl !== 'string') {
    return new vscode.Disposable(() => undefined);
  }
  const base = demo.baseUrl.replace(/\/+$/, '');
  const queryUrl = demo.queryUrl;
  const apply = (): void => {
    for (const c of connections.list()) {
      if (c.baseUrl.replace(/\/+$/, '') === base && targets.queryHost(c.id) !== queryUrl.replace(/\/+$/, '')) {
        void targets.setQueryHost(c.id, queryUrl).catch(() => undefined);
      }
    }
  };
  apply();
  return connections.onDidChange(apply);
}
