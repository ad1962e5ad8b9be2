import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAlertFile } from '../../../src/alertFiles/format';
import { buildJsonSchemas } from '../../../src/alertFiles/jsonSchema';
import { issuesAtNames, presentLikeFile, resolveNames, type NameLists } from '../../../src/alertFiles/names';
import { buildPlan, renderPlan } from '../../../src/alertFiles/plan';

const ORG = '6f1c8a2e-4b7d-4e3a-9c51-2d8f0b7a9e14';
const S1 = 'a3c7e9f1-2b4d-4c6e-8f0a-1b3d5e7f9a2c';
const S2 = 'b8d2f4a6-c1e3-4a5b-9d7f-2e4a6c8b0d1e';

/** One alert on a saved search, everything named by name: the same body fits every service. */
const body = {
  name: 'Payment declines',
  source: 'saved_search',
  savedSearchName: 'Declines',
  threshold: 5,
  thresholdType: 'above',
  interval: '5m',
  channel: { type: 'webhook', webhookName: 'Ops Slack' },
};

const checkout: NameLists = {
  serviceLabel: 'checkout-prod',
  webhooks: [
    { id: 'hookA1', name: 'Ops Slack' },
    { id: 'hookA2', name: 'PagerDuty' },
  ],
  savedSearches: [
    { id: 'searchA1', name: 'Declines' },
    { id: 'searchA2', name: 'Errors' },
  ],
};
const search: NameLists = {
  serviceLabel: 'search-staging',
  webhooks: [{ id: 'hookB9', name: 'Ops Slack' }],
  savedSearches: [{ id: 'searchB7', name: 'Declines' }],
};

