import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileNameFor, kindOfFile } from '../../../src/serviceFolders/layout';
import { merge3 } from '../../../src/serviceFolders/merge';
import { toIdForm, toNameForm, type NameSource, type Resolver } from '../../../src/serviceFolders/refs';
import { changesOf } from '../../../src/serviceFolders/compare';
import { parseTarget, sameTarget } from '../../../src/serviceFolders/schema';

const ORG = '6f1c8a2e-4b7d-4e3a-9c51-2d8f0b7a9e14';
const SVC = 'a3c7e9f1-2b4d-4c6e-8f0a-1b3d5e7f9a2c';

describe('service folder files', () => {
  it('names files after resources: characters no file system takes replaced, a second of the same name numbered', () => {
    const taken = new Set<string>();
    assert.equal(fileNameFor('dashboard', 'Checkout / p95: "slow"?', taken), 'Checkout - p95- -slow--.dashboard.json');
    assert.equal(fileNameFor('alert', 'Errors', taken), 'Errors.alert.json');
    assert.equal(fileNameFor('alert', 'errors', taken), 'errors (2).alert.json');
    assert.equal(fileNameFor('alert', undefined, taken), 'unnamed-alert.alert.json');
    assert.equal(fileNameFor('webhook', '..', taken), 'unnamed-webhook.webhook.json');
    assert.equal(kindOfFile('Errors.savedsearch.json'), 'savedSearch');
    assert.equal(kindOfFile('.alert.json'), undefined);
    assert.equal(kindOfFile('notes.json'), undefined);
  });

  it('reads the target file of either connection kind and refuses one that names both or neither', () => {
    const cloud = parseTarget({ organizationId: ORG, serviceId: SVC });
    assert.ok(cloud.ok && cloud.target.serviceId === SVC && !cloud.target.prune);
    const selfHosted = parseTarget({ baseUrl: 'http://127.0.0.1:8000/', prune: true });
    assert.ok(selfHosted.ok && selfHosted.target.prune);
    assert.ok(
      selfHosted.ok && sameTarget(selfHosted.target, { ...selfHosted.target, baseUrl: 'http://127.0.0.1:8000' }),
    );
    assert.equal(parseTarget({ organizationId: ORG, serviceId: SVC, baseUrl: 'http://x' }).ok, false);
    assert.equal(parseTarget({}).ok, false);
    assert.equal(parseTarget({ organizationId: ORG, serviceId: SVC, extra: 1 }).ok, false);
  });
});

describe('references by name', () => {
  const names: NameSource = {
    nameOf: (kind, id) =>
      ({ dashboard: { d1: 'Checkout' }, webhook: { w1: 'Ops' }, source: { s1: 'Logs' }, savedSearch: {} })[kind][
        id as never
      ],
    tileNameOf: (d, t) => (d === 'd1' && t === 't1' ? 'Errors' : undefined),
  };
  const alert = {
    name: 'A',
    source: 'tile',
    dashboardId: 'd1',
    tileId: 't1',
    threshold: 1,
    channel: { type: 'webhook', webhookId: 'w1' },
  };

  it('turns IDs into names in place, and keeps an ID whose name is not unique', () => {
    const named = toNameForm('alert', alert, names);
    assert.deepEqual(Object.keys(named), ['name', 'source', 'dashboardName', 'tileName', 'threshold', 'channel']);
    assert.deepEqual(named.channel, { type: 'webhook', webhookName: 'Ops' });
    const unknown = toNameForm('alert', { ...alert, dashboardId: 'd9', tileId: 't9' }, names);
    assert.equal(unknown.dashboardId, 'd9');
    assert.equal(unknown.tileId, 't9');
    const filters = toNameForm('dashboard', { filters: [{ sourceId: 's1', appliesToSourceIds: ['s1', 'zz'] }] }, names);
    assert.deepEqual(filters.filters, [{ sourceName: 'Logs', appliesToSourceIds: ['s1', 'zz'] }]);
  });

  it('turns names back into the IDs of the service written to; pending and missing names are told apart', () => {
    const resolver: Resolver = {
      id: (kind, name) =>
        kind === 'dashboard' && name === 'Checkout'
          ? { pending: true }
          : kind === 'webhook' && name === 'Ops'
            ? { id: 'W' }
            : { message: `no ${kind} named "${name}"` },
      tileId: (d, t) => (d.name === 'Checkout' && t === 'Errors' ? { pending: true } : { message: 'no tile' }),
    };
    const named = toNameForm('alert', alert, names);
    const resolved = toIdForm('alert', named, resolver);
    assert.deepEqual(resolved.problems, []);
    assert.deepEqual(resolved.pending, [{ kind: 'dashboard', name: 'Checkout' }]);
    assert.deepEqual(resolved.value.channel, { type: 'webhook', webhookId: 'W' });
    assert.deepEqual(
      resolved.dependsOn.map((d) => d.kind),
      ['dashboard', 'webhook'],
    );
    const missing = toIdForm('alert', { ...named, channel: { type: 'webhook', webhookName: 'Nope' } }, resolver);
    assert.deepEqual(missing.problems, [{ path: ['channel', 'webhookName'], message: 'no webhook named "Nope"' }]);
    const both = toIdForm('alert', { ...named, dashboardId: 'd1' }, resolver);
    assert.match(both.problems[0]!.message, /either dashboardId or dashboardName/);
  });
});

describe('comparing a file with the service', () => {
  it('counts only what the file says; tile IDs and fields the service adds are no change', () => {
    const live = { name: 'D', tags: ['a'], tiles: [{ id: 't1', name: 'x', w: 1 }], createdBy: 'someone' };
    assert.deepEqual(
      changesOf('dashboard', { id: 'd', name: 'D', tiles: [{ id: 'other', name: 'x', w: 1 }] }, live),
      [],
    );
    assert.deepEqual(
      changesOf('dashboard', { name: 'D', tags: ['a', 'b'], tiles: [{ name: 'x', w: 2 }] }, live).map((c) => c.path),
      ['tags', 'tiles.0.w'],
    );
  });

  it('reads one channel and a list of one channel as the same alert', () => {
    const channel = { type: 'webhook', webhookName: 'Ops' };
    assert.deepEqual(changesOf('alert', { channel }, { channels: [channel] }), []);
  });
});

describe('three-way merge of a pull', () => {
  const base = { name: 'D', tags: ['a'], tiles: [1, 2], note: 'x' };

  it('takes each side where only it changed, and deletions too', () => {
    const mine = { ...base, tags: ['a', 'mine'] };
    const { note: _note, ...theirs } = { ...base, name: 'Renamed' };
    const merged = merge3(base, mine, theirs);
    assert.deepEqual(merged.conflicts, []);
    assert.deepEqual(merged.value, { name: 'Renamed', tags: ['a', 'mine'], tiles: [1, 2] });
  });

  it("keeps the file's value where both changed the same field, and names the field", () => {
    const merged = merge3(base, { ...base, tiles: [1] }, { ...base, tiles: [1, 2, 3] });
    assert.deepEqual(merged.conflicts, ['tiles']);
    assert.deepEqual((merged.value as typeof base).tiles, [1]);
    assert.deepEqual(merge3(undefined, { a: 1 }, { a: 2 }).conflicts, ['a']);
  });
});
