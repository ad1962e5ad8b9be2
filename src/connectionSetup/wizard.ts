import * as vscode from 'vscode';
import { hostOf } from '../connections/pick';
import type { ConnectionConfig, ObservabilityClient } from '../api';
import { checkConnection, detectPathSegment, explainCheckFailure, type SegmentDetection } from './check';
import { BACK, inputStep, multiPickStep, pickStep, type Back } from './prompts';
import {
  CLICKSTACK_PATH_SEGMENT,
  DEFAULT_BASE_URL,
  DEFAULT_PATH_SEGMENT,
  toServiceSummary,
  type ServiceSummary,
} from '../connections/types';
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

/** Everything typed in the connection walk-through. Kept across retries so nothing is typed twice. */
export interface ConnectionDraft {
  baseUrl: string;
  keyId: string;
  /** The typed secret; empty while editing means "keep the stored one". */
  keySecret: string;
  pathSegment: string;
  organizationId: string;
  organizationName?: string;
  services: ServiceSummary[];
  serviceIds: string[];
  label: string;
  /**
   * Set by the segment step when its detection already passed the check for exactly this draft (address, key,
   * secret, organization, first service, segment); the caller then need not check again. Kept in memory only.
   */
  provenFor?: string;
}

/** What the check of a draft depends on; equal fingerprints mean the same check. Never logged or stored. */
export function checkFingerprint(config: ConnectionConfig, secret: string): string {
  return JSON.stringify([
    config.baseUrl,
    config.keyId,
    secret,
    config.organizationId,
    config.serviceIds[0] ?? '',
    config.pathSegment,
  ]);
}

export function emptyDraft(): ConnectionDraft {
  return {
    baseUrl: DEFAULT_BASE_URL,
    keyId: '',
    keySecret: '',
    pathSegment: CLICKSTACK_PATH_SEGMENT,
    organizationId: '',
    services: [],
    serviceIds: [],
    label: '',
  };
}

export interface WizardDeps {
  /** Runs a request with a client for the draft's base URL and key (nothing saved yet). */
  withClient<T>(
    config: ConnectionConfig,
    secret: string,
    action: (client: ObservabilityClient) => Promise<T>,
  ): Promise<T>;
  /** The secret to use for listing when the draft leaves it empty (editing: the stored secret). */
  storedSecret?: () => Promise<string | undefined>;
}

export interface WizardOptions {
  readonly mode: 'add' | 'edit';
  /** Step to open first (1-based); used to go straight back to a step after a failed check. */
  readonly startStep?: number;
  /** Editing: the saved base URL. An empty secret keeps the stored one only while the address stays on its origin. */
  readonly savedBaseUrl?: string;
}

/** Placeholder organization for requests that are not scoped to one yet (listing organizations). */
const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const TOTAL_STEPS = 7;

type StepOutcome = 'next' | Back | undefined;

interface OrgItem extends vscode.QuickPickItem {
  readonly action: 'org' | 'manual' | 'retry';
  readonly organization?: { id: string; name: string };
}

interface SegmentItem extends vscode.QuickPickItem {
  readonly segment?: string;
  readonly action?: 'retry';
}

interface ServiceItem extends vscode.QuickPickItem {
  readonly service: ServiceSummary;
}

/**
 * Walks through base URL, key ID, key secret, organization, services, path segment (detected) and name. Resolves to the
 * finished draft, or undefined when the user cancels. `draft` is updated in place as the user goes, so a caller that
 * retries after a failed check starts from what was typed.
 */
export async function runConnectionWizard(
  draft: ConnectionDraft,
  deps: WizardDeps,
  options: WizardOptions,
): Promise<ConnectionDraft | undefined> {
  const title = options.mode === 'add' ? vscode.l10n.t('Add Connection') : vscode.l10n.t('Edit Connection');
  const steps: ((step: number) => Promise<StepOutcome>)[] = [
    (step) => baseUrlStep(draft, title, step),
    (step) => keyIdStep(draft, title, step),
    (step) =>
      keySecretStep(
        draft,
        title,
        step,
        options.mode === 'edit' &&
          options.savedBaseUrl !== undefined &&
          sameOrigin(draft.baseUrl, options.savedBaseUrl),
        options.mode === 'edit',
      ),
    (step) => organizationStep(draft, deps, title, step),
    (step) => servicesStep(draft, deps, title, step),
    (step) => segmentStep(draft, deps, title, step),
    (step) => labelStep(draft, title, step),
  ];
  let index = Math.min(Math.max((options.startStep ?? 1) - 1, 0), steps.length - 1);
  while (index < steps.length) {
    const outcome = await steps[index](index + 1);
    if (outcome === undefined) return undefined;
    if (outcome === BACK) {
      index = Math.max(0, index - 1);
    } else {
      index++;
    }
  }
  return draft;
}

