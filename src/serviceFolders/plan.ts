/**
 * The plan of a service folder against a service: per resource create / update / unchanged (and delete, only when the
 * folder opts into pruning), a diff per change, in dependency order (sources → saved searches → webhooks → dashboards →
 * alerts; deletions last, in the reverse order). Everything that would stop an apply — a file that cannot be read or
 * checked, a name that resolves to nothing on the service, two files for one resource — is found here, before any
 * request. Pure (no vscode import): the caller reads the files and the service's lists.
 */
import { randomBytes } from 'node:crypto';
import { schemaCheck } from '../jsonDocuments/checks';
import type { ServerKind } from '../schema/serverRules';
import { unmaskWebhookBody } from '../resources/kinds';
import { MASK } from '../resources/dependents';
import { lookUpByName, quotedName } from '../resources/nameLookup';
import { unknownKeyPaths } from '../schema/unknownKeys';
import { KINDS } from '../resources/kinds';
import { changesOf, type Change } from './compare';
import { mapConnections, type ConnectionChoice } from './connections';
import { mapLinkIds } from './linkIds';
import { editableBody, FILE_ONLY_KEYS, itemsOf, nameSourceOf, tilesOf, type ServerItem, type Snapshot } from './files';
import { FOLDER_KINDS, LAYOUT, type FolderKind } from './layout';
import {
  isObject,
  lookupWords,
  PENDING_ID,
  REF_LABEL,
  toIdForm,
  toNameForm,
  type Dependency,
  type Lookup,
  type RefKind,
  type Resolver,
} from './refs';

/** One file of the folder as read from disk. */
export interface FolderFile {
  /** Path inside the folder (`dashboards/Checkout.dashboard.json`). */
  readonly path: string;
  readonly kind: FolderKind;
  /** The parsed value, when the file could be read as JSON. */
  readonly value?: unknown;
  /** Why it could not be read. */
  readonly error?: string;
}

export type StepAction = 'create' | 'update' | 'unchanged' | 'delete';

export interface PlanStep {
  readonly kind: FolderKind;
  /** The resource's name (an alert may have none). */
  readonly name: string;
  readonly action: StepAction;
  /** The file that describes it (none for a deletion). */
  readonly path?: string;
  /** The resource on the service (update, unchanged, delete). */
  readonly live?: ServerItem;
  /** The file's value (name form). */
  readonly file?: Record<string, unknown>;
  /** The differences (update), or every field (create). */
  readonly changes: readonly Change[];
  /** Resources of the folder this one refers to by name: when one of them fails, this one is not sent. */
  readonly dependsOn: readonly Dependency[];
  /** What a deletion takes with it (a dashboard's alerts), named for the confirmation. */
  readonly cascade: readonly string[];
  readonly notes: readonly string[];
}

export interface PlanProblem {
  /** The file (path inside the folder), when the problem is in one. */
  readonly path?: string;
  readonly message: string;
}

export interface FolderPlan {
  readonly serviceLabel: string;
  readonly steps: readonly PlanStep[];
  /** What stops the apply: nothing is sent while there is one. */
  readonly problems: readonly PlanProblem[];
  /** ClickHouse connections of the folder's own service that the service written to lacks (each also a problem). */
  readonly connectionChoices?: readonly ConnectionChoice[];
}

export interface PlanOptions {
  /** The service written to is the folder's own (then files are matched by their `id`; else by name). */
  readonly ownTarget: boolean;
  /** Delete resources of the service that no file describes. */
  readonly prune: boolean;
  /** The service's name in messages. */
  readonly serviceLabel: string;
  /**
   * The URL of a webhook whose file shows it masked, for a webhook the apply creates (promote): from the webhook of the
   * same name on the folder's own service. Without it such a webhook cannot be created.
   */
  readonly webhookUrl?: (name: string) => string | undefined;
  /** The kind of server written to: its rules decide what only some server versions accept (schema/serverRules.ts). */
  readonly server?: ServerKind;
  /** Connection ID of the folder's own service → connection ID of the service written to (promote; connections.ts). */
  readonly connectionMap?: Readonly<Record<string, string>>;
}

