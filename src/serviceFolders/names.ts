/**
 * The names a reference field of a folder file may take, and what a name stands for: the resources of the folder's
 * files and of its service (the lists read last). Used by completion and hover. Pure (no vscode import).
 */
import { itemsOf, tilesOf, type Snapshot } from './files';
import type { FolderKind } from './layout';
import type { FolderFile } from './plan';
import { getAt, isObject, slotsOf, type Path, type RefKind } from './refs';

export interface NameChoice {
  readonly name: string;
  /** The file of the folder that describes it (path inside the folder). */
  readonly path?: string;
  /** Its ID on the folder's service. */
  readonly id?: string;
}

/** The reference a JSON path of a file's value points at (`sourceName`, `appliesToSourceNames[1]`, …). */
export function referenceAt(
  kind: FolderKind,
  value: unknown,
  path: Path,
): { readonly refKind: RefKind; readonly holder: Path } | undefined {
  for (const slot of slotsOf(kind, value)) {
    const at = [...slot.holder, slot.nameKey];
    const same = at.every((p, i) => path[i] === p);
    if (!same) continue;
    if (
      path.length === at.length ||
      (slot.many && path.length === at.length + 1 && typeof path[at.length] === 'number')
    ) {
      return { refKind: slot.refKind, holder: slot.holder };
    }
  }
  return undefined;
}

function add(out: Map<string, NameChoice>, choice: NameChoice): void {
  const known = out.get(choice.name);
  out.set(choice.name, { ...known, ...choice });
}

/** The names a reference of `refKind` may take; a tile's names are those of the dashboard the value names. */
export function choicesFor(
  refKind: RefKind,
  value: unknown,
  holder: Path,
  files: readonly FolderFile[],
  live: Snapshot | undefined,
): NameChoice[] {
  const out = new Map<string, NameChoice>();
  if (refKind === 'tile') {
    const parent = getAt(value, holder);
    const dashboardName =
      isObject(parent) && typeof parent.dashboardName === 'string' ? parent.dashboardName : undefined;
    const dashboardId = isObject(parent) && typeof parent.dashboardId === 'string' ? parent.dashboardId : undefined;
    for (const file of files) {
      if (file.kind !== 'dashboard' || !isObject(file.value)) continue;
      if (file.value.name !== dashboardName && (dashboardId === undefined || file.value.id !== dashboardId)) continue;
      for (const tile of tilesOf(file.value)) if (tile.name) add(out, { name: tile.name, path: file.path });
    }
    for (const d of live?.dashboard ?? []) {
      if (d.name !== dashboardName && d.id !== dashboardId) continue;
      for (const tile of tilesOf(d)) if (tile.name) add(out, { name: tile.name, id: tile.id });
    }
  } else {
    for (const file of files) {
      if (file.kind !== refKind || !isObject(file.value) || typeof file.value.name !== 'string') continue;
      add(out, { name: file.value.name, path: file.path });
    }
    for (const item of live ? itemsOf(live, refKind) : []) if (item.name) add(out, { name: item.name, id: item.id });
  }
  return [...out.values()].sort((a, b) => a.name.localeCompare(b.name));
}
