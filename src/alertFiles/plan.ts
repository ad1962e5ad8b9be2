/**
 * The alert plan: what applying the workspace's alert files would do on each target service. Pure (no vscode import):
 * the caller reads the files and the live alerts, this module classifies them.
 */
import { markdownCode, sanitizeServerText } from '../api/sanitize';
import type { Alert } from '../schema';
import { sameConfiguration, type AlertFileTarget } from './format';

/** What applying one file does. Only `create` and `update` send anything. */
export type PlanAction =
  | 'create'
  | 'update'
  | 'unchanged'
  /** The file does not pass its checks. */
  | 'invalid'
  /** No connection to the file's organization. */
  | 'noConnection'
  /** The live alerts of the service could not be read. */
  | 'unreachable'
  /** The file's `id` names an alert the service does not have (deleted meanwhile?). */
  | 'missing'
  /** Another file manages the same alert. */
  | 'duplicate';

export interface PlanFileInput {
  /** The file's address (string form). */
  readonly uri: string;
  /** Path shown to the user (relative to the workspace). */
  readonly label: string;
  readonly target: AlertFileTarget;
  /** The write body, when the file passed its checks. */
  readonly body?: Record<string, unknown>;
  /** Why the file is invalid (first problems, each "line: message"). */
  readonly problems?: readonly string[];
  /** Names the file uses, resolved on its service. */
  readonly references?: readonly PlanReference[];
  /** What the target server may refuse (a self-hosted deployment's version decides); sent as written. */
  readonly warnings?: readonly string[];
}

/** A name in a file and the ID it stands for on the file's service. */
export interface PlanReference {
  /** The name field, e.g. `channel.webhookName`. */
  readonly field: string;
  readonly name: string;
  readonly id: string;
}

export interface PlanEntry {
  readonly uri: string;
  readonly label: string;
  readonly action: PlanAction;
  /** The alert name (file's, else the live one's). */
  readonly name?: string;
  readonly alertId?: string;
  readonly detail?: string;
  /** Names the file uses and the IDs they stand for on this service. */
  readonly references?: readonly PlanReference[];
  /** What the target server may refuse; the file is sent as written and the server decides. */
  readonly warnings?: readonly string[];
}

export interface ServiceInput {
  readonly organizationId: string;
  readonly serviceId: string;
  /** A self-hosted deployment's base URL (its files name it instead of an organization and service). */
  readonly baseUrl?: string;
  readonly serviceLabel: string;
  readonly connectionId?: string;
  /** The live alerts, or the error met reading them. */
  readonly alerts?: readonly Alert[];
  readonly error?: string;
}

export interface ServicePlan {
  readonly organizationId: string;
  readonly serviceId: string;
  readonly baseUrl?: string;
  readonly serviceLabel: string;
  readonly connectionId?: string;
  readonly entries: readonly PlanEntry[];
  /** Live alerts no file manages. Never deleted by the plan. */
  readonly drift: readonly { readonly id: string; readonly name?: string }[];
  readonly error?: string;
}

export interface AlertPlan {
  readonly services: readonly ServicePlan[];
  /** Files without a usable target (no organization or service). */
  readonly untargeted: readonly PlanEntry[];
  readonly counts: Readonly<Record<PlanAction, number>> & { readonly drift: number };
}

export function serviceKey(organizationId: string, serviceId: string, baseUrl?: string): string {
  return baseUrl !== undefined ? `${organizationId}/${serviceId} ${baseUrl}` : `${organizationId}/${serviceId}`;
}

