import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { knownPart, schemaCheck, unknownKeyIssues } from '../../../src/jsonDocuments/checks';
import { knownKeysAt, presentIn, unknownKeyPaths } from '../../../src/schema/unknownKeys';
import { alertWriteSchema, dashboardUpdateSchema } from '../../../src/schema';

const alert = {
  name: 'Errors',
  source: 'tile',
  dashboardId: 'd1',
  tileId: 't1',
  threshold: 5,
  thresholdType: 'above',
  interval: '5m',
  channel: { type: 'webhook', webhookId: 'w1' },
};

const dashboard = {
  name: 'Overview',
  tiles: [{ id: 't1', name: 'Notes', x: 0, y: 0, w: 12, h: 4, config: { displayType: 'markdown', markdown: 'Hi' } }],
  filters: [{ id: 'f1', type: 'QUERY_EXPRESSION', name: 'Service', expression: 'ServiceName', sourceId: 's1' }],
};

/** The same documents as a newer service returns them: a field this version does not know at every level. */
const newerAlert = { ...alert, escalation: { after: '1h' }, channel: { ...alert.channel, routing: 'team-a' } };
const newerDashboard = {
  ...dashboard,
  layoutVersion: 2,
  tiles: [{ ...dashboard.tiles[0]!, pinned: true, config: { ...dashboard.tiles[0]!.config, theme: 'dark' } }],
  filters: [{ ...dashboard.filters[0]!, sticky: true }],
};

describe('known keys', () => {
  it('reads the keys of the write schemas at a path, through arrays, unions and wrappers', () => {
    assert.ok(knownKeysAt(alertWriteSchema, [])?.has('threshold'));
    assert.ok(knownKeysAt(alertWriteSchema, ['channel'])?.has('webhookId'));
    assert.ok(
      knownKeysAt(alertWriteSchema, ['channels', 0])?.has('emailRecipients') ||
        knownKeysAt(alertWriteSchema, ['channels', 0])?.has('webhookId'),
    );
    assert.ok(knownKeysAt(dashboardUpdateSchema, ['tiles', 0])?.has('config'));
    assert.ok(knownKeysAt(dashboardUpdateSchema, ['tiles', 0, 'config'])?.has('displayType'));
    assert.ok(knownKeysAt(dashboardUpdateSchema, ['filters', 0])?.has('expression'));
  });

  it('finds unknown keys at every depth', () => {
    assert.deepEqual(
      unknownKeyPaths(alertWriteSchema, newerAlert)
        .map((p) => p.join('.'))
        .sort(),
      ['channel.routing', 'escalation'],
    );
    assert.deepEqual(
      unknownKeyPaths(dashboardUpdateSchema, newerDashboard)
        .map((p) => p.join('.'))
        .sort(),
      ['filters.0.sticky', 'layoutVersion', 'tiles.0.config.theme', 'tiles.0.pinned'],
    );
  });

  it('never blocks on unknown keys and sends them unchanged', () => {
    const checked = schemaCheck('alert', false, newerAlert);
    assert.ok(checked.ok, JSON.stringify(checked));
    assert.deepEqual(checked.data, newerAlert);
    const board = schemaCheck('dashboard', false, newerDashboard);
    assert.ok(board.ok, JSON.stringify(board));
    assert.deepEqual(board.data, newerDashboard);
    // Known fields are still checked.
    const bad = schemaCheck('alert', false, { ...newerAlert, threshold: 'high' });
    assert.ok(!bad.ok && bad.issues.some((i) => i.path.join('.') === 'threshold'));
    assert.deepEqual(knownPart('alert', false, newerAlert), alert);
  });

  it('warns about an unknown key the user typed, never about one the service sent', () => {
    assert.deepEqual(unknownKeyIssues('dashboard', false, newerDashboard, newerDashboard), []);
    const typed = { ...newerDashboard, tiles: [{ ...newerDashboard.tiles[0]!, heigth: 3 }] };
    assert.deepEqual(
      unknownKeyIssues('dashboard', false, typed, newerDashboard).map((i) => [i.path.join('.'), i.severity, i.atKey]),
      [['tiles.0.heigth', 'warning', true]],
    );
    // A new document has no service version: every unknown key was typed.
    assert.equal(unknownKeyIssues('alert', true, newerAlert, undefined).length, 2);
  });

  it('matches array items by id when telling where a key came from', () => {
    const original = {
      tiles: [
        { id: 'a', x: 1 },
        { id: 'b', pinned: true },
      ],
    };
    const reordered = {
      tiles: [
        { id: 'b', pinned: true },
        { id: 'a', x: 1 },
      ],
    };
    assert.ok(presentIn(original, reordered, ['tiles', 0, 'pinned']));
    assert.equal(presentIn(original, reordered, ['tiles', 1, 'pinned']), false);
  });
});
