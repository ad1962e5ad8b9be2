import * as vscode from 'vscode';
import type { ConnectionManager } from './connections/manager';
import type { Logger } from './log';
import { errorMessage } from './errors';

/** Environment variable read in development mode only: the argument object of `observability.addConnection`. */
export const DEMO_CONNECTION_ENV = 'OBS_DEMO_CONNECTION';

interface DemoConnection {
  readonly baseUrl: string;
  readonly keyId: string;
  readonly organizationId: string;
}

function isDemoConnection(value: unknown): value is DemoConnection & Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return typeof v.baseUrl === 'string' && typeof v.keyId === 'string' && typeof v.organizationId === 'string';
}

/** A self-hosted demo connection: `{ kind: 'selfHosted', baseUrl, apiKey }`. */
function isSelfHostedDemo(value: unknown): value is { kind: 'selfHosted'; baseUrl: string } & Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return v.kind === 'selfHosted' && typeof v.baseUrl === 'string' && typeof v.apiKey === 'string';
}

/**
 * When the extension runs from its sources (`--extensionDevelopmentPath`, `ExtensionMode.Development`) and
 * `$OBS_DEMO_CONNECTION` holds an `observability.addConnection` argument object, adds that connection unless one with
 * the same address, organization and key exists. Used by `npm run demo` and by UI tests that need a workbench without
 * a test runner; never active in an installed extension or under the integration test runner (`ExtensionMode.Test`).
 * Runs after activation and never blocks it.
 */
export function addDemoConnection(
  context: vscode.ExtensionContext,
  connections: ConnectionManager,
  log: Logger,
  env: NodeJS.ProcessEnv = process.env,
): void {
  if (context.extensionMode !== vscode.ExtensionMode.Development) return;
  const raw = env[DEMO_CONNECTION_ENV];
  if (!raw) return;
  let args: unknown;
  try {
    args = JSON.parse(raw);
  } catch {
    log.warn(`${DEMO_CONNECTION_ENV} is not valid JSON; no demo connection added.`);
    return;
  }
  const selfHosted = isSelfHostedDemo(args);
  if (!selfHosted && !isDemoConnection(args)) {
    log.warn(
      `${DEMO_CONNECTION_ENV} needs baseUrl, keyId and organizationId (or kind "selfHosted", baseUrl and apiKey); no demo connection added.`,
    );
    return;
  }
  const base = (args as { baseUrl: string }).baseUrl.replace(/\/+$/, '');
  const exists = connections
    .list()
    .some((c) =>
      selfHosted
        ? c.kind === 'selfHosted' && c.baseUrl.replace(/\/+$/, '') === base
        : c.baseUrl.replace(/\/+$/, '') === base &&
          c.organizationId.toLowerCase() === (args as DemoConnection).organizationId.toLowerCase() &&
          c.keyId === (args as DemoConnection).keyId,
    );
  if (exists) {
    log.info(`Demo connection to ${base} already present.`);
    return;
  }
  setTimeout(() => {
    void Promise.resolve(vscode.commands.executeCommand('observability.addConnection', args)).then(
      () => log.info(`Demo connection to ${base} added.`),
      (error: unknown) => log.error(`Adding the demo connection failed: ${errorMessage(error)}`),
    );
  }, 0);
}
