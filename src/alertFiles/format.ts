/**
 * Reading, comparing and writing alert files. Pure functions (no vscode import): the editor, the plan and the unit
 * tests share them.
 */
import { editableValue } from '../jsonDocuments/documents';
import { presentIn, restoreKeys, unknownKeyPaths, withoutKeys } from '../schema/unknownKeys';
import type { DocumentIssue } from '../jsonDocuments/checks';
import { alertWriteSchema, schemaIssues, type Alert, type AlertWrite } from '../schema';
import { followServer, versionedUses, type ServerKind } from '../schema/serverRules';
import { alertFileSchema, FILE_ONLY_FIELDS } from './schema';
import { SELF_HOSTED_ORGANIZATION_ID, SELF_HOSTED_SERVICE_ID } from '../api/oss';
import { issuesAtNames, resolveNames, type NameLists, type ResolvedReference } from './names';

/** Where a file says its alert lives (each field only when it is a non-empty string). */
export interface AlertFileTarget {
  readonly organizationId?: string;
  readonly serviceId?: string;
  /**
   * A self-hosted deployment's base URL (then organizationId and serviceId are the deployment's pseudo IDs, and only a
   * self-hosted connection to exactly this address may apply the file).
   */
  readonly baseUrl?: string;
  readonly id?: string;
  readonly name?: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export function targetOf(value: unknown): AlertFileTarget {
  if (!isObject(value)) return {};
  const out: { organizationId?: string; serviceId?: string; baseUrl?: string; id?: string; name?: string } = {};
  const organizationId = text(value.organizationId);
  const serviceId = text(value.serviceId);
  const baseUrl = text(value.baseUrl);
  const id = text(value.id);
  const name = text(value.name);
  if (baseUrl) Object.assign(out, selfHostedTarget(baseUrl));
  else {
    if (organizationId) out.organizationId = organizationId;
    if (serviceId) out.serviceId = serviceId;
  }
  if (id) out.id = id;
  if (name) out.name = name;
  return out;
}

/** The target of a file that names a self-hosted deployment by its base URL. */
function selfHostedTarget(baseUrl: string): { organizationId: string; serviceId: string; baseUrl: string } {
  return { organizationId: SELF_HOSTED_ORGANIZATION_ID, serviceId: SELF_HOSTED_SERVICE_ID, baseUrl };
}

/**
 * The kind of server a file is sent to, from its target alone: a file that names a base URL goes to a self-hosted
 * deployment, any other to ClickHouse Cloud (its checks follow that server, schema/serverRules.ts).
 */
export function serverKindOf(value: unknown): ServerKind {
  return targetOf(value).baseUrl !== undefined ? 'selfHosted' : 'cloud';
}

/** The write body of a file value: everything except the file-only fields. */
export function bodyOf(value: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...value };
  for (const key of FILE_ONLY_FIELDS) delete body[key];
  return body;
}

function toIssuePath(path: string): (string | number)[] {
  return path === '' ? [] : path.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/**
 * Checks a file value against the file schema (write body rules plus the target fields). Keys this version does not
 * know never block: they are left out of the check and travel in the body unchanged.
 *
 * What only some server versions accept (an inline alert, `displayName`, `tags`: schema/serverRules.ts) follows the
 * server the file targets: on ClickHouse Cloud it is an error, on a self-hosted deployment a warning (in `warnings`)
 * and the body is sent as written: that server decides.
 *
 * Webhooks and saved searches named by name are looked up in `lists` (the target service's); the body carries the IDs
 * they stand for, never the names. Without lists (no connection) the rest of the file is checked and the result is
 * not ok: nothing may be sent before the names are resolved.
 */
export function checkAlertFile(
  value: unknown,
  lists?: NameLists,
):
  | {
      ok: true;
      target: Required<Pick<AlertFileTarget, 'organizationId' | 'serviceId'>> & AlertFileTarget;
      body: AlertWrite;
      /** Names resolved to IDs (empty when the file names everything by ID). */
      references: readonly ResolvedReference[];
      /** What the target server may refuse (a self-hosted deployment decides); never blocking. */
      warnings: DocumentIssue[];
    }
  | { ok: false; issues: DocumentIssue[] } {
  const names = resolveNames(value, lists, { placeholder: true });
  const resolved = names.value;
  const unknown = unknownKeyPaths(alertFileSchema, resolved);
  const result = alertFileSchema.safeParse(withoutKeys(resolved, unknown));
  const local: DocumentIssue[] = result.success
    ? []
    : schemaIssues(result.error).map((i) => ({
        path: toIssuePath(i.path),
        message: i.message,
        severity: 'error' as const,
        atKey: i.message.startsWith('unknown field'),
      }));
  const issues = issuesAtNames(
    followServer('alert', bodyOf(isObject(resolved) ? resolved : {}), local, serverKindOf(value)),
    names.references,
  );
  const errors = issues.filter((i) => i.severity === 'error');
  if (errors.length > 0 || !names.complete) return { ok: false, issues: [...names.issues, ...issues] };
  const warnings = issues.filter((i) => i.severity !== 'error');
  const file = resolved as Record<string, unknown>;
  const target = targetOf(file);
  // A body the local schema refused only for what this server may accept is sent as written.
  const body = result.success
    ? restoreKeys(alertWriteSchema.parse(bodyOf(result.data as Record<string, unknown>)), resolved, unknown)
    : (bodyOf(file) as AlertWrite);
  const where =
    target.baseUrl !== undefined
      ? selfHostedTarget(target.baseUrl)
      : { organizationId: target.organizationId!, serviceId: target.serviceId! };
  return {
    ok: true,
    target: { ...where, ...(target.id ? { id: target.id } : {}) },
    body,
    references: names.resolved,
    warnings,
  };
}

/**
 * Warnings for keys of a file this version does not know and the live alert (`live`, its write body) does not have
 * either: likely typos. Keys the service sent are never reported.
 */
export function unknownFileKeyIssues(value: unknown, live: unknown): DocumentIssue[] {
  // Fields only some server versions know are reported as such (checkAlertFile), never as typos.
  const versioned = versionedUses('alert', isObject(value) ? bodyOf(value) : value).flatMap((u) => u.covers);
  return unknownKeyPaths(alertFileSchema, value)
    .filter((path) => !versioned.some((c) => c.length > 0 && c.every((p, i) => path[i] === p)))
    .filter((path) => live === undefined || !presentIn(live, value, path))
    .map((path) => ({
      path,
      atKey: true,
      severity: 'warning' as const,
      message: `Unknown field "${String(path[path.length - 1])}": not a field this version knows (a typo?). It is sent as typed; the service may ignore or reject it.`,
    }));
}

/** The file value without the keys this version does not know. */
export function knownFilePart(value: unknown): unknown {
  return withoutKeys(value, unknownKeyPaths(alertFileSchema, value));
}

// ---- comparing with the service ----

let writeKeys: Set<string> | undefined;
/** The keys of the alert write body (read from its schema on first use). */
const WRITE_KEYS = {
  has: (key: string): boolean => (writeKeys ??= new Set(Object.keys(alertWriteSchema.shape))).has(key),
};

function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) out[k] = dropNulls(v);
    return out;
  }
  return value;
}

