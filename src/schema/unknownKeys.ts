import type { z } from 'zod';

/**
 * Keys this version knows, read from the zod write schemas, and the keys of a document it does not know.
 *
 * A newer service returns fields this version has never heard of, at any depth (dashboard, tile, tile config, filter,
 * container, alert, channel). They must travel back unchanged and never block Apply, while a key the user typed that
 * no schema names is most likely a typo worth a warning. This module is the one place that answers "which keys are
 * known here"; it reads the schemas' shapes, so it follows them as they change. Pure: no vscode import.
 */

export type KeyPath = readonly (string | number)[];

interface Def {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly catchall?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly element?: z.ZodType;
  readonly left?: z.ZodType;
  readonly right?: z.ZodType;
  readonly getter?: () => z.ZodType;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

const WRAPPERS = new Set([
  'optional',
  'nullable',
  'default',
  'prefault',
  'catch',
  'readonly',
  'nonoptional',
  'success',
]);

/** The object, array and open (record, any, unknown) schemas a schema can stand for, with wrappers and unions undone. */
function expand(schema: z.ZodType | undefined, out: z.ZodType[] = [], depth = 0): z.ZodType[] {
  if (!schema || depth > 50) return out;
  const def = defOf(schema);
  if (WRAPPERS.has(def.type) && def.innerType) return expand(def.innerType, out, depth + 1);
  switch (def.type) {
    case 'pipe':
      return expand(def.in, out, depth + 1);
    case 'lazy':
      return expand(def.getter?.(), out, depth + 1);
    case 'union':
      for (const o of def.options ?? []) expand(o, out, depth + 1);
      return out;
    case 'intersection':
      expand(def.left, out, depth + 1);
      return expand(def.right, out, depth + 1);
    default:
      out.push(schema);
      return out;
  }
}

function isOpen(schema: z.ZodType): boolean {
  const def = defOf(schema);
  if (def.type === 'record' || def.type === 'any' || def.type === 'unknown') return true;
  // An object that only says "any object" (no named keys, any extra key kept).
  return (
    def.type === 'object' &&
    Object.keys(def.shape ?? {}).length === 0 &&
    def.catchall !== undefined &&
    defOf(def.catchall).type !== 'never'
  );
}

/** Keys the schemas at one place name; undefined when the place takes any key. */
function keysOf(schemas: readonly z.ZodType[]): Set<string> | undefined {
  const keys = new Set<string>();
  let objects = 0;
  for (const s of schemas) {
    if (isOpen(s)) return undefined;
    const def = defOf(s);
    if (def.type !== 'object') continue;
    objects++;
    for (const key of Object.keys(def.shape ?? {})) keys.add(key);
  }
  return objects > 0 ? keys : undefined;
}

function childSchemas(schemas: readonly z.ZodType[], step: string | number): z.ZodType[] {
  const out: z.ZodType[] = [];
  for (const s of schemas) {
    const def = defOf(s);
    if (typeof step === 'number' && def.type === 'array') expand(def.element, out);
    if (typeof step === 'string' && def.type === 'object') {
      const child = def.shape?.[step];
      if (child) expand(child, out);
    }
    if (def.type === 'tuple' && typeof step === 'number') {
      const items = (def as unknown as { items?: z.ZodType[] }).items;
      expand(items?.[step], out);
    }
  }
  return out;
}

/** Whether an object schema can describe `value`: its literal fields (a discriminator) agree with it. */
function matches(schema: z.ZodType, value: unknown): boolean {
  const def = defOf(schema);
  if (def.type !== 'object' || !isObject(value)) return true;
  for (const [key, field] of Object.entries(def.shape ?? {})) {
    const present = value[key] !== undefined;
    const options = expand(field);
    const literals = options.filter((o) => defOf(o).type === 'literal');
    if (literals.length > 0 && literals.length === options.length) {
      const allowed = literals.flatMap((o) => (defOf(o) as { values?: unknown[] }).values ?? []);
      if (present && !allowed.includes(value[key])) return false;
      if (!present && !(field as unknown as { _zod: { optin?: string } })._zod.optin) return false;
    } else if (present && options.length > 0 && options.every((o) => defOf(o).type === 'undefined')) {
      return false;
    }
  }
  return true;
}

/** The schemas of a place that can describe its value (all of them when none can, or without a value). */
function narrow(schemas: readonly z.ZodType[], value: unknown): z.ZodType[] {
  if (value === undefined) return [...schemas];
  const fitting = schemas.filter((s) => matches(s, value));
  return fitting.length > 0 ? fitting : [...schemas];
}

/**
 * The keys the schema names for the object at `path` (array positions as numbers); undefined when any key goes. With
 * `document` (the whole value being edited), the variants of a union are narrowed at each step to those whose literal
 * fields agree with the value there (a tile config by its displayType and configType); without it, every variant counts.
 */
export function knownKeysAt(schema: z.ZodType, path: KeyPath, document?: unknown): ReadonlySet<string> | undefined {
  let value = document;
  let schemas = narrow(expand(schema), value);
  for (const step of path) {
    value = at(value, [step]);
    schemas = narrow(childSchemas(schemas, step), value);
  }
  return keysOf(schemas);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Paths of every key of `value` the schema does not name (the path ends with the key). */
export function unknownKeyPaths(schema: z.ZodType, value: unknown): KeyPath[] {
  const out: KeyPath[] = [];
  const walk = (v: unknown, schemas: readonly z.ZodType[], path: (string | number)[]) => {
    if (schemas.length === 0) return;
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, childSchemas(schemas, i), [...path, i]));
      return;
    }
    if (!isObject(v)) return;
    const known = keysOf(schemas);
    if (!known) return;
    for (const [key, child] of Object.entries(v)) {
      if (!known.has(key)) out.push([...path, key]);
      else walk(child, childSchemas(schemas, key), [...path, key]);
    }
  };
  walk(value, expand(schema), []);
  return out;
}