const key = (kind: RefKind | FolderKind, name: string) => `${kind}\u0000${name}`;

/** A file that passed the first checks, matched (or not) to a resource of the service. */
export interface Entry {
  readonly kind: FolderKind;
  readonly path: string;
  readonly name: string;
  readonly value: Record<string, unknown>;
  readonly live?: ServerItem;
  readonly notes: string[];
}

/**
 * Names resolved on the service written to: a name of a resource the folder holds stands for that resource (its ID on
 * the service once it exists there), any other name is looked up in the service's lists.
 */
export class TargetNames implements Resolver {
  /** Responses of the writes made so far (`kind\0name` → the resource as the service returned it). */
  readonly written = new Map<string, ServerItem>();

  constructor(
    private readonly live: Snapshot,
    private readonly entries: ReadonlyMap<string, Entry>,
    private readonly serviceLabel: string,
  ) {}

  private where(): string {
    return `service ${quotedName(this.serviceLabel)}`;
  }

  id(kind: Exclude<RefKind, 'tile'>, name: string): Lookup {
    const entry = this.entries.get(key(kind, name));
    if (entry) {
      const done = this.written.get(key(kind, name));
      if (done) return { id: done.id };
      return entry.live ? { id: entry.live.id } : { pending: true };
    }
    const found = lookUpByName(name, itemsOf(this.live, kind), lookupWords(kind, this.serviceLabel));
    return 'id' in found
      ? found
      : { message: `${found.message}; the folder has no ${REF_LABEL[kind]} of that name either` };
  }