async function baseUrlStep(draft: ConnectionDraft, title: string, step: number): Promise<StepOutcome> {
  const value = await inputStep({
    title,
    step,
    totalSteps: TOTAL_STEPS,
    value: draft.baseUrl || DEFAULT_BASE_URL,
    prompt: vscode.l10n.t('Base URL of the API (ClickHouse Cloud: {0})', DEFAULT_BASE_URL),
    placeholder: DEFAULT_BASE_URL,
    validate: validateBaseUrl,
  });
  if (typeof value !== 'string') return value;
  draft.baseUrl = normalizeBaseUrl(value) ?? value.trim();
  return 'next';
}

async function keyIdStep(draft: ConnectionDraft, title: string, step: number): Promise<StepOutcome> {
  const value = await inputStep({
    title,
    step,
    totalSteps: TOTAL_STEPS,
    value: draft.keyId,
    prompt: vscode.l10n.t('Key ID of the API key (shown when the key is created in the console, under API Keys)'),
    validate: validateKeyId,
  });
  if (typeof value !== 'string') return value;
  draft.keyId = value.trim();
  return 'next';
}

async function keySecretStep(
  draft: ConnectionDraft,
  title: string,
  step: number,
  mayKeep: boolean,
  editing: boolean,
): Promise<StepOutcome> {
  const prompt = mayKeep
    ? vscode.l10n.t('Key secret (leave empty to keep the stored secret). It is kept in the system keyring only.')
    : editing
      ? vscode.l10n.t(
          'The address changed: enter the key secret again (the stored secret is never sent to another address).',
        )
      : vscode.l10n.t('Key secret of the API key. It is kept in the system keyring only, never in settings.');
  const value = await inputStep({
    title,
    step,
    totalSteps: TOTAL_STEPS,
    value: draft.keySecret,
    password: true,
    prompt,
    validate: (text) => validateKeySecret(text, mayKeep),
    validateWhileTyping: false,
  });
  if (typeof value !== 'string') return value;
  draft.keySecret = value;
  return 'next';
}

/** The walk-through's steps, for reopening one after a failed check. */
export const WIZARD_STEPS = {
  baseUrl: 1,
  keyId: 2,
  keySecret: 3,
  organization: 4,
  services: 5,
  segment: 6,
  label: 7,
} as const;

/**
 * The product path segment, detected: the check runs with "clickstack" (ClickHouse Cloud), then with "observability"
 * when the first answers with an HTML 404 (at most two requests). The segment that answers is preselected; the user
 * may pick the other or type another.
 */
async function segmentStep(
  draft: ConnectionDraft,
  deps: WizardDeps,
  title: string,
  step: number,
): Promise<StepOutcome> {
  const known = [CLICKSTACK_PATH_SEGMENT, DEFAULT_PATH_SEGMENT];
  const descriptions: Record<string, string> = {
    [CLICKSTACK_PATH_SEGMENT]: vscode.l10n.t('Managed ClickStack in ClickHouse Cloud'),
    [DEFAULT_PATH_SEGMENT]: vscode.l10n.t('as in the API document'),
  };
  for (;;) {
    let detection: SegmentDetection | undefined;
    let proven: string | undefined;
    const picked = await pickStep<SegmentItem>({
      title,
      step,
      totalSteps: TOTAL_STEPS,
      placeholder: vscode.l10n.t('Product path segment: /v1/organizations/…/services/…/<segment>/dashboards'),
      loadingPlaceholder: vscode.l10n.t('Finding the product path segment the service answers on…'),
      items: async (signal) => {
        detection = await detectSegment(draft, deps, signal);
        if (detection.segment !== undefined && detection.error === undefined) {
          const config = { ...configFor(draft), serviceIds: [...draft.serviceIds], pathSegment: detection.segment };
          const secret = await secretFor(draft, deps);
          if (secret !== undefined) proven = checkFingerprint(config, secret);
        }
        const found = detection.segment;
        const items: SegmentItem[] = known.map((segment) => ({
          label: segment,
          description:
            segment === found
              ? detection?.error === undefined
                ? vscode.l10n.t('$(check) answers at this address')
                : vscode.l10n.t('$(check) served at this address')
              : descriptions[segment],
          segment,
        }));
        if (detection.error !== undefined) {
          items.push({
            label: vscode.l10n.t('$(warning) The check did not pass — retry'),
            detail: explainCheckFailure(detection.error, {
              ...configFor(draft),
              serviceIds: [...draft.serviceIds],
              pathSegment: found ?? draft.pathSegment,
            }),
            action: 'retry',
          });
        }
        items.push({
          label: vscode.l10n.t('$(edit) Custom…'),
          description: known.includes(draft.pathSegment) ? undefined : draft.pathSegment,
        });
        return items;
      },
      active: (item) =>
        item.segment !== undefined &&
        item.segment === (detection?.segment ?? (known.includes(draft.pathSegment) ? draft.pathSegment : undefined)),
      matchOnDetail: true,
    });
    if (picked === undefined || picked === BACK) return picked;
    if (picked.action === 'retry') continue;
    if (picked.segment !== undefined) {
      draft.pathSegment = picked.segment;
      draft.provenFor = picked.segment === detection?.segment ? proven : undefined;
      return 'next';
    }
    const custom = await inputStep({
      title,
      step,
      totalSteps: TOTAL_STEPS,
      value: known.includes(draft.pathSegment) ? '' : draft.pathSegment,
      prompt: vscode.l10n.t('Product path segment'),
      validate: validatePathSegment,
    });
    if (custom === undefined) return undefined;
    if (custom === BACK) continue;
    draft.pathSegment = custom.trim();
    draft.provenFor = undefined;
    return 'next';
  }
}

