/**
 * The keys this version of the extension knows at a place of a write body.
 *
 * Write schemas keep keys they do not know (newer server fields survive get → edit → apply),
 * so they never report them. Editors that want to point at a key the user may have mistyped
 * ask here which keys are known at the object that holds it.
 */
import type * as z from 'zod';
import { alertWriteSchema } from './alert';
import { dashboardUpdateSchema, dashboardWriteSchema } from './dashboard';
import { queryEndpointWriteSchema } from './queryEndpoint';

/** The write bodies, by the name of their shipped JSON Schema (`<kind>.schema.json`). */
export const WRITE_BODY_SCHEMAS = {
  alert: alertWriteSchema,
  dashboard: dashboardWriteSchema,
  'dashboard-update': dashboardUpdateSchema,
  'query-endpoint': queryEndpointWriteSchema,
} as const satisfies Record<string, z.ZodType>;

export type WriteBodyKind = keyof typeof WRITE_BODY_SCHEMAS;

type PathSegment = string | number;

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  values?: unknown[];
  getter?: () => z.ZodType;
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional', 'catch']);

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** Strips optional/nullable/default/pipe/lazy wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let i = 0; i < 32; i++) {
    const def = defOf(current);
    if (WRAPPERS.has(def.type) && def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else if (def.type === 'lazy' && def.getter) current = def.getter();
    else break;
  }
  return current;
}

function isOptional(schema: z.ZodType): boolean {
  return (schema as unknown as { _zod: { optin?: string } })._zod.optin === 'optional';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether an object option of a union can describe `value` (its literal fields agree). */
function objectMatches(schema: z.ZodType, value: unknown): boolean {
  const def = defOf(schema);
  if (def.type !== 'object' || !def.shape) return false;
  if (!isRecord(value)) return true;
  for (const [key, field] of Object.entries(def.shape)) {
    const inner = defOf(unwrap(field));
    const present = value[key] !== undefined;
    if (inner.type === 'literal' && inner.values) {
      if (present && !inner.values.includes(value[key])) return false;
      if (!present && !isOptional(field)) return false;
    } else if (inner.type === 'undefined' && present) {
      return false;
    }
  }
  return true;
}

/** The object schemas that `schema` may stand for at `value` (several for unions). */
function objectsFor(schema: z.ZodType, value: unknown): z.ZodType[] {
  const inner = unwrap(schema);
  const def = defOf(inner);
  if (def.type === 'object') return [inner];
  if (def.type === 'intersection' && def.left && def.right) {
    return [...objectsFor(def.left, value), ...objectsFor(def.right, value)];
  }
  if (def.type === 'union' && def.options) {
    const all = def.options.flatMap((option) => objectsFor(option, value));
    const matching = all.filter((option) => objectMatches(option, value));
    return matching.length > 0 ? matching : all;
  }
  return [];
}

/** The schemas found one step down (`segment`) from `schema` at `value`. */
function childSchemas(schema: z.ZodType, value: unknown, segment: PathSegment): z.ZodType[] {
  const inner = unwrap(schema);
  const def = defOf(inner);
  if (def.type === 'array' && def.element) return typeof segment === 'number' || /^\d+$/.test(String(segment)) ? [def.element] : [];
  if (def.type === 'union' && def.options && !objectsFor(inner, value).length) {
    return def.options.flatMap((option) => childSchemas(option, value, segment));
  }
  return objectsFor(inner, value).flatMap((object) => {
    const field = defOf(object).shape?.[String(segment)];
    return field ? [field] : [];
  });
}

function childValue(value: unknown, segment: PathSegment): unknown {
  if (Array.isArray(value)) return value[Number(segment)];
  if (isRecord(value)) return value[String(segment)];
  return undefined;
}

/**
 * The keys known at `path` of a write body of `kind`, e.g. `knownKeysAt('dashboard-update',
 * ['tiles', 0, 'config'], document)`. With `document` (the whole body being edited), unions are
 * resolved by the value at each step (a tile config by its displayType and configType);
 * without it, the keys of every variant are returned. `undefined` when `path` does not lead
 * to an object of the schema (a free-form map, a scalar, or a place the schema does not know).
 */
export function knownKeysAt(kind: WriteBodyKind, path: readonly PathSegment[], document?: unknown): string[] | undefined {
  let schemas: z.ZodType[] = [WRITE_BODY_SCHEMAS[kind]];
  let value = document;
  for (const segment of path) {
    schemas = schemas.flatMap((schema) => childSchemas(schema, value, segment));
    value = childValue(value, segment);
    if (schemas.length === 0) return undefined;
  }
  const objects = schemas.flatMap((schema) => objectsFor(schema, value));
  if (objects.length === 0) return undefined;
  const keys = new Set<string>();
  for (const object of objects) for (const key of Object.keys(defOf(object).shape ?? {})) keys.add(key);
  return [...keys].sort();
}
