import * as vscode from 'vscode';
import * as z from 'zod';
import { lazySchema } from '../../schema/lazySchema';
import { isLoopbackHost } from '../../api/connection';
import {
  SELF_HOSTED_ORGANIZATION_ID,
  SELF_HOSTED_PATH_SEGMENT,
  SELF_HOSTED_SERVICE_ID,
  selfHostedConnectionIssues,
} from '../../api/oss';
import { errorMessage } from '../../errors';
import { hostOf } from '../../connections/pick';
import type { NewConnection, StoredConnection } from '../../connections/types';
import { normalizeBaseUrl, validateLabel } from '../../connections/validation';
import { COMMAND_IDS, confirmNotDuplicate, fieldCheck, parseArgs, type ConnectionCommandDeps } from './common';

/**
 * Adding a self-hosted ClickStack / HyperDX deployment: its base URL and a personal API key (Bearer). The deployment
 * is its own one service. Plain http to a host other than this machine needs an explicit confirmation, per connection,
 * that the key travels unencrypted.
 */

/** True when the URL is plain http to a host that is not this machine. */
export function needsPlainHttpConsent(baseUrl: string): boolean {
  try {
    const url = new URL(baseUrl);
    return url.protocol === 'http:' && !isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}

/** Input-box check of a self-hosted base URL (plain http is allowed here; it is confirmed separately). */
export function validateSelfHostedBaseUrl(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return vscode.l10n.t('Enter the base URL of the HyperDX app, e.g. https://hyperdx.example.com');
  const issues = selfHostedConnectionIssues({ baseUrl: trimmed, allowPlainHttp: true });
  if (issues.length > 0) return issues.map((i) => i.message).join('; ');
  return undefined;
}

export function validateApiKey(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return vscode.l10n.t('Enter the personal API key (HyperDX: Team Settings → API Keys).');
  if (!/^[\x21-\x7e]{8,512}$/.test(trimmed)) {
    return vscode.l10n.t('A personal API key is 8 to 512 printable characters without spaces.');
  }
  return undefined;
}

export const selfHostedArgsSchema = lazySchema(() =>
  z.object({
    kind: z.literal('selfHosted'),
    baseUrl: fieldCheck(validateSelfHostedBaseUrl),
    apiKey: fieldCheck(validateApiKey),
    allowPlainHttp: z.boolean().optional(),
    label: fieldCheck(validateLabel).optional(),
    skipCheck: z.boolean().optional(),
  }),
);
export type AddSelfHostedArgs = z.infer<typeof selfHostedArgsSchema>;

/** The stored form of a self-hosted connection. */
export function selfHostedConnection(baseUrl: string, label: string, allowPlainHttp: boolean): NewConnection {
  return {
    kind: 'selfHosted',
    label,
    baseUrl,
    organizationId: SELF_HOSTED_ORGANIZATION_ID,
    serviceIds: [SELF_HOSTED_SERVICE_ID],
    services: [{ id: SELF_HOSTED_SERVICE_ID, name: label }],
    keyId: 'bearer',
    pathSegment: SELF_HOSTED_PATH_SEGMENT,
    ...(allowPlainHttp ? { allowPlainHttp: true } : {}),
  };
}

/** The warning shown before plain http is allowed for a connection. */
export function plainHttpWarning(host: string): string {
  return vscode.l10n.t(
    '{0} is reached over plain http: the personal API key and all data will travel unencrypted over the network, readable by anyone on the way. Allow plain http for this connection only?',
    host,
  );
}

/** Reads the deployment's team: proves the URL and key work; the team name becomes the label. */
export async function checkSelfHosted(
  deps: ConnectionCommandDeps,
  baseUrl: string,
  allowPlainHttp: boolean,
  apiKey: string,
): Promise<string> {
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Checking the connection to {0}…', hostOf(baseUrl)),
      cancellable: true,
    },
    async (_progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        const team = await deps.connections.withUnsavedSelfHostedClient(baseUrl, allowPlainHttp, apiKey, (client) =>
          client.getTeam({ signal: abort.signal }),
        );
        deps.log.info(`Connection check passed for the self-hosted deployment ${baseUrl}`);
        return team.data.name;
      } finally {
        sub.dispose();
      }
    },
  );
}