/** Runs the detection for the draft; never throws (a failure is in the result). */
async function detectSegment(draft: ConnectionDraft, deps: WizardDeps, signal: AbortSignal): Promise<SegmentDetection> {
  try {
    const secret = await secretFor(draft, deps);
    if (secret === undefined) throw new Error(vscode.l10n.t('No key secret is stored; go back and enter it.'));
    const host = hostOf(draft.baseUrl);
    return await detectPathSegment((segment) => {
      const config: ConnectionConfig = { ...configFor(draft), serviceIds: [...draft.serviceIds], pathSegment: segment };
      return deps.withClient(config, secret, (client) => checkConnection(client, config, signal));
    }, host);
  } catch (error) {
    return { error, tried: [] };
  }
}

async function secretFor(draft: ConnectionDraft, deps: WizardDeps): Promise<string | undefined> {
  if (draft.keySecret !== '') return draft.keySecret;
  return deps.storedSecret ? deps.storedSecret() : undefined;
}

function configFor(draft: ConnectionDraft, organizationId = draft.organizationId): ConnectionConfig {
  return {
    baseUrl: draft.baseUrl,
    organizationId: organizationId || NIL_UUID,
    serviceIds: [],
    keyId: draft.keyId,
    pathSegment: draft.pathSegment,
  };
}

async function organizationStep(
  draft: ConnectionDraft,
  deps: WizardDeps,
  title: string,
  step: number,
): Promise<StepOutcome> {
  for (;;) {
    const picked = await pickStep<OrgItem>({
      title,
      step,
      totalSteps: TOTAL_STEPS,
      placeholder: vscode.l10n.t('Organization'),
      loadingPlaceholder: vscode.l10n.t('Listing the organizations of this key…'),
      items: async (signal) => {
        try {
          const secret = await secretFor(draft, deps);
          if (secret === undefined) throw new Error(vscode.l10n.t('No key secret is stored; go back and enter it.'));
          const config = configFor(draft);
          const response = await deps.withClient(config, secret, (client) => client.listOrganizations({ signal }));
          const orgs: OrgItem[] = response.data.map((org) => ({
            label: org.name || org.id,
            description: org.id,
            action: 'org',
            organization: { id: org.id, name: org.name || org.id },
          }));
          return [
            ...orgs,
            { label: '', kind: vscode.QuickPickItemKind.Separator, action: 'manual' },
            { label: vscode.l10n.t('$(edit) Enter an organization ID…'), action: 'manual' },
          ];
        } catch (error) {
          return [
            {
              label: vscode.l10n.t('$(warning) Could not list organizations — retry'),
              detail: explainCheckFailure(error, configFor(draft)),
              action: 'retry',
            },
            { label: vscode.l10n.t('$(edit) Enter the organization ID (from the console)…'), action: 'manual' },
          ] satisfies OrgItem[];
        }
      },
      active: (item) =>
        item.organization?.id === draft.organizationId || (item.action === 'org' && !draft.organizationId),
      matchOnDetail: true,
    });
    if (picked === undefined || picked === BACK) return picked;
    if (picked.action === 'retry') continue;
    if (picked.action === 'org' && picked.organization) {
      if (picked.organization.id !== draft.organizationId) {
        draft.services = [];
        draft.serviceIds = [];
      }
      draft.organizationId = picked.organization.id;
      draft.organizationName = picked.organization.name;
      return 'next';
    }
    const typed = await inputStep({
      title,
      step,
      totalSteps: TOTAL_STEPS,
      value: draft.organizationId,
      prompt: vscode.l10n.t('Organization ID (UUID, from the organization details in the console)'),
      validate: validateOrganizationId,
    });
    if (typed === undefined) return undefined;
    if (typed === BACK) continue;
    const id = typed.trim().toLowerCase();
    if (id !== draft.organizationId) {
      draft.services = [];
      draft.serviceIds = [];
      draft.organizationName = undefined;
    }
    draft.organizationId = id;
    return 'next';
  }
}

