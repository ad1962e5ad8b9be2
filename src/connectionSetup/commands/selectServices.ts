import * as vscode from 'vscode';
import * as z from 'zod';
import { lazySchema } from '../../schema/lazySchema';
import { explainCheckFailure } from '../check';
import { SecretStorageError } from '../../connections/keyring';
import { BACK, inputStep, multiPickStep } from '../prompts';
import { toServiceSummary, type ServiceSummary, type StoredConnection } from '../../connections/types';
import { parseServiceIds, validateServiceIds } from '../../connections/validation';
import {
  COMMAND_IDS,
  uuidText,
  parseArgs,
  hasAnyField,
  resolveConnection,
  assertCloudConnection,
  command,
  type ConnectionCommandDeps,
} from './common';

const selectArgsSchema = lazySchema(() =>
  z.object({
    connectionId: z.string().min(1),
    // A connection always shows at least one service, whichever way it is set up.
    serviceIds: z.array(uuidText).min(1),
  }),
);

async function selectServicesInteractive(
  deps: ConnectionCommandDeps,
  connection: StoredConnection,
): Promise<string | undefined> {
  let listed: ServiceSummary[] | undefined;
  let listingError: string | undefined;
  try {
    listed = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Listing the services of "{0}"…', connection.label),
        cancellable: true,
      },
      async (_progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        try {
          const response = await deps.connections
            .clientFor(connection.id)
            .listServices(connection.organizationId, { signal: abort.signal });
          return response.data.map(toServiceSummary);
        } finally {
          sub.dispose();
        }
      },
    );
  } catch (error) {
    if (error instanceof SecretStorageError) throw error;
    listingError = explainCheckFailure(error, deps.connections.configOf(connection));
  }
  const known = new Map(connection.services.map((s) => [s.id, s]));
  for (const s of listed ?? []) known.set(s.id, s);
  for (const id of connection.serviceIds) if (!known.has(id)) known.set(id, { id, name: id });
  const choices = listed ?? [...known.values()];
  const title = vscode.l10n.t('Choose Services: {0}', connection.label);
  const manualButton: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('edit'),
    tooltip: vscode.l10n.t('Enter service IDs'),
  };
  for (;;) {
    const picked = await multiPickStep({
      title,
      step: 1,
      totalSteps: 1,
      placeholder: listingError
        ? vscode.l10n.t('Could not list services, showing the known ones ({0})', listingError)
        : vscode.l10n.t('Services to show (Space toggles, Enter confirms)'),
      items: choices.map((s) => ({
        label: s.name || s.id,
        description: s.region,
        detail: [s.state ? vscode.l10n.t('state: {0}', s.state) : undefined, s.id]
          .filter((p) => p !== undefined)
          .join(' · '),
        service: s,
      })),
      selected: (item) => connection.serviceIds.includes(item.service.id),
      buttons: [manualButton],
      minimum: 1,
      tooFewPlaceholder: vscode.l10n.t('Pick at least one service, then press Enter'),
    });
    if (picked === undefined || picked === BACK) return undefined;
    let serviceIds: string[];
    if (Array.isArray(picked)) {
      serviceIds = picked.map((item) => item.service.id);
    } else {
      const typed = await inputStep({
        title,
        step: 1,
        totalSteps: 1,
        value: connection.serviceIds.join(', '),
        prompt: vscode.l10n.t('Service IDs (UUIDs, separated by commas)'),
        validate: validateServiceIds,
      });
      if (typed === undefined) return undefined;
      if (typed === BACK) continue;
      serviceIds = parseServiceIds(typed);
    }
    await deps.connections.update(connection.id, { serviceIds, services: [...known.values()] });
    return connection.id;
  }
}

async function selectServicesFromArgs(deps: ConnectionCommandDeps, arg: unknown): Promise<string> {
  const args = parseArgs(selectArgsSchema, arg, COMMAND_IDS.selectServices);
  const connection = deps.connections.get(args.connectionId);
  if (!connection) throw new Error(vscode.l10n.t('The connection {0} no longer exists.', args.connectionId));
  assertCloudConnection(connection, vscode.l10n.t('Choose Services'));
  await deps.connections.update(connection.id, { serviceIds: args.serviceIds.map((s) => s.toLowerCase()) });
  return connection.id;
}

// ------------------------------------------------------------------ registration

/**
 * Wraps a command: interactive runs show errors as notifications and resolve to undefined; runs with an argument

/** `observability.selectServices`: picks from the organization's services, or `{ connectionId, serviceIds }` (no prompts). */
export function registerSelectServices(deps: ConnectionCommandDeps): vscode.Disposable {
  return vscode.commands.registerCommand(
    COMMAND_IDS.selectServices,
    command(
      deps,
      (arg) => hasAnyField(arg, ['serviceIds']),
      async (arg) => {
        if (hasAnyField(arg, ['serviceIds'])) return selectServicesFromArgs(deps, arg);
        const connection = await resolveConnection(
          deps,
          arg,
          vscode.l10n.t('Connection whose services to choose'),
          vscode.l10n.t('Choose Services'),
        );
        return connection ? selectServicesInteractive(deps, connection) : undefined;
      },
    ),
  );
}
