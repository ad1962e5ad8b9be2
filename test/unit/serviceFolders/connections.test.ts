import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connectionsOf, mapConnections } from '../../../src/serviceFolders/connections';
import type { Snapshot } from '../../../src/serviceFolders/files';
import type { FolderPlan, PlanStep } from '../../../src/serviceFolders/plan';
import { revertsOf, takeServiceValues } from '../../../src/serviceFolders/reverts';
import { maskWebhookUrl } from '../../../src/resources/dependents';
import { mapLinkIds } from '../../../src/serviceFolders/linkIds';

const OWN = '65f1c2a9d4e8b7f3a1c90001';
const THEIRS = '65f1c2a9d4e8b7f3a1c90002';
const OTHER = '65f1c2a9d4e8b7f3a1c90003';

const snapshot = (sources: { name: string; connection: string }[], sqlTile?: string): Snapshot =>
  ({
    source: sources.map((s, i) => ({ id: `s${i}`, kind: 'log', ...s })),
    savedSearch: [],
    webhook: [],
    dashboard: sqlTile
      ? [
          {
            id: 'd1',
            name: 'Rows',
            tiles: [{ id: 't1', name: 'SQL', config: { configType: 'sql', connectionId: sqlTile } }],
          },
        ]
      : [],
    alert: [],
  }) as unknown as Snapshot;

const files = [
  { kind: 'source' as const, path: 'sources/Logs.source.json', value: { name: 'Logs', connection: OWN } },
  {
    kind: 'dashboard' as const,
    path: 'dashboards/Rows.dashboard.json',
    value: { name: 'Rows', tiles: [{ name: 'SQL', config: { configType: 'sql', connectionId: OWN } }] },
  },
];

