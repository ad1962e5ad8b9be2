import * as vscode from 'vscode';
import * as z from 'zod';
import { lazySchema } from '../../schema/lazySchema';
import { ApiError, validateConnection, type ConnectionConfig } from '../../api';
import { checkConnection, detectPathSegment, explainCheckFailure, NoSegmentServedError } from '../check';
import { SecretStorageError, showSecretStorageError } from '../../connections/keyring';
import type { ConnectionManager } from '../../connections/manager';
import { isSelfHosted, toServiceSummary, type ServiceSummary, type StoredConnection } from '../../connections/types';
import { validateOrganizationId } from '../../connections/validation';
import { checkFingerprint, runConnectionWizard, WIZARD_STEPS, type ConnectionDraft } from '../wizard';
import type { Logger } from '../../log';
import { hostOf, pickConnection } from '../../connections/pick';
import { commandArgument, scopeOfNode } from '../../commandArgs';
import { errorMessage } from '../../errors';

export const COMMAND_IDS = {
  add: 'observability.addConnection',
  edit: 'observability.editConnection',
  updateSecret: 'observability.updateKeySecret',
  remove: 'observability.removeConnection',
  selectServices: 'observability.selectServices',
} as const;

export interface ConnectionCommandDeps {
  readonly connections: ConnectionManager;
  readonly log: Logger;
}

// ------------------------------------------------------------------ argument objects

export const uuidText = lazySchema(() =>
  z
    .string()
    .trim()
    .refine((s) => validateOrganizationId(s) === undefined, { message: 'must be a UUID' }),
);
export const fieldCheck = (check: (s: string) => string | undefined) =>
  z.string().superRefine((s, ctx) => {
    const message = check(s);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses an argument object or throws an error that lists every problem. */
export function parseArgs<T>(schema: z.ZodType<T>, arg: unknown, command: string): T {
  const parsed = schema.safeParse(arg);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(argument)'}: ${i.message}`).join('; ');
  throw new Error(vscode.l10n.t('Invalid argument for {0}: {1}', command, problems));
}

/** The connection ID named by a command argument: a string, `{ connectionId }`, `{ connection: { id } }`, or a tree node. */
export function connectionIdOf(arg: unknown): string | undefined {
  const a = commandArgument<Record<string, unknown>>(arg);
  if (a.kind === 'text') return a.text !== '' ? a.text : undefined;
  if (a.kind === 'node') return scopeOfNode(a.node).connectionId;
  if (a.kind !== 'args') return undefined;
  const o = a.args;
  if (typeof o.connectionId === 'string' && o.connectionId !== '') return o.connectionId;
  if (isRecord(o.connection) && typeof o.connection.id === 'string') return o.connection.id;
  return undefined;
}

/** True when an argument asks for a change without prompts (it carries fields beyond which connection is meant). */
export function hasAnyField(arg: unknown, fields: readonly string[]): arg is Record<string, unknown> {
  const a = commandArgument<Record<string, unknown>>(arg);
  return a.kind === 'args' && fields.some((f) => a.args[f] !== undefined);
}

// ------------------------------------------------------------------ error presentation

export async function present(error: unknown, log: Logger): Promise<void> {
  log.error(error instanceof Error ? error : String(error));
  if (error instanceof SecretStorageError) {
    await showSecretStorageError(error);
  } else {
    await vscode.window.showErrorMessage(errorMessage(error));
  }
}

// ------------------------------------------------------------------ shared steps

export function configOfDraft(draft: ConnectionDraft): ConnectionConfig {
  return {
    baseUrl: draft.baseUrl,
    organizationId: draft.organizationId,
    serviceIds: [...draft.serviceIds],
    keyId: draft.keyId,
    pathSegment: draft.pathSegment,
  };
}

export type CheckResult = { ok: true; pathSegment: string } | { ok: false; error: unknown; reason: string };

/**
 * Runs the check under a cancellable progress notification. Without a path segment in `config` (empty string) the
 * segment is detected: "clickstack", then "observability" after an HTML 404 (at most two requests).
 */
export async function checkWithProgress(
  deps: ConnectionCommandDeps,
  config: ConnectionConfig,
  secret: string,
): Promise<CheckResult> {
  const host = hostOf(config.baseUrl);
  const detect = config.pathSegment === '';
  let shown = config;
  try {
    const segment = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Checking the connection to {0}…', host),
        cancellable: true,
      },
      async (_progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        const probe = (segment: string) => {
          const attempt = { ...config, pathSegment: segment };
          shown = attempt;
          return deps.connections.withUnsavedClient(attempt, secret, (client) =>
            checkConnection(client, attempt, abort.signal),
          );
        };
        try {
          if (!detect) {
            await probe(config.pathSegment);
            return config.pathSegment;
          }
          const detection = await detectPathSegment(probe, host);
          if (detection.error !== undefined) throw detection.error;
          deps.log.info(
            `Detected the product path segment "${detection.segment}" at ${config.baseUrl} after ${detection.tried.length} request(s)`,
          );
          return detection.segment as string;
        } finally {
          sub.dispose();
        }
      },
    );
    deps.log.info(`Connection check passed for ${config.baseUrl}, organization ${config.organizationId}`);
    return { ok: true, pathSegment: segment };
  } catch (error) {
    const reason = explainCheckFailure(error, shown);
    deps.log.warn(`Connection check failed for ${config.baseUrl}, organization ${config.organizationId}: ${reason}`);
    return { ok: false, error, reason };
  }
}

