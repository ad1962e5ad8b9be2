#!/usr/bin/env node
// Builds test/emulator/openapi-schemas.json, the structure-only copy of the published API contract that the emulator
// checks request bodies AND its own responses against. It reads only files inside the repository:
//
// - test/emulator/spec/clickstack-openapi.yml: the newest ClickStack spec (referrer openapi-1107336; a copy of the
//   ClickStack part of the ClickHouse Cloud OpenAPI document). Every ClickStack schema and 200 response comes from it.
// - test/emulator/spec/cloud-openapi-extract.json: the few ClickHouse Cloud operations the emulator also serves
//   (organizations, services, keys, service query endpoint) with the schemas they use, extracted from the full
//   ClickHouse Cloud OpenAPI document.
//
// Usage:
//   node scripts/trim-openapi.mjs                                   regenerate openapi-schemas.json
//   node scripts/trim-openapi.mjs --cloud-source <cloud-openapi.json>   first refresh the Cloud extract from a full
//                                                                   ClickHouse Cloud OpenAPI document, then regenerate
//
// Normalisations (each keeps the meaning of the published contract while making it usable by a JSON Schema
// validator):
// - descriptions, examples, titles and the `deprecated` flag are dropped;
// - a schema with `properties` but no `type` gets `type: "object"` (OpenAPI bodies are objects);
// - an `enum` on a nullable type also admits `null`;
// - numeric-looking string values in the `enum` of a number/integer type become numbers.
// Objects keep allowing extra properties unless the spec says otherwise (OpenAPI's default).
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const specDir = resolve(repoRoot, 'test/emulator/spec');
const clickstackFile = resolve(specDir, 'clickstack-openapi.yml');
const cloudExtractFile = resolve(specDir, 'cloud-openapi-extract.json');
const output = resolve(repoRoot, 'test/emulator/openapi-schemas.json');

const REF_PREFIX = '#/components/schemas/';
const SERVICE_PREFIX = '/v1/organizations/{organizationId}/services/{serviceId}';

/** Cloud (non-ClickStack) paths the emulator serves. */
const CLOUD_PATHS = [
  '/v1/organizations',
  '/v1/organizations/{organizationId}',
  '/v1/organizations/{organizationId}/services',
  '/v1/organizations/{organizationId}/services/{serviceId}',
  '/v1/organizations/{organizationId}/keys',
  '/v1/organizations/{organizationId}/services/{serviceId}/serviceQueryEndpoint',
];

/** Request bodies the emulator checks, keyed by the name the emulator uses. */
const REQUEST_ROOTS = [
  'ClickStackCreateDashboardRequest',
  'ClickStackUpdateDashboardRequest',
  'ClickStackCreateAlertRequest',
  'ClickStackUpdateAlertRequest',
  'ClickStackSource',
  'ClickStackWebhookInput',
  'ClickStackSavedSearchInput',
  'ClickStackAlertChannel',
  'InstanceServiceQueryApiEndpointsPostRequest',
  'ClickStackCreateRoleRequest',
  'ClickStackUpdateRoleRequest',
];

const DROPPED_KEYS = new Set(['description', 'example', 'examples', 'title', 'deprecated', 'externalDocs', 'xml']);

function refsIn(node, into) {
  JSON.stringify(node, (key, value) => {
    if (key === '$ref' && typeof value === 'string' && value.startsWith(REF_PREFIX))
      into.push(value.slice(REF_PREFIX.length));
    return value;
  });
  return into;
}

