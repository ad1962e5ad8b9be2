/**
 * Identifier and string building blocks shared by every schema in this folder.
 *
 * Request schemas reject empty strings with a message that tells the user what
 * to do instead (the service answers `""` with an opaque 400), and reject IDs
 * that could escape a URL path segment.
 */
import * as z from 'zod';
import { lazySchema } from './lazySchema';

/** Message for an empty string in a required field. */
export const EMPTY_MESSAGE = 'must not be empty';
/** Message for an empty string in an optional field. */
export const EMPTY_OR_OMIT_MESSAGE = 'must not be empty (omit it)';
/** Message for an empty string in an optional, nullable field. */
export const EMPTY_OR_NULL_MESSAGE = 'must not be empty (omit it or use null)';

/** Strict pattern for an ID placed in a URL path: no '/', '..', '%', spaces or other specials. */
export const RESOURCE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

// The schema patterns also match "" so an empty string yields only the "must not be empty"
// issue, without aborting: cross-field rules of the enclosing object are still reported.
const RESOURCE_ID_OR_EMPTY = /^(?:[A-Za-z0-9][A-Za-z0-9_-]{0,127})?$/;
const UUID_OR_EMPTY = /^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})?$/;
const RESOURCE_ID_MESSAGE =
  'must be an ID of at most 128 letters, digits, "_" or "-" that starts with a letter or digit';

/** A UUID string (8-4-4-4-12 hex digits, any version). */
export const uuidSchema = lazySchema(() =>
  z
    .string()
    .min(1, { error: EMPTY_MESSAGE })
    .regex(UUID_OR_EMPTY, { error: 'must be a UUID (8-4-4-4-12 hexadecimal digits)' }),
);

/** The ID of a dashboard, alert, tile, source, webhook or saved search. */
export const resourceIdSchema = lazySchema(() =>
  z.string().min(1, { error: EMPTY_MESSAGE }).regex(RESOURCE_ID_OR_EMPTY, { error: RESOURCE_ID_MESSAGE }),
);

function bounded(schema: z.ZodString, max: number | undefined): z.ZodString {
  return max === undefined ? schema : schema.max(max, { error: `must be at most ${max} characters` });
}

/** A required, non-empty string (optionally with a maximum length). */
export function nonEmpty(max?: number): z.ZodString {
  return bounded(z.string().min(1, { error: EMPTY_MESSAGE }), max);
}

/** A non-empty string for an optional (but not nullable) field; chain `.optional()`. */
export function nonEmptyOrOmit(max?: number): z.ZodString {
  return bounded(z.string().min(1, { error: EMPTY_OR_OMIT_MESSAGE }), max);
}

/** A non-empty string for a field that may also be null or left out. */
export function nonEmptyOrNull(max?: number) {
  return bounded(z.string().min(1, { error: EMPTY_OR_NULL_MESSAGE }), max)
    .nullable()
    .optional();
}

/** A resource ID for an optional, nullable field; empty strings get the "omit it or use null" hint. */
export function optionalResourceId() {
  return z
    .string()
    .min(1, { error: EMPTY_OR_NULL_MESSAGE })
    .regex(RESOURCE_ID_OR_EMPTY, { error: RESOURCE_ID_MESSAGE })
    .nullable()
    .optional();
}

/**
 * A string enum that also accepts values unknown to this version of the extension.
 * Used only in response schemas, so a new server value never makes a whole list unreadable.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.custom<T[number] | (string & {})>((value) => typeof value === 'string', {
    error: `expected a string (known values: ${values.join(', ')})`,
  });
}

/** Message for `null` in an optional field the service refuses as null. */
export const NULL_OMIT_MESSAGE = 'must not be null (omit it)';

/**
 * Error option for an optional field that the service refuses as `null`: "must not be null
 * (omit it)" for null, `message` for any other wrong type.
 */
export function omitNullOr(message: string): (issue: { input?: unknown }) => string {
  return (issue) => (issue.input === null ? NULL_OMIT_MESSAGE : message);
}

/**
 * Error option for a required field: "is required" when it is missing, `message` otherwise.
 * Pass it as `{ error: requiredOr('must be a number') }`.
 */
export function requiredOr(message: string): (issue: { input?: unknown }) => string {
  return (issue) => (issue.input === undefined ? 'is required' : message);
}

/** One validation problem, with a dotted path (`channels.0.webhookId`) an editor can point at. */
export interface SchemaIssue {
  path: string;
  message: string;
}

function joinPath(segments: readonly PropertyKey[]): string {
  return segments.map((segment) => String(segment)).join('.');
}

/**
 * Flattens a ZodError into `{path, message}` pairs. Unknown keys are reported once per key,
 * at the key itself, so an editor can underline the offending property.
 */
export function schemaIssues(error: z.ZodError): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        issues.push({ path: joinPath([...issue.path, key]), message: `unknown field "${key}" is not allowed` });
      }
      continue;
    }
    if (issue.code === 'invalid_key' && issue.issues[0]) {
      // A record key that does not match: say why, at the key.
      issues.push({ path: joinPath(issue.path), message: `key ${issue.issues[0].message}` });
      continue;
    }
    if (issue.code === 'invalid_type' && / received undefined$/.test(issue.message)) {
      issues.push({ path: joinPath(issue.path), message: `is required (expected ${issue.expected})` });
      continue;
    }
    issues.push({ path: joinPath(issue.path), message: issue.message });
  }
  return issues;
}
