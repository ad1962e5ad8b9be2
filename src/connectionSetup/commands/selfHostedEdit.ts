import * as vscode from 'vscode';
import * as z from 'zod';
import { SELF_HOSTED_SERVICE_ID } from '../../api/oss';
import { hostOf } from '../../connections/pick';
import { needsPlainHttpConsent } from '../../plainHttpGrant';
import type { ConnectionPatch, StoredConnection } from '../../connections/types';
import { normalizeBaseUrl, sameOrigin, validateLabel } from '../../connections/validation';
import { errorMessage } from '../../errors';
import { lazySchema } from '../../schema/lazySchema';
import { BACK, inputStep } from '../prompts';
import { COMMAND_IDS, fieldCheck, parseArgs, type ConnectionCommandDeps } from './common';
import { checkSelfHosted, plainHttpWarning, validateApiKey, validateSelfHostedBaseUrl } from './selfHosted';

/**
 * Editing a self-hosted connection in place: its base URL, personal API key and name. Its ClickHouse access, the
 * agent's MCP server and everything else stay. Moving it to another origin needs the key again (the stored one is
 * never sent to a new address) and drops the plain-http permissions given for the old address; a new plain-http
 * address of another machine is confirmed again.
 */

const CLOUD_FIELDS = ['keyId', 'organizationId', 'organizationName', 'serviceIds', 'pathSegment'] as const;

const editArgsSchema = lazySchema(() =>
  z.object({
    connectionId: z.string().min(1),
    baseUrl: fieldCheck(validateSelfHostedBaseUrl).optional(),
    apiKey: fieldCheck(validateApiKey).optional(),
    keySecret: fieldCheck(validateApiKey).optional(),
    allowPlainHttp: z.boolean().optional(),
    label: fieldCheck(validateLabel).optional(),
    skipCheck: z.boolean().optional(),
  }),
);

/** What an edit changes: the patch for the manager and the key (undefined: keep the stored one). */
function patchOf(current: StoredConnection, baseUrl: string, label: string, allowPlainHttp: boolean): ConnectionPatch {
  const moved = !sameOrigin(baseUrl, current.baseUrl);
  return {
    baseUrl,
    label,
    // The deployment is its one service, named after the connection.
    services: [{ id: SELF_HOSTED_SERVICE_ID, name: label }],
    // A move drops the old address's permission; the new one is given only when confirmed for the new address.
    ...(moved || (allowPlainHttp && current.allowPlainHttp !== true) ? { allowPlainHttp } : {}),
  };
}

/** What the user is told after a move that dropped a plain-http permission of ClickHouse access. */
function droppedClickHouseNote(before: StoredConnection, after: StoredConnection | undefined): string | undefined {
  if (before.clickHouse?.plainHttpOrigin === undefined || after?.clickHouse?.plainHttpOrigin !== undefined) return;
  return vscode.l10n.t(
    'Plain http to ClickHouse at {0} was allowed under the old address and is no longer: previews are refused there until you run "Set ClickHouse Access for Previews…" again.',
    hostOf(before.clickHouse.url),
  );
}

export async function editSelfHostedFromArgs(
  deps: ConnectionCommandDeps,
  current: StoredConnection,
  arg: unknown,
): Promise<string> {
  const given = CLOUD_FIELDS.filter((f) => (arg as Record<string, unknown>)[f] !== undefined);
  if (given.length > 0) {
    throw new Error(
      vscode.l10n.t(
        'Invalid argument for {0}: {1} apply to ClickHouse Cloud connections only; "{2}" is self-hosted (baseUrl, apiKey, allowPlainHttp, label).',
        COMMAND_IDS.edit,
        given.join(', '),
        current.label,
      ),
    );
  }
  const args = parseArgs(editArgsSchema, arg, COMMAND_IDS.edit);
  const baseUrl =
    args.baseUrl !== undefined ? (normalizeBaseUrl(args.baseUrl) ?? args.baseUrl.trim()) : current.baseUrl;
  const moved = !sameOrigin(baseUrl, current.baseUrl);
  const key = (args.apiKey ?? args.keySecret)?.trim();
  if (moved && key === undefined) {
    throw new Error(
      vscode.l10n.t(
        'Moving the connection to another address needs apiKey too: the stored key is never sent to a new address.',
      ),
    );
  }
  const plain = needsPlainHttpConsent(baseUrl);
  if (moved && plain && args.allowPlainHttp !== true) {
    throw new Error(
      vscode.l10n.t(
        'Invalid argument for {0}: baseUrl: {1} uses plain http to another machine; the API key would travel unencrypted. Pass allowPlainHttp: true to confirm that, or use https.',
        COMMAND_IDS.edit,
        hostOf(baseUrl),
      ),
    );
  }
  const allowPlainHttp = plain && (args.allowPlainHttp === true || (!moved && current.allowPlainHttp === true));
  if (!args.skipCheck) {
    const secret = key ?? (await deps.connections.getSecret(current.id));
    if (secret === undefined) {
      throw new Error(vscode.l10n.t('No key is stored for the connection "{0}". Pass apiKey.', current.label));
    }
    try {
      await checkSelfHosted(deps, baseUrl, allowPlainHttp, secret);
    } catch (error) {
      throw new Error(vscode.l10n.t('Could not connect to {0}: {1}', hostOf(baseUrl), errorMessage(error)));
    }
  }
  const label = (args.label ?? current.label).trim();
  await deps.connections.update(current.id, patchOf(current, baseUrl, label, allowPlainHttp), key);
  return current.id;
}