  tileId(dashboard: { readonly id?: string; readonly name?: string }, tileName: string): Lookup {
    const words = lookupWords('tile', this.serviceLabel);
    if (dashboard.name !== undefined) {
      const entry = this.entries.get(key('dashboard', dashboard.name));
      if (entry) {
        const inFile = lookUpByName(
          tileName,
          tilesOf(entry.value).map((t, i) => ({
            id: t.id || String(i),
            ...(t.name !== undefined ? { name: t.name } : {}),
          })),
          { ...words, serviceLabel: `dashboard file ${entry.path}` },
        );
        if ('message' in inFile) {
          return { message: inFile.message.replace(/ on service "dashboard file (.*)"/, ' in $1') };
        }
        const written = this.written.get(key('dashboard', dashboard.name));
        const tiles = written ? tilesOf(written) : entry.live ? tilesOf(entry.live) : undefined;
        const found = tiles?.filter((t) => t.name === tileName);
        return found && found.length === 1 ? { id: found[0]!.id } : { pending: true };
      }
      const live = lookUpByName(
        dashboard.name,
        itemsOf(this.live, 'dashboard'),
        lookupWords('dashboard', this.serviceLabel),
      );
      if ('message' in live) return { message: live.message };
      dashboard = { id: live.id };
    }
    const d = this.live.dashboard.find((x) => x.id === dashboard.id);
    if (!d) return { message: `no dashboard ${dashboard.id ?? ''} on ${this.where()}` };
    const found = lookUpByName(tileName, tilesOf(d), words);
    return 'id' in found
      ? found
      : { message: found.message.replace(/ on service .*? \(/, ` on dashboard ${quotedName(d.name)} (`) };
  }

  checkId(kind: Exclude<RefKind, 'tile'>, id: string): string | undefined {
    if (id === PENDING_ID) return undefined;
    if (itemsOf(this.live, kind).some((item) => item.id === id)) return undefined;
    return `${REF_LABEL[kind]} ${id} is not on ${this.where()} (name it by name so the reference resolves on every service)`;
  }
}

/** The top-level keys of a server body that this version does not know (they are sent back unchanged). */
function unknownTopKeys(kind: FolderKind, isNew: boolean, body: Record<string, unknown>): string[] {
  return unknownKeyPaths(KINDS[kind].schema(isNew), body)
    .filter((p) => p.length === 1)
    .map((p) => String(p[0]));
}

/**
 * Tiles and filters of a dashboard body with the IDs of the service's dashboard: an item keeps its ID when the
 * service's dashboard has it, else takes the ID of the service's item of the same name (a folder promoted to another
 * service), else goes without one (the service assigns it). A new dashboard sends none. An update takes every filter
 * with an ID (Cloud's `ClickStackFilter` and HyperDX's update schema require it): a new filter gets a fresh one, which
 * the service replaces with its own.
 */
function withServiceIds(items: readonly unknown[], liveItems: unknown, idRequired = false): unknown[] {
  const live = tilesOf({ tiles: Array.isArray(liveItems) ? liveItems : [] });
  const liveIds = new Set(live.map((t) => t.id));
  const claimed = new Set<string>();
  return items.map((item) => {
    if (!isObject(item)) return item;
    const out = { ...item };
    if (typeof out.id === 'string' && liveIds.has(out.id) && !claimed.has(out.id)) {
      claimed.add(out.id);
      return out;
    }
    const same = live.filter((t) => t.name !== undefined && t.name === out.name && !claimed.has(t.id));
    if (same.length === 1) {
      out.id = same[0]!.id;
      claimed.add(same[0]!.id);
    } else if (idRequired) out.id = randomBytes(12).toString('hex');
    else delete out.id;
    return out;
  });
}

/**
 * The body a file sends, with the IDs of the service written to. On an update, fields of the service's version this
 * version does not know and the file leaves out are kept; tile IDs are matched to the service's tiles by name when the
 * file's IDs are not the service's (promote), so alerts on those tiles survive. `omitPending` leaves out references to
 * resources not created yet (sources that refer to each other: set by a second write).
 */
export function bodyFor(
  entry: Pick<Entry, 'kind' | 'name' | 'value' | 'live'>,
  names: Resolver,
  options: { webhookUrl?: (name: string) => string | undefined; omitPending?: boolean; server?: ServerKind } = {},
):
  | { ok: true; body: Record<string, unknown>; dependsOn: Dependency[]; pending: Dependency[]; warnings: string[] }
  | { ok: false; problems: string[] } {
  const { kind, live } = entry;
  const value = { ...entry.value };
  for (const k of FILE_ONLY_KEYS) delete value[k];
  const resolved = toIdForm(kind, value, names);
  const problems = resolved.problems.map((p) => `${p.path.join('.')}: ${p.message}`);
  let body = resolved.value;
  if (options.omitPending && resolved.pending.length > 0) {
    for (const [k, v] of Object.entries(body)) if (v === PENDING_ID) delete body[k];
  }
  if (kind === 'webhook') {
    if (live) {
      const unmasked = unmaskWebhookBody(body, live as { url?: string | null });
      if (unmasked.ok) body = unmasked.body;
      else problems.push(`${unmasked.path.join('.')}: ${unmasked.message}`);
    } else if (typeof body.url === 'string' && body.url.includes(MASK)) {
      const url = options.webhookUrl?.(entry.name);
      if (url) body.url = url;
      else {
        problems.push(
          `url: holds masked parts (${MASK}) and the service has no webhook ${quotedName(entry.name)} to keep it from: type the whole URL in the file, or promote from the folder's own service`,
        );
      }
    }
  }
  if (kind === 'dashboard') {
    for (const list of ['tiles', 'filters'] as const) {
      if (Array.isArray(body[list])) {
        body[list] = withServiceIds(body[list] as unknown[], live?.[list], list === 'filters' && live !== undefined);
      }
    }
  }
  if (live) {
    const server = editableBody(kind, live);
    for (const k of unknownTopKeys(kind, false, server)) if (!(k in body)) body[k] = server[k];
  }
  // What the service itself sent (a newer server's alert displayName and tags) is accepted there: no warning.
  const checked = schemaCheck(kind, !live, body as never, options.server, live);
  if (!checked.ok) problems.push(...checked.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`));
  if (problems.length > 0 || !checked.ok) return { ok: false, problems };
  return {
    ok: true,
    body: checked.data as Record<string, unknown>,
    dependsOn: resolved.dependsOn,
    pending: resolved.pending,
    warnings: checked.warnings.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`),
  };
}