/**
 * The check of an interactive add or edit, repeated as the user asks: resolves to 'save' (passed, or "Save Anyway"
 * when offered), 'edit' (reopen the walk-through) or 'cancel'.
 */
export async function checkUntilDecided(
  deps: ConnectionCommandDeps,
  config: ConnectionConfig,
  secret: string,
  offerSaveAnyway: boolean,
): Promise<{ decision: 'save' | 'edit' | 'cancel'; error?: unknown }> {
  let outcome: CheckResult;
  try {
    validateConnection(config);
    outcome = await checkWithProgress(deps, config, secret);
  } catch (error) {
    outcome = { ok: false, error, reason: errorMessage(error) };
  }
  while (!outcome.ok) {
    const retry = vscode.l10n.t('Retry');
    const edit = vscode.l10n.t('Edit…');
    const save = vscode.l10n.t('Save Anyway');
    const choice = await vscode.window.showErrorMessage(
      vscode.l10n.t('Could not connect to {0}', hostOf(config.baseUrl)),
      { modal: true, detail: outcome.reason },
      ...(offerSaveAnyway ? [retry, edit, save] : [retry, edit]),
    );
    if (choice === retry) {
      outcome = await checkWithProgress(deps, config, secret);
    } else if (choice === save) {
      return { decision: 'save' };
    } else if (choice === edit) {
      return { decision: 'edit', error: outcome.error };
    } else {
      return { decision: 'cancel' };
    }
  }
  return { decision: 'save' };
}

/**
 * The walk-through of an interactive add or edit, then the connection check, until the user saves or gives up: a failed
 * check reopens the step its failure points at. Resolves to true when the draft is to be saved (it passed, or the user
 * chose "Save Anyway", offered when editing), false when cancelled.
 */
export async function wizardUntilChecked(
  deps: ConnectionCommandDeps,
  draft: ConnectionDraft,
  options: {
    readonly mode: 'add' | 'edit';
    readonly savedBaseUrl?: string;
    /** The stored secret, for an edit that leaves the secret field empty. */
    readonly storedSecret?: () => Promise<string | undefined>;
  },
): Promise<boolean> {
  const { storedSecret } = options;
  let startStep = 1;
  for (;;) {
    const done = await runConnectionWizard(
      draft,
      {
        withClient: (c, s, a) => deps.connections.withUnsavedClient(c, s, a),
        ...(storedSecret ? { storedSecret } : {}),
      },
      {
        mode: options.mode,
        startStep,
        ...(options.savedBaseUrl !== undefined ? { savedBaseUrl: options.savedBaseUrl } : {}),
      },
    );
    if (!done) return false;
    const config = configOfDraft(draft);
    const secret = draft.keySecret !== '' || !storedSecret ? draft.keySecret : await storedSecret();
    if (secret === undefined) {
      void vscode.window.showWarningMessage(vscode.l10n.t('No key secret is stored for this connection; enter it.'));
      startStep = WIZARD_STEPS.keySecret;
      continue;
    }
    // The segment step's detection may already have passed this very check.
    if (draft.provenFor !== checkFingerprint(config, secret)) {
      const { decision, error } = await checkUntilDecided(deps, config, secret, options.mode === 'edit');
      if (decision === 'cancel') return false;
      if (decision === 'edit') {
        startStep = stepForFailure(error);
        continue;
      }
    }
    return true;
  }
}

