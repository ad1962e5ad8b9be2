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
