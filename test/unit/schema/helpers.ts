import assert from 'node:assert/strict';
import type { z } from 'zod';
import { schemaIssues, type SchemaIssue } from '../../../src/schema';

/** Parses and returns the flattened issues (empty when valid). */
export function issuesOf(schema: z.ZodType, value: unknown): SchemaIssue[] {
  const result = schema.safeParse(value);
  return result.success ? [] : schemaIssues(result.error);
}

export function assertValid(schema: z.ZodType, value: unknown): void {
  assert.deepEqual(issuesOf(schema, value), []);
}

/** Asserts that some issue sits at `path` and (optionally) that its message matches. */
export function assertIssue(schema: z.ZodType, value: unknown, path: string, message?: RegExp): void {
  const issues = issuesOf(schema, value);
  const found = issues.find((issue) => issue.path === path && (message === undefined || message.test(issue.message)));
  assert.ok(
    found,
    `expected an issue at "${path}"${message ? ` matching ${message}` : ''}, got ${JSON.stringify(issues)}`,
  );
}