/** A copy of `value` without the keys at `paths`. */
export function withoutKeys(value: unknown, paths: readonly KeyPath[]): unknown {
  if (paths.length === 0) return value;
  const copy = structuredClone(value);
  for (const path of paths) {
    const parent = at(copy, path.slice(0, -1));
    const key = path[path.length - 1];
    if (isObject(parent) && typeof key === 'string') delete parent[key];
  }
  return copy;
}

/** `target` with the values of `source` at `paths` put back (where the parent still exists). Changes `target`. */
export function restoreKeys<T>(target: T, source: unknown, paths: readonly KeyPath[]): T {
  for (const path of paths) {
    const parent = at(target, path.slice(0, -1));
    const key = path[path.length - 1];
    const from = at(source, path.slice(0, -1));
    if (isObject(parent) && isObject(from) && typeof key === 'string' && key in from) {
      parent[key] = structuredClone(from[key]);
    }
  }
  return target;
}

/** The value at a path, or undefined. */
export function at(value: unknown, path: KeyPath): unknown {
  let v = value;
  for (const step of path) {
    if (typeof step === 'number') v = Array.isArray(v) ? v[step] : undefined;
    else v = isObject(v) ? v[step] : undefined;
    if (v === undefined) return undefined;
  }
  return v;
}

/**
 * Whether the key at `path` of a document is also present in `original` (the service's version it was opened from).
 * Array items are matched by their `id` when they have one (tiles, filters, containers can be reordered), else by
 * position.
 */
export function presentIn(original: unknown, document: unknown, path: KeyPath): boolean {
  let o = original;
  let d = document;
  for (let i = 0; i < path.length; i++) {
    const step = path[i] as string | number;
    if (typeof step === 'number') {
      if (!Array.isArray(o) || !Array.isArray(d)) return false;
      const item = d[step];
      const id = isObject(item) && typeof item.id === 'string' ? item.id : undefined;
      o = id !== undefined ? o.find((x) => isObject(x) && x.id === id) : o[step];
      d = item;
    } else {
      if (!isObject(o) || !isObject(d)) return false;
      if (i === path.length - 1) return step in o;
      o = o[step];
      d = d[step];
    }
    if (o === undefined) return false;
  }
  return true;
}
