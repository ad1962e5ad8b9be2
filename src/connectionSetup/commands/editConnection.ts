import * as vscode from 'vscode';
import { commandArgument } from '../../commandArgs';
import * as z from 'zod';
import { lazySchema } from '../../schema/lazySchema';
import { validateConnection } from '../../api';
import { isSelfHosted, type StoredConnection } from '../../connections/types';
import {
  normalizeBaseUrl,
  sameOrigin,
  validateBaseUrl,
  validateKeyId,
  validateKeySecret,
  validateLabel,
  validatePathSegment,
} from '../../connections/validation';
import { type ConnectionDraft } from '../wizard';
import {
  wizardUntilChecked,
  COMMAND_IDS,
  uuidText,
  fieldCheck,
  parseArgs,
  hasAnyField,
  checkWithProgress,
  hostOf,
  resolveConnection,
  connectionIdOf,
  command,
  type ConnectionCommandDeps,
} from './common';
import { editSelfHostedFromArgs, editSelfHostedInteractive } from './selfHostedEdit';

const editArgsSchema = lazySchema(() =>
  z.object({
    connectionId: z.string().min(1),
    baseUrl: fieldCheck(validateBaseUrl).optional(),
    keyId: fieldCheck(validateKeyId).optional(),
    keySecret: fieldCheck((s) => validateKeySecret(s)).optional(),
    organizationId: uuidText.optional(),
    organizationName: z.string().optional(),
    serviceIds: z.array(uuidText).min(1).optional(),
    pathSegment: fieldCheck(validatePathSegment).optional(),
    label: fieldCheck(validateLabel).optional(),
    skipCheck: z.boolean().optional(),
  }),
);

const EDIT_FIELDS = [
  'baseUrl',
  'keyId',
  'keySecret',
  'apiKey',
  'allowPlainHttp',
  'organizationId',
  'organizationName',
  'serviceIds',
  'pathSegment',
  'skipCheck',
] as const;

function isEditArgs(arg: unknown): arg is Record<string, unknown> {
  if (hasAnyField(arg, EDIT_FIELDS)) return true;
  // `label` with `connectionId` renames (tree nodes, which carry a label of their own, are never argument objects).
  const a = commandArgument<Record<string, unknown>>(arg);
  return a.kind === 'args' && typeof a.args.label === 'string' && typeof a.args.connectionId === 'string';
}

async function editFromArgs(deps: ConnectionCommandDeps, arg: unknown): Promise<string> {
  const named = connectionIdOf(arg);
  const connection = named !== undefined ? deps.connections.get(named) : undefined;
  if (connection && isSelfHosted(connection)) return editSelfHostedFromArgs(deps, connection, arg);
  const args = parseArgs(editArgsSchema, arg, COMMAND_IDS.edit);
  const current = deps.connections.get(args.connectionId);
  if (!current) throw new Error(vscode.l10n.t('The connection {0} no longer exists.', args.connectionId));
  const next: StoredConnection = {
    ...current,
    ...(args.baseUrl !== undefined ? { baseUrl: normalizeBaseUrl(args.baseUrl) ?? args.baseUrl } : {}),
    ...(args.keyId !== undefined ? { keyId: args.keyId.trim() } : {}),
    ...(args.organizationId !== undefined ? { organizationId: args.organizationId.toLowerCase() } : {}),
    ...(args.serviceIds !== undefined ? { serviceIds: args.serviceIds.map((s) => s.toLowerCase()) } : {}),
    ...(args.pathSegment !== undefined ? { pathSegment: args.pathSegment.trim() } : {}),
    ...(args.label !== undefined ? { label: args.label.trim() } : {}),
  };
  const config = deps.connections.configOf(next);
  validateConnection(config);
  const moved = !sameOrigin(next.baseUrl, current.baseUrl);
  if (moved && args.keySecret === undefined) {
    throw new Error(
      vscode.l10n.t(
        'Moving the connection to another address needs keySecret too: the stored secret is never sent to a new address.',
      ),
    );
  }
  if (!args.skipCheck) {
    const secret = args.keySecret ?? (await deps.connections.getSecret(current.id));
    if (secret === undefined) {
      throw new Error(
        vscode.l10n.t('No key secret is stored for the connection "{0}". Pass keySecret.', current.label),
      );
    }
    // A move without a segment finds the one the new address answers on.
    const checked = moved && args.pathSegment === undefined ? { ...config, pathSegment: '' } : config;
    const result = await checkWithProgress(deps, checked, secret);
    if (!result.ok) {
      throw new Error(vscode.l10n.t('Could not connect to {0}: {1}', hostOf(config.baseUrl), result.reason));
    }
    next.pathSegment = result.pathSegment;
  }
  // Address, key and secret change together: no request pairs the old secret with the new address or the reverse.
  await deps.connections.update(
    current.id,
    {
      baseUrl: next.baseUrl,
      keyId: next.keyId,
      organizationId: next.organizationId,
      ...(args.organizationName !== undefined ? { organizationName: args.organizationName } : {}),
      serviceIds: next.serviceIds,
      pathSegment: next.pathSegment,
      label: next.label,
    },
    args.keySecret,
  );
  return current.id;
}

async function editInteractive(deps: ConnectionCommandDeps, connection: StoredConnection): Promise<string | undefined> {
  const draft: ConnectionDraft = {
    baseUrl: connection.baseUrl,
    keyId: connection.keyId,
    keySecret: '',
    pathSegment: connection.pathSegment,
    organizationId: connection.organizationId,
    ...(connection.organizationName ? { organizationName: connection.organizationName } : {}),
    services: connection.services.map((s) => ({ ...s })),
    serviceIds: [...connection.serviceIds],
    label: connection.label,
  };
  // The stored secret goes only to the origin it was entered for.
  const storedSecret = async () =>
    sameOrigin(draft.baseUrl, connection.baseUrl) ? deps.connections.getSecret(connection.id) : undefined;
  if (!(await wizardUntilChecked(deps, draft, { mode: 'edit', savedBaseUrl: connection.baseUrl, storedSecret }))) {
    return undefined;
  }
  await deps.connections.update(
    connection.id,
    {
      label: draft.label,
      baseUrl: draft.baseUrl,
      keyId: draft.keyId,
      organizationId: draft.organizationId,
      ...(draft.organizationName ? { organizationName: draft.organizationName } : {}),
      serviceIds: draft.serviceIds,
      services: draft.services,
      pathSegment: draft.pathSegment,
    },
    draft.keySecret !== '' ? draft.keySecret : undefined,
  );
  void vscode.window.showInformationMessage(vscode.l10n.t('Connection "{0}" updated.', draft.label));
  return connection.id;
}

// ------------------------------------------------------------------ Update Key Secret

/** `observability.editConnection`: the walk-through for a picked or given connection, or an argument object (no prompts). */
export function registerEditConnection(deps: ConnectionCommandDeps): vscode.Disposable {
  return vscode.commands.registerCommand(
    COMMAND_IDS.edit,
    command(deps, isEditArgs, async (arg) => {
      if (isEditArgs(arg)) return editFromArgs(deps, arg);
      const connection = await resolveConnection(deps, arg, vscode.l10n.t('Connection to edit'));
      if (!connection) return undefined;
      return isSelfHosted(connection) ? editSelfHostedInteractive(deps, connection) : editInteractive(deps, connection);
    }),
  );
}