function nameOf(value: unknown): string {
  return isObject(value) && typeof value.name === 'string' ? value.name : '';
}

/** Matches the folder's files to the service's resources; the problems stop the apply. */
export function matchFiles(
  files: readonly FolderFile[],
  live: Snapshot,
  options: Pick<PlanOptions, 'ownTarget' | 'serviceLabel' | 'connectionMap'>,
): { entries: Entry[]; problems: PlanProblem[]; choices: ConnectionChoice[] } {
  const entries: Entry[] = [];
  const problems: PlanProblem[] = [];
  const liveNames = nameSourceOf(live);
  const claimed = new Map<string, string>();
  const seenNames = new Map<string, string>();
  for (const file of files) {
    if (file.error !== undefined || !isObject(file.value)) {
      problems.push({ path: file.path, message: file.error ?? 'must be a JSON object' });
      continue;
    }
    const value = file.value;
    const name = nameOf(value);
    const label = LAYOUT[file.kind].label;
    const items = itemsOf(live, file.kind);
    const notes: string[] = [];
    let match: ServerItem | undefined;
    const id = typeof value.id === 'string' && value.id !== '' ? value.id : undefined;
    if (options.ownTarget && id) {
      match = items.find((item) => item.id === id);
      if (!match) notes.push(`the ${label} ${id} is no longer on the service: it is created again`);
    }
    if (!match && file.kind === 'alert' && name === '' && !(options.ownTarget && id)) {
      // An alert without a name is known by what it watches and how: the service's unnamed alert with the same
      // configuration (so a promoted folder applied again creates no second copy).
      match = items.find(
        (item) =>
          !item.name &&
          !claimed.has(`alert:${item.id}`) &&
          changesOf('alert', value, toNameForm('alert', editableBody('alert', item), liveNames)).length === 0,
      );
    }
    if (!match && !(options.ownTarget && id) && name !== '') {
      const same = items.filter((item) => item.name === name);
      if (same.length > 1) {
        problems.push({
          path: file.path,
          message: `${same.length} ${LAYOUT[file.kind].plural} named ${quotedName(name)} on service ${quotedName(options.serviceLabel)}: cannot tell which one the file describes`,
        });
        continue;
      }
      match = same[0];
    }
    if (match) {
      const other = claimed.get(`${file.kind}:${match.id}`);
      if (other) {
        problems.push({ path: file.path, message: `describes the same ${label} as ${other}` });
        continue;
      }
      claimed.set(`${file.kind}:${match.id}`, file.path);
    }
    if (file.kind !== 'alert' && name !== '') {
      const other = seenNames.get(key(file.kind, name));
      if (other) {
        problems.push({
          path: file.path,
          message: `${other} describes a ${label} named ${quotedName(name)} too: names must be unique in a folder`,
        });
        continue;
      }
      seenNames.set(key(file.kind, name), file.path);
    }
    entries.push({ kind: file.kind, path: file.path, name, value, ...(match ? { live: match } : {}), notes });
  }
  // Connection IDs and link-out IDs of the folder's own service, resolved on the service written to (or reported).
  const connections = mapConnections(entries, live, options);
  const links = mapLinkIds(connections.entries, live, options);
  for (const entry of links.entries) {
    entry.notes.push(...(connections.notes.get(entry.path) ?? []), ...(links.notes.get(entry.path) ?? []));
  }
  return {
    entries: links.entries,
    problems: [...problems, ...connections.problems, ...links.problems],
    choices: connections.choices,
  };
}

