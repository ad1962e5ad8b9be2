#!/usr/bin/env node
// Extracts the request-body schemas the emulator validates against from the official ClickHouse Cloud OpenAPI
// document and writes a small, structure-only copy to test/emulator/openapi-schemas.json.
//
// Usage: node scripts/trim-openapi.mjs [path/to/clickhouse-cloud-openapi.json] [output.json]
// The default input is ../shared/reference/clickhouse-cloud-openapi.json relative to the repository root.
//
// Normalisations (each keeps the meaning of the published contract while making it usable by a JSON Schema
// validator):
// - descriptions, examples, titles and the `deprecated` flag are dropped;
// - a schema with `properties` but no `type` gets `type: "object"` (OpenAPI bodies are objects);
// - an `enum` on a nullable type also admits `null`;
// - numeric-looking string values in the `enum` of a number/integer type become numbers.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const input = resolve(repoRoot, process.argv[2] ?? '../shared/reference/clickhouse-cloud-openapi.json');
const output = resolve(repoRoot, process.argv[3] ?? 'test/emulator/openapi-schemas.json');

/** Request bodies the emulator checks, keyed by the name the emulator uses. */
const ROOTS = [
  'ClickStackCreateDashboardRequest',
  'ClickStackUpdateDashboardRequest',
  'ClickStackCreateAlertRequest',
  'ClickStackUpdateAlertRequest',
  'ClickStackSource',
  'ClickStackWebhookInput',
  'ClickStackSavedSearchInput',
  'InstanceServiceQueryApiEndpointsPostRequest',
];

const DROPPED_KEYS = new Set(['description', 'example', 'examples', 'title', 'deprecated', 'externalDocs', 'xml']);
const REF_PREFIX = '#/components/schemas/';

const spec = JSON.parse(readFileSync(input, 'utf8'));
const all = spec?.components?.schemas;
if (!all || typeof all !== 'object') {
  console.error(`No components.schemas in ${input}`);
  process.exit(1);
}

function typesOf(node) {
  if (Array.isArray(node.type)) return node.type;
  return typeof node.type === 'string' ? [node.type] : [];
}

function clean(node) {
  if (Array.isArray(node)) return node.map(clean);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED_KEYS.has(key) || key.startsWith('x-')) continue;
    // `properties` maps names to schemas: keep every name, even one called "description".
    if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clean(v)]));
      continue;
    }
    out[key] = clean(value);
  }
  if (out.properties && out.type === undefined) out.type = 'object';
  if (Array.isArray(out.enum)) {
    const types = typesOf(out);
    if (types.includes('number') || types.includes('integer')) {
      out.enum = out.enum.map((v) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v));
    }
    if (types.includes('null') && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  return out;
}

const picked = {};
const queue = [...ROOTS];
while (queue.length > 0) {
  const name = queue.pop();
  if (picked[name]) continue;
  const schema = all[name];
  if (!schema) {
    console.error(`Schema ${name} is missing from ${input}`);
    process.exit(1);
  }
  picked[name] = clean(schema);
  JSON.stringify(schema, (key, value) => {
    if (key === '$ref' && typeof value === 'string' && value.startsWith(REF_PREFIX)) queue.push(value.slice(REF_PREFIX.length));
    return value;
  });
}

const sorted = Object.fromEntries(Object.keys(picked).sort().map((k) => [k, picked[k]]));
const doc = {
  source: 'ClickHouse Cloud OpenAPI ' + String(spec?.info?.version ?? ''),
  roots: ROOTS,
  schemas: sorted,
};
mkdirSync(dirname(output), { recursive: true });
writeFileSync(output, JSON.stringify(doc, null, 1) + '\n');
console.log(`Wrote ${Object.keys(sorted).length} schemas to ${output}`);
