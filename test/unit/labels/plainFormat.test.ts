import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Alert, Source, TileResponse } from '../../../src/resources/model';
import {
  ALERT_STATUS_ICONS,
  alertStatus,
  collator,
  conditionText,
  contextState,
  isFiring,
  isFiringUnsilenced,
  isSilenced,
  nameOf,
  sortByName,
  sourceIconId,
  tileIconId,
} from '../../../src/labels/plainFormat';

// eslint-disable-next-line no-control-regex
const CONTROL_OR_BIDI = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;
/**
 * Resources as the server might send them. Some cases hold values the response schemas would not let through
 * (`null` where a field is optional, missing required fields): the helpers stay safe on them anyway.
 */
const alert = (extra: Record<string, unknown> = {}): Alert => ({ id: '65f5e4a3b9e77c001a123456', ...extra }) as Alert;
const tile = (extra: Record<string, unknown>): TileResponse =>
  ({ name: 'Tile', x: 0, y: 0, w: 6, h: 4, ...extra }) as TileResponse;
const source = (extra: Record<string, unknown>): Source => ({ name: 'Source', ...extra }) as Source;

describe('Tree text: names', () => {
  it('shows the name, or the ID when there is none', () => {
    assert.equal(nameOf({ id: 'd1', name: 'Service overview' }), 'Service overview');
    assert.equal(nameOf({ id: 'd1', name: null }), 'd1');
    assert.equal(nameOf({ id: 'd1', name: '' }), 'd1');
    assert.equal(nameOf({ id: 'd1' }), 'd1');
    assert.equal(nameOf({ id: 'd1', name: ' \u202E\u200B ' }), 'd1', 'a name of nothing but invisible characters');
  });

  it('shows a hostile name as plain text on one line: no control or bidi character, no link, no icon', () => {
    const shown = nameOf({
      id: 'd1',
      name: '[Re-enter your key](https://evil.example)\u202Eexe.txt\r\n$(zap) \x1b[31mred',
    });
    assert.doesNotMatch(shown, CONTROL_OR_BIDI);
    assert.doesNotMatch(shown, /\]\(/);
    assert.doesNotMatch(shown, /\$\(/);
    assert.match(shown, /Re-enter your key/);
    assert.match(shown, /red$/);
  });

  it('sorts by name without regard to case, numbers in numeric order, nameless items by ID', () => {
    const items = [
      { id: 'z', name: 'service 10' },
      { id: 'y', name: 'Service 2' },
      { id: 'b-id', name: null },
      { id: 'x', name: 'alpha' },
    ];
    assert.deepEqual(
      sortByName(items).map((i) => i.id),
      ['x', 'b-id', 'y', 'z'],
    );
    assert.deepEqual(
      items.map((i) => i.id),
      ['z', 'y', 'b-id', 'x'],
      'the list given is left as it was',
    );
    assert.equal(collator.compare('Checkout', 'checkout'), 0);
  });
});

describe('Tree text: alert conditions', () => {
  // HyperDX's words: `above` is "is at least (≥)", `above_exclusive` "is above (>)", `below` "falls below (<)", …
  const cases: [Partial<Alert>, string][] = [
    [{ thresholdType: 'above', threshold: 100 }, 'at least 100'],
    [{ thresholdType: 'above_exclusive', threshold: 100 }, 'above 100'],
    [{ thresholdType: 'below', threshold: 0.5 }, 'below 0.5'],
    [{ thresholdType: 'below_or_equal', threshold: 3 }, 'at most 3'],
    [{ thresholdType: 'equal', threshold: 0 }, 'equal to 0'],
    [{ thresholdType: 'not_equal', threshold: -1 }, 'not equal to -1'],
    [{ thresholdType: 'between', threshold: 5, thresholdMax: 10 }, 'between 5 and 10'],
    [{ thresholdType: 'not_between', threshold: 5, thresholdMax: 10 }, 'outside 5 to 10'],
  ];
  for (const [view, text] of cases) {
    it(`says "${text}" for ${view.thresholdType}`, () => {
      assert.equal(conditionText(alert(view)), text);
    });
  }

  it('shows "?" for a missing threshold or upper bound', () => {
    assert.equal(conditionText(alert({ thresholdType: 'above', threshold: null })), 'at least ?');
    assert.equal(conditionText(alert({ thresholdType: 'between', threshold: 5 })), 'between 5 and ?');
    assert.equal(conditionText(alert({})), '?');
  });

  it('shows a condition type of a newer service as it comes, made plain', () => {
    assert.equal(conditionText(alert({ thresholdType: 'above_p99', threshold: 7 })), 'above_p99 7');
    const hostile = conditionText(
      alert({ thresholdType: '[x](command:workbench.action.openSettings)\u202E', threshold: 1 }),
    );
    assert.doesNotMatch(hostile, CONTROL_OR_BIDI);
    assert.doesNotMatch(hostile, /\]\(|command:/);
  });
});

describe('Tree text: alert state and silence', () => {
  it('puts firing alerts first', () => {
    assert.equal(isFiring(alert({ state: 'ALERT' })), true);
    for (const state of ['OK', 'PENDING', 'DISABLED', null, undefined]) {
      assert.equal(isFiring(alert({ state })), false, String(state));
    }
  });

  it('gives each state its context value for the menus, and unknown states one of their own', () => {
    assert.deepEqual(['ALERT', 'OK', 'PENDING', 'INSUFFICIENT_DATA', 'DISABLED', 'SNOOZED', null].map(contextState), [
      'firing',
      'ok',
      'pending',
      'insufficientData',
      'disabled',
      'unknownState',
      'unknownState',
    ]);
  });

  it('counts an alert as silenced until its end time, and for good without one', () => {
    const now = Date.parse('2026-06-01T12:00:00.000Z');
    assert.equal(isSilenced(alert(), now), false);
    assert.equal(isSilenced(alert({ silenced: null }), now), false);
    assert.equal(isSilenced(alert({ silenced: { by: 'ops', until: '2026-06-01T13:00:00.000Z' } }), now), true);
    assert.equal(isSilenced(alert({ silenced: { by: 'ops', until: '2026-06-01T11:59:59.000Z' } }), now), false);
    assert.equal(
      isSilenced(alert({ silenced: { by: 'ops', until: '2026-06-01T12:00:00.000Z' } }), now),
      false,
      'ends at its end time',
    );
    assert.equal(isSilenced(alert({ silenced: { by: 'ops', until: null } }), now), true);
    assert.equal(
      isSilenced(alert({ silenced: { by: 'ops', until: 'next tuesday' } }), now),
      true,
      'an unreadable end time',
    );
  });
});

describe('Tree icons', () => {
  it('draws each tile type with its codicon, and any other with a generic one', () => {
    const ids = [
      'line',
      'stacked_bar',
      'table',
      'number',
      'pie',
      'bar',
      'heatmap',
      'search',
      'event_patterns',
      'markdown',
    ].map((displayType) => tileIconId(tile({ id: 't', config: { displayType } })));
    assert.deepEqual(ids, [
      'graph-line',
      'graph',
      'table',
      'symbol-number',
      'pie-chart',
      'graph-left',
      'flame',
      'search',
      'symbol-event',
      'markdown',
    ]);
    assert.equal(tileIconId(tile({ id: 't', config: { displayType: 'sankey' } })), 'symbol-misc');
    assert.equal(tileIconId(tile({ id: 't', config: null })), 'symbol-misc');
    assert.equal(tileIconId(tile({ id: 't' })), 'symbol-misc');
    assert.equal(
      tileIconId(tile({ id: 't', config: { displayType: 'constructor' } })),
      'symbol-misc',
      'no inherited property is an icon',
    );
  });

  it('draws each source kind with its codicon, and any other as a database', () => {
    const ids = ['log', 'trace', 'metric', 'session', 'promql'].map((kind) => sourceIconId(source({ id: 's', kind })));
    assert.deepEqual(ids, ['list-flat', 'pulse', 'graph-line', 'account', 'symbol-operator']);
    assert.equal(sourceIconId(source({ id: 's', kind: 'profile' })), 'database');
    assert.equal(sourceIconId(source({ id: 's', kind: null })), 'database');
    assert.equal(sourceIconId(source({ id: 's', kind: 'toString' })), 'database', 'no inherited property is an icon');
  });
});

describe('Tree text: what an alert shows', () => {
  const now = Date.parse('2026-06-01T12:00:00.000Z');
  const silence = { by: 'ops', until: '2026-06-01T13:00:00.000Z' };
  const failed = [{ type: 'QUERY_ERROR', message: 'boom' }];

  it('tells seven states apart: firing, silenced, pending, OK, insufficient data, disabled, execution error', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ state: 'ALERT' }, 'firing'],
      [{ state: 'ALERT', silenced: silence }, 'silenced'],
      [{ state: 'OK', silenced: silence }, 'silenced'],
      [{ state: 'PENDING' }, 'pending'],
      [{ state: 'OK' }, 'ok'],
      [{ state: 'INSUFFICIENT_DATA' }, 'insufficientData'],
      [{ state: 'DISABLED', silenced: silence, executionErrors: failed }, 'disabled'],
      [{ state: 'OK', executionErrors: failed }, 'error'],
      [{ state: 'PENDING', executionErrors: failed }, 'error'],
      [{ state: 'ALERT', executionErrors: failed }, 'firing'],
      [{ state: 'OK', executionErrors: [] }, 'ok'],
      [{ state: 'SNOOZED' }, 'unknown'],
      [{}, 'unknown'],
    ];
    for (const [extra, status] of cases) assert.equal(alertStatus(alert(extra), now), status, JSON.stringify(extra));
  });

  it('ends the silenced look when the silence ends', () => {
    const ended = { by: 'ops', until: '2026-06-01T11:00:00.000Z' };
    assert.equal(alertStatus(alert({ state: 'ALERT', silenced: ended }), now), 'firing');
  });

  it('gives each status its own icon', () => {
    const icons = Object.values(ALERT_STATUS_ICONS).map((look) => look.icon);
    assert.equal(new Set(icons).size, icons.length);
    assert.equal(ALERT_STATUS_ICONS.silenced.icon, 'bell-slash');
    assert.notEqual(ALERT_STATUS_ICONS.silenced.color, ALERT_STATUS_ICONS.firing.color, 'silenced is not red');
  });

  it('counts only firing alerts that are not silenced', () => {
    assert.equal(isFiringUnsilenced(alert({ state: 'ALERT' }), now), true);
    assert.equal(isFiringUnsilenced(alert({ state: 'ALERT', silenced: silence }), now), false);
    assert.equal(isFiringUnsilenced(alert({ state: 'OK' }), now), false);
  });
});
