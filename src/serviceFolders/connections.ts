/**
 * ClickHouse connections named in a service folder's files: a source's `connection` and a raw-SQL tile's
 * `config.connectionId` are IDs of the folder's own service (each Cloud service is its own team with its own
 * connections; the server refuses a connection of another one). On the folder's own service they stay as they are. On
 * another service (promote) each is resolved before anything is sent: a connection that service already uses stays; one
 * given in `connectionMap` takes the mapped ID; otherwise, when the service uses exactly one connection (what its
 * sources and raw-SQL tiles name: the API lists no connections on Cloud), that one; else the plan reports it, with the
 * service's connections to choose from. Pure (no vscode import).
 */
import { quotedName } from '../resources/nameLookup';
import type { Snapshot } from './files';
import type { FolderKind } from './layout';
import { cloneJson, isObject } from './refs';

/** A connection the service written to uses, and what uses it (for the choice). */
export interface KnownConnection {
  readonly id: string;
  /** `source "Logs"`, `dashboard "Checkout" tile "Rows"`. */
  readonly usedBy: readonly string[];
}

/** A connection of the folder's own service that the other service does not have: the user chooses one. */
export interface ConnectionChoice {
  /** The ID the files name. */
  readonly id: string;
  /** Files that name it (paths inside the folder). */
  readonly files: readonly string[];
  /** The connections the service written to uses. */
  readonly candidates: readonly KnownConnection[];
}

interface Slot {
  readonly holder: Record<string, unknown>;
  readonly key: string;
  /** The field's path in the file, for messages. */
  readonly where: string;
}

function slotsOf(kind: FolderKind, value: Record<string, unknown>): Slot[] {
  if (kind === 'source' && typeof value.connection === 'string') {
    return [{ holder: value, key: 'connection', where: 'connection' }];
  }
  if (kind !== 'dashboard' || !Array.isArray(value.tiles)) return [];
  const out: Slot[] = [];
  value.tiles.forEach((tile, i) => {
    if (isObject(tile) && isObject(tile.config) && typeof tile.config.connectionId === 'string') {
      out.push({ holder: tile.config, key: 'connectionId', where: `tiles[${i}].config.connectionId` });
    }
  });
  return out;
}

/** The connections a service's sources and raw-SQL tiles name, in first-seen order. */
export function connectionsOf(live: Snapshot): KnownConnection[] {
  const found = new Map<string, string[]>();
  const add = (id: string, user: string) => found.set(id, [...(found.get(id) ?? []), user]);
  for (const s of live.source) {
    for (const slot of slotsOf('source', s as unknown as Record<string, unknown>)) {
      add(String(slot.holder[slot.key]), `source ${quotedName(s.name)}`);
    }
  }
  for (const d of live.dashboard) {
    const tiles = Array.isArray(d.tiles) ? (d.tiles as unknown[]) : [];
    for (const tile of tiles) {
      if (!isObject(tile) || !isObject(tile.config) || typeof tile.config.connectionId !== 'string') continue;
      add(tile.config.connectionId, `dashboard ${quotedName(d.name)} tile ${quotedName(String(tile.name ?? ''))}`);
    }
  }
  return [...found].map(([id, usedBy]) => ({ id, usedBy }));
}

/** A connection as a choice reads: its ID and what uses it. */
export function describeConnection(c: KnownConnection): string {
  const more = c.usedBy.length > 2 ? `, … (${c.usedBy.length})` : '';
  return `${c.id} (${c.usedBy.slice(0, 2).join(', ')}${more})`;
}

export interface ConnectionOptions {
  readonly ownTarget: boolean;
  readonly serviceLabel: string;
  /** Connection ID of the folder's own service → connection ID of the service written to. */
  readonly connectionMap?: Readonly<Record<string, string>>;
}

/**
 * The files' values with the connections of the service written to (a changed value is a copy), the notes of what
 * was mapped, and the connections left to choose (each also a problem: nothing is sent while there is one).
 */
export function mapConnections<E extends { kind: FolderKind; path: string; value: Record<string, unknown> }>(
  entries: readonly E[],
  live: Snapshot,
  options: ConnectionOptions,
): {
  entries: E[];
  notes: Map<string, string[]>;
  problems: { path: string; message: string }[];
  choices: ConnectionChoice[];
} {
  const notes = new Map<string, string[]>();
  const problems: { path: string; message: string }[] = [];
  const choices = new Map<string, string[]>();
  if (options.ownTarget) return { entries: [...entries], notes, problems, choices: [] };
  const known = connectionsOf(live);
  const knownIds = new Set(known.map((c) => c.id));
  const service = `service ${quotedName(options.serviceLabel)}`;
  const out = entries.map((entry) => {
    if (slotsOf(entry.kind, entry.value).length === 0) return entry;
    const value = cloneJson(entry.value);
    for (const slot of slotsOf(entry.kind, value)) {
      const id = String(slot.holder[slot.key]);
      if (knownIds.has(id)) continue;
      const mapped = options.connectionMap?.[id];
      const only = known.length === 1 ? known[0]!.id : undefined;
      if (mapped !== undefined || only !== undefined) {
        slot.holder[slot.key] = mapped ?? only;
        const why = mapped !== undefined ? 'as connectionMap says' : `the only ClickHouse connection ${service} uses`;
        notes.set(entry.path, [
          ...(notes.get(entry.path) ?? []),
          `${slot.where}: connection ${id} of the folder's own service becomes ${mapped ?? only} (${why})`,
        ]);
        continue;
      }
      choices.set(id, [...(choices.get(id) ?? []), entry.path]);
      const has =
        known.length === 0
          ? 'names none of its connections in a source or raw-SQL tile (the API does not list connections)'
          : `uses ${known.length} connections: ${known.map(describeConnection).join('; ')}`;
      problems.push({
        path: entry.path,
        message: `${slot.where}: ClickHouse connection ${id} belongs to the folder's own service, and ${service} ${has}: choose its connection (Promote asks; or pass "connectionMap": { "${id}": "<connection id>" })`,
      });
    }
    return { ...entry, value };
  });
  return {
    entries: out,
    notes,
    problems,
    choices: [...choices].map(([id, files]) => ({ id, files, candidates: known })),
  };
}
