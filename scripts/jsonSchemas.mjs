// JSON Schemas of the write bodies (editor checks and hover docs), generated at build time from the zod schemas into
// dist/schemas/<name>.schema.json, so the extension never loads a schema generator. Used by esbuild.mjs.
import * as esbuild from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);

/** Each generator module exports `buildJsonSchemas(): Record<name, schema>`. */
const SCHEMA_GENERATORS = [
  'src/schema/jsonSchemas.ts',
  'src/alertFiles/jsonSchema.ts',
  'src/serviceFolders/jsonSchema.ts',
];
/** Schemas that only add to another one ship as `allOf` a `$ref` to it plus the added keywords. */
const SCHEMA_EXTENDS = { 'dashboard-update': 'dashboard' };
const OWN_KEYWORDS = new Set(['$schema', 'title', 'description']);
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What `derived` adds to `base`: new keys and `required` entries. Anything else (a change or a removal) throws. */
function addedTo(base, derived, at) {
  const out = {};
  for (const [key, value] of Object.entries(derived)) {
    const was = base[key];
    if (JSON.stringify(was) === JSON.stringify(value)) continue;
    if (was === undefined) out[key] = value;
    else if (key === 'required' && Array.isArray(was) && Array.isArray(value) && was.every((k) => value.includes(k)))
      out[key] = value.filter((k) => !was.includes(k));
    else if (isObject(was) && isObject(value)) out[key] = addedTo(was, value, `${at}/${key}`);
    else throw new Error(`${at}/${key} differs from the schema it extends; it cannot ship as an extension`);
  }
  for (const key of Object.keys(base))
    if (!(key in derived)) throw new Error(`${at}/${key} is missing from the schema that extends it`);
  return out;
}

function asExtension(derived, baseName, schemas) {
  const strip = (s) => Object.fromEntries(Object.entries(s).filter(([k]) => !OWN_KEYWORDS.has(k)));
  const own = Object.fromEntries(Object.entries(derived).filter(([k]) => OWN_KEYWORDS.has(k)));
  return {
    ...own,
    allOf: [{ $ref: `./${baseName}.schema.json` }],
    ...addedTo(strip(schemas[baseName]), strip(derived), ''),
  };
}

/**
 * A subschema of at least this many characters that also appears, deep-equal, in a smaller shipped schema ships as a
 * relative `$ref` to it (`dashboard.schema.json#/properties/…`), which the JSON language service resolves like the
 * `allOf` above. Refs only point at smaller schemas, so they never loop.
 */
const SHARED_MIN_CHARS = 60;
const MAP_KEYWORDS = new Set(['properties', 'patternProperties', 'definitions']);
const LIST_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'items']);
const SCHEMA_KEYWORDS = new Set([
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
]);

/** Whether the value at `path` of a schema is itself a schema (not a keyword's map, list or value). */
function isSubschemaPath(path) {
  if (path.length === 0) return true;
  const [parent, last] = path.slice(-2).length === 2 ? path.slice(-2) : [undefined, path[0]];
  if (MAP_KEYWORDS.has(parent) || (LIST_KEYWORDS.has(parent) && typeof last === 'number')) return path.length >= 2;
  return SCHEMA_KEYWORDS.has(last);
}

/** The subschemas of `node` worth sharing, by their JSON text (the first place of each). */
function subschemas(node, path, out) {
  if (!isObject(node) && !Array.isArray(node)) return out;
  const text = JSON.stringify(node);
  const plain = path.every((k) => /^[\w$-]+$/.test(String(k)));
  if (isObject(node) && text.length >= SHARED_MIN_CHARS && plain && isSubschemaPath(path) && !out.has(text))
    out.set(text, path);
  for (const [key, value] of Object.entries(node))
    subschemas(value, [...path, Array.isArray(node) ? Number(key) : key], out);
  return out;
}

function shareSubschemas(node, path, index) {
  if (!isObject(node) && !Array.isArray(node)) return node;
  const found = isObject(node) && path.length > 0 && isSubschemaPath(path) && index.get(JSON.stringify(node));
  if (found) return { $ref: `${found.name}.schema.json#/${found.path.join('/')}` };
  if (Array.isArray(node)) return node.map((value, i) => shareSubschemas(value, [...path, i], index));
  return Object.fromEntries(Object.entries(node).map(([k, value]) => [k, shareSubschemas(value, [...path, k], index)]));
}

/** `schema` with the `$ref`s added by shareAcrossFiles replaced by what they point at. */
function resolveShared(schema, schemas) {
  if (!isObject(schema) && !Array.isArray(schema)) return schema;
  const ref = /^([\w-]+)\.schema\.json#\/(.*)$/.exec(schema.$ref ?? '');
  if (ref)
    return resolveShared(
      ref[2].split('/').reduce((node, key) => node[key], schemas[ref[1]]),
      schemas,
    );
  if (Array.isArray(schema)) return schema.map((value) => resolveShared(value, schemas));
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, resolveShared(value, schemas)]));
}

/**
 * Smallest schema first, replaces each schema's subschemas found in the smaller ones by `$ref`s to them. Fails when a
 * schema, its refs resolved, differs from what it was.
 */
function shareAcrossFiles(schemas) {
  const before = JSON.stringify(schemas);
  const index = new Map();
  const size = (name) => JSON.stringify(schemas[name]).length;
  for (const name of Object.keys(schemas).sort((a, b) => size(a) - size(b))) {
    schemas[name] = shareSubschemas(schemas[name], [], index);
    for (const [text, path] of subschemas(schemas[name], [], new Map()))
      if (!index.has(text)) index.set(text, { name, path });
  }
  const resolved = Object.fromEntries(
    Object.keys(schemas).map((name) => [name, resolveShared(schemas[name], schemas)]),
  );
  if (JSON.stringify(resolved) !== before)
    throw new Error('a schema with its shared parts resolved differs from itself');
}

export async function writeJsonSchemas({ production }) {
  const dir = mkdtempSync(join(tmpdir(), 'obs-schemas-'));
  try {
    const schemas = {};
    for (const [index, entry] of SCHEMA_GENERATORS.entries()) {
      const outfile = join(dir, `jsonSchemas${index}.cjs`);
      const options = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', logLevel: 'warning' };
      await esbuild.build({ ...options, entryPoints: [entry], outfile });
      Object.assign(schemas, require(outfile).buildJsonSchemas());
    }
    for (const [name, base] of Object.entries(SCHEMA_EXTENDS))
      schemas[name] = asExtension(schemas[name], base, schemas);
    shareAcrossFiles(schemas);
    mkdirSync('dist/schemas', { recursive: true });
    for (const [name, schema] of Object.entries(schemas)) {
      const text = production ? JSON.stringify(schema) : JSON.stringify(schema, null, 2);
      writeFileSync(join('dist/schemas', `${name}.schema.json`), `${text}\n`);
    }
    console.log(`dist/schemas: ${Object.keys(schemas).length} JSON schemas`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
