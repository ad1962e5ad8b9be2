import * as vscode from 'vscode';
import * as z from 'zod';
import { lazySchema } from '../../schema/lazySchema';
import { validateConnection, type ConnectionConfig } from '../../api';
import { assumedPathSegment } from '../check';
import { DEFAULT_BASE_URL, type ServiceSummary } from '../../connections/types';
import {
  normalizeBaseUrl,
  validateBaseUrl,
  validateKeyId,
  validateKeySecret,
  validateLabel,
  validatePathSegment,
} from '../../connections/validation';
import { emptyDraft } from '../wizard';
import { addSelfHostedFromArgs, addSelfHostedInteractive } from './selfHosted';
import {
  wizardUntilChecked,
  COMMAND_IDS,
  uuidText,
  fieldCheck,
  parseArgs,
  hasAnyField,
  checkWithProgress,
  describeServices,
  hostOf,
  command,
  confirmNotDuplicate,
  type ConnectionCommandDeps,
} from './common';

const addArgsSchema = lazySchema(() =>
  z.object({
    kind: z.literal('cloud').optional(),
    baseUrl: fieldCheck(validateBaseUrl).optional(),
    keyId: fieldCheck(validateKeyId),
    keySecret: fieldCheck((s) => validateKeySecret(s)),
    organizationId: uuidText,
    organizationName: z.string().optional(),
    serviceIds: z.array(uuidText).min(1),
    pathSegment: fieldCheck(validatePathSegment).optional(),
    label: fieldCheck(validateLabel).optional(),
    skipCheck: z.boolean().optional(),
  }),
);
export type AddConnectionArgs = z.infer<typeof addArgsSchema>;

async function addFromArgs(deps: ConnectionCommandDeps, arg: unknown): Promise<string> {
  const args = parseArgs(addArgsSchema, arg, COMMAND_IDS.add);
  const baseUrl = normalizeBaseUrl(args.baseUrl ?? DEFAULT_BASE_URL) ?? DEFAULT_BASE_URL;
  const config: ConnectionConfig = {
    baseUrl,
    organizationId: args.organizationId.toLowerCase(),
    serviceIds: [...new Set(args.serviceIds.map((s) => s.toLowerCase()))],
    keyId: args.keyId.trim(),
    // Without a segment, the check finds it; without a check, the address's usual one is assumed.
    pathSegment: args.pathSegment?.trim() ?? (args.skipCheck ? assumedPathSegment(baseUrl) : ''),
  };
  validateConnection({ ...config, pathSegment: config.pathSegment || assumedPathSegment(baseUrl) });
  let services: ServiceSummary[] = config.serviceIds.map((id) => ({ id, name: id }));
  if (!args.skipCheck) {
    const result = await checkWithProgress(deps, config, args.keySecret);
    if (!result.ok) throw new Error(vscode.l10n.t('Could not connect to {0}: {1}', hostOf(baseUrl), result.reason));
    config.pathSegment = result.pathSegment;
    services = await describeServices(deps, config, args.keySecret, services);
  }
  const saved = await deps.connections.add(
    {
      label: (args.label ?? args.organizationName ?? hostOf(baseUrl)).trim(),
      baseUrl,
      organizationId: config.organizationId,
      ...(args.organizationName ? { organizationName: args.organizationName } : {}),
      serviceIds: config.serviceIds,
      services,
      keyId: config.keyId,
      pathSegment: config.pathSegment,
    },
    args.keySecret,
  );
  return saved.id;
}

/** Asks which kind of deployment the connection is to; undefined when cancelled. */
async function pickKind(): Promise<'cloud' | 'selfHosted' | undefined> {
  const items: (vscode.QuickPickItem & { value: 'cloud' | 'selfHosted' })[] = [
    {
      value: 'cloud',
      label: `$(cloud) ${vscode.l10n.t('ClickHouse Cloud (Managed ClickStack)')}`,
      detail: vscode.l10n.t('An organization and its services; an API key ID and secret from the Cloud console'),
    },
    {
      value: 'selfHosted',
      label: `$(server) ${vscode.l10n.t('Self-hosted ClickStack / HyperDX')}`,
      detail: vscode.l10n.t("The app's base URL and a personal API key from Team Settings"),
    },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Add Connection'),
    placeHolder: vscode.l10n.t('Which kind of deployment?'),
    ignoreFocusOut: true,
  });
  return picked?.value;
}

async function addInteractive(deps: ConnectionCommandDeps): Promise<string | undefined> {
  const kind = await pickKind();
  if (kind === undefined) return undefined;
  if (kind === 'selfHosted') {
    const added = await addSelfHostedInteractive(deps);
    if (added) void vscode.window.showInformationMessage(vscode.l10n.t('Connection "{0}" added.', added.label));
    return added?.id;
  }
  const draft = emptyDraft();
  if (!(await wizardUntilChecked(deps, draft, { mode: 'add' }))) return undefined;
  const connection = {
    label: draft.label,
    baseUrl: draft.baseUrl,
    organizationId: draft.organizationId,
    ...(draft.organizationName ? { organizationName: draft.organizationName } : {}),
    serviceIds: draft.serviceIds,
    services: draft.services,
    keyId: draft.keyId,
    pathSegment: draft.pathSegment,
  };
  if (!(await confirmNotDuplicate(deps, connection, draft.keySecret))) return undefined;
  const saved = await deps.connections.add(connection, draft.keySecret);
  void vscode.window.showInformationMessage(vscode.l10n.t('Connection "{0}" added.', saved.label));
  return saved.id;
}

// ------------------------------------------------------------------ Edit Connection

function isAddArgs(arg: unknown): boolean {
  return hasAnyField(arg, ['kind', 'baseUrl', 'keyId', 'keySecret', 'organizationId', 'serviceIds', 'pathSegment']);
}

function isSelfHostedArgs(arg: unknown): boolean {
  return (
    typeof arg === 'object' && arg !== null && !Array.isArray(arg) && (arg as { kind?: unknown }).kind === 'selfHosted'
  );
}

/** `observability.addConnection`: the walk-through, or an `AddConnectionArgs` object (no prompts). */
export function registerAddConnection(deps: ConnectionCommandDeps): vscode.Disposable {
  return vscode.commands.registerCommand(
    COMMAND_IDS.add,
    command(deps, isAddArgs, (arg) =>
      isSelfHostedArgs(arg)
        ? addSelfHostedFromArgs(deps, arg)
        : isAddArgs(arg)
          ? addFromArgs(deps, arg)
          : addInteractive(deps),
    ),
  );
}
