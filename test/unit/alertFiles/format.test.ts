import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkAlertFile,
  comparableConfig,
  fileValueOf,
  sameConfiguration,
  unknownFileKeyIssues,
} from '../../../src/alertFiles/format';
import { buildJsonSchemas } from '../../../src/alertFiles/jsonSchema';
import { targetOf } from '../../../src/alertFiles/format';
import { SELF_HOSTED_ORGANIZATION_ID, SELF_HOSTED_SERVICE_ID } from '../../../src/api/oss';
import type { Alert } from '../../../src/schema';

const ORG = '6f1c8a2e-4b7d-4e3a-9c51-2d8f0b7a9e14';
const SERVICE = 'a3c7e9f1-2b4d-4c6e-8f0a-1b3d5e7f9a2c';

const file = {
  organizationId: ORG,
  serviceId: SERVICE,
  name: 'Error rate',
  source: 'tile',
  dashboardId: 'dash1',
  tileId: 'tile1',
  threshold: 5,
  thresholdType: 'above',
  interval: '5m',
  channel: { type: 'webhook', webhookId: 'hook1' },
};

const live: Alert = {
  id: 'alert1',
  name: 'Error rate',
  message: null,
  source: 'tile',
  dashboardId: 'dash1',
  tileId: 'tile1',
  threshold: 5,
  thresholdType: 'above',
  interval: '5m',
  channel: { type: 'webhook', webhookId: 'hook1' },
  channels: [{ type: 'webhook', webhookId: 'hook1' }],
  note: null,
  numConsecutiveWindows: null,
  state: 'OK',
  teamId: 't',
  executionErrors: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('alert files', () => {
  it('names a self-hosted deployment by its base URL, never by the pseudo IDs or both forms at once', () => {
    const { organizationId: _o, serviceId: _s, ...body } = file;
    const selfHosted = checkAlertFile({ ...body, baseUrl: 'https://hyperdx.example.com', id: 'alert1' });
    assert.ok(selfHosted.ok, JSON.stringify(selfHosted));
    assert.deepEqual(selfHosted.target, {
      organizationId: SELF_HOSTED_ORGANIZATION_ID,
      serviceId: SELF_HOSTED_SERVICE_ID,
      baseUrl: 'https://hyperdx.example.com',
      id: 'alert1',
    });
    assert.equal('baseUrl' in selfHosted.body, false, 'the base URL is never sent');
    assert.equal(targetOf({ ...body, baseUrl: 'https://hyperdx.example.com' }).baseUrl, 'https://hyperdx.example.com');

    const both = checkAlertFile({ ...file, baseUrl: 'https://hyperdx.example.com' });
    assert.equal(both.ok, false);
    if (!both.ok) assert.ok(both.issues.some((i) => i.path.join('.') === 'baseUrl'));
    const pseudo = checkAlertFile({ ...file, organizationId: SELF_HOSTED_ORGANIZATION_ID });
    assert.equal(pseudo.ok, false, 'the pseudo organization cannot stand for a deployment');

    const exported = fileValueOf(live, SELF_HOSTED_ORGANIZATION_ID, SELF_HOSTED_SERVICE_ID, 'http://127.0.0.1:8000');
    assert.equal(exported.baseUrl, 'http://127.0.0.1:8000');
    assert.equal('organizationId' in exported || 'serviceId' in exported, false);
  });

  it('accepts a file with its target and returns the body without file-only fields', () => {
    const result = checkAlertFile({ ...file, $schema: './alert-file.schema.json', id: 'alert1' });
    assert.ok(result.ok);
    assert.deepEqual(result.target, { organizationId: ORG, serviceId: SERVICE, id: 'alert1' });
    assert.equal('organizationId' in result.body, false);
    assert.equal('id' in result.body, false);
    assert.equal('$schema' in result.body, false);
  });

  it('reports missing targets and cross-field rules at their paths; unknown keys never block and travel unchanged', () => {
    const result = checkAlertFile({ ...file, serviceId: undefined, colour: 'red' });
    assert.equal(result.ok, false);
    if (result.ok) return;
    const paths = result.issues.map((i) => i.path.join('.'));
    assert.ok(paths.includes('serviceId'), paths.join());
    assert.ok(!paths.includes('colour'), 'an unknown key is not a blocking problem');
    const fromService = {
      ...file,
      colour: 'red',
      channel: { type: 'webhook', webhookId: 'hook1', routing: { team: 'a' } },
    };
    const passed = checkAlertFile(fromService);
    assert.ok(passed.ok, JSON.stringify(passed));
    assert.equal((passed.body as Record<string, unknown>).colour, 'red');
    assert.deepEqual((passed.body as { channel: unknown }).channel, {
      type: 'webhook',
      webhookId: 'hook1',
      routing: { team: 'a' },
    });
    // Typed (not in the live alert): a warning at the key. Sent by the service: nothing.
    const typed = unknownFileKeyIssues(fromService, {
      ...file,
      channel: { type: 'webhook', webhookId: 'hook1', routing: { team: 'a' } },
    });
    assert.deepEqual(
      typed.map((i) => [i.path.join('.'), i.severity, i.atKey]),
      [['colour', 'warning', true]],
    );
    assert.deepEqual(unknownFileKeyIssues(fromService, fromService), []);
    // Cross-field rules of the write body apply too.
    const range = checkAlertFile({ ...file, thresholdType: 'between' });
    assert.ok(!range.ok && range.issues.some((i) => i.path.join('.') === 'thresholdMax'));
  });

  it('compares only what the file says: fields the service adds or keeps are no change', () => {
    // A newer service returns `channels` beside `channel`, with fields of its own, and defaults the file leaves out.
    const newer = {
      ...live,
      channels: [{ type: 'webhook', webhookId: 'hook1', severity: 'critical' }],
      numConsecutiveWindows: 1,
      scheduleOffsetMinutes: 0,
      routingKey: 'x',
    } as unknown as Alert;
    assert.ok(sameConfiguration(file, newer));
    assert.equal(sameConfiguration({ ...file, channel: { type: 'webhook', webhookId: 'hook2' } }, newer), false);
    assert.equal(sameConfiguration({ ...file, numConsecutiveWindows: 3 }, newer), false);
    // A key the service does not have is not compared (it would be sent again forever); one it has is.
    assert.ok(sameConfiguration({ ...file, colour: 'red' }, newer));
    assert.equal(sameConfiguration({ ...file, routingKey: 'y' }, newer), false);
    // null in the file means "no value".
    assert.equal(sameConfiguration({ ...file, note: null }, { ...live, note: 'Runbook' }), false);
    assert.ok(sameConfiguration({ ...file, note: null }, live));
  });

  it('compares configurations regardless of nulls, the channel/channels mirror and read-only fields', () => {
    assert.ok(sameConfiguration(file, live));
    assert.equal(sameConfiguration({ ...file, threshold: 6 }, live), false);
    assert.equal(sameConfiguration({ ...file, note: 'Runbook' }, live), false);
    // An update without scheduleStartAt keeps the stored one.
    assert.ok(sameConfiguration(file, { ...live, scheduleStartAt: '2026-03-01T00:00:00Z' }));
    assert.equal(sameConfiguration({ ...file, scheduleStartAt: '2026-03-01T00:00:00Z' }, live), false);
    assert.ok(
      sameConfiguration(
        { ...file, scheduleStartAt: '2026-03-01T00:00:00Z' },
        { ...live, scheduleStartAt: '2026-03-01T00:00:00.000Z' },
      ),
    );
    assert.deepEqual(comparableConfig({ channel: { type: 'webhook', webhookId: 'a', severity: null } }), {
      channels: [{ type: 'webhook', webhookId: 'a' }],
    });
  });

  it('renders a live alert as a valid file that compares equal to it', () => {
    const value = fileValueOf(live, ORG, SERVICE);
    assert.deepEqual(Object.keys(value).slice(0, 3), ['organizationId', 'serviceId', 'id']);
    assert.equal('channels' in value, false);
    assert.equal('note' in value, false);
    const checked = checkAlertFile(value);
    assert.ok(checked.ok, JSON.stringify(checked));
    assert.ok(sameConfiguration(value, live));
  });

  it('emits a JSON Schema with the target fields required that does not flag fields a newer service returns', () => {
    const schema = buildJsonSchemas()['alert-file'] as {
      required?: string[];
      anyOf: { required: string[] }[];
      additionalProperties: boolean;
      properties: Record<string, unknown>;
    };
    // Either a Cloud service (organizationId and serviceId) or a self-hosted deployment (baseUrl).
    assert.deepEqual(
      schema.anyOf.map((a) => a.required),
      [['organizationId', 'serviceId'], ['baseUrl']],
    );
    assert.ok(!(schema.required ?? []).includes('organizationId'));
    assert.ok('id' in schema.properties && '$schema' in schema.properties);
    assert.notEqual(schema.additionalProperties, false);
  });
});