export async function addSelfHostedFromArgs(deps: ConnectionCommandDeps, arg: unknown): Promise<string> {
  const args = parseArgs(selfHostedArgsSchema, arg, COMMAND_IDS.add);
  const baseUrl = normalizeBaseUrl(args.baseUrl) ?? args.baseUrl.trim();
  const allowPlainHttp = args.allowPlainHttp === true;
  if (needsPlainHttpConsent(baseUrl) && !allowPlainHttp) {
    throw new Error(
      vscode.l10n.t(
        'Invalid argument for {0}: baseUrl: {1} uses plain http to another machine; the API key would travel unencrypted. Pass allowPlainHttp: true to confirm that, or use https.',
        COMMAND_IDS.add,
        hostOf(baseUrl),
      ),
    );
  }
  const apiKey = args.apiKey.trim();
  let teamName: string | undefined;
  if (!args.skipCheck) {
    try {
      teamName = await checkSelfHosted(deps, baseUrl, allowPlainHttp, apiKey);
    } catch (error) {
      throw new Error(vscode.l10n.t('Could not connect to {0}: {1}', hostOf(baseUrl), errorMessage(error)));
    }
  }
  const label = (args.label ?? (teamName || hostOf(baseUrl))).trim();
  const saved = await deps.connections.add(
    selfHostedConnection(baseUrl, label, allowPlainHttp && needsPlainHttpConsent(baseUrl)),
    apiKey,
  );
  return saved.id;
}

/** The interactive steps for a self-hosted deployment; undefined when the user cancels. */
export async function addSelfHostedInteractive(deps: ConnectionCommandDeps): Promise<StoredConnection | undefined> {
  let baseUrl = '';
  let apiKey = '';
  for (;;) {
    const url = await vscode.window.showInputBox({
      title: vscode.l10n.t('Add Self-hosted ClickStack / HyperDX (1/2)'),
      prompt: vscode.l10n.t('Base URL of the HyperDX app (the address you open in the browser)'),
      placeHolder: 'https://hyperdx.example.com',
      value: baseUrl,
      ignoreFocusOut: true,
      validateInput: validateSelfHostedBaseUrl,
    });
    if (url === undefined) return undefined;
    baseUrl = normalizeBaseUrl(url) ?? url.trim();
    let allowPlainHttp = false;
    if (needsPlainHttpConsent(baseUrl)) {
      const allow = vscode.l10n.t('Allow Plain HTTP for This Connection');
      const choice = await vscode.window.showWarningMessage(plainHttpWarning(hostOf(baseUrl)), { modal: true }, allow);
      if (choice !== allow) continue;
      allowPlainHttp = true;
    }
    const key = await vscode.window.showInputBox({
      title: vscode.l10n.t('Add Self-hosted ClickStack / HyperDX (2/2)'),
      prompt: vscode.l10n.t('Personal API key (HyperDX: Team Settings → API Keys); kept in the system keyring'),
      password: true,
      value: apiKey,
      ignoreFocusOut: true,
      validateInput: validateApiKey,
    });
    if (key === undefined) return undefined;
    apiKey = key.trim();
    let teamName: string;
    try {
      teamName = await checkSelfHosted(deps, baseUrl, allowPlainHttp, apiKey);
    } catch (error) {
      const edit = vscode.l10n.t('Edit…');
      const choice = await vscode.window.showErrorMessage(
        vscode.l10n.t('Could not connect to {0}', hostOf(baseUrl)),
        { modal: true, detail: errorMessage(error) },
        edit,
      );
      if (choice === edit) continue;
      return undefined;
    }
    const label = teamName || hostOf(baseUrl);
    const connection = selfHostedConnection(baseUrl, label, allowPlainHttp);
    if (!(await confirmNotDuplicate(deps, connection, apiKey))) return undefined;
    return deps.connections.add(connection, apiKey);
  }
}