function nameOr(value: string | null | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** Classifies the files of each service against its live alerts. */
export function buildPlan(files: readonly PlanFileInput[], services: readonly ServiceInput[]): AlertPlan {
  const byService = new Map<string, PlanFileInput[]>();
  const untargeted: PlanEntry[] = [];
  for (const file of files) {
    const { organizationId, serviceId } = file.target;
    if (!organizationId || !serviceId) {
      untargeted.push({
        uri: file.uri,
        label: file.label,
        action: 'invalid',
        ...(file.target.name ? { name: file.target.name } : {}),
        detail: file.problems?.[0] ?? 'organizationId and serviceId are required',
      });
      continue;
    }
    const key = serviceKey(organizationId, serviceId, file.target.baseUrl);
    const list = byService.get(key) ?? [];
    list.push(file);
    byService.set(key, list);
  }

  const plans: ServicePlan[] = [];
  for (const [key, list] of byService) {
    const service = services.find((s) => serviceKey(s.organizationId, s.serviceId, s.baseUrl) === key);
    const first = list[0]!.target;
    const organizationId = first.organizationId as string;
    const serviceId = first.serviceId as string;
    const baseUrl = first.baseUrl;
    const live = service?.alerts;
    const liveById = new Map((live ?? []).map((a) => [a.id, a]));
    const claimed = new Map<string, string>();
    const entries: PlanEntry[] = [];
    for (const file of [...list].sort((a, b) => a.label.localeCompare(b.label))) {
      const base = {
        uri: file.uri,
        label: file.label,
        ...(file.target.id ? { alertId: file.target.id } : {}),
        ...(file.references && file.references.length > 0 ? { references: file.references } : {}),
        ...(file.warnings && file.warnings.length > 0 ? { warnings: file.warnings } : {}),
      };
      const fileName = file.target.name;
      if (!service?.connectionId) {
        entries.push({ ...base, action: 'noConnection', ...(fileName ? { name: fileName } : {}) });
        continue;
      }
      if (!live) {
        entries.push({
          ...base,
          action: 'unreachable',
          ...(fileName ? { name: fileName } : {}),
          ...(service.error ? { detail: service.error } : {}),
        });
        continue;
      }
      const current = file.target.id ? liveById.get(file.target.id) : undefined;
      const name = fileName ?? nameOr(current?.name);
      const named = name ? { name } : {};
      if (!file.body) {
        entries.push({
          ...base,
          ...named,
          action: 'invalid',
          ...(file.problems?.[0] ? { detail: file.problems[0] } : {}),
        });
        continue;
      }
      if (!file.target.id) {
        entries.push({ ...base, ...named, action: 'create' });
        continue;
      }
      const owner = claimed.get(file.target.id);
      if (owner !== undefined) {
        entries.push({ ...base, ...named, action: 'duplicate', detail: `also managed by ${owner}` });
        continue;
      }
      claimed.set(file.target.id, file.label);
      if (!current) {
        entries.push({
          ...base,
          ...named,
          action: 'missing',
          detail: `alert ${file.target.id} does not exist on the service; remove "id" to create it again`,
        });
        continue;
      }
      entries.push({ ...base, ...named, action: sameConfiguration(file.body, current) ? 'unchanged' : 'update' });
    }
    const managed = new Set(list.map((f) => f.target.id).filter((id): id is string => id !== undefined));
    const drift = (live ?? [])
      .filter((a) => !managed.has(a.id))
      .map((a) => ({ id: a.id, ...(nameOr(a.name) ? { name: nameOr(a.name) } : {}) }));
    plans.push({
      organizationId,
      serviceId,
      ...(baseUrl !== undefined ? { baseUrl } : {}),
      serviceLabel: service?.serviceLabel ?? baseUrl ?? serviceId,
      entries,
      drift,
      ...(service?.connectionId ? { connectionId: service.connectionId } : {}),
      ...(service?.error ? { error: service.error } : {}),
    });
  }
  plans.sort((a, b) => a.serviceLabel.localeCompare(b.serviceLabel));

  const counts = {
    create: 0,
    update: 0,
    unchanged: 0,
    invalid: 0,
    noConnection: 0,
    unreachable: 0,
    missing: 0,
    duplicate: 0,
    drift: 0,
  };
  for (const entry of [...plans.flatMap((p) => p.entries), ...untargeted]) counts[entry.action]++;
  counts.drift = plans.reduce((n, p) => n + p.drift.length, 0);
  return { services: plans, untargeted, counts };
}

const ACTION_TITLES: Record<PlanAction, string> = {
  create: 'Create',
  update: 'Update',
  unchanged: 'Unchanged',
  invalid: 'Invalid (not applied)',
  noConnection: 'No connection (not applied)',
  unreachable: 'Service not readable (not applied)',
  missing: 'Alert missing on the service (not applied)',
  duplicate: 'Duplicate id (not applied)',
};

const ACTION_ORDER: readonly PlanAction[] = [
  'create',
  'update',
  'unchanged',
  'missing',
  'duplicate',
  'invalid',
  'noConnection',
  'unreachable',
];

export interface RenderedPlan {
  readonly text: string;
  /** Lines (0-based) of update entries, for "Compare" links, with the file they name. */
  readonly updateLines: readonly { readonly line: number; readonly uri: string }[];
}

/**
 * Text inside a line of the plan: sanitised, and every Markdown punctuation character escaped except `-` (never at the
 * start of a line here), so no link, autolink, HTML or emphasis forms from a name the service sent.
 */
function text(value: unknown): string {
  return sanitizeServerText(value).replace(/[!-,./:-@[-`{-~]/g, '\\$&');
}

/** The plan as a Markdown document. */
export function renderPlan(plan: AlertPlan, when: Date): RenderedPlan {
  const lines: string[] = [];
  const updateLines: { line: number; uri: string }[] = [];
  const c = plan.counts;
  lines.push('# Alert plan', '');
  lines.push(
    `${c.create} to create, ${c.update} to update, ${c.unchanged} unchanged, ${c.drift} live alert(s) without a file` +
      `${c.invalid + c.noConnection + c.unreachable + c.missing + c.duplicate > 0 ? `, ${c.invalid + c.noConnection + c.unreachable + c.missing + c.duplicate} file(s) not applicable` : ''}.`,
  );
  lines.push(
    '',
    `Planned ${when.toISOString()}. "Apply Plan" re-reads the files and sends only creates and updates, one request at a time; nothing is ever deleted.`,
  );
  const entryLine = (e: PlanEntry) =>
    `- ${markdownCode(e.label, 1000)}${e.name ? ` — ${markdownCode(e.name)}` : ''}` +
    `${e.alertId ? ` (id ${markdownCode(e.alertId)})` : ''}${e.detail ? `: ${text(e.detail)}` : ''}`;
  for (const service of plan.services) {
    lines.push(
      '',
      `## ${text(service.serviceLabel)}`,
      '',
      service.baseUrl !== undefined
        ? `Self-hosted deployment ${markdownCode(service.baseUrl)}.`
        : `Service ${markdownCode(service.serviceId)}, organization ${markdownCode(service.organizationId)}.`,
    );
    if (service.error) lines.push('', `Could not read the live alerts: ${text(service.error)}`);
    for (const action of ACTION_ORDER) {
      const entries = service.entries.filter((e) => e.action === action);
      if (entries.length === 0) continue;
      lines.push('', `### ${ACTION_TITLES[action]} (${entries.length})`, '');
      for (const e of entries) {
        if (action === 'update') updateLines.push({ line: lines.length, uri: e.uri });
        lines.push(entryLine(e));
        for (const r of e.references ?? []) {
          lines.push(`  - ${text(r.field)} ${markdownCode(r.name)} → id ${markdownCode(r.id)}`);
        }
        for (const w of e.warnings ?? []) lines.push(`  - Warning: ${text(w)}`);
      }
    }
    if (service.drift.length > 0) {
      lines.push('', `### Live alerts without a file (${service.drift.length}; left as they are)`, '');
      for (const d of service.drift) lines.push(`- ${markdownCode(d.name ?? d.id)} (id ${markdownCode(d.id)})`);
    }
  }
  if (plan.untargeted.length > 0) {
    lines.push('', '## Files without a target service', '');
    for (const e of plan.untargeted) lines.push(entryLine(e));
  }
  if (plan.services.length === 0 && plan.untargeted.length === 0) lines.push('', 'No *.alert.json files found.');
  return { text: `${lines.join('\n')}\n`, updateLines };
}