function sortSteps(steps: PlanStep[]): PlanStep[] {
  const rank = (s: PlanStep) =>
    s.action === 'delete' ? 10 + (FOLDER_KINDS.length - FOLDER_KINDS.indexOf(s.kind)) : FOLDER_KINDS.indexOf(s.kind);
  return steps.sort(
    (a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name) || (a.path ?? '').localeCompare(b.path ?? ''),
  );
}

/** The plan of a folder's files against the service's resources. */
export function planFolder(files: readonly FolderFile[], live: Snapshot, options: PlanOptions): FolderPlan {
  const { entries, problems, choices } = matchFiles(files, live, options);
  const byName = new Map<string, Entry>();
  for (const e of entries) if (e.name !== '' && e.kind !== 'alert') byName.set(key(e.kind, e.name), e);
  const names = new TargetNames(live, byName, options.serviceLabel);
  const liveNames = nameSourceOf(live);
  const steps: PlanStep[] = [];
  for (const entry of entries) {
    const base = {
      kind: entry.kind,
      name: entry.name,
      path: entry.path,
      file: entry.value,
      cascade: [],
      notes: entry.notes,
    };
    let action: StepAction = 'create';
    let changes: Change[];
    if (entry.live) {
      const liveForm = toNameForm(entry.kind, editableBody(entry.kind, entry.live), liveNames);
      changes = changesOf(entry.kind, entry.value, liveForm);
      if (changes.length === 0) {
        // Nothing is sent: what the service holds is not checked again (it may hold what its API no longer accepts).
        steps.push({ ...base, live: entry.live, action: 'unchanged', changes, dependsOn: [] });
        continue;
      }
      action = 'update';
    } else {
      changes = Object.entries(entry.value)
        .filter(([k]) => !(FILE_ONLY_KEYS as readonly string[]).includes(k))
        .map(([k, v]) => ({ path: k, before: undefined, after: v }));
    }
    const built = bodyFor(entry, names, {
      ...(options.webhookUrl ? { webhookUrl: options.webhookUrl } : {}),
      ...(options.server ? { server: options.server } : {}),
    });
    if (!built.ok) {
      for (const message of built.problems) problems.push({ path: entry.path, message });
      continue;
    }
    const notes = [...entry.notes, ...built.warnings];
    const dependsOn = built.dependsOn.filter((d) => byName.has(key(d.kind, d.name)));
    steps.push({ ...base, notes, ...(entry.live ? { live: entry.live } : {}), action, changes, dependsOn });
  }
  if (options.prune) {
    const kept = new Set(entries.filter((e) => e.live).map((e) => `${e.kind}:${e.live!.id}`));
    const deleted = new Set<string>();
    for (const kind of FOLDER_KINDS) {
      for (const item of itemsOf(live, kind)) {
        if (kept.has(`${kind}:${item.id}`)) continue;
        deleted.add(`${kind}:${item.id}`);
      }
    }
    for (const kind of FOLDER_KINDS) {
      for (const item of itemsOf(live, kind)) {
        if (!deleted.has(`${kind}:${item.id}`)) continue;
        const cascade =
          kind === 'dashboard'
            ? live.alert
                .filter((a) => a.dashboardId === item.id)
                .map(
                  (a) =>
                    `alert ${quotedName(a.name ?? a.id)}${kept.has(`alert:${a.id}`) ? ' (described by a file of the folder)' : ''}`,
                )
            : [];
        steps.push({
          kind,
          name: item.name ?? item.id,
          action: 'delete',
          live: item,
          changes: [],
          dependsOn: [],
          cascade,
          notes: [],
        });
      }
    }
  }
  return {
    serviceLabel: options.serviceLabel,
    steps: sortSteps(steps),
    problems,
    ...(choices.length > 0 ? { connectionChoices: choices } : {}),
  };
}

/** The steps that send something. */
export function pendingSteps(plan: FolderPlan): PlanStep[] {
  return plan.steps.filter((s) => s.action !== 'unchanged');
}