/**
 * The configuration a body (or an alert as returned) stands for, in a form where equal configurations are equal JSON:
 * only write fields, null = absent, one channel list, timestamps as instants. `keepScheduleStartAt` leaves the start
 * out when the file omits it (an update without it keeps the stored value).
 */
export function comparableConfig(
  body: Record<string, unknown>,
  options: { omitScheduleStartAt?: boolean } = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if (WRITE_KEYS.has(key)) out[key] = value;
  const channels = Array.isArray(out.channels)
    ? out.channels
    : out.channel !== undefined && out.channel !== null
      ? [out.channel]
      : undefined;
  delete out.channel;
  delete out.channels;
  if (channels) out.channels = channels;
  if (typeof out.scheduleStartAt === 'string') {
    const at = Date.parse(out.scheduleStartAt);
    if (Number.isFinite(at)) out.scheduleStartAt = new Date(at).toISOString();
  }
  if (options.omitScheduleStartAt) delete out.scheduleStartAt;
  return dropNulls(out) as Record<string, unknown>;
}

/**
 * Whether `live` holds what `file` says: every key of the file object is in the live one with the same value (nested
 * objects the same way, arrays item by item, null = absent). Keys only the live side has are not compared: they are
 * fields the service adds, or optional fields an update leaves as they are.
 */
function covers(file: unknown, live: unknown): boolean {
  if (file === null || file === undefined) return live === null || live === undefined;
  if (Array.isArray(file)) {
    return Array.isArray(live) && live.length === file.length && file.every((f, i) => covers(f, live[i]));
  }
  if (isObject(file)) return isObject(live) && Object.entries(file).every(([k, v]) => covers(v, live[k]));
  return file === live;
}

function instant(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const at = Date.parse(value);
  return Number.isFinite(at) ? new Date(at).toISOString() : value;
}

function channelList(value: Record<string, unknown>): unknown[] | undefined {
  if (Array.isArray(value.channels) && value.channels.length > 0) return value.channels;
  return value.channel !== undefined && value.channel !== null ? [value.channel] : undefined;
}

/**
 * True when sending `body` as an update would leave the live alert's configuration as it is. Only what the file says
 * is compared: the service keeps optional fields an update leaves out, and a field it adds (`channels` beside
 * `channel` on newer services, defaults, fields this version does not know) is not a change. A key this version does
 * not know counts only when the live alert has it too (the service ignores others, so sending again changes nothing).
 */
export function sameConfiguration(body: Record<string, unknown>, live: Alert): boolean {
  const liveValue = live as Record<string, unknown>;
  for (const [key, value] of Object.entries(body)) {
    if (key === 'channel' || key === 'channels') continue;
    if (!WRITE_KEYS.has(key) && !(key in liveValue)) continue;
    const theirs = liveValue[key];
    if (key === 'scheduleStartAt' ? !covers(instant(value), instant(theirs)) : !covers(value, theirs)) return false;
  }
  const mine = channelList(body);
  return mine === undefined || covers(mine, channelList(liveValue));
}

// ---- writing files ----

/**
 * The file value of a live alert: target fields first, then the write body in the editors' order, without nulls and
 * with one channel field (`channel` for one channel, `channels` for several).
 */
export function fileValueOf(
  alert: Alert,
  organizationId: string,
  serviceId: string,
  baseUrl?: string,
): Record<string, unknown> {
  const body = editableValue('alert', alert);
  const channels = Array.isArray(body.channels) ? body.channels : undefined;
  if (channels && channels.length > 1) delete body.channel;
  else {
    if (body.channel === undefined && channels?.[0] !== undefined) body.channel = channels[0];
    delete body.channels;
  }
  const out: Record<string, unknown> =
    baseUrl !== undefined ? { baseUrl, id: alert.id } : { organizationId, serviceId, id: alert.id };
  for (const [key, value] of Object.entries(body)) {
    if (value !== null && value !== undefined) out[key] = dropNulls(value);
  }
  return out;
}

export function fileTextOf(alert: Alert, organizationId: string, serviceId: string, baseUrl?: string): string {
  return `${JSON.stringify(fileValueOf(alert, organizationId, serviceId, baseUrl), null, 2)}\n`;
}
