/**
 * Checks against the published contract of the self-hosted HyperDX External API v2 (OpenAPI 3.0; structure-only copy
 * in oss-openapi-schemas.json, made from hyperdx-oss-openapi.json with descriptions and examples dropped):
 * - request bodies, with errors that read like the server's zod middleware: `Body validation failed: threshold: …`;
 * - the emulator's own 200 responses (checkOssResponse), so a lenient emulator cannot hide a client's blind spot.
 * Both follow the HyperDX version the emulator answers as: 'newest' adds what later HyperDX accepts (oss/newer.ts),
 * 'older' is the document as it is.
 *
 * OpenAPI 3.0 specifics: `nullable: true` admits null (Ajv understands the keyword beside `type`; an `enum` on such a
 * type also admits null); `discriminator` is only a hint, so `oneOf` decides.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import trimmed from './oss-openapi-schemas.json';
import type { HyperdxVersion, JsonObject } from '../types';
import { newerSchemas } from './newer';
import type { SchemaIssue } from '../schemas';

interface Operation {
  operationId?: string;
  requestBody?: JsonObject;
  response?: JsonObject;
}

const doc = trimmed as unknown as { paths: Record<string, Record<string, Operation>>; schemas: JsonObject };
const DOC_ID = 'https://emulator.local/hyperdx-oss-openapi.json';
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * `nullable` enums admit null (Ajv checks `enum` separately from `type`); `nullable` beside `$ref` or `allOf` admits
 * null too (the server sends null there).
 */
function normalise(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normalise);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) {
    out[k] =
      k === 'properties' && isObject(v)
        ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, normalise(s)]))
        : normalise(v);
  }
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null)) {
    out.enum = [...(out.enum as unknown[]), null];
  }
  if (out.properties && out.type === undefined && out.allOf === undefined && out.oneOf === undefined) {
    out.type = 'object';
  }
  // `nullable` beside a `$ref` or a combinator (no `type` for Ajv to widen): the value may be null or fit the rest.
  if (out.nullable === true && out.type === undefined) {
    const { nullable: _n, ...rest } = out;
    return { anyOf: [rest, { type: 'null' }] };
  }
  return out;
}

/** `METHOD /api/v2/...` of every operation, as plain JSON-pointer segments. */
const slot = (key: string): string => key.replace(/[^A-Za-z0-9_-]/g, '_');

const requests: JsonObject = {};
const responses: JsonObject = {};
for (const [path, ops] of Object.entries(doc.paths)) {
  for (const [method, op] of Object.entries(ops)) {
    const key = slot(`${method} ${path}`);
    if (op.requestBody) requests[key] = normalise(op.requestBody);
    if (op.response) responses[key] = normalise(op.response);
  }
}

/** The validators of one HyperDX version: 'older' is the OSS document as it is, 'newest' with oss/newer.ts. */
interface Dialect {
  validatorAt(pointer: string): ValidateFunction;
}

function makeDialect(schemas: JsonObject): Dialect {
  const ajv = new Ajv({ allErrors: false, strict: false, validateSchema: false, inlineRefs: false });
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (s: string) => ISO_DATE_TIME.test(s) && !Number.isNaN(Date.parse(s)),
  });
  ajv.addFormat('uri', { type: 'string', validate: (s: string) => /^[a-z][a-z0-9+.-]*:\S+$/i.test(s) });
  ajv.addSchema({ $id: DOC_ID, components: { schemas: normalise(schemas) }, requests, responses });
  const compiled = new Map<string, ValidateFunction>();
  return {
    validatorAt(pointer) {
      let fn = compiled.get(pointer);
      if (!fn) {
        fn = ajv.compile({ $ref: `${DOC_ID}#${pointer}` });
        compiled.set(pointer, fn);
      }
      return fn;
    },
  };
}

const dialects = new Map<HyperdxVersion, Dialect>();
function dialect(version: HyperdxVersion): Dialect {
  let d = dialects.get(version);
  if (!d) {
    d = makeDialect(version === 'older' ? doc.schemas : newerSchemas(doc.schemas));
    dialects.set(version, d);
  }
  return d;
}

/** Whether the spec documents a JSON body for the operation (`METHOD /api/v2/path/{id}`). */
export function hasOssRequestSchema(operation: string): boolean {
  return requests[slot(operation)] !== undefined;
}

/** Whether the spec documents a 200 JSON body for the operation. */
export function hasOssResponseSchema(operation: string): boolean {
  return responses[slot(operation)] !== undefined;
}

/** Zod-style path: `tiles.0.config` (empty for the body itself). */
export function dottedPath(pointer: string): string {
  return pointer
    .split('/')
    .filter((p) => p !== '')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function describe(e: ErrorObject): SchemaIssue {
  let message = e.message ?? 'is invalid';
  let path = e.instancePath;
  if (e.keyword === 'enum' && Array.isArray((e.params as { allowedValues?: unknown[] }).allowedValues)) {
    const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.filter((v) => v !== null);
    message = `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (e.keyword === 'required') {
    path = `${path}/${String((e.params as { missingProperty?: unknown }).missingProperty ?? '')}`;
    message = 'Required';
  }
  return { path: path === '' ? '/' : path, message };
}

/** The first problem of a request body against the operation's documented body, or null. */
export function checkOssRequest(
  operation: string,
  body: unknown,
  version: HyperdxVersion = 'newest',
): SchemaIssue | null {
  if (!hasOssRequestSchema(operation)) return null;
  const fn = dialect(version).validatorAt(`/requests/${slot(operation)}`);
  if (fn(body)) return null;
  const errors = fn.errors ?? [];
  const useful = errors.find((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf') ?? errors[0];
  return useful ? describe(useful) : { path: '/', message: 'is invalid' };
}

/** `Body validation failed: threshold: must be number` (the server's wording, zod's dotted path). */
export function formatOssIssue(issue: SchemaIssue, what = 'Body'): string {
  const path = dottedPath(issue.path);
  return `${what} validation failed: ${path === '' ? '' : `${path}: `}${issue.message}`;
}

/** Every problem (at most `max`) of a 200 response body against the spec, or [] when it fits. */
export function checkOssResponse(
  operation: string,
  body: unknown,
  max = 5,
  version: HyperdxVersion = 'newest',
): SchemaIssue[] {
  if (!hasOssResponseSchema(operation)) {
    return [{ path: '/', message: `no 200 response schema for ${operation} in the OSS spec` }];
  }
  const fn = dialect(version).validatorAt(`/responses/${slot(operation)}`);
  if (fn(body)) return [];
  const errors = fn.errors ?? [];
  const useful = errors.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf');
  return (useful.length > 0 ? useful : errors).slice(0, max).map(describe);
}

const warmed = new Map<HyperdxVersion, Promise<void>>();

/** Compiles every validator of a version once per process, yielding between them (see warmUpSchemas in ../schemas.ts). */
export function warmUpOssSchemas(version: HyperdxVersion = 'newest'): Promise<void> {
  let done = warmed.get(version);
  if (!done) {
    done = (async () => {
      const d = dialect(version);
      for (const key of Object.keys(requests)) {
        d.validatorAt(`/requests/${key}`);
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      for (const key of Object.keys(responses)) {
        d.validatorAt(`/responses/${key}`);
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    })();
    warmed.set(version, done);
  }
  return done;
}
