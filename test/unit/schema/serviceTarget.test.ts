import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { alertFileSchema } from '../../../src/alertFiles/schema';
import { parseTarget } from '../../../src/serviceFolders/schema';
import { SELF_HOSTED_ORGANIZATION_ID } from '../../../src/api/oss';

const ORG = '6f1c8a2e-4b7d-4e3a-9c51-2d8f0b7a9e14';
const SERVICE = 'a3c7e9f1-2b4d-4c6e-8f0a-1b3d5e7f9a2c';
const ALERT = {
  source: 'saved_search',
  savedSearchId: '65f0a1b2c3d4e5f60718293a',
  threshold: 1,
  thresholdType: 'above',
  interval: '5m',
  channel: { type: 'webhook', webhookId: '65f0a1b2c3d4e5f60718293b' },
};

/** The messages of one check, at the paths they name. */
function alertIssues(target: Record<string, unknown>): string[] {
  const result = alertFileSchema.safeParse({ ...ALERT, ...target });
  return result.success
    ? []
    : result.error.issues
        .filter((i) => ['organizationId', 'serviceId', 'baseUrl'].includes(String(i.path[0])))
        .map((i) => `${i.path.join('.')}: ${i.message}`);
}

function targetIssue(target: Record<string, unknown>): string | undefined {
  const parsed = parseTarget(target);
  return parsed.ok ? undefined : parsed.message;
}

describe('The target check shared by alert files and service folders', () => {
  const cases: [string, Record<string, unknown>, string | undefined][] = [
    ['a Cloud service', { organizationId: ORG, serviceId: SERVICE }, undefined],
    ['a self-hosted deployment', { baseUrl: 'https://hyperdx.example.com' }, undefined],
    [
      'both kinds at once',
      { baseUrl: 'https://hyperdx.example.com', organizationId: ORG },
      'baseUrl: name either a self-hosted deployment (baseUrl) or a Cloud service (organizationId, serviceId)',
    ],
    ['a base URL that is not http(s)', { baseUrl: 'ftp://hyperdx.example.com' }, 'baseUrl: must be an http(s) URL'],
    [
      'a service without its organization',
      { serviceId: SERVICE },
      'organizationId: organizationId is required (or baseUrl for a self-hosted deployment)',
    ],
    [
      "the self-hosted connections' internal organization",
      { organizationId: SELF_HOSTED_ORGANIZATION_ID, serviceId: SERVICE },
      'organizationId: name a self-hosted deployment by its baseUrl',
    ],
  ];
  for (const [what, target, message] of cases) {
    it(`${what}: ${message ?? 'accepted'} (alert file and target file alike)`, () => {
      assert.deepEqual(alertIssues(target), message ? [message] : []);
      assert.equal(targetIssue(target), message);
    });
  }
});
