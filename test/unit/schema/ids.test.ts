import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { nonEmpty, nonEmptyOrNull, resourceIdSchema, schemaIssues, uuidSchema } from '../../../src/schema';

describe('ids and string helpers', () => {
  it('accepts UUIDs and rejects other strings', () => {
    assert.ok(uuidSchema.safeParse('3fa85f64-5717-4562-b3fc-2c963f66afa6').success);
    assert.ok(uuidSchema.safeParse('3FA85F64-5717-4562-B3FC-2C963F66AFA6').success);
    for (const bad of [
      '',
      '3fa85f64',
      '3fa85f64-5717-4562-b3fc-2c963f66afa6x',
      'zzzzzzzz-5717-4562-b3fc-2c963f66afa6',
    ]) {
      assert.equal(uuidSchema.safeParse(bad).success, false, bad);
    }
  });

  it('accepts path-safe resource IDs only', () => {
    for (const good of ['65f5e4a3b9e77c001a567890', 'abc_DEF-1', 'a', 'x'.repeat(128)]) {
      assert.ok(resourceIdSchema.safeParse(good).success, good);
    }
    for (const bad of ['', '/etc', 'a/b', '..', 'a..b', '%2e', 'a b', '-lead', '_lead', 'x'.repeat(129), 'é']) {
      assert.equal(resourceIdSchema.safeParse(bad).success, false, bad);
    }
  });

  it('reports one message for an empty string', () => {
    const result = resourceIdSchema.safeParse('');
    assert.equal(result.success, false);
    if (!result.success) assert.deepEqual(schemaIssues(result.error), [{ path: '', message: 'must not be empty' }]);
  });

  it('builds non-empty strings with limits and hints', () => {
    assert.equal(nonEmpty(3).safeParse('abcd').success, false);
    const schema = z.strictObject({ a: nonEmptyOrNull(5) });
    assert.ok(schema.safeParse({ a: null }).success);
    assert.ok(schema.safeParse({}).success);
    const result = schema.safeParse({ a: '', b: 1 });
    assert.equal(result.success, false);
    if (!result.success) {
      assert.deepEqual(schemaIssues(result.error), [
        { path: 'a', message: 'must not be empty (omit it or use null)' },
        { path: 'b', message: 'unknown field "b" is not allowed' },
      ]);
    }
  });

  it('says "is required" for a missing field', () => {
    const result = z.strictObject({ a: z.string() }).safeParse({});
    assert.equal(result.success, false);
    if (!result.success) {
      assert.deepEqual(schemaIssues(result.error), [{ path: 'a', message: 'is required (expected string)' }]);
    }
  });
});
