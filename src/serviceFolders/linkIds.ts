/**
 * Table tiles' link-outs by ID (`config.onClick` with `target: { mode: "id", id }`): a dashboard's ID (`type:
 * "dashboard"`) or a log or trace source's (`type: "search"`) on the folder's own service. The server refuses one that
 * is not of its team, so on another service (promote) each is resolved before anything is sent: an ID that service
 * has stays; the ID of a resource a file of the folder describes becomes the ID of the resource of the same name
 * there; anything else is reported. Pure (no vscode import).
 */
import { quotedName } from '../resources/nameLookup';
import { itemsOf, type Snapshot } from './files';
import type { FolderKind } from './layout';
import { cloneJson, isObject } from './refs';

const LINK_KINDS: Record<string, 'dashboard' | 'source'> = { dashboard: 'dashboard', search: 'source' };

/** The dashboards' link-out IDs with those of the service written to (a changed value is a copy), or the problems. */
export function mapLinkIds<E extends { kind: FolderKind; path: string; name: string; value: Record<string, unknown> }>(
  entries: readonly E[],
  live: Snapshot,
  options: { readonly ownTarget: boolean; readonly serviceLabel: string },
): { entries: E[]; notes: Map<string, string[]>; problems: { path: string; message: string }[] } {
  const notes = new Map<string, string[]>();
  const problems: { path: string; message: string }[] = [];
  if (options.ownTarget) return { entries: [...entries], notes, problems };
  const service = `service ${quotedName(options.serviceLabel)}`;
  const out = entries.map((entry) => {
    if (entry.kind !== 'dashboard' || !Array.isArray(entry.value.tiles)) return entry;
    const value = cloneJson(entry.value);
    (value.tiles as unknown[]).forEach((tile, i) => {
      const onClick = isObject(tile) && isObject(tile.config) ? tile.config.onClick : undefined;
      if (!isObject(onClick) || !isObject(onClick.target) || onClick.target.mode !== 'id') return;
      const kind = LINK_KINDS[String(onClick.type)];
      const id = onClick.target.id;
      if (!kind || typeof id !== 'string') return;
      const items = itemsOf(live, kind);
      if (items.some((item) => item.id === id)) return;
      const where = `tiles[${i}].config.onClick.target.id`;
      const file = entries.find((e) => e.kind === kind && e.value.id === id);
      const same = file ? items.filter((item) => item.name === file.name) : [];
      if (file && same.length === 1) {
        onClick.target = { ...onClick.target, id: same[0]!.id };
        notes.set(entry.path, [
          ...(notes.get(entry.path) ?? []),
          `${where}: ${kind} ${id} of the folder's own service becomes ${same[0]!.id}, the ${kind} ${quotedName(file.name)} of ${service}`,
        ]);
        return;
      }
      problems.push({
        path: entry.path,
        message: file
          ? `${where}: links to the ${kind} ${quotedName(file.name)} (${id} on the folder's own service), which ${service} does not have yet: promote once without the link (or with a template link), then add it`
          : `${where}: links to ${kind} ${id}, which is not on ${service} and no file of the folder describes: link by name with a template, or remove the link`,
      });
    });
    return { ...entry, value };
  });
  return { entries: out, notes, problems };
}
