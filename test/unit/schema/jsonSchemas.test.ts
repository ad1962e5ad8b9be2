import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Ajv from 'ajv';
import { buildJsonSchemas } from '../../../src/schema/jsonSchemas';
import { dashboardBody, seedAlertBody } from './fixtures';

describe('buildJsonSchemas', () => {
  const schemas = buildJsonSchemas();
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });

  it('builds draft-07 schemas for the write bodies', () => {
    assert.deepEqual(Object.keys(schemas).sort(), [
      'alert',
      'dashboard',
      'dashboard-update',
      'query-endpoint',
      'role',
      'role-update',
      'saved-search',
      'source',
      'webhook',
    ]);
    for (const schema of Object.values(schemas)) {
      assert.equal((schema as { $schema?: string }).$schema, 'http://json-schema.org/draft-07/schema#');
    }
  });

  it('describes fields for hover docs', () => {
    const alert = schemas.alert as { properties: Record<string, { description?: string }> };
    for (const field of ['source', 'threshold', 'thresholdType', 'interval', 'channel', 'name']) {
      assert.ok(alert.properties[field]?.description, `no description on ${field}`);
    }
  });

  it('accepts the specification body and a realistic dashboard, and lets keys unknown to this version through', () => {
    const validateAlert = ajv.compile(schemas.alert as object);
    assert.equal(validateAlert(seedAlertBody()), true, JSON.stringify(validateAlert.errors));
    // A newer server field must not be flagged as an error by the JSON language service.
    assert.equal(validateAlert({ ...seedAlertBody(), bogus: 1 }), true);
    assert.equal(validateAlert({ ...seedAlertBody(), thresholdMax: null }), false);
    assert.equal(validateAlert({ ...seedAlertBody(), interval: '2h' }), false);

    const validateDashboard = ajv.compile(schemas.dashboard as object);
    assert.equal(validateDashboard(dashboardBody()), true, JSON.stringify(validateDashboard.errors));
    const badTile = dashboardBody();
    (badTile.tiles as Record<string, unknown>[])[0] = {
      name: 'x',
      x: 30,
      y: 0,
      w: 1,
      h: 1,
      config: { displayType: 'markdown' },
    };
    assert.equal(validateDashboard(badTile), false);
    const newer = dashboardBody();
    (newer.tiles as Record<string, unknown>[])[0].layoutHint = 'wide';
    assert.equal(validateDashboard({ ...newer, layoutVersion: 3 }), true, JSON.stringify(validateDashboard.errors));

    const validateEndpoint = ajv.compile(schemas['query-endpoint'] as object);
    assert.equal(
      validateEndpoint({
        roles: ['sql_console_admin'],
        openApiKeys: ['3fa85f64-5717-4562-b3fc-2c963f66afa6'],
        allowedOrigins: '',
      }),
      true,
    );
    assert.equal(validateEndpoint({ roles: ['owner'], openApiKeys: [] }), false);
  });
});
