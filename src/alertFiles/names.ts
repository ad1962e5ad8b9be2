/**
 * Webhooks and saved searches named by name in alert files.
 *
 * An alert file may say `"webhookName": "Ops Slack"` in a webhook channel instead of `"webhookId"`, and
 * `"savedSearchName": "Errors"` instead of `"savedSearchId"`. The service knows nothing of these names: each is looked
 * up in the target service's list when the file is checked, planned or applied, and replaced by the ID it stands for,
 * so the body sent carries IDs only. A name must match exactly one webhook (saved search) of the service; a name that
 * matches only when case is ignored is not taken (the message suggests it). Since names are resolved per service, the
 * same body works on every service that has a webhook (saved search) of that name.
 *
 * Pure (no vscode import): the checks, the plan and the unit tests share it.
 */
import type { DocumentIssue } from '../jsonDocuments/checks';
import { lookUpByName, quotedName as quoted, type NamedItem } from '../resources/nameLookup';

export type NamedKind = 'webhook' | 'savedSearch';

type Path = readonly (string | number)[];

/** One name in a file, where it is and which ID field it stands for. */
export interface NameReference {
  readonly kind: NamedKind;
  readonly name: string;
  /** Path of the name field, e.g. `['channel', 'webhookName']`. */
  readonly namePath: Path;
  /** Path of the ID field it replaces, e.g. `['channel', 'webhookId']`. */
  readonly idPath: Path;
}

export interface ResolvedReference extends NameReference {
  readonly id: string;
}

/** A webhook or saved search as listed by the service (only what the lookup needs). */
export type { NamedItem };

/** The lists names are looked up in: the target service's webhooks and saved searches. */
export interface NameLists {
  /** The service's name as shown to the user. */
  readonly serviceLabel: string;
  readonly webhooks?: readonly NamedItem[];
  readonly savedSearches?: readonly NamedItem[];
  /** Why a list is missing (the error met reading it). */
  readonly error?: string;
}

export interface NameResolution {
  /**
   * The value with each resolved name replaced by its ID field (at the name's place). Unresolved names are removed,
   * or replaced by a placeholder ID when `placeholder` was asked for (schema checks of the rest of the file).
   */
  readonly value: unknown;
  readonly references: readonly NameReference[];
  readonly resolved: readonly ResolvedReference[];
  /** Problems of the names, at the name fields. */
  readonly issues: readonly DocumentIssue[];
  /** True when every name was resolved (or there is none) and no name field is malformed. */
  readonly complete: boolean;
}

/** An ID no service hands out, standing for a name not looked up yet (matches the ID pattern). */
export const UNRESOLVED_ID = 'unresolved-name';

const FIELDS: Record<NamedKind, { name: string; id: string; one: string; many: string }> = {
  webhook: { name: 'webhookName', id: 'webhookId', one: 'webhook', many: 'webhooks' },
  savedSearch: { name: 'savedSearchName', id: 'savedSearchId', one: 'saved search', many: 'saved searches' },
};

/** The file fields that name a resource by name (never sent to the service). */
export const NAME_FIELDS = [FIELDS.webhook.name, FIELDS.savedSearch.name] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The objects of a file value that may hold a name field, with their path and the kind of name they hold. */
function holders(value: unknown): { path: Path; kind: NamedKind; object: Record<string, unknown> }[] {
  if (!isObject(value)) return [];
  const out: { path: Path; kind: NamedKind; object: Record<string, unknown> }[] = [
    { path: [], kind: 'savedSearch', object: value },
  ];
  if (isObject(value.channel)) out.push({ path: ['channel'], kind: 'webhook', object: value.channel });
  if (Array.isArray(value.channels)) {
    value.channels.forEach((c, i) => {
      if (isObject(c)) out.push({ path: ['channels', i], kind: 'webhook', object: c });
    });
  }
  return out;
}

/** The name fields of a file value, and the problems of their form (not a string, beside the ID field). */
export function nameReferences(value: unknown): { references: NameReference[]; issues: DocumentIssue[] } {
  const references: NameReference[] = [];
  const issues: DocumentIssue[] = [];
  for (const { path, kind, object } of holders(value)) {
    const f = FIELDS[kind];
    if (!(f.name in object)) continue;
    const namePath = [...path, f.name];
    const raw = object[f.name];
    if (typeof raw !== 'string' || raw.trim() === '') {
      issues.push({ path: namePath, severity: 'error', message: `must be the name of a ${f.one} (non-empty text)` });
      continue;
    }
    if (f.id in object) {
      issues.push({
        path: namePath,
        severity: 'error',
        message: `use either ${f.id} or ${f.name}, not both`,
      });
      continue;
    }
    if (kind === 'webhook' && object.type !== undefined && object.type !== 'webhook') {
      issues.push({ path: namePath, severity: 'error', message: `only a channel of type "webhook" names a webhook` });
      continue;
    }
    references.push({ kind, name: raw, namePath, idPath: [...path, f.id] });
  }
  return { references, issues };
}

/** True when the value names a webhook or saved search by name (well-formed or not). */
export function usesNames(value: unknown): boolean {
  return holders(value).some(({ kind, object }) => FIELDS[kind].name in object);
}

/** The kinds of list a value's names need. */
export function kindsNeeded(value: unknown): Set<NamedKind> {
  return new Set(nameReferences(value).references.map((r) => r.kind));
}

/** Looks one name up in a list: the single exact match, or the problem. */
export function lookUp(
  kind: NamedKind,
  name: string,
  list: readonly NamedItem[],
  serviceLabel: string,
): { id: string } | { message: string } {
  const f = FIELDS[kind];
  return lookUpByName(name, list, { one: f.one, many: f.many, serviceLabel, idField: f.id });
}

