import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QUERY_ENDPOINT_ROLES, queryEndpointSchema, queryEndpointWriteSchema } from '../../../src/schema';
import { assertIssue, assertValid } from './helpers';

const KEY = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const OTHER_KEY = '9b2f6c1e-0d4a-4c7e-8e51-7a3f2d9c6b10';

describe('queryEndpointWriteSchema', () => {
  it('accepts the body of the specification', () => {
    const body = {
      roles: ['sql_console_read_only'],
      openApiKeys: [KEY],
      allowedOrigins: 'app.example.com,example.org',
    };
    assert.deepEqual(queryEndpointWriteSchema.parse(body), body);
  });

  for (const role of QUERY_ENDPOINT_ROLES) {
    it(`accepts role ${role}`, () => {
      assertValid(queryEndpointWriteSchema, { roles: [role], openApiKeys: [KEY] });
    });
  }

  it('rejects unknown and duplicate roles and an empty role list', () => {
    assertIssue(queryEndpointWriteSchema, { roles: ['admin'], openApiKeys: [KEY] }, 'roles.0', /must be one of/);
    assertIssue(
      queryEndpointWriteSchema,
      { roles: ['sql_console_admin', 'sql_console_admin'], openApiKeys: [KEY] },
      'roles.1',
      /duplicate/,
    );
    assertValid(queryEndpointWriteSchema, { roles: [], openApiKeys: [KEY] });
  });

  it('requires key UUIDs, not key IDs', () => {
    assertValid(queryEndpointWriteSchema, { roles: ['sql_console_admin'], openApiKeys: [KEY, OTHER_KEY] });
    assertIssue(
      queryEndpointWriteSchema,
      { roles: ['sql_console_admin'], openApiKeys: ['vJkOQhXwYzAbCdEf'] },
      'openApiKeys.0',
      /UUID/,
    );
    assertIssue(
      queryEndpointWriteSchema,
      { roles: ['sql_console_admin'], openApiKeys: [''] },
      'openApiKeys.0',
      /must not be empty/,
    );
    assertIssue(
      queryEndpointWriteSchema,
      { roles: ['sql_console_admin'], openApiKeys: [KEY, KEY.toUpperCase()] },
      'openApiKeys.1',
      /duplicate/,
    );
    // Revoking every key must be possible.
    assertValid(queryEndpointWriteSchema, { roles: ['sql_console_admin'], openApiKeys: [] });
  });

  it('requires no field, as the API document says', () => {
    assertValid(queryEndpointWriteSchema, {});
    assertValid(queryEndpointWriteSchema, { allowedOrigins: '*' });
    assertValid(queryEndpointWriteSchema, { roles: ['sql_console_admin'] });
  });

  it('allows an empty allowedOrigins (backend-only) and "*"', () => {
    assertValid(queryEndpointWriteSchema, { roles: ['sql_console_read_only'], openApiKeys: [KEY], allowedOrigins: '' });
    assertValid(queryEndpointWriteSchema, {
      roles: ['sql_console_read_only'],
      openApiKeys: [KEY],
      allowedOrigins: '*',
    });
    assertValid(queryEndpointWriteSchema, { roles: ['sql_console_read_only'], openApiKeys: [KEY] });
  });

  it('rejects malformed origin lists and unknown keys', () => {
    assertIssue(
      queryEndpointWriteSchema,
      { roles: ['sql_console_read_only'], openApiKeys: [KEY], allowedOrigins: 'a.com,,b.com' },
      'allowedOrigins',
      /entry 2 is empty/,
    );
    assertIssue(
      queryEndpointWriteSchema,
      { roles: ['sql_console_read_only'], openApiKeys: [KEY], allowedOrigins: 'a .com' },
      'allowedOrigins',
      /spaces/,
    );
    assertIssue(
      queryEndpointWriteSchema,
      { roles: ['sql_console_read_only'], openApiKeys: [KEY], id: 'x' },
      'id',
      /unknown field/,
    );
    assertIssue(queryEndpointWriteSchema, { roles: 'sql_console_read_only', openApiKeys: [KEY] }, 'roles');
  });
});

describe('queryEndpointSchema (response)', () => {
  it('parses the result of the specification and keeps unknown fields', () => {
    const result = { id: 'qe-1', roles: ['sql_console_read_only'], openApiKeys: [KEY], allowedOrigins: '', extra: 1 };
    assert.deepEqual(queryEndpointSchema.parse(result), result);
  });

  it('accepts roles unknown to this version', () => {
    const result = { id: 'qe-1', roles: ['sql_console_future'], openApiKeys: [], allowedOrigins: '*' };
    assert.deepEqual(queryEndpointSchema.parse(result), result);
  });
});