/** The three steps (address, key, name), the plain-http confirmation and the check; undefined when cancelled. */
export async function editSelfHostedInteractive(
  deps: ConnectionCommandDeps,
  current: StoredConnection,
): Promise<string | undefined> {
  const title = vscode.l10n.t('Edit Connection: {0}', current.label);
  let baseUrl = current.baseUrl;
  let apiKey = '';
  let label = current.label;
  let step = 1;
  let allowPlainHttp = current.allowPlainHttp === true;
  for (;;) {
    const moved = !sameOrigin(baseUrl, current.baseUrl);
    if (step === 1) {
      const typed = await inputStep({
        title,
        step: 1,
        totalSteps: 3,
        value: baseUrl,
        prompt: vscode.l10n.t(
          'Base URL of the HyperDX app. Another address needs the API key again; plain-http permissions of the old one go.',
        ),
        validate: validateSelfHostedBaseUrl,
      });
      if (typeof typed !== 'string') return undefined;
      baseUrl = normalizeBaseUrl(typed) ?? typed.trim();
      const nowMoved = !sameOrigin(baseUrl, current.baseUrl);
      allowPlainHttp = nowMoved ? false : current.allowPlainHttp === true;
      if (nowMoved && needsPlainHttpConsent(baseUrl)) {
        const allow = vscode.l10n.t('Allow Plain HTTP for This Connection');
        const choice = await vscode.window.showWarningMessage(
          plainHttpWarning(hostOf(baseUrl)),
          { modal: true },
          allow,
        );
        if (choice !== allow) continue;
        allowPlainHttp = true;
      }
      step = 2;
    } else if (step === 2) {
      const typed = await inputStep({
        title,
        step: 2,
        totalSteps: 3,
        value: apiKey,
        password: true,
        prompt: moved
          ? vscode.l10n.t('Personal API key for {0} (the stored key is never sent to a new address)', hostOf(baseUrl))
          : vscode.l10n.t('New personal API key, or leave empty to keep the stored one'),
        validate: (text) => (text === '' && !moved ? undefined : validateApiKey(text)),
        validateWhileTyping: false,
      });
      if (typed === BACK) {
        step = 1;
        continue;
      }
      if (typeof typed !== 'string') return undefined;
      apiKey = typed.trim();
      step = 3;
    } else {
      const typed = await inputStep({
        title,
        step: 3,
        totalSteps: 3,
        value: label,
        prompt: vscode.l10n.t('Name of the connection in the Observability view'),
        validate: validateLabel,
      });
      if (typed === BACK) {
        step = 2;
        continue;
      }
      if (typeof typed !== 'string') return undefined;
      label = typed.trim();
      const decision = await checkUntilDecided(deps, current, baseUrl, allowPlainHttp, apiKey);
      if (decision === 'cancel') return undefined;
      if (decision === 'edit') {
        step = 1;
        continue;
      }
      await deps.connections.update(
        current.id,
        patchOf(current, baseUrl, label, allowPlainHttp),
        apiKey === '' ? undefined : apiKey,
      );
      const note = droppedClickHouseNote(current, deps.connections.get(current.id));
      void vscode.window.showInformationMessage(vscode.l10n.t('Connection "{0}" updated.', label));
      if (note) void vscode.window.showWarningMessage(note);
      return current.id;
    }
  }
}

/** The check of an interactive edit, repeated as the user asks: 'save' (passed or "Save Anyway"), 'edit' or 'cancel'. */
async function checkUntilDecided(
  deps: ConnectionCommandDeps,
  current: StoredConnection,
  baseUrl: string,
  allowPlainHttp: boolean,
  apiKey: string,
): Promise<'save' | 'edit' | 'cancel'> {
  for (;;) {
    // The stored key goes only to the address it was entered for (the key step asks for one on a move).
    const secret = apiKey !== '' ? apiKey : await deps.connections.getSecret(current.id);
    if (secret === undefined) {
      void vscode.window.showWarningMessage(vscode.l10n.t('No key is stored for this connection; enter it.'));
      return 'edit';
    }
    let reason: string;
    try {
      await checkSelfHosted(deps, baseUrl, allowPlainHttp, secret);
      return 'save';
    } catch (error) {
      reason = errorMessage(error);
    }
    const retry = vscode.l10n.t('Retry');
    const edit = vscode.l10n.t('Edit…');
    const save = vscode.l10n.t('Save Anyway');
    const choice = await vscode.window.showErrorMessage(
      vscode.l10n.t('Could not connect to {0}', hostOf(baseUrl)),
      { modal: true, detail: reason },
      retry,
      edit,
      save,
    );
    if (choice === save) return 'save';
    if (choice === edit) return 'edit';
    if (choice !== retry) return 'cancel';
  }
}