/** Best-effort names for service IDs given without the walk-through (one listing request). */
export async function describeServices(
  deps: ConnectionCommandDeps,
  config: ConnectionConfig,
  secret: string,
  known: ServiceSummary[],
): Promise<ServiceSummary[]> {
  const byId = new Map(known.map((s) => [s.id, s]));
  try {
    const response = await deps.connections.withUnsavedClient(config, secret, (client) =>
      client.listServices(config.organizationId),
    );
    for (const s of response.data) {
      const summary = toServiceSummary(s);
      byId.set(summary.id, summary);
    }
  } catch (error) {
    deps.log.debug(`Could not list the organization's services for names: ${errorMessage(error)}`);
  }
  for (const id of config.serviceIds) if (!byId.has(id)) byId.set(id, { id, name: id });
  return [...byId.values()];
}

export { hostOf } from '../../connections/pick';

/** The walk-through step to reopen after a failed check, chosen from the kind of failure. */
export function stepForFailure(error: unknown): number {
  if (error instanceof NoSegmentServedError) return WIZARD_STEPS.baseUrl;
  if (error instanceof ApiError) {
    switch (error.kind) {
      case 'unauthorized':
      case 'forbidden':
        return WIZARD_STEPS.keyId;
      case 'notFound':
        return WIZARD_STEPS.organization;
      case 'routeNotServed':
        return WIZARD_STEPS.segment;
      default:
        return WIZARD_STEPS.baseUrl;
    }
  }
  return WIZARD_STEPS.baseUrl;
}

/** The connection an argument names, or (interactive only) the one the user picks. */
export async function resolveConnection(
  deps: ConnectionCommandDeps,
  arg: unknown,
  placeholder: string,
  /** The command's title when it applies to ClickHouse Cloud connections only (it walks the Cloud steps). */
  cloudOnly?: string,
): Promise<StoredConnection | undefined> {
  const id = connectionIdOf(arg);
  let found: StoredConnection | undefined;
  if (id !== undefined) {
    found = deps.connections.get(id);
    if (!found) throw new Error(vscode.l10n.t('The connection {0} no longer exists.', id));
  } else {
    found = await pickConnection(deps.connections, placeholder);
  }
  if (found && cloudOnly !== undefined) assertCloudConnection(found, cloudOnly);
  return found;
}

/** Refuses a command that walks the Cloud steps (organization, services, key secret) on a self-hosted connection. */
export function assertCloudConnection(connection: StoredConnection, commandTitle: string): void {
  if (!isSelfHosted(connection)) return;
  throw new Error(
    vscode.l10n.t(
      '"{0}" is a self-hosted connection: {1} applies to ClickHouse Cloud connections only (the deployment is its own one service). Its address, API key and name change with "Edit Connection…".',
      connection.label,
      commandTitle,
    ),
  );
}

// ------------------------------------------------------------------ Add Connection

export function command<T>(
  deps: ConnectionCommandDeps,
  automated: (arg: unknown) => boolean,
  body: (arg: unknown) => Promise<T>,
) {
  return async (arg?: unknown): Promise<T | undefined> => {
    try {
      return await body(arg);
    } catch (error) {
      // Not awaited: a notification stays until the user closes it.
      void present(error, deps.log).catch(() => undefined);
      if (automated(arg)) throw error;
      return undefined;
    }
  };
}

/**
 * Before saving a connection typed in the walk-through: when the same one is saved already (same address,
 * organization and key), says so and asks whether to add it again. True to go on.
 */
export async function confirmNotDuplicate(
  deps: ConnectionCommandDeps,
  connection: Parameters<ConnectionManager['add']>[0],
  secret: string,
): Promise<boolean> {
  const same = await deps.connections.findSame(connection, secret);
  if (!same) return true;
  const again = vscode.l10n.t('Add Again');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('"{0}" already connects to {1} with this key.', same.label, hostOf(same.baseUrl)),
    {
      modal: true,
      detail: vscode.l10n.t(
        'Adding it again shows the same organization and services twice in the Observability view, and both use one rate limit.',
      ),
    },
    again,
  );
  return choice === again;
}
