/**
 * Drift: how the files of a service folder differ from what its service holds, per file — changed in the folder (or on
 * the service), only in the folder, only on the service, or a file the plan cannot use. Computed from one plan of the
 * folder against its own service (its five lists), never one request per file. Pure (no vscode import).
 */
import { fileText, fileValueOf, nameSourceOf, type Snapshot } from './files';
import { fileNameFor, LAYOUT, type FolderKind } from './layout';
import { planFolder, type FolderFile, type PlanOptions } from './plan';

export type DriftState = 'changed' | 'folderOnly' | 'serviceOnly' | 'problem';

export interface DriftEntry {
  readonly state: DriftState;
  /** Path inside the folder: the file's, or (service only) the file a pull would write. */
  readonly path: string;
  readonly kind?: FolderKind;
  readonly name: string;
  /** The id of the service's resource the file describes (changed). */
  readonly id?: string;
  /** Fields that differ (changed), or the problems (problem). */
  readonly details: readonly string[];
  /** The service's version of the resource as a file would hold it (changed, service only). */
  readonly serviceText?: string;
}

/** The drift of a folder's files against its own service (`options.ownTarget` is expected). */
export function driftOf(files: readonly FolderFile[], live: Snapshot, options: PlanOptions): DriftEntry[] {
  // Pruning is planned so that what the service holds and no file describes is listed too; nothing is sent here.
  const plan = planFolder(files, live, { ...options, prune: true });
  const names = nameSourceOf(live);
  const out: DriftEntry[] = [];
  const taken = new Map<FolderKind, Set<string>>();
  for (const file of files) {
    const [folder, name] = file.path.split('/');
    if (!folder || !name) continue;
    if (!taken.has(file.kind)) taken.set(file.kind, new Set());
    taken.get(file.kind)!.add(name.toLowerCase());
  }
  const problems = new Map<string, string[]>();
  for (const p of plan.problems) {
    const path = p.path ?? '';
    problems.set(path, [...(problems.get(path) ?? []), p.message]);
  }
  for (const [path, details] of problems) {
    const kind = files.find((f) => f.path === path)?.kind;
    out.push({ state: 'problem', path, ...(kind ? { kind } : {}), name: path.split('/').pop() ?? path, details });
  }
  for (const step of plan.steps) {
    if (step.action === 'unchanged') continue;
    if (step.path && problems.has(step.path)) continue;
    const serviceText = step.live ? fileText(fileValueOf(step.kind, step.live, names)) : undefined;
    if (step.action === 'update' && step.path) {
      out.push({
        state: 'changed',
        path: step.path,
        kind: step.kind,
        name: step.name,
        ...(step.live ? { id: step.live.id } : {}),
        details: step.changes.map((c) => c.path),
        ...(serviceText !== undefined ? { serviceText } : {}),
      });
    } else if (step.action === 'create' && step.path) {
      out.push({ state: 'folderOnly', path: step.path, kind: step.kind, name: step.name, details: [] });
    } else if (step.action === 'delete' && step.live) {
      if (!taken.has(step.kind)) taken.set(step.kind, new Set());
      const path = `${LAYOUT[step.kind].folder}/${fileNameFor(step.kind, step.live.name ?? undefined, taken.get(step.kind)!)}`;
      out.push({
        state: 'serviceOnly',
        path,
        kind: step.kind,
        name: step.name,
        details: [],
        ...(serviceText !== undefined ? { serviceText } : {}),
      });
    }
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}