describe('alert files: webhooks and saved searches by name', () => {
  it("resolves the same file per service to that service's IDs, and the body carries IDs only", () => {
    const a = checkAlertFile({ organizationId: ORG, serviceId: S1, ...body }, checkout);
    const b = checkAlertFile({ organizationId: ORG, serviceId: S2, ...body }, search);
    assert.ok(a.ok && b.ok, JSON.stringify([a, b]));
    assert.deepEqual(a.body.channel, { type: 'webhook', webhookId: 'hookA1' });
    assert.equal(a.body.savedSearchId, 'searchA1');
    assert.deepEqual(b.body.channel, { type: 'webhook', webhookId: 'hookB9' });
    assert.equal(b.body.savedSearchId, 'searchB7');
    for (const sent of [a.body, b.body]) {
      assert.ok(!JSON.stringify(sent).includes('Name"'), `no name field is sent: ${JSON.stringify(sent)}`);
    }
    assert.deepEqual(
      a.references.map((r) => [r.namePath.join('.'), r.name, r.id]),
      [
        ['savedSearchName', 'Declines', 'searchA1'],
        ['channel.webhookName', 'Ops Slack', 'hookA1'],
      ],
    );
  });

  it('resolves names in every channel of "channels", and a self-hosted file the same way', () => {
    const { organizationId: _o, serviceId: _s, ...rest } = { organizationId: ORG, serviceId: S1, ...body };
    const value = {
      ...rest,
      baseUrl: 'https://hyperdx.example.com',
      channel: { type: 'webhook', webhookName: 'Ops Slack' },
      channels: [
        { type: 'webhook', webhookName: 'Ops Slack' },
        { type: 'webhook', webhookName: 'PagerDuty', severity: 'critical' },
      ],
    };
    const checked = checkAlertFile(value, { ...checkout, serviceLabel: 'hyperdx.example.com' });
    assert.ok(checked.ok, JSON.stringify(checked));
    assert.deepEqual(checked.body.channels, [
      { type: 'webhook', webhookId: 'hookA1' },
      { type: 'webhook', webhookId: 'hookA2', severity: 'critical' },
    ]);
    assert.equal(checked.target.baseUrl, 'https://hyperdx.example.com');
  });

  it('refuses a missing name, listing what the service has', () => {
    const checked = checkAlertFile(
      { organizationId: ORG, serviceId: S1, ...body, channel: { type: 'webhook', webhookName: 'Ops Teams' } },
      checkout,
    );
    assert.ok(!checked.ok);
    const issue = checked.issues.find((i) => i.path.join('.') === 'channel.webhookName');
    assert.equal(
      issue?.message,
      'no webhook named "Ops Teams" on service "checkout-prod" (webhooks there: "Ops Slack", "PagerDuty")',
    );
    assert.equal(issue?.severity, 'error');
  });

  it('refuses an ambiguous name, giving the IDs and asking for the ID field', () => {
    const lists = {
      ...checkout,
      savedSearches: [...checkout.savedSearches!, { id: 'searchA3', name: 'Declines' }],
    };
    const checked = checkAlertFile({ organizationId: ORG, serviceId: S1, ...body }, lists);
    assert.ok(!checked.ok);
    assert.deepEqual(
      checked.issues.map((i) => [i.path.join('.'), i.message]),
      [
        [
          'savedSearchName',
          '2 saved searches named "Declines" on service "checkout-prod" (IDs searchA1, searchA3): use savedSearchId',
        ],
      ],
    );
  });

  it('does not guess a name that differs only in case: missing, with a "did you mean"', () => {
    const checked = checkAlertFile(
      { organizationId: ORG, serviceId: S1, ...body, channel: { type: 'webhook', webhookName: 'ops slack' } },
      checkout,
    );
    assert.ok(!checked.ok);
    assert.match(
      checked.issues[0]!.message,
      /^no webhook named "ops slack" on service "checkout-prod" \(webhooks there: "Ops Slack", "PagerDuty"\); did you mean "Ops Slack"\?/,
    );
  });

  it('wants exactly one of the ID and the name, and a name that is text', () => {
    const both = checkAlertFile(
      {
        organizationId: ORG,
        serviceId: S1,
        ...body,
        savedSearchId: 'searchA1',
        channel: { type: 'webhook', webhookName: '' },
      },
      checkout,
    );
    assert.ok(!both.ok);
    const byPath = Object.fromEntries(both.issues.map((i) => [i.path.join('.'), i.message]));
    assert.equal(byPath.savedSearchName, 'use either savedSearchId or savedSearchName, not both');
    assert.equal(byPath['channel.webhookName'], 'must be the name of a webhook (non-empty text)');
    const neither = checkAlertFile(
      { organizationId: ORG, serviceId: S1, ...body, channel: { type: 'webhook' } },
      checkout,
    );
    assert.ok(!neither.ok);
    assert.ok(
      neither.issues.some((i) => i.path.join('.') === 'channel.webhookId'),
      JSON.stringify(neither.issues),
    );
  });

  it("without the service's lists sends nothing but still checks the rest of the file", () => {
    const offline = checkAlertFile({ organizationId: ORG, serviceId: S1, ...body, threshold: 'x' });
    assert.ok(!offline.ok);
    assert.ok(offline.issues.some((i) => i.path.join('.') === 'threshold' && i.severity === 'error'));
    const warning = offline.issues.find((i) => i.path.join('.') === 'channel.webhookName');
    assert.equal(warning?.severity, 'warning');
    const unreadable = checkAlertFile(
      { organizationId: ORG, serviceId: S1, ...body },
      { serviceLabel: 'checkout-prod', savedSearches: checkout.savedSearches!, error: 'listWebhooks: HTTP 503' },
    );
    assert.ok(!unreadable.ok);
    assert.deepEqual(
      unreadable.issues.map((i) => [i.path.join('.'), i.severity, i.message]),
      [
        [
          'channel.webhookName',
          'error',
          'cannot look up webhook "Ops Slack" on service "checkout-prod": listWebhooks: HTTP 503',
        ],
      ],
    );
  });

  it('keeps key order and points problems found at an ID field at the name field', () => {
    const resolved = resolveNames(
      { ...body, channel: { type: 'webhook', webhookName: 'Ops Slack', severity: 'x' } },
      checkout,
    );
    assert.deepEqual(Object.keys((resolved.value as { channel: object }).channel), ['type', 'webhookId', 'severity']);
    assert.deepEqual(
      Object.keys(resolved.value as object).indexOf('savedSearchId'),
      Object.keys(body).indexOf('savedSearchName'),
    );
    const moved = issuesAtNames([{ path: ['channel', 'webhookId'], message: 'm' }], resolved.references);
    assert.deepEqual(moved[0]!.path, ['channel', 'webhookName']);
  });

  it('shows each name and the ID it stands for in the plan', () => {
    const checked = checkAlertFile({ organizationId: ORG, serviceId: S1, ...body }, checkout);
    assert.ok(checked.ok);
    const plan = buildPlan(
      [
        {
          uri: 'file:///ws/declines.alert.json',
          label: 'declines.alert.json',
          target: { organizationId: ORG, serviceId: S1, name: body.name },
          body: checked.body,
          references: checked.references.map((r) => ({ field: r.namePath.join('.'), name: r.name, id: r.id })),
        },
      ],
      [{ organizationId: ORG, serviceId: S1, serviceLabel: 'checkout-prod', connectionId: 'c1', alerts: [] }],
    );
    assert.equal(plan.services[0]!.entries[0]!.action, 'create');
    const text = renderPlan(plan, new Date(0)).text;
    assert.match(text, /^ {2}- savedSearchName `Declines` → id `searchA1`$/m);
    assert.match(text, /^ {2}- channel\\\.webhookName `Ops Slack` → id `hookA1`$/m);
  });

  it('offers the by-name forms in the JSON Schema, exactly one of ID and name', () => {
    const schema = buildJsonSchemas()['alert-file'] as {
      properties: Record<
        string,
        {
          oneOf?: { properties?: Record<string, unknown>; required?: string[]; oneOf?: unknown }[];
          items?: { oneOf?: { properties?: Record<string, unknown>; required?: string[]; oneOf?: unknown }[] };
        }
      >;
      not?: unknown;
    };
    assert.ok(schema.properties.savedSearchName);
    assert.deepEqual(schema.not, { required: ['savedSearchId', 'savedSearchName'] });
    for (const branch of [schema.properties.channel!.oneOf![0]!, schema.properties.channels!.items!.oneOf![0]!]) {
      assert.ok(branch.properties?.webhookName, JSON.stringify(branch));
      assert.ok(!branch.required?.includes('webhookId'));
      assert.deepEqual(branch.oneOf, [{ required: ['webhookId'] }, { required: ['webhookName'] }]);
    }
  });

  it('shows the live alert by name where the file uses names, and keeps an ID whose name is missing or shared', () => {
    const live = {
      serviceId: S1,
      savedSearchId: 'searchA2',
      channel: { type: 'webhook', webhookId: 'hookA1', severity: 'x' },
    };
    assert.deepEqual(presentLikeFile(live, body, checkout), {
      serviceId: S1,
      savedSearchName: 'Errors',
      channel: { type: 'webhook', webhookName: 'Ops Slack', severity: 'x' },
    });
    const shared = { ...checkout, webhooks: [...checkout.webhooks!, { id: 'hookA3', name: 'Ops Slack' }] };
    assert.deepEqual(presentLikeFile(live, body, shared).channel, live.channel);
    assert.deepEqual(
      presentLikeFile(live, { ...body, channel: { type: 'webhook', webhookId: 'hookA1' } }, checkout).channel,
      live.channel,
    );
    assert.equal(presentLikeFile(live, body, undefined), live);
  });
});
