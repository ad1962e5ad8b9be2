/**
 * Applying a folder plan: one request per create, update or delete, in the plan's order, each body built with the IDs
 * the service has by then (a dashboard created first gives the alert on it its ID). A step whose dependency failed or
 * was not sent is not sent either; the others go on. Sources that refer to each other (a log source and its trace
 * source) cannot all be created with their links: a new source is created without links to sources not created yet,
 * and one more update per such source sets them once all exist. Pure (no vscode import): the caller passes the
 * client calls and what to do with created resources.
 */
import { errorMessage } from '../errors';
import type { ServerItem, Snapshot } from './files';
import { LAYOUT, type FolderKind } from './layout';
import {
  bodyFor,
  matchFiles,
  TargetNames,
  type FolderFile,
  type FolderPlan,
  type PlanOptions,
  type PlanStep,
} from './plan';
import { PENDING_ID } from './refs';

/** The client calls an apply makes. */
export interface WriteClient {
  create(kind: FolderKind, body: Record<string, unknown>): Promise<ServerItem>;
  update(kind: FolderKind, id: string, body: Record<string, unknown>): Promise<ServerItem>;
  remove(kind: FolderKind, id: string): Promise<void>;
}

export interface ApplyHooks {
  /** A resource was created (the caller writes its ID back into the file when the folder belongs to the service). */
  created?(step: PlanStep, server: ServerItem): Promise<void>;
  /** Before each request. */
  progress?(step: PlanStep, done: number, total: number): void;
  /** True when the user cancelled: the remaining steps are not sent. */
  cancelled?(): boolean;
}

export interface StepOutcome {
  readonly step: PlanStep;
  readonly outcome: 'applied' | 'failed' | 'skipped';
  /** The resource's ID (applied). */
  readonly id?: string;
  /** Why it failed or was not sent. */
  readonly reason?: string;
  /**
   * Fields the body sent that the service's answer does not hold: the service does not keep them for this resource (a
   * field its API drops for the kind), so the file will keep showing them as a change until they are removed.
   */
  readonly notKept?: readonly string[];
}

export interface ApplyReport {
  readonly outcomes: readonly StepOutcome[];
  /** Requests sent (writes only: the apply reads nothing). */
  readonly requests: number;
}

const key = (kind: string, name: string) => `${kind}\u0000${name}`;

export function describeStep(step: PlanStep): string {
  return `${step.action} ${LAYOUT[step.kind].label} ${JSON.stringify(step.name || step.path || step.live?.id || '')}`;
}

/**
 * Sends the plan's changes. The plan must have been made from the same files and service lists (`files`, `live`) and
 * have no problems: nothing is sent otherwise.
 */
