import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildPlan, renderPlan, type PlanFileInput } from '../../../src/alertFiles/plan';
import type { Alert } from '../../../src/schema';

const ORG = '6f1c8a2e-4b7d-4e3a-9c51-2d8f0b7a9e14';
const S1 = 'a3c7e9f1-2b4d-4c6e-8f0a-1b3d5e7f9a2c';
const S2 = 'b8d2f4a6-c1e3-4a5b-9d7f-2e4a6c8b0d1e';

const body = {
  source: 'tile',
  dashboardId: 'd',
  tileId: 't',
  threshold: 1,
  thresholdType: 'above',
  interval: '5m',
  channel: { type: 'webhook', webhookId: 'w' },
};
const alert = (id: string, threshold = 1): Alert => ({ id, ...body, threshold }) as Alert;
const file = (
  label: string,
  serviceId: string | undefined,
  id?: string,
  extra: Partial<PlanFileInput> = {},
): PlanFileInput => ({
  uri: `file:///ws/${label}`,
  label,
  target: { organizationId: ORG, ...(serviceId ? { serviceId } : {}), ...(id ? { id } : {}) },
  body,
  ...extra,
});

describe('alert plan', () => {
  it('classifies files per service and lists live alerts without a file as drift', () => {
    const plan = buildPlan(
      [
        file('new.alert.json', S1),
        file('same.alert.json', S1, 'a1'),
        file('changed.alert.json', S1, 'a2', { body: { ...body, threshold: 9 } }),
        file('gone.alert.json', S1, 'zz'),
        file('copy.alert.json', S1, 'a1'),
        file('broken.alert.json', S1, undefined, { body: undefined, problems: ['threshold: is required'] }),
        file('elsewhere.alert.json', S2),
        file('untargeted.alert.json', undefined),
      ],
      [
        {
          organizationId: ORG,
          serviceId: S1,
          serviceLabel: 'checkout-prod',
          connectionId: 'c1',
          alerts: [alert('a1'), alert('a2'), alert('a3')],
        },
        { organizationId: ORG, serviceId: S2, serviceLabel: 'search-staging' },
      ],
    );
    const s1 = plan.services.find((s) => s.serviceId === S1)!;
    const actions = Object.fromEntries(s1.entries.map((e) => [e.label, e.action]));
    assert.deepEqual(actions, {
      'broken.alert.json': 'invalid',
      'changed.alert.json': 'update',
      'copy.alert.json': 'unchanged',
      'gone.alert.json': 'missing',
      'new.alert.json': 'create',
      'same.alert.json': 'duplicate',
    });
    assert.deepEqual(
      s1.drift.map((d) => d.id),
      ['a3'],
    );
    assert.equal(plan.services.find((s) => s.serviceId === S2)?.entries[0]?.action, 'noConnection');
    assert.equal(plan.untargeted[0]?.label, 'untargeted.alert.json');
    assert.equal(plan.counts.create, 1);
    assert.equal(plan.counts.drift, 1);

    const rendered = renderPlan(plan, new Date(0));
    const lines = rendered.text.split('\n');
    assert.equal(rendered.updateLines.length, 1);
    assert.match(lines[rendered.updateLines[0]!.line]!, /changed\.alert\.json/);
    assert.match(rendered.text, /## checkout-prod/);
    assert.match(rendered.text, /Live alerts without a file \(1; left as they are\)/);
  });

  it('marks the files of an unreadable service as such', () => {
    const plan = buildPlan(
      [file('a.alert.json', S1, 'a1')],
      [{ organizationId: ORG, serviceId: S1, serviceLabel: 'checkout-prod', connectionId: 'c1', error: 'HTTP 503' }],
    );
    assert.equal(plan.services[0]?.entries[0]?.action, 'unreachable');
    assert.equal(plan.services[0]?.drift.length, 0);
  });

  it('plans no update for fields only the service has (channels beside channel, defaults, unknown fields)', () => {
    const newer = {
      ...alert('a1'),
      channels: [{ type: 'webhook', webhookId: 'w', severity: 'critical' }],
      numConsecutiveWindows: 1,
      scheduleOffsetMinutes: 0,
      teamRouting: { on: true },
    } as unknown as Alert;
    const plan = buildPlan(
      [
        file('same.alert.json', S1, 'a1'),
        file('moved.alert.json', S1, 'a2', { body: { ...body, channel: { type: 'webhook', webhookId: 'w2' } } }),
      ],
      [
        {
          organizationId: ORG,
          serviceId: S1,
          serviceLabel: 'checkout-prod',
          connectionId: 'c1',
          alerts: [newer, { ...newer, id: 'a2' } as Alert],
        },
      ],
    );
    const actions = Object.fromEntries(plan.services[0]!.entries.map((e) => [e.label, e.action]));
    assert.deepEqual(actions, { 'moved.alert.json': 'update', 'same.alert.json': 'unchanged' });
  });
  it('writes names and errors from the service into the plan as text: no link, autolink, HTML or control character', () => {
    const hostile = { ...alert('a1'), name: '[Re-enter your key](https://evil.example) <b>x</b>\u202Eexe' } as Alert;
    const plan = buildPlan(
      [file('x.alert.json', S1), file('y.alert.json', S2, 'b1')],
      [
        {
          organizationId: ORG,
          serviceId: S1,
          serviceLabel: 'prod [login](command:workbench.action.openSettings)',
          connectionId: 'c1',
          alerts: [hostile],
        },
        {
          organizationId: ORG,
          serviceId: S2,
          serviceLabel: 'staging',
          connectionId: 'c1',
          error: 'HTTP 503 see https://evil.example/[x](y)',
        },
      ],
    );
    const text = renderPlan(plan, new Date(0)).text;
    assert.doesNotMatch(text, /\]\(/, 'no [label](target) pair');
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(text, /[\u202A-\u202E\u2066-\u2069\u0000-\u0008]/);
    const outsideCode = text.replace(/`[^`\n]*`/g, '');
    assert.doesNotMatch(outsideCode, /https:\/\//, 'no autolink outside a code span');
    assert.doesNotMatch(outsideCode, /<b>/, 'no HTML outside a code span');
    assert.match(
      text,
      /- `\[Re-enter your key\] \(https:\/\/evil\.example\) <b>x<\/b>exe` \(id `a1`\)/,
      'the name is a code span',
    );
    assert.match(text, /## prod \\\[login\\\] \\\(command \\:workbench/);
    assert.match(text, /Could not read the live alerts: HTTP 503 see https\\:\\\/\\\/evil/);
  });
});
