import * as vscode from 'vscode';
import * as z from 'zod';
import { ApiError, validateConnection, type ConnectionConfig } from '../api';
import { assumedPathSegment, checkConnection, detectPathSegment, explainCheckFailure, NoSegmentServedError } from '../connections/check';
import { SecretStorageError, showSecretStorageError } from '../connections/keyring';
import type { ConnectionManager } from '../connections/manager';
import { BACK, inputStep, multiPickStep } from '../connections/prompts';
import { DEFAULT_BASE_URL, toServiceSummary, type ServiceSummary, type StoredConnection } from '../connections/types';
import {
  normalizeBaseUrl,
  parseServiceIds,
  sameOrigin,
  validateBaseUrl,
  validateKeyId,
  validateKeySecret,
  validateLabel,
  validateOrganizationId,
  validatePathSegment,
  validateServiceIds,
} from '../connections/validation';
import { checkFingerprint, emptyDraft, runConnectionWizard, WIZARD_STEPS, type ConnectionDraft } from '../connections/wizard';
import type { Logger } from '../log';

/**
 * Commands that add, edit and remove connections, replace a key secret and choose the services shown.
 *
 * Every command works three ways: from the Command Palette (it asks which connection), from a tree item (the item's
 * node carries `connectionId`), and from automation with an argument object (no prompts; errors reject the returned
 * promise).
 */

export const CONTEXT_HAS_CONNECTIONS = 'observability.hasConnections';

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

