import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAlertFile, serverKindOf, unknownFileKeyIssues } from '../../../src/alertFiles/format';
import { buildJsonSchemas } from '../../../src/alertFiles/jsonSchema';
import { buildPlan, renderPlan } from '../../../src/alertFiles/plan';
import { SELF_HOSTED_ORGANIZATION_ID, SELF_HOSTED_SERVICE_ID } from '../../../src/api/oss';
import { seedAlertBody, SOURCE_ID } from '../schema/fixtures';

type Json = Record<string, unknown>;

const ORG = '6f1c8a2e-4b7d-4e3a-9c51-2d8f0b7a9e14';
const SERVICE = 'a3c7e9f1-2b4d-4c6e-8f0a-1b3d5e7f9a2c';
const CLOUD = { organizationId: ORG, serviceId: SERVICE };
const SELF_HOSTED = { baseUrl: 'https://hyperdx.example.com' };

function inlineAlert(): Json {
  const body = seedAlertBody();
  for (const k of ['dashboardId', 'tileId']) delete body[k];
  return {
    ...body,
    source: 'inline',
    chartConfig: {
      displayType: 'line',
      sourceId: SOURCE_ID,
      select: [{ aggFn: 'count', where: '', whereLanguage: 'lucene' }],
    },
  };
}

/** What it is, the body, the path of the finding, and whether Cloud refuses it or drops it (a warning there). */
const CASES: [string, () => Json, string, 'refused' | 'dropped'][] = [
  ['an inline alert', inlineAlert, 'source', 'refused'],
  ['an alert displayName', () => ({ ...seedAlertBody(), displayName: 'Checkout latency' }), 'displayName', 'dropped'],
  ['alert tags', () => ({ ...seedAlertBody(), tags: ['checkout', 'slo'] }), 'tags', 'dropped'],
];

describe('alert files: checks that follow the server the file targets', () => {
  it('the server kind comes from the target: a base URL is self-hosted, anything else Cloud', () => {
    assert.equal(serverKindOf({ ...SELF_HOSTED, ...seedAlertBody() }), 'selfHosted');
    assert.equal(serverKindOf({ ...CLOUD, ...seedAlertBody() }), 'cloud');
  });

  for (const [what, body, path, onCloud] of CASES) {
    it(`${what}: on a Cloud file, ${onCloud === 'refused' ? 'an error saying the Cloud API does not accept it; nothing to send' : 'a warning that the service may drop it; sent as written'}`, () => {
      const checked = checkAlertFile({ ...CLOUD, ...body() });
      if (onCloud === 'dropped') {
        assert.ok(checked.ok, JSON.stringify(checked));
        assert.deepEqual(
          checked.warnings.map((w) => [w.path.join('.'), w.severity]),
          [[path, 'warning']],
        );
        assert.match(checked.warnings[0]!.message, /not in ClickHouse Cloud's API: the service may drop it/);
        assert.deepEqual(checked.body, body());
        return;
      }
      assert.equal(checked.ok, false);
      const errors = checked.ok ? [] : checked.issues.filter((i) => i.severity === 'error');
      assert.ok(
        errors.some((e) => e.path.join('.') === path && /not accepted by ClickHouse Cloud/.test(e.message)),
        JSON.stringify(errors),
      );
    });

    it(`${what}: a warning on a self-hosted file, and the body is sent as written`, () => {
      const file = { ...SELF_HOSTED, ...body() };
      const checked = checkAlertFile(file);
      assert.ok(checked.ok, JSON.stringify(checked));
      assert.deepEqual(
        checked.warnings.map((w) => [w.path.join('.'), w.severity]),
        [[path, 'warning']],
      );
      assert.match(checked.warnings[0]!.message, /(accepted|kept) by newer HyperDX versions only/);
      assert.deepEqual(checked.target, {
        organizationId: SELF_HOSTED_ORGANIZATION_ID,
        serviceId: SELF_HOSTED_SERVICE_ID,
        baseUrl: SELF_HOSTED.baseUrl,
      });
      // Every field of the file except its target, unchanged (chartConfig, displayName and tags included).
      assert.deepEqual(checked.body, body());
    });

    it(`${what}: never reported as an unknown field (a typo)`, () => {
      const issues = unknownFileKeyIssues({ ...SELF_HOSTED, ...body() }, undefined);
      assert.deepEqual(issues, []);
    });
  }

  it('an inline alert on a self-hosted file is still checked for what every version refuses', () => {
    const checked = checkAlertFile({ ...SELF_HOSTED, ...inlineAlert(), threshold: 'high' });
    assert.equal(checked.ok, false);
    const errors = checked.ok ? [] : checked.issues.filter((i) => i.severity === 'error');
    assert.deepEqual(
      errors.map((e) => e.path.join('.')),
      ['threshold'],
    );
  });

  it('a file without any of them has no warnings on either kind', () => {
    for (const target of [CLOUD, SELF_HOSTED]) {
      const checked = checkAlertFile({ ...target, ...seedAlertBody() });
      assert.ok(checked.ok);
      assert.deepEqual(checked.warnings, []);
    }
  });

  it('the plan lists a self-hosted file with its warning, as a create', () => {
    const file = { ...SELF_HOSTED, ...inlineAlert() };
    const checked = checkAlertFile(file);
    assert.ok(checked.ok);
    const plan = buildPlan(
      [
        {
          uri: 'file:///w/latency.alert.json',
          label: 'latency.alert.json',
          target: checked.target,
          body: checked.body as Json,
          warnings: checked.warnings.map((w) => `${w.path.join('.')}: ${w.message}`),
        },
      ],
      [{ ...checked.target, serviceLabel: 'hyperdx.example.com', connectionId: 'c1', alerts: [] }],
    );
    const entry = plan.services[0]!.entries[0]!;
    assert.equal(entry.action, 'create');
    assert.equal(entry.warnings?.length, 1);
    // Markdown text, its punctuation escaped.
    assert.match(
      renderPlan(plan, new Date(0)).text,
      /- Warning: source\\?: an inline alert .* newer HyperDX versions only/,
    );
  });

  it('the JSON Schema offers the newer fields (the extension says per target whether they are allowed)', () => {
    const schema = buildJsonSchemas()['alert-file'] as { properties: Record<string, Json> };
    assert.ok((schema.properties.source!.enum as string[]).includes('inline'));
    assert.equal(schema.properties.displayName!.maxLength, 512);
    assert.equal((schema.properties.tags!.items as Json).type, 'string');
    assert.equal(schema.properties.chartConfig!.type, 'object');
  });
});