/** Writes the Cloud extract from a full ClickHouse Cloud OpenAPI document (only with --cloud-source). */
function refreshCloudExtract(source) {
  const spec = JSON.parse(readFileSync(source, 'utf8'));
  const paths = {};
  for (const p of CLOUD_PATHS) {
    const ops = spec.paths?.[p];
    if (!ops) throw new Error(`${p} is missing from ${source}`);
    paths[p] = {};
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      if (!ops[method]) continue;
      const op = ops[method];
      paths[p][method] = {
        operationId: op.operationId,
        ...(op.requestBody ? { requestBody: op.requestBody } : {}),
        responses: { 200: op.responses?.['200'] },
      };
    }
  }
  const schemas = {};
  const queue = refsIn(paths, []);
  while (queue.length > 0) {
    const name = queue.pop();
    if (schemas[name]) continue;
    const s = spec.components?.schemas?.[name];
    if (!s) throw new Error(`Schema ${name} is missing from ${source}`);
    schemas[name] = s;
    refsIn(s, queue);
  }
  const doc = {
    note: 'Extract of the ClickHouse Cloud OpenAPI document: the non-ClickStack operations the emulator serves. Refresh with node scripts/trim-openapi.mjs --cloud-source <clickhouse-cloud-openapi.json>.',
    info: { version: spec.info?.version, contact: spec.info?.contact },
    paths,
    components: {
      schemas: Object.fromEntries(
        Object.keys(schemas)
          .sort()
          .map((k) => [k, schemas[k]]),
      ),
    },
  };
  writeFileSync(cloudExtractFile, JSON.stringify(doc, null, 1) + '\n');
  console.log(`Wrote ${Object.keys(schemas).length} Cloud schemas to ${cloudExtractFile}`);
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
      out.enum = out.enum.map((v) =>
        typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v,
      );
    }
    if (types.includes('null') && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  return out;
}

/** `METHOD /relative/path` → the `status` response schema, for every operation of `spec` under the listed paths. */
function responsesOf(spec, accept, status = '200') {
  const out = {};
  for (const [p, ops] of Object.entries(spec.paths ?? {})) {
    if (!accept(p)) continue;
    for (const [method, op] of Object.entries(ops)) {
      const schema = op?.responses?.[status]?.content?.['application/json']?.schema;
      if (!schema) continue;
      const key = `${method.toUpperCase()} ${p.startsWith(SERVICE_PREFIX + '/clickstack') ? p.slice(SERVICE_PREFIX.length) : p}`;
      out[key] = clean(schema);
    }
  }
  return out;
}

const args = process.argv.slice(2);
const at = args.indexOf('--cloud-source');
if (at >= 0) {
  const src = args[at + 1];
  if (!src) {
    console.error('--cloud-source needs the path of a ClickHouse Cloud OpenAPI JSON document');
    process.exit(2);
  }
  refreshCloudExtract(resolve(process.cwd(), src));
}

const clickstack = yaml.load(readFileSync(clickstackFile, 'utf8'));
const cloud = JSON.parse(readFileSync(cloudExtractFile, 'utf8'));
const all = { ...cloud.components.schemas, ...clickstack.components.schemas };

const responses = {
  ...responsesOf(cloud, (p) => CLOUD_PATHS.includes(p)),
  ...responsesOf(clickstack, (p) => p.startsWith(SERVICE_PREFIX + '/clickstack/')),
};

// The error body each ClickStack operation declares for a client error (400); the emulator checks its 4xx bodies
// against it.
const errorResponses = responsesOf(clickstack, (p) => p.startsWith(SERVICE_PREFIX + '/clickstack/'), '400');

const picked = {};
const queue = [...REQUEST_ROOTS, ...refsIn(responses, [])];
while (queue.length > 0) {
  const name = queue.pop();
  if (picked[name]) continue;
  const schema = all[name];
  if (!schema) {
    console.error(`Schema ${name} is missing from the specs in ${specDir}`);
    process.exit(1);
  }
  picked[name] = clean(schema);
  refsIn(schema, queue);
}

const sorted = Object.fromEntries(
  Object.keys(picked)
    .sort()
    .map((k) => [k, picked[k]]),
);
const doc = {
  source: `ClickStack OpenAPI (${String(clickstack?.info?.contact?.url ?? clickstack?.info?.version ?? '')}) + ClickHouse Cloud OpenAPI ${String(cloud?.info?.version ?? '')}`,
  roots: REQUEST_ROOTS,
  responses: Object.fromEntries(
    Object.keys(responses)
      .sort()
      .map((k) => [k, responses[k]]),
  ),
  errorResponses: Object.fromEntries(
    Object.keys(errorResponses)
      .sort()
      .map((k) => [k, errorResponses[k]]),
  ),
  schemas: sorted,
};
mkdirSync(dirname(output), { recursive: true });
writeFileSync(output, JSON.stringify(doc, null, 1) + '\n');
console.log(`Wrote ${Object.keys(sorted).length} schemas and ${Object.keys(responses).length} responses to ${output}`);