const uuidText = z.string().trim().refine((s) => validateOrganizationId(s) === undefined, { message: 'must be a UUID' });
const fieldCheck = (check: (s: string) => string | undefined) =>
  z.string().superRefine((s, ctx) => {
    const message = check(s);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

const addArgsSchema = z.object({
  baseUrl: fieldCheck(validateBaseUrl).optional(),
  keyId: fieldCheck(validateKeyId),
  keySecret: fieldCheck((s) => validateKeySecret(s)),
  organizationId: uuidText,
  organizationName: z.string().optional(),
  serviceIds: z.array(uuidText).min(1),
  pathSegment: fieldCheck(validatePathSegment).optional(),
  label: fieldCheck(validateLabel).optional(),
  skipCheck: z.boolean().optional(),
});
export type AddConnectionArgs = z.infer<typeof addArgsSchema>;

const editArgsSchema = z.object({
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
});

const secretArgsSchema = z.object({
  connectionId: z.string().min(1),
  keySecret: fieldCheck((s) => validateKeySecret(s)),
  skipCheck: z.boolean().optional(),
});

const selectArgsSchema = z.object({
  connectionId: z.string().min(1),
  // A connection always shows at least one service, whichever way it is set up.
  serviceIds: z.array(uuidText).min(1),
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses an argument object or throws an error that lists every problem. */
function parseArgs<T>(schema: z.ZodType<T>, arg: unknown, command: string): T {
  const parsed = schema.safeParse(arg);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(argument)'}: ${i.message}`).join('; ');
  throw new Error(vscode.l10n.t('Invalid argument for {0}: {1}', command, problems));
}

/** The connection ID named by a command argument: a string, `{ connectionId }`, `{ connection: { id } }`, or a tree node. */
export function connectionIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string' && arg !== '') return arg;
  if (!isRecord(arg)) return undefined;
  if (typeof arg.connectionId === 'string' && arg.connectionId !== '') return arg.connectionId;
  if (isRecord(arg.connection) && typeof arg.connection.id === 'string') return arg.connection.id;
  return undefined;
}

/** True when an argument asks for a change without prompts (it carries fields beyond which connection is meant). */
function hasAnyField(arg: unknown, fields: readonly string[]): arg is Record<string, unknown> {
  return isRecord(arg) && fields.some((f) => arg[f] !== undefined);
}

// ------------------------------------------------------------------ error presentation

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function present(error: unknown, log: Logger): Promise<void> {
  log.error(error instanceof Error ? error : String(error));
  if (error instanceof SecretStorageError) {
    await showSecretStorageError(error);
  } else {
    await vscode.window.showErrorMessage(errorText(error));
  }
}

// ------------------------------------------------------------------ shared steps

function configOfDraft(draft: ConnectionDraft): ConnectionConfig {
  return {
    baseUrl: draft.baseUrl,
    organizationId: draft.organizationId,
    serviceIds: [...draft.serviceIds],
    keyId: draft.keyId,
    pathSegment: draft.pathSegment,
  };
}

type CheckResult = { ok: true; pathSegment: string } | { ok: false; error: unknown; reason: string };

/**
 * Runs the check under a cancellable progress notification. Without a path segment in `config` (empty string) the
 * segment is detected: "clickstack", then "observability" after an HTML 404 (at most two requests).
 */
async function checkWithProgress(deps: ConnectionCommandDeps, config: ConnectionConfig, secret: string): Promise<CheckResult> {
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
          return deps.connections.withUnsavedClient(attempt, secret, (client) => checkConnection(client, attempt, abort.signal));
        };
        try {
          if (!detect) {
            await probe(config.pathSegment);
            return config.pathSegment;
          }
          const detection = await detectPathSegment(probe, host);
          if (detection.error !== undefined) throw detection.error;
          deps.log.info(`Detected the product path segment "${detection.segment}" at ${config.baseUrl} after ${detection.tried.length} request(s)`);
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
async function checkUntilDecided(deps: ConnectionCommandDeps, config: ConnectionConfig, secret: string, offerSaveAnyway: boolean):
  Promise<{ decision: 'save' | 'edit' | 'cancel'; error?: unknown }> {
  let outcome: CheckResult;
  try {
    validateConnection(config);
    outcome = await checkWithProgress(deps, config, secret);
  } catch (error) {
    outcome = { ok: false, error, reason: errorText(error) };
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

/** Best-effort names for service IDs given without the walk-through (one listing request). */
async function describeServices(deps: ConnectionCommandDeps, config: ConnectionConfig, secret: string, known: ServiceSummary[]): Promise<ServiceSummary[]> {
  const byId = new Map(known.map((s) => [s.id, s]));
  try {
    const response = await deps.connections.withUnsavedClient(config, secret, (client) => client.listServices(config.organizationId));
    for (const s of response.data) {
      const summary = toServiceSummary(s);
      byId.set(summary.id, summary);
    }
  } catch (error) {
    deps.log.debug(`Could not list the organization's services for names: ${errorText(error)}`);
  }
  for (const id of config.serviceIds) if (!byId.has(id)) byId.set(id, { id, name: id });
  return [...byId.values()];
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/** The walk-through step to reopen after a failed check, chosen from the kind of failure. */
function stepForFailure(error: unknown): number {
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

async function pickConnection(deps: ConnectionCommandDeps, placeholder: string): Promise<StoredConnection | undefined> {
  const all = deps.connections.list();
  if (all.length === 0) {
    const add = vscode.l10n.t('Add Connection');
    const choice = await vscode.window.showInformationMessage(vscode.l10n.t('There are no connections yet.'), add);
    if (choice === add) await vscode.commands.executeCommand(COMMAND_IDS.add);
    return undefined;
  }
  if (all.length === 1) return all[0];
  const picked = await vscode.window.showQuickPick(
    all.map((c) => ({
      label: c.label,
      description: hostOf(c.baseUrl),
      detail: c.organizationName ? `${c.organizationName} · ${c.organizationId}` : c.organizationId,
      connection: c,
    })),
    { placeHolder: placeholder, matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.connection;
}

/** The connection an argument names, or (interactive only) the one the user picks. */
async function resolveConnection(deps: ConnectionCommandDeps, arg: unknown, placeholder: string): Promise<StoredConnection | undefined> {
  const id = connectionIdOf(arg);
  if (id !== undefined) {
    const found = deps.connections.get(id);
    if (!found) throw new Error(vscode.l10n.t('The connection {0} no longer exists.', id));
    return found;
  }
  return pickConnection(deps, placeholder);
}

// ------------------------------------------------------------------ Add Connection

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
  const saved = await deps.connections.add({
    label: (args.label ?? args.organizationName ?? hostOf(baseUrl)).trim(),
    baseUrl,
    organizationId: config.organizationId,
    ...(args.organizationName ? { organizationName: args.organizationName } : {}),
    serviceIds: config.serviceIds,
    services,
    keyId: config.keyId,
    pathSegment: config.pathSegment,
  }, args.keySecret);
  return saved.id;
}

async function addInteractive(deps: ConnectionCommandDeps): Promise<string | undefined> {
  const draft = emptyDraft();
  let startStep = 1;
  for (;;) {
    const done = await runConnectionWizard(draft, { withClient: (c, s, a) => deps.connections.withUnsavedClient(c, s, a) }, { mode: 'add', startStep });
    if (!done) return undefined;
    const config = configOfDraft(draft);
    // The segment step's detection may already have passed this very check.
    if (draft.provenFor !== checkFingerprint(config, draft.keySecret)) {
      const { decision, error } = await checkUntilDecided(deps, config, draft.keySecret, false);
      if (decision === 'cancel') return undefined;
      if (decision === 'edit') {
        startStep = stepForFailure(error);
        continue;
      }
    }
    const saved = await deps.connections.add({
      label: draft.label,
      baseUrl: draft.baseUrl,
      organizationId: draft.organizationId,
      ...(draft.organizationName ? { organizationName: draft.organizationName } : {}),
      serviceIds: draft.serviceIds,
      services: draft.services,
      keyId: draft.keyId,
      pathSegment: draft.pathSegment,
    }, draft.keySecret);
    void vscode.window.showInformationMessage(vscode.l10n.t('Connection "{0}" added.', saved.label));
    return saved.id;
  }
}

// ------------------------------------------------------------------ Edit Connection

const EDIT_FIELDS = ['baseUrl', 'keyId', 'keySecret', 'organizationId', 'organizationName', 'serviceIds', 'pathSegment', 'skipCheck'] as const;

function isEditArgs(arg: unknown): arg is Record<string, unknown> {
  if (hasAnyField(arg, EDIT_FIELDS)) return true;
  // `label` alone counts only on a plain object: tree nodes carry a label of their own.
  return isRecord(arg) && typeof arg.label === 'string' && Object.getPrototypeOf(arg) === Object.prototype && typeof arg.connectionId === 'string' && !('kind' in arg);
}

async function editFromArgs(deps: ConnectionCommandDeps, arg: unknown): Promise<string> {
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
    throw new Error(vscode.l10n.t('Moving the connection to another address needs keySecret too: the stored secret is never sent to a new address.'));
  }
  if (!args.skipCheck) {
    const secret = args.keySecret ?? await deps.connections.getSecret(current.id);
    if (secret === undefined) throw new Error(vscode.l10n.t('No key secret is stored for the connection "{0}". Pass keySecret.', current.label));
    // A move without a segment finds the one the new address answers on.
    const checked = moved && args.pathSegment === undefined ? { ...config, pathSegment: '' } : config;
    const result = await checkWithProgress(deps, checked, secret);
    if (!result.ok) throw new Error(vscode.l10n.t('Could not connect to {0}: {1}', hostOf(config.baseUrl), result.reason));
    next.pathSegment = result.pathSegment;
  }
  // Address, key and secret change together: no request pairs the old secret with the new address or the reverse.
  await deps.connections.update(current.id, {
    baseUrl: next.baseUrl,
    keyId: next.keyId,
    organizationId: next.organizationId,
    ...(args.organizationName !== undefined ? { organizationName: args.organizationName } : {}),
    serviceIds: next.serviceIds,
    pathSegment: next.pathSegment,
    label: next.label,
  }, args.keySecret);
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
  const storedSecret = async () => (sameOrigin(draft.baseUrl, connection.baseUrl) ? deps.connections.getSecret(connection.id) : undefined);
  let startStep = 1;
  for (;;) {
    const done = await runConnectionWizard(draft, { withClient: (c, s, a) => deps.connections.withUnsavedClient(c, s, a), storedSecret }, { mode: 'edit', startStep, savedBaseUrl: connection.baseUrl });
    if (!done) return undefined;
    const config = configOfDraft(draft);
    const secret = draft.keySecret !== '' ? draft.keySecret : await storedSecret();
    if (secret === undefined) {
      void vscode.window.showWarningMessage(vscode.l10n.t('No key secret is stored for this connection; enter it.'));
      startStep = WIZARD_STEPS.keySecret;
      continue;
    }
    if (draft.provenFor !== checkFingerprint(config, secret)) {
      const { decision, error } = await checkUntilDecided(deps, config, secret, true);
      if (decision === 'cancel') return undefined;
      if (decision === 'edit') {
        startStep = stepForFailure(error);
        continue;
      }
    }
    await deps.connections.update(connection.id, {
      label: draft.label,
      baseUrl: draft.baseUrl,
      keyId: draft.keyId,
      organizationId: draft.organizationId,
      ...(draft.organizationName ? { organizationName: draft.organizationName } : {}),
      serviceIds: draft.serviceIds,
      services: draft.services,
      pathSegment: draft.pathSegment,
    }, draft.keySecret !== '' ? draft.keySecret : undefined);
    void vscode.window.showInformationMessage(vscode.l10n.t('Connection "{0}" updated.', draft.label));
    return connection.id;
  }
}

// ------------------------------------------------------------------ Update Key Secret

async function updateSecretInteractive(deps: ConnectionCommandDeps, connection: StoredConnection): Promise<string | undefined> {
  const title = vscode.l10n.t('Update Key Secret: {0}', connection.label);
  let typed = '';
  for (;;) {
    const value = await inputStep({
      title, step: 1, totalSteps: 1,
      value: typed,
      password: true,
      prompt: vscode.l10n.t('New key secret for key {0}. It is kept in the system keyring only.', connection.keyId),
      validate: (text) => validateKeySecret(text),
      validateWhileTyping: false,
    });
    if (typeof value !== 'string') return undefined;
    typed = value;
    const result = await checkWithProgress(deps, deps.connections.configOf(connection), typed);
    if (!result.ok) {
      const retry = vscode.l10n.t('Enter Again');
      const save = vscode.l10n.t('Save Anyway');
      const choice = await vscode.window.showErrorMessage(
        vscode.l10n.t('The new secret did not work for {0}', hostOf(connection.baseUrl)),
        { modal: true, detail: result.reason },
        retry,
        save,
      );
      if (choice === retry) continue;
      if (choice !== save) return undefined;
    }
    await deps.connections.setSecret(connection.id, typed);
    void vscode.window.showInformationMessage(vscode.l10n.t('Key secret of "{0}" updated.', connection.label));
    return connection.id;
  }
}

async function updateSecretFromArgs(deps: ConnectionCommandDeps, arg: unknown): Promise<string> {
  const args = parseArgs(secretArgsSchema, arg, COMMAND_IDS.updateSecret);
  const connection = deps.connections.get(args.connectionId);
  if (!connection) throw new Error(vscode.l10n.t('The connection {0} no longer exists.', args.connectionId));
  if (!args.skipCheck) {
    const result = await checkWithProgress(deps, deps.connections.configOf(connection), args.keySecret);
    if (!result.ok) throw new Error(vscode.l10n.t('The new secret did not work for {0}: {1}', hostOf(connection.baseUrl), result.reason));
  }
  await deps.connections.setSecret(connection.id, args.keySecret);
  return connection.id;
}

// ------------------------------------------------------------------ Remove Connection

async function removeConnection(deps: ConnectionCommandDeps, arg: unknown): Promise<boolean> {
  const connection = await resolveConnection(deps, arg, vscode.l10n.t('Connection to remove'));
  if (!connection) return false;
  const skipConfirmation = isRecord(arg) && arg.skipConfirmation === true;
  if (!skipConfirmation) {
    const remove = vscode.l10n.t('Remove');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Remove the connection "{0}"?', connection.label),
      {
        modal: true,
        detail: vscode.l10n.t('Its key secret is deleted from the system keyring. Nothing changes on the service; the API key itself stays valid until you revoke it in the console.'),
      },
      remove,
    );
    if (choice !== remove) return false;
  }
  await deps.connections.remove(connection.id);
  if (!skipConfirmation) void vscode.window.showInformationMessage(vscode.l10n.t('Connection "{0}" removed.', connection.label));
  return true;
}

// ------------------------------------------------------------------ Choose Services

async function selectServicesInteractive(deps: ConnectionCommandDeps, connection: StoredConnection): Promise<string | undefined> {
  let listed: ServiceSummary[] | undefined;
  let listingError: string | undefined;
  try {
    listed = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Listing the services of "{0}"…', connection.label), cancellable: true },
      async (_progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        try {
          const response = await deps.connections.clientFor(connection.id).listServices(connection.organizationId, { signal: abort.signal });
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
  const manualButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: vscode.l10n.t('Enter service IDs') };
  for (;;) {
    const picked = await multiPickStep({
      title, step: 1, totalSteps: 1,
      placeholder: listingError
        ? vscode.l10n.t('Could not list services, showing the known ones ({0})', listingError)
        : vscode.l10n.t('Services to show (Space toggles, Enter confirms)'),
      items: choices.map((s) => ({
        label: s.name || s.id,
        description: s.region,
        detail: [s.state ? vscode.l10n.t('state: {0}', s.state) : undefined, s.id].filter((p) => p !== undefined).join(' · '),
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
        title, step: 1, totalSteps: 1,
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
  await deps.connections.update(connection.id, { serviceIds: args.serviceIds.map((s) => s.toLowerCase()) });
  return connection.id;
}

// ------------------------------------------------------------------ registration

/**
 * Wraps a command: interactive runs show errors as notifications and resolve to undefined; runs with an argument
 * object (automation) also reject with the error so the caller sees it.
 */
function command<T>(deps: ConnectionCommandDeps, automated: (arg: unknown) => boolean, body: (arg: unknown) => Promise<T>) {
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

function isAddArgs(arg: unknown): boolean {
  return hasAnyField(arg, ['baseUrl', 'keyId', 'keySecret', 'organizationId', 'serviceIds', 'pathSegment']);
}

/** Registers the connection commands and keeps the `observability.hasConnections` context key current. */
export function registerConnectionCommands(deps: ConnectionCommandDeps): vscode.Disposable {
  const updateContext = () => {
    void vscode.commands.executeCommand('setContext', CONTEXT_HAS_CONNECTIONS, deps.connections.list().length > 0);
  };
  updateContext();
  const disposables: vscode.Disposable[] = [
    deps.connections.onDidChange(updateContext),
    vscode.commands.registerCommand(COMMAND_IDS.add, command(deps, isAddArgs, (arg) =>
      isAddArgs(arg) ? addFromArgs(deps, arg) : addInteractive(deps))),
    vscode.commands.registerCommand(COMMAND_IDS.edit, command(deps, isEditArgs, async (arg) => {
      if (isEditArgs(arg)) return editFromArgs(deps, arg);
      const connection = await resolveConnection(deps, arg, vscode.l10n.t('Connection to edit'));
      return connection ? editInteractive(deps, connection) : undefined;
    })),
    vscode.commands.registerCommand(COMMAND_IDS.updateSecret, command(deps, (arg) => hasAnyField(arg, ['keySecret']), async (arg) => {
      if (hasAnyField(arg, ['keySecret'])) return updateSecretFromArgs(deps, arg);
      const connection = await resolveConnection(deps, arg, vscode.l10n.t('Connection whose key secret to replace'));
      return connection ? updateSecretInteractive(deps, connection) : undefined;
    })),
    vscode.commands.registerCommand(COMMAND_IDS.remove, command(deps, (arg) => isRecord(arg) && arg.skipConfirmation === true, (arg) =>
      removeConnection(deps, arg))),
    vscode.commands.registerCommand(COMMAND_IDS.selectServices, command(deps, (arg) => hasAnyField(arg, ['serviceIds']), async (arg) => {
      if (hasAnyField(arg, ['serviceIds'])) return selectServicesFromArgs(deps, arg);
      const connection = await resolveConnection(deps, arg, vscode.l10n.t('Connection whose services to choose'));
      return connection ? selectServicesInteractive(deps, connection) : undefined;
    })),
  ];
  return vscode.Disposable.from(...disposables);
}