export async function applyFolderPlan(
  plan: FolderPlan,
  files: readonly FolderFile[],
  live: Snapshot,
  options: PlanOptions,
  client: WriteClient,
  hooks: ApplyHooks = {},
): Promise<ApplyReport> {
  if (plan.problems.length > 0) throw new Error(`The plan has ${plan.problems.length} problem(s): nothing was sent.`);
  const { entries } = matchFiles(files, live, options);
  // The rules of the server written to, as the plan checked the bodies.
  const serverRules = options.server ? { server: options.server } : {};
  const byPath = new Map(entries.map((e) => [e.path, e]));
  const byName = new Map(
    entries.filter((e) => e.name !== '' && e.kind !== 'alert').map((e) => [key(e.kind, e.name), e]),
  );
  const names = new TargetNames(live, byName, options.serviceLabel);
  const outcomes: StepOutcome[] = [];
  const notDone = new Set<string>();
  const fixups: PlanStep[] = [];
  let requests = 0;
  const steps = plan.steps.filter((s) => s.action !== 'unchanged');
  const total = steps.length;

  const fail = (step: PlanStep, outcome: 'failed' | 'skipped', reason: string) => {
    outcomes.push({ step, outcome, reason });
    if (step.name !== '') notDone.add(key(step.kind, step.name));
  };

  const runFixups = async () => {
    for (const step of fixups.splice(0)) {
      const entry = byPath.get(step.path!)!;
      const id = names.written.get(key(step.kind, step.name))?.id;
      if (!id) continue;
      const built = bodyFor({ ...entry, live: names.written.get(key(step.kind, step.name))! }, names, serverRules);
      if (!built.ok) {
        fail(step, 'failed', `links to other sources not set: ${built.problems.join('; ')}`);
        continue;
      }
      try {
        requests++;
        names.written.set(key(step.kind, step.name), await client.update(step.kind, id, built.body));
      } catch (error) {
        fail(step, 'failed', `created, but its links to other sources were not set: ${errorMessage(error)}`);
      }
    }
  };

  const runStep = async (step: PlanStep) => {
    if (hooks.cancelled?.()) {
      fail(step, 'skipped', 'cancelled');
      return;
    }
    const blocked = step.dependsOn.find((d) => notDone.has(key(d.kind, d.name)));
    if (blocked) {
      fail(
        step,
        'skipped',
        `${LAYOUT[blocked.kind as FolderKind]?.label ?? blocked.kind} ${JSON.stringify(blocked.name)} was not applied`,
      );
      return;
    }
    hooks.progress?.(step, outcomes.length, total);
    try {
      if (step.action === 'delete') {
        requests++;
        await client.remove(step.kind, step.live!.id);
        outcomes.push({ step, outcome: 'applied', id: step.live!.id });
        return;
      }
      const entry = byPath.get(step.path!)!;
      const built = bodyFor(entry, names, {
        ...(options.webhookUrl ? { webhookUrl: options.webhookUrl } : {}),
        ...serverRules,
        omitPending: step.kind === 'source',
      });
      if (!built.ok) {
        fail(step, 'failed', built.problems.join('; '));
        return;
      }
      if (JSON.stringify(built.body).includes(PENDING_ID)) {
        fail(step, 'skipped', 'a resource it refers to was not created');
        return;
      }
      requests++;
      const server =
        step.action === 'create'
          ? await client.create(step.kind, built.body)
          : await client.update(step.kind, step.live!.id, built.body);
      if (step.name !== '') names.written.set(key(step.kind, step.name), server);
      if (step.action === 'create' && step.kind === 'source' && built.pending.length > 0) fixups.push(step);
      if (step.action === 'create') await hooks.created?.(step, server);
      const notKept = Object.keys(built.body).filter((k) => built.body[k] !== undefined && !(k in server));
      outcomes.push({ step, outcome: 'applied', id: server.id, ...(notKept.length > 0 ? { notKept } : {}) });
    } catch (error) {
      fail(step, 'failed', errorMessage(error));
    }
  };

  // Sources first, each when the sources it names exist, or else the first that can be created without the links to
  // sources not created yet (a session source needs its trace source; a log and a trace source name each other).
  const sourceSteps = steps.filter((s) => s.kind === 'source' && s.action !== 'delete');
  const waiting = (s: PlanStep) =>
    s.dependsOn.some(
      (d) => d.kind === 'source' && 'pending' in names.id('source', d.name) && !notDone.has(key(d.kind, d.name)),
    );
  while (sourceSteps.length > 0) {
    let index = sourceSteps.findIndex((s) => !waiting(s));
    if (index < 0) {
      index = sourceSteps.findIndex((s) => {
        const entry = byPath.get(s.path!);
        return entry !== undefined && bodyFor(entry, names, { ...serverRules, omitPending: true }).ok;
      });
    }
    const [step] = sourceSteps.splice(Math.max(index, 0), 1);
    await runStep(step!);
  }
  await runFixups();
  for (const step of steps) if (step.kind !== 'source' || step.action === 'delete') await runStep(step);
  return { outcomes, requests };
}

/** What an apply did and did not do, in a few lines. */
export function summarize(report: ApplyReport): {
  applied: number;
  /** The steps applied, described. */
  appliedSteps: string[];
  failed: string[];
  skipped: string[];
  notKept: string[];
} {
  const applied = report.outcomes.filter((o) => o.outcome === 'applied').length;
  const failed = report.outcomes
    .filter((o) => o.outcome === 'failed')
    .map((o) => `${describeStep(o.step)}: ${o.reason ?? ''}`);
  const skipped = report.outcomes
    .filter((o) => o.outcome === 'skipped')
    .map((o) => `${describeStep(o.step)}: ${o.reason ?? ''}`);
  const notKept = report.outcomes
    .filter((o) => o.notKept)
    .map((o) => `${LAYOUT[o.step.kind].label} ${JSON.stringify(o.step.name)}: ${o.notKept!.join(', ')}`);
  const appliedSteps = report.outcomes.filter((o) => o.outcome === 'applied').map((o) => describeStep(o.step));
  return { applied, appliedSteps, failed, skipped, notKept };
}
