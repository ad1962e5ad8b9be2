/**
 * What an apply would put back on the service: fields the service changed since the last pull (its value is no longer
 * the pull's) while the file still holds the pull's value. Applying the file would revert them without anyone having
 * asked for it, so the confirmation names each one and offers to take the service's values into the files instead (the
 * pull's three-way merge). Fields changed on both sides are named too (the file's value is sent). Pure (no vscode
 * import).
 */
import { comparable } from './compare';
import { fileValueOf, nameSourceOf, type Snapshot } from './files';
import type { FolderKind } from './layout';
import { merge3 } from './merge';
import type { FolderPlan } from './plan';
import { isObject } from './refs';

export interface Revert {
  /** The file (path inside the folder). */
  readonly path: string;
  readonly kind: FolderKind;
  readonly name: string;
  /** The field (`threshold`, `tiles.0.config.select`). */
  readonly field: string;
  /** The service's value now. */
  readonly service: unknown;
  /** The file's value (the one sent). */
  readonly file: unknown;
  /** The file changed the field too (its value is sent on purpose); else the file still holds the pull's value. */
  readonly bothChanged: boolean;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function at(value: unknown, path: string): unknown {
  let node = value;
  for (const part of path === '' ? [] : path.split('.')) {
    if (Array.isArray(node)) node = node[Number(part)];
    else if (isObject(node)) node = node[part];
    else return undefined;
  }
  return node;
}

/**
 * The fields of the plan's updates that the service changed since the last pull. `base`: the values of the last pull
 * (`kind:id` → file value); a resource without one is not judged.
 */
export function revertsOf(plan: FolderPlan, base: Readonly<Record<string, unknown>>): Revert[] {
  const out: Revert[] = [];
  for (const step of plan.steps) {
    if (step.action !== 'update' || !step.live || !step.path) continue;
    const pulled = base[`${step.kind}:${step.live.id}`];
    if (!isObject(pulled)) continue;
    const then = comparable(step.kind, pulled);
    for (const change of step.changes) {
      const before = at(then, change.path);
      if (same(before, change.before)) continue; // the service did not change it: the file did
      out.push({
        path: step.path,
        kind: step.kind,
        name: step.name,
        field: change.path,
        service: change.before,
        file: change.after,
        bothChanged: !same(before, change.after),
      });
    }
  }
  return out;
}

/** A value in one line of a confirmation. */
export function shortValue(value: unknown): string {
  if (value === undefined) return '(none)';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/**
 * The files with the service's values taken in (as Pull to Folder merges): for each file with a revert, the pull's
 * three-way merge of the file with the service's version (`service`: the new pull base of `key`, as a pull keeps it).
 * Fields changed on both sides keep the file's value.
 */
export function takeServiceValues(
  plan: FolderPlan,
  reverts: readonly Revert[],
  base: Readonly<Record<string, unknown>>,
  live: Snapshot,
): { path: string; value: unknown; key: string; service: Record<string, unknown> }[] {
  const paths = new Set(reverts.filter((r) => !r.bothChanged).map((r) => r.path));
  const names = nameSourceOf(live);
  const out: { path: string; value: unknown; key: string; service: Record<string, unknown> }[] = [];
  for (const step of plan.steps) {
    if (!step.path || !paths.has(step.path) || !step.live || !step.file) continue;
    const theirs = fileValueOf(step.kind, step.live, names);
    const key = `${step.kind}:${step.live.id}`;
    out.push({ path: step.path, value: merge3(base[key], step.file, theirs).value, key, service: theirs });
  }
  return out;
}