describe('ClickHouse connections of a promoted folder', () => {
  it("lists what the service's sources and raw-SQL tiles name", () => {
    const known = connectionsOf(snapshot([{ name: 'Logs', connection: THEIRS }], OTHER));
    assert.deepEqual(
      known.map((c) => [c.id, c.usedBy]),
      [
        [THEIRS, ['source "Logs"']],
        [OTHER, ['dashboard "Rows" tile "SQL"']],
      ],
    );
  });

  it("takes the other service's only connection, and says so; the files are not changed", () => {
    const out = mapConnections(files, snapshot([{ name: 'Traces', connection: THEIRS }]), {
      ownTarget: false,
      serviceLabel: 'prod',
    });
    assert.deepEqual(out.problems, []);
    assert.equal(out.entries[0]!.value.connection, THEIRS);
    assert.equal(
      (out.entries[1]!.value.tiles as { config: { connectionId: string } }[])[0]!.config.connectionId,
      THEIRS,
    );
    assert.match(out.notes.get('sources/Logs.source.json')![0]!, new RegExp(`${OWN} .* becomes ${THEIRS}`));
    assert.equal(files[0]!.value.connection, OWN);
  });

  it('reports a connection it cannot choose, with the choices, unless mapped', () => {
    const two = snapshot([{ name: 'Traces', connection: THEIRS }], OTHER);
    const out = mapConnections(files, two, { ownTarget: false, serviceLabel: 'prod' });
    assert.equal(out.problems.length, 2);
    assert.match(out.problems[0]!.message, /connection: ClickHouse connection .* belongs to the folder's own service/);
    assert.match(out.problems[0]!.message, new RegExp(`${THEIRS} \\(source "Traces"\\)`));
    assert.deepEqual(
      out.choices.map((c) => [c.id, c.files.length, c.candidates.length]),
      [[OWN, 2, 2]],
    );
    const none = mapConnections(files, snapshot([]), { ownTarget: false, serviceLabel: 'new' });
    assert.match(none.problems[0]!.message, /names none of its connections .*connectionMap/);
    const mapped = mapConnections(files, two, {
      ownTarget: false,
      serviceLabel: 'prod',
      connectionMap: { [OWN]: OTHER },
    });
    assert.deepEqual(mapped.problems, []);
    assert.equal(mapped.entries[0]!.value.connection, OTHER);
  });

  it("leaves the folder's own service's connections alone", () => {
    const out = mapConnections(files, snapshot([]), { ownTarget: true, serviceLabel: 'home' });
    assert.deepEqual(out.problems, []);
    assert.equal(out.entries[0]!.value.connection, OWN);
  });
});

describe('fields an apply would put back on the service', () => {
  const step = (
    file: Record<string, unknown>,
    live: Record<string, unknown>,
    changes: PlanStep['changes'],
  ): PlanStep => ({
    kind: 'alert',
    name: 'Errors',
    action: 'update',
    path: 'alerts/Errors.alert.json',
    live: { id: 'a1', ...live },
    file,
    changes,
    dependsOn: [],
    cascade: [],
    notes: [],
  });
  const plan = (s: PlanStep): FolderPlan => ({ serviceLabel: 'home', steps: [s], problems: [] });

  it('names a field changed on the service while the file kept the pulled value, and takes it into the file', () => {
    const base = { 'alert:a1': { id: 'a1', name: 'Errors', threshold: 100, interval: '5m' } };
    const file = { id: 'a1', name: 'Errors', threshold: 100, interval: '15m' };
    const s = step(file, { name: 'Errors', threshold: 125, interval: '5m', source: 'tile' }, [
      { path: 'threshold', before: 125, after: 100 },
      { path: 'interval', before: '5m', after: '15m' },
    ]);
    const reverts = revertsOf(plan(s), base);
    assert.deepEqual(
      reverts.map((r) => [r.field, r.service, r.file, r.bothChanged]),
      [['threshold', 125, 100, false]],
    );
    const live = { source: [], savedSearch: [], webhook: [], dashboard: [], alert: [s.live] } as unknown as Snapshot;
    const [taken] = takeServiceValues(plan(s), reverts, base, live);
    assert.equal((taken!.value as { threshold: number }).threshold, 125);
    assert.equal((taken!.value as { interval: string }).interval, '15m', "the file's own edit stays");
  });

  it('tells a field changed on both sides apart, and judges nothing without a pull base', () => {
    const s = step({ threshold: 110 }, { threshold: 125 }, [{ path: 'threshold', before: 125, after: 110 }]);
    assert.deepEqual(
      revertsOf(plan(s), { 'alert:a1': { threshold: 100 } }).map((r) => r.bothChanged),
      [true],
    );
    assert.deepEqual(revertsOf(plan(s), {}), []);
  });
});

describe('webhook URLs in files', () => {
  it('masks every path token, however short; route words stay', () => {
    assert.equal(
      maskWebhookUrl('https://hooks.slack.com/services/T1/B2/x'),
      'https://hooks.slack.com/services/••••/••••/••••',
    );
    assert.equal(maskWebhookUrl('https://relay.example.com/abc/alerts'), 'https://relay.example.com/••••/alerts');
    assert.equal(maskWebhookUrl('https://events.pagerduty.com/v2/enqueue'), 'https://events.pagerduty.com/v2/enqueue');
  });
});

describe("link-outs by ID of a promoted folder's tables", () => {
  const linking = (type: string, id: string) => ({
    kind: 'dashboard' as const,
    path: 'dashboards/Overview.dashboard.json',
    name: 'Overview',
    value: {
      id: 'd0',
      name: 'Overview',
      tiles: [{ name: 'T', config: { onClick: { type, target: { mode: 'id', id } } } }],
    },
  });
  const detail = {
    kind: 'dashboard' as const,
    path: 'dashboards/Detail.dashboard.json',
    name: 'Detail',
    value: { id: 'own-d1', name: 'Detail' },
  };
  const live = {
    source: [{ id: 'their-s1', name: 'Logs' }],
    savedSearch: [],
    webhook: [],
    dashboard: [{ id: 'their-d1', name: 'Detail' }],
    alert: [],
  } as unknown as Snapshot;
  const options = { ownTarget: false, serviceLabel: 'prod' };
  const target = (v: Record<string, unknown>) =>
    (v.tiles as { config: { onClick: { target: { id: string } } } }[])[0]!.config.onClick.target.id;

  it("takes the other service's resource of the same name", () => {
    const out = mapLinkIds([linking('dashboard', 'own-d1'), detail], live, options);
    assert.deepEqual(out.problems, []);
    assert.equal(target(out.entries[0]!.value), 'their-d1');
    assert.match(out.notes.get('dashboards/Overview.dashboard.json')![0]!, /own-d1 .* becomes their-d1/);
  });

  it('reports a link to what the other service does not have, and leaves the own service alone', () => {
    const missing = mapLinkIds([linking('search', 'own-s9')], live, options);
    assert.match(missing.problems[0]!.message, /links to source own-s9, which is not on service "prod"/);
    const notYet = mapLinkIds(
      [linking('dashboard', 'own-d2'), { ...detail, name: 'New', value: { id: 'own-d2', name: 'New' } }],
      live,
      options,
    );
    assert.match(notYet.problems[0]!.message, /links to the dashboard "New" .* does not have yet/);
    assert.deepEqual(mapLinkIds([linking('search', 'own-s9')], live, { ...options, ownTarget: true }).problems, []);
  });
});
