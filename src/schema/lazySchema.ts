import * as z from 'zod';

/**
 * A schema (or a shape of schemas) built the first time anything reads it, so that loading the schema modules costs
 * almost nothing and opening a folder builds only the schemas of what it lists; write, query and file schemas wait
 * until a body is checked.
 *
 * Every module-level schema (of src/schema and of the modules elsewhere that hold one) is declared as
 * `const x = lazySchema(() => z.…)`. The value stands in for the built schema everywhere: properties, methods,
 * `instanceof`, spreading a shape and the metadata registry (`.describe()` texts, read by the JSON Schema generator)
 * all reach the built one. Building composes other stand-ins
 * without building them (`z.array(other)`); `.extend()`/`.omit()` of a stand-in builds it first.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const stand = {} as T;
  const real = (): T => {
    if (built === undefined) {
      built = build();
      if ('_zod' in built) {
        const meta = z.globalRegistry.get(built as unknown as z.ZodType);
        if (meta) z.globalRegistry.add(proxy as unknown as z.ZodType, meta);
      }
    }
    return built;
  };
  const proxy: T = new Proxy(stand, {
    get: (_t, key) => Reflect.get(real(), key),
    set: (_t, key, value) => Reflect.set(real(), key, value),
    has: (_t, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_t, key) => {
      const d = Reflect.getOwnPropertyDescriptor(real(), key);
      // The stand-in itself has no own properties, so none may be reported as fixed.
      return d && { ...d, configurable: true };
    },
    defineProperty: (_t, key, d) => Reflect.defineProperty(real(), key, d),
    deleteProperty: (_t, key) => Reflect.deleteProperty(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
  standIns.set(proxy, real);
  return proxy;
}

const standIns = new WeakMap<object, () => object>();

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === Array.prototype || proto === null;
}

/**
 * Builds every stand-in reachable from `schema` and puts the built schema in its place, so that the graph holds only
 * built schemas. For tools that key on schema identity, such as zod's JSON Schema generator (build time and tests);
 * parsing never needs it.
 */
export function resolveLazySchemas<T extends object>(schema: T): T {
  const visited = new WeakSet<object>();
  const visit = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    const built = standIns.get(value)?.() ?? value;
    if (visited.has(built)) return built;
    visited.add(built);
    const zod = (built as { _zod?: { def?: object } })._zod;
    const container = zod?.def ?? (isPlain(built) ? built : undefined);
    if (container) {
      for (const key of Object.keys(container)) {
        const before = (container as Record<string, unknown>)[key];
        const after = visit(before);
        if (after !== before) (container as Record<string, unknown>)[key] = after;
      }
    }
    return built;
  };
  return visit(schema) as T;
}