function serviceItem(service: ServiceSummary): ServiceItem {
  const state = service.state ? vscode.l10n.t('state: {0}', service.state) : undefined;
  return {
    label: service.name || service.id,
    description: service.region,
    detail: [state, service.id].filter((part) => part !== undefined).join(' · '),
    service,
  };
}

async function servicesStep(
  draft: ConnectionDraft,
  deps: WizardDeps,
  title: string,
  step: number,
): Promise<StepOutcome> {
  let listingError: string | undefined;
  let listed: ServiceSummary[] | undefined;
  try {
    const secret = await secretFor(draft, deps);
    if (secret === undefined) throw new Error(vscode.l10n.t('No key secret is stored; go back and enter it.'));
    listed = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Listing services…'), cancellable: true },
      async (_progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        try {
          const response = await deps.withClient(configFor(draft), secret, (client) =>
            client.listServices(draft.organizationId, { signal: abort.signal }),
          );
          return response.data.map(toServiceSummary);
        } finally {
          sub.dispose();
        }
      },
    );
  } catch (error) {
    listingError = explainCheckFailure(error, configFor(draft));
  }

  const manualButton: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('edit'),
    tooltip: vscode.l10n.t('Enter service IDs'),
  };
  for (;;) {
    if (listed !== undefined && listed.length > 0) {
      const known = new Map(draft.services.map((s) => [s.id, s]));
      for (const s of listed) known.set(s.id, s);
      const items = listed.map(serviceItem);
      const chosen = await multiPickStep<ServiceItem>({
        title,
        step,
        totalSteps: TOTAL_STEPS,
        placeholder: vscode.l10n.t('Services to show (Space toggles, Enter confirms)'),
        tooFewPlaceholder: vscode.l10n.t('Pick at least one service, then press Enter'),
        items,
        selected: (item) => draft.serviceIds.length === 0 || draft.serviceIds.includes(item.service.id),
        buttons: [manualButton],
        minimum: 1,
      });
      if (chosen === undefined || chosen === BACK) return chosen;
      if (Array.isArray(chosen)) {
        draft.services = [...known.values()];
        draft.serviceIds = chosen.map((item) => item.service.id);
        return 'next';
      }
      // The manual-entry button: fall through to the input box.
    }
    const prompt = listingError
      ? vscode.l10n.t(
          'Could not list services ({0}). Enter one or more service IDs (UUIDs), separated by commas.',
          listingError,
        )
      : listed !== undefined && listed.length === 0
        ? vscode.l10n.t(
            'The organization lists no services. Enter one or more service IDs (UUIDs), separated by commas.',
          )
        : vscode.l10n.t('Service IDs (UUIDs, separated by commas)');
    const typed = await inputStep({
      title,
      step,
      totalSteps: TOTAL_STEPS,
      value: draft.serviceIds.join(', '),
      prompt,
      validate: validateServiceIds,
    });
    if (typed === undefined) return undefined;
    if (typed === BACK) {
      if (listed !== undefined && listed.length > 0) continue;
      return BACK;
    }
    const ids = parseServiceIds(typed);
    const known = new Map(draft.services.map((s) => [s.id, s]));
    for (const s of listed ?? []) known.set(s.id, s);
    for (const id of ids) if (!known.has(id)) known.set(id, { id, name: id });
    draft.services = [...known.values()];
    draft.serviceIds = ids;
    return 'next';
  }
}

async function labelStep(draft: ConnectionDraft, title: string, step: number): Promise<StepOutcome> {
  let suggestion = draft.label;
  if (!suggestion) {
    const host = (() => {
      try {
        return new URL(draft.baseUrl).host;
      } catch {
        return draft.baseUrl;
      }
    })();
    suggestion = draft.organizationName ? draft.organizationName : host;
  }
  const value = await inputStep({
    title,
    step,
    totalSteps: TOTAL_STEPS,
    value: suggestion,
    prompt: vscode.l10n.t('Name of the connection, as shown in the explorer'),
    validate: validateLabel,
  });
  if (typeof value !== 'string') return value;
  draft.label = value.trim();
  return 'next';
}