/** Sets `key` in place of `oldKey` in an object, keeping the key order. */
function replaceKey(
  object: Record<string, unknown>,
  oldKey: string,
  key: string,
  value: unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(object)) {
    if (k === oldKey) {
      if (value !== undefined) out[key] = value;
    } else out[k] = v;
  }
  return out;
}

function cloneJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function setAt(root: Record<string, unknown>, path: Path, object: Record<string, unknown>): Record<string, unknown> {
  if (path.length === 0) return object;
  let parent: unknown = root;
  for (const segment of path.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[segment];
  (parent as Record<string | number, unknown>)[path[path.length - 1]!] = object;
  return root;
}

function getAt(root: unknown, path: Path): Record<string, unknown> {
  let node: unknown = root;
  for (const segment of path) node = (node as Record<string | number, unknown>)[segment];
  return node as Record<string, unknown>;
}

/**
 * Resolves the names of a file value against the target service's lists. Without lists (no connection to the
 * service) nothing is looked up: each name gets a warning and stays unresolved.
 */
export function resolveNames(
  value: unknown,
  lists: NameLists | undefined,
  options: { placeholder?: boolean } = {},
): NameResolution {
  const { references, issues: formIssues } = nameReferences(value);
  const issues: DocumentIssue[] = [...formIssues];
  if (references.length === 0 && formIssues.length === 0) {
    return { value, references, resolved: [], issues, complete: true };
  }
  let out = cloneJson(value) as Record<string, unknown>;
  const resolved: ResolvedReference[] = [];
  // Malformed name fields: removed (or a placeholder), so the rest of the file is still checked.
  for (const issue of formIssues) {
    const holderPath = issue.path.slice(0, -1);
    const nameKey = String(issue.path[issue.path.length - 1]);
    const idKey = nameKey === FIELDS.webhook.name ? FIELDS.webhook.id : FIELDS.savedSearch.id;
    const holder = getAt(out, holderPath);
    const keepId = idKey in holder;
    out = setAt(
      out,
      holderPath,
      keepId
        ? replaceKey(holder, nameKey, nameKey, undefined)
        : replaceKey(holder, nameKey, idKey, options.placeholder ? UNRESOLVED_ID : undefined),
    );
  }
  for (const ref of references) {
    const f = FIELDS[ref.kind];
    const list = lists ? (ref.kind === 'webhook' ? lists.webhooks : lists.savedSearches) : undefined;
    let id: string | undefined;
    if (!lists) {
      issues.push({
        path: ref.namePath,
        severity: 'warning',
        message: `${f.one} ${quoted(ref.name)} is looked up by name on the service when the file is applied (no connection to the service now)`,
      });
    } else if (!list) {
      issues.push({
        path: ref.namePath,
        severity: 'error',
        message: `cannot look up ${f.one} ${quoted(ref.name)} on service ${quoted(lists.serviceLabel)}: ${lists.error ?? `the ${f.many} could not be read`}`,
      });
    } else {
      const found = lookUp(ref.kind, ref.name, list, lists.serviceLabel);
      if ('id' in found) {
        id = found.id;
        resolved.push({ ...ref, id });
      } else issues.push({ path: ref.namePath, severity: 'error', message: found.message });
    }
    const holderPath = ref.namePath.slice(0, -1);
    out = setAt(
      out,
      holderPath,
      replaceKey(getAt(out, holderPath), f.name, f.id, id ?? (options.placeholder ? UNRESOLVED_ID : undefined)),
    );
  }
  return {
    value: out,
    references,
    resolved,
    issues,
    complete: resolved.length === references.length && formIssues.length === 0,
  };
}

/** Points issues found at an ID field the file fills by name at the name field instead. */
export function issuesAtNames<T extends { readonly path: readonly (string | number)[] }>(
  issues: readonly T[],
  references: readonly NameReference[],
): T[] {
  if (references.length === 0) return [...issues];
  return issues.map((issue) => {
    const ref = references.find(
      (r) => issue.path.length >= r.idPath.length && r.idPath.every((segment, index) => issue.path[index] === segment),
    );
    return ref ? { ...issue, path: [...ref.namePath, ...issue.path.slice(ref.idPath.length)] } : issue;
  });
}

/** A resolved name as the plan shows it: the name field, the name and the ID. */
export function planReference(ref: ResolvedReference): { field: string; name: string; id: string } {
  return { field: ref.namePath.join('.'), name: ref.name, id: ref.id };
}

/**
 * The live alert (as a file value) shown the way the file names things: where the file names a webhook or saved
 * search by name, the live ID is shown by its name on the service when exactly one item of the list has that name.
 * An ID whose name is missing or shared stays an ID (so the comparison shows the difference). For "Compare with
 * Service": equal references read as equal lines.
 */
export function presentLikeFile(
  liveValue: Record<string, unknown>,
  fileValue: unknown,
  lists: NameLists | undefined,
): Record<string, unknown> {
  const { references } = nameReferences(fileValue);
  if (references.length === 0 || !lists) return liveValue;
  let out = cloneJson(liveValue);
  for (const ref of references) {
    const f = FIELDS[ref.kind];
    const list = ref.kind === 'webhook' ? lists.webhooks : lists.savedSearches;
    const holderPath = ref.idPath.slice(0, -1);
    let holder: unknown = out;
    for (const segment of holderPath) {
      holder = isObject(holder) || Array.isArray(holder) ? (holder as never)[segment] : undefined;
    }
    if (!isObject(holder) || typeof holder[f.id] !== 'string' || !list) continue;
    const item = list.find((i) => i.id === holder[f.id]);
    if (!item?.name || list.filter((i) => i.name === item.name).length !== 1) continue;
    out = setAt(out, holderPath, replaceKey(holder, f.id, f.name, item.name));
  }
  return out;
}
