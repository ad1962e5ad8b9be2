/**
 * The demo connection, added by a small helper extension installed beside the extension under test (see
 * test/demo/install.ts): `npm run demo` and the UI tests that need a workbench without a test runner set
 * `$OBS_DEMO_CONNECTION` to an `observability.addConnection` argument object, and once the workbench has started the
 * helper activates the extension and adds that connection through the command, as a user would, unless one with the
 * same address (organization and key) exists. A `queryUrl` field gives every connection to that address that query
 * host, now and whenever the connections change; `$OBS_DEMO_CODE_INSIGHTS` presets the workspace folder's
 * code-insights pick (./codeInsights.ts). The extension itself knows nothing of this: it only sees its public
 * commands and API.
 */
import * as vscode from 'vscode';

import { DEMO_CODE_INSIGHTS_ENV, presetCodeInsights } from './codeInsights';
import { DEMO_CONNECTION_ENV } from './install';

export { DEMO_CONNECTION_ENV };
const EXTENSION_ID = 'obs-tools.observability-explorer';

/** The part of the extension's API the demo uses. */
export interface DemoApi {
  readonly connections: {
    list(): readonly { id: string; kind?: string; baseUrl: string; organizationId: string; keyId: string }[];
    onDidChange(listener: () => void): vscode.Disposable;
  };
  readonly query: {
    readonly targets: {
      queryHost(connectionId: string): string | undefined;
      setQueryHost(connectionId: string, queryUrl: string | undefined): Promise<void>;
    };
  };
}

type DemoArgs = Record<string, unknown> & { baseUrl: string };

const trimmed = (url: string) => url.replace(/\/+$/, '');

/** The argument object, or why it cannot be used. */
export function parseDemoConnection(raw: string): DemoArgs | string {
  let args: unknown;
  try {
    args = JSON.parse(raw);
  } catch {
    return `${DEMO_CONNECTION_ENV} is not valid JSON`;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return `${DEMO_CONNECTION_ENV} is no object`;
  const v = args as Record<string, unknown>;
  const cloud = typeof v.keyId === 'string' && typeof v.organizationId === 'string';
  const selfHosted = v.kind === 'selfHosted' && typeof v.apiKey === 'string';
  if (typeof v.baseUrl !== 'string' || !(cloud || selfHosted)) {
    return `${DEMO_CONNECTION_ENV} needs baseUrl, keyId and organizationId (or kind "selfHosted", baseUrl and apiKey)`;
  }
  return v as DemoArgs;
}

/** Adds the connection unless one like it exists; resolves with what happened. */
export async function addDemoConnection(api: DemoApi, args: DemoArgs): Promise<string> {
  const base = trimmed(args.baseUrl);
  const exists = api.connections
    .list()
    .some((c) =>
      args.kind === 'selfHosted'
        ? c.kind === 'selfHosted' && trimmed(c.baseUrl) === base
        : trimmed(c.baseUrl) === base &&
          c.organizationId.toLowerCase() === String(args.organizationId).toLowerCase() &&
          c.keyId === args.keyId,
    );
  if (exists) return `Demo connection to ${base} already present.`;
  await vscode.commands.executeCommand('observability.addConnection', args);
  return `Demo connection to ${base} added.`;
}

/** Every connection to the demo's address gets its `queryUrl` as query host, now and when the connections change. */
export function applyDemoQueryHost(api: DemoApi, args: DemoArgs): vscode.Disposable {
  const queryUrl = args.queryUrl;
  if (typeof queryUrl !== 'string') return new vscode.Disposable(() => undefined);
  const base = trimmed(args.baseUrl);
  const { targets } = api.query;
  const apply = (): void => {
    for (const c of api.connections.list()) {
      if (trimmed(c.baseUrl) === base && targets.queryHost(c.id) !== trimmed(queryUrl)) {
        void targets.setQueryHost(c.id, queryUrl).catch(() => undefined);
      }
    }
  };
  apply();
  return api.connections.onDidChange(apply);
}

/** The helper extension's `activate`. */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const raw = process.env[DEMO_CONNECTION_ENV];
  if (!raw) return;
  const args = parseDemoConnection(raw);
  if (typeof args === 'string') {
    console.error(`${args}; no demo connection added.`);
    return;
  }
  const api = (await vscode.extensions.getExtension(EXTENSION_ID)?.activate()) as DemoApi | undefined;
  if (!api) {
    console.error(`${EXTENSION_ID} is not loaded; no demo connection added.`);
    return;
  }
  try {
    console.log(await addDemoConnection(api, args));
  } catch (error) {
    console.error(`Adding the demo connection failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  context.subscriptions.push(applyDemoQueryHost(api, args));
  const pick = process.env[DEMO_CODE_INSIGHTS_ENV];
  if (pick) {
    try {
      console.log(await presetCodeInsights(api, args, pick));
    } catch (error) {
      console.error(`The code-insights pick failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
