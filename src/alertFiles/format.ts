/**
 * Reading, comparing and writing alert files. Pure functions (no vscode import): the editor, the plan and the unit
 * tests share them.
 */
import { editableValue, sameJson } from '../editors/documents';
import type { DocumentIssue } from '../editors/checks';
import { alertWriteSchema, schemaIssues, type Alert, type AlertWrite } from '../schema';
import { alertFileSchema, FILE_ONLY_FIELDS } from './schema';

/** Where a file says its alert lives (each field only when it is a non-empty string). */
export interface AlertFileTarget {
  readonly organizationId?: string;
  readonly serviceId?: string;
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
  const out: { organizationId?: string; serviceId?: string; id?: string; name?: string } = {};
  const organizationId = text(value.organizationId);
  const serviceId = text(value.serviceId);
  const id = text(value.id);
  const name = text(value.name);
  if (organizationId) out.organizationId = organizationId;
  if (serviceId) out.serviceId = serviceId;
  if (id) out.id = id;
  if (name) out.name = name;
  return out;
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

/** Checks a file value against the file schema (write body rules plus the target fields). */
export function checkAlertFile(value: unknown): { ok: true; target: Required<Pick<AlertFileTarget, 'organizationId' | 'serviceId'>> & AlertFileTarget; body: AlertWrite }
  | { ok: false; issues: DocumentIssue[] } {
  const result = alertFileSchema.safeParse(value);
  if (!result.success) {
    return {
      ok: false,
      issues: schemaIssues(result.error).map((i) => ({
        path: toIssuePath(i.path), message: i.message, severity: 'error' as const, atKey: i.message.startsWith('unknown field'),
      })),
    };
  }
  const { organizationId, serviceId, id } = result.data;
  const body = alertWriteSchema.parse(bodyOf(result.data as Record<string, unknown>));
  return { ok: true, target: { organizationId, serviceId, ...(id ? { id } : {}) }, body };
}

// ---- comparing with the service ----

const WRITE_KEYS = new Set(Object.keys(alertWriteSchema.shape));

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
export function comparableConfig(body: Record<string, unknown>, options: { omitScheduleStartAt?: boolean } = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if (WRITE_KEYS.has(key)) out[key] = value;
  const channels = Array.isArray(out.channels) ? out.channels : out.channel !== undefined && out.channel !== null ? [out.channel] : undefined;
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

/** True when sending `body` as an update would leave the live alert's configuration as it is. */
export function sameConfiguration(body: Record<string, unknown>, live: Alert): boolean {
  const omit = !('scheduleStartAt' in body);
  return sameJson(comparableConfig(body, { omitScheduleStartAt: omit }), comparableConfig(live, { omitScheduleStartAt: omit }));
}

// ---- writing files ----

/**
 * The file value of a live alert: target fields first, then the write body in the editors' order, without nulls and
 * with one channel field (`channel` for one channel, `channels` for several).
 */
export function fileValueOf(alert: Alert, organizationId: string, serviceId: string): Record<string, unknown> {
  const body = editableValue('alert', alert);
  const channels = Array.isArray(body.channels) ? body.channels : undefined;
  if (channels && channels.length > 1) delete body.channel;
  else {
    if (body.channel === undefined && channels?.[0] !== undefined) body.channel = channels[0];
    delete body.channels;
  }
  const out: Record<string, unknown> = { organizationId, serviceId, id: alert.id };
  for (const [key, value] of Object.entries(body)) if (value !== null && value !== undefined) out[key] = dropNulls(value);
  return out;
}

export function fileTextOf(alert: Alert, organizationId: string, serviceId: string): string {
  return `${JSON.stringify(fileValueOf(alert, organizationId, serviceId), null, 2)}\n`;
}
