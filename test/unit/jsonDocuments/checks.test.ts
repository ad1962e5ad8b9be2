import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  dedupeIssues,
  fieldOfServerMessage,
  knownPart,
  leftOutIssues,
  schemaCheck,
  semanticIssues,
  unknownKeyIssues,
  type DocumentIssue,
  type LiveFacts,
} from '../../../src/jsonDocuments/checks';
import {
  DASHBOARD_ID,
  SAVED_SEARCH_ID,
  TILE_ID,
  WEBHOOK_ID,
  alertResponse,
  dashboardResponse,
  savedSearchAlertBody,
  seedAlertBody,
} from '../schema/fixtures';

const TABLE_TILE = '65f5e4a3b9e77c001a901235';
const PLAIN_TILE = '65f5e4a3b9e77c001a901236';
const KEY_UUID = '9e2b6d4f-1a3c-4e5b-8d7f-6a0c2e4b8d19';

/** What the editor knows about the service while the document is open. */
const facts: LiveFacts = {
  serviceLabel: 'checkout-prod',
  dashboards: [
    {
      id: DASHBOARD_ID,
      name: 'Service overview',
      tiles: [
        { id: TILE_ID, name: 'Error rate', x: 0, y: 0, w: 6, h: 4, config: { displayType: 'line' } },
        { id: TABLE_TILE, name: 'Top errors', x: 6, y: 0, w: 6, h: 4, config: { displayType: 'table' } },
        { id: PLAIN_TILE, name: '', x: 0, y: 4, w: 6, h: 4 },
      ],
    },
    { id: '65f5e4a3b9e77c001a567891', name: '', tiles: [] },
  ],
  webhooks: [{ id: WEBHOOK_ID, name: 'On-call' }],
  savedSearches: [{ id: SAVED_SEARCH_ID, name: 'Errors' }],
  apiKeys: [{ id: KEY_UUID, name: 'Reader' }],
};

const alert = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ ...seedAlertBody(), ...extra });
/** The issues as `path: message` lines, the way the editor shows them at their fields. */
const shown = (issues: readonly DocumentIssue[]) => issues.map((i) => `${i.path.join('.')}: ${i.message}`);

describe('Document checks: references to the service', () => {
  it('finds nothing wrong with an alert whose dashboard, tile and webhook exist', () => {
    assert.deepEqual(semanticIssues('alert', alert(), facts), []);
  });

  it('names a dashboard that does not exist, and the service it was looked for on', () => {
    assert.deepEqual(shown(semanticIssues('alert', alert({ dashboardId: 'nope' }), facts)), [
      'dashboardId: Dashboard "nope" does not exist on service checkout-prod.',
    ]);
  });

  it('names a missing tile with the dashboard name, or its ID when it has none', () => {
    assert.deepEqual(shown(semanticIssues('alert', alert({ tileId: 'gone' }), facts)), [
      'tileId: Tile "gone" does not exist on dashboard "Service overview".',
    ]);
    const unnamed = semanticIssues('alert', alert({ dashboardId: '65f5e4a3b9e77c001a567891', tileId: 'gone' }), facts);
    assert.deepEqual(shown(unnamed), ['tileId: Tile "gone" does not exist on dashboard "65f5e4a3b9e77c001a567891".']);
  });

  it('refuses a tile that cannot carry an alert, naming its display type and the ones that can', () => {
    const [table] = semanticIssues('alert', alert({ tileId: TABLE_TILE }), facts);
    assert.deepEqual(table?.path, ['tileId']);
    assert.equal(table?.severity, 'error');
    assert.match(
      table?.message ?? '',
      /^Tile "Top errors" is a table: only line, stacked_bar, number tiles can carry an alert/,
    );
    assert.match(table?.message ?? '', /deleted by the next dashboard update/);
    const [plain] = semanticIssues('alert', alert({ tileId: PLAIN_TILE }), facts);
    assert.match(plain?.message ?? '', new RegExp(`^Tile "${PLAIN_TILE}" is a tile without a display type`));
  });

  it('checks the tile reference when the source is left out but a dashboard is named', () => {
    const body = alert({ tileId: 'gone' });
    delete body.source;
    assert.deepEqual(
      semanticIssues('alert', body, facts).map((i) => i.path),
      [['tileId']],
    );
  });

  it('names a missing webhook at the channel, and at each entry of channels', () => {
    const issues = semanticIssues(
      'alert',
      alert({
        channel: { type: 'webhook', webhookId: 'w1' },
        channels: [
          { type: 'webhook', webhookId: WEBHOOK_ID },
          { type: 'webhook', webhookId: 'w2' },
        ],
      }),
      facts,
    );
    assert.deepEqual(shown(issues), [
      'channel.webhookId: Webhook "w1" does not exist on service checkout-prod.',
      'channels.1.webhookId: Webhook "w2" does not exist on service checkout-prod.',
    ]);
  });

  it('names a missing saved search of a saved-search alert', () => {
    const body = { ...savedSearchAlertBody(), savedSearchId: 'lost' };
    assert.deepEqual(shown(semanticIssues('alert', body, facts)), [
      'savedSearchId: Saved search "lost" does not exist on service checkout-prod.',
    ]);
    assert.deepEqual(semanticIssues('alert', savedSearchAlertBody(), facts), []);
  });

  it('skips the checks of any list it could not load, and says nothing of a service it knows nothing of', () => {
    const body = alert({ dashboardId: 'nope', channel: { type: 'webhook', webhookId: 'w1' } });
    assert.deepEqual(semanticIssues('alert', body, { serviceLabel: 'checkout-prod' }), []);
    assert.deepEqual(semanticIssues('alert', body, undefined), []);
    // Without facts the rules that need none still hold, and the message names no service.
    const [interval] = semanticIssues('alert', alert({ interval: '2m' }), undefined);
    assert.match(interval?.message ?? '', /^Unknown interval "2m"/);
  });

  it('checks query endpoint roles and API keys, telling the key UUID from the key ID', () => {
    const issues = semanticIssues(
      'queryEndpoint',
      {
        roles: ['sql_console_read_only', 'sql_console_owner'],
        openApiKeys: [KEY_UUID, 'aBcDeF123'],
        allowedOrigins: '',
      },
      facts,
    );
    assert.deepEqual(shown(issues), [
      'roles.1: Unknown role "sql_console_owner". Use sql_console_read_only or sql_console_admin.',
      'openApiKeys.1: API key "aBcDeF123" does not exist in the organization (use the key\'s UUID, not its key ID).',
    ]);
  });
});

describe('Document checks: rules a JSON Schema cannot say', () => {
  it('refuses every empty text of an alert, wherever it is, and points at it', () => {
    const issues = semanticIssues('alert', alert({ name: '', channel: { type: 'webhook', webhookId: '' } }), facts);
    assert.deepEqual(
      issues.map((i) => i.path),
      [['channel', 'webhookId'], ['name']],
    );
    for (const issue of issues) {
      assert.equal(issue.severity, 'error');
      assert.equal(
        issue.message,
        'Empty text is rejected by the service: write a value, use null or leave the field out.',
      );
    }
  });

  it('accepts an empty allowedOrigins of the query endpoint (backend-only), but no other empty text there', () => {
    assert.deepEqual(
      semanticIssues(
        'queryEndpoint',
        { roles: ['sql_console_read_only'], openApiKeys: [KEY_UUID], allowedOrigins: '' },
        facts,
      ),
      [],
    );
    const issues = semanticIssues('queryEndpoint', { roles: [''], openApiKeys: [KEY_UUID], allowedOrigins: '' }, facts);
    assert.deepEqual(
      issues.map((i) => i.path),
      [['roles', 0]],
    );
  });

  it('lists the intervals the service knows for an unknown one', () => {
    assert.deepEqual(shown(semanticIssues('alert', alert({ interval: '2m' }), facts)), [
      'interval: Unknown interval "2m". Use one of: 30s, 1m, 5m, 15m, 30m, 1h, 6h, 12h, 1d.',
    ]);
    for (const interval of ['30s', '1m', '1d']) {
      assert.deepEqual(semanticIssues('alert', alert({ interval }), facts), [], interval);
    }
  });

  it('asks a range condition for its upper bound, and refuses one below the threshold', () => {
    assert.deepEqual(shown(semanticIssues('alert', alert({ thresholdType: 'between' }), facts)), [
      'thresholdType: "between" needs "thresholdMax" (the upper bound; "threshold" is the lower bound).',
    ]);
    assert.deepEqual(
      shown(semanticIssues('alert', alert({ thresholdType: 'not_between', thresholdMax: null }), facts)).length,
      1,
    );
    assert.deepEqual(
      shown(semanticIssues('alert', alert({ thresholdType: 'between', threshold: 10, thresholdMax: 5 }), facts)),
      ['thresholdMax: "thresholdMax" (5) must not be below "threshold" (10).'],
    );
    assert.deepEqual(
      semanticIssues('alert', alert({ thresholdType: 'between', threshold: 5, thresholdMax: 5 }), facts),
      [],
    );
  });

  it('says nothing about a value that is not an object (the JSON Schema reports it)', () => {
    for (const value of [null, [], 'text', 42]) assert.deepEqual(semanticIssues('alert', value, facts), []);
  });
});

describe('Document checks: dashboards watched by alerts', () => {
  const watched: LiveFacts = {
    serviceLabel: 'checkout-prod',
    watchedTiles: [{ tileId: TILE_ID, tileName: 'Error rate', alerts: ['High errors', 'Error spike'] }],
  };
  const body = () => ({
    id: DASHBOARD_ID,
    name: 'Service overview',
    tiles: [
      { id: 'notes', name: 'Notes', config: { displayType: 'markdown', markdown: '# Runbook' } },
      { id: TILE_ID, name: 'Error rate', config: { displayType: 'line', sourceId: 'logs' } as Record<string, unknown> },
    ],
  });

  it('warns at the tiles key when a watched tile is removed, naming the alerts the service deletes', () => {
    const value = body();
    value.tiles = value.tiles.filter((t) => t.id !== TILE_ID);
    const issues = semanticIssues('dashboard', value, watched);
    assert.deepEqual(issues, [
      {
        path: ['tiles'],
        atKey: true,
        severity: 'warning',
        message: `Tile "Error rate" (${TILE_ID}) is missing: applying makes the service delete the alert(s) watching it: High errors, Error spike.`,
      },
    ]);
  });

  it('warns at the display type when a watched tile becomes one that cannot carry an alert', () => {
    const value = body();
    const index = value.tiles.findIndex((t) => t.id === TILE_ID);
    value.tiles[index]!.config.displayType = 'table';
    assert.deepEqual(semanticIssues('dashboard', value, watched), [
      {
        path: ['tiles', index, 'config', 'displayType'],
        severity: 'warning',
        message: 'A table tile cannot carry an alert: applying makes the service delete High errors, Error spike.',
      },
    ]);
  });

  it('finds nothing while watched tiles stay alertable', () => {
    assert.deepEqual(semanticIssues('dashboard', body(), watched), []);
  });

  it("accepts the empty valueExpression and where the service accepts in a tile's select", () => {
    assert.deepEqual(semanticIssues('dashboard', dashboardResponse(), watched), []);
  });
});

describe('Document checks: the write schema', () => {
  it("accepts the specification's create body as it is", () => {
    const result = schemaCheck('alert', true, seedAlertBody());
    assert.ok(result.ok);
    assert.deepEqual(result.data, seedAlertBody());
  });

  it('keeps keys this version does not know, at any depth, in the body that is sent', () => {
    const value = alert({
      futureTopLevel: { a: 1 },
      channel: { type: 'webhook', webhookId: WEBHOOK_ID, futureChannelOption: true },
    });
    const result = schemaCheck('alert', false, value);
    assert.ok(result.ok, JSON.stringify(result));
    assert.deepEqual(result.data, value);
  });

  it('points at the field of a wrong type', () => {
    const result = schemaCheck('alert', true, alert({ threshold: 'high' }));
    assert.equal(result.ok, false);
    assert.ok(
      !result.ok && result.issues.some((i) => i.path.join('.') === 'threshold' && i.severity === 'error'),
      JSON.stringify(result),
    );
  });

  it('checks a new dashboard against the create body and an existing one against the update body', () => {
    const created = schemaCheck('dashboard', true, { name: 'New board', tiles: [] });
    assert.ok(created.ok, JSON.stringify(created));
    assert.equal(schemaCheck('dashboard', true, { tiles: [] }).ok, false, 'a new dashboard needs a name');
  });

  it('warns of a key the user typed that this version does not know, but not of one the service sent', () => {
    const typed = unknownKeyIssues('alert', false, alert({ treshold: 5 }), alertResponse());
    assert.deepEqual(typed, [
      {
        path: ['treshold'],
        atKey: true,
        severity: 'warning',
        message:
          'Unknown field "treshold": not a field this version knows (a typo?). It is sent as typed; the service may ignore or reject it.',
      },
    ]);
    const fromService = { ...alertResponse(), futureField: 1 };
    assert.deepEqual(unknownKeyIssues('alert', false, fromService, fromService), []);
    assert.equal(unknownKeyIssues('alert', true, alert({ treshold: 5 }), undefined).length, 1);
  });

  it('leaves the unknown keys out of the part the other checks read', () => {
    assert.deepEqual(knownPart('alert', false, alert({ treshold: 5 })), alert());
  });
});

describe('Document checks: fields left out of an update', () => {
  it('says that an update keeps a field the document leaves out, and how to clear it', () => {
    const original = { ...alertResponse(), note: 'Runbook: /wiki/errors' };
    const value = { ...seedAlertBody() };
    const issues = leftOutIssues('alert', value, original);
    const note = issues.find((i) => i.message.startsWith('"note"'));
    assert.deepEqual(note, {
      path: [],
      severity: 'info',
      message: '"note" is left out: an update keeps its current value on the service. To clear it, set "note": null.',
    });
    assert.ok(!issues.some((i) => i.message.startsWith('"numConsecutiveWindows"')), 'null fields are not kept values');
  });

  it('counts channel and channels as one field', () => {
    const original = alertResponse();
    const issues = leftOutIssues('alert', seedAlertBody(), original);
    assert.ok(!issues.some((i) => /^"channels?"/.test(i.message)), shown(issues).join('\n'));
    const withoutChannel = seedAlertBody();
    delete withoutChannel.channel;
    assert.ok(leftOutIssues('alert', withoutChannel, original).some((i) => i.message.startsWith('"channel"')));
  });

  it('has nothing to say about a new document, or one that is not an alert', () => {
    assert.deepEqual(leftOutIssues('alert', seedAlertBody(), undefined), []);
    assert.deepEqual(leftOutIssues('dashboard', {}, dashboardResponse()), []);
  });
});

describe('Document checks: server messages and repeats', () => {
  it('places the service\'s "not found" texts at the field they are about', () => {
    assert.deepEqual(fieldOfServerMessage('Dashboard not found'), ['dashboardId']);
    assert.deepEqual(fieldOfServerMessage('tile not found on dashboard'), ['tileId']);
    assert.deepEqual(fieldOfServerMessage('Webhook not found'), ['channel', 'webhookId']);
    assert.deepEqual(fieldOfServerMessage('Saved search not found'), ['savedSearchId']);
  });

  it('places a quoted field name of the write bodies, with array indices as numbers', () => {
    assert.deepEqual(fieldOfServerMessage('"threshold" must be a number'), ['threshold']);
    assert.deepEqual(fieldOfServerMessage("invalid value at 'tiles.0.config'"), ['tiles', 0, 'config']);
    assert.deepEqual(fieldOfServerMessage('`thresholdMax` is required'), ['thresholdMax']);
  });

  it('places nothing it cannot tell', () => {
    assert.equal(fieldOfServerMessage(undefined), undefined);
    assert.equal(fieldOfServerMessage(''), undefined);
    assert.equal(fieldOfServerMessage('Internal server error'), undefined);
    assert.equal(fieldOfServerMessage('"password" is wrong'), undefined);
  });

  it('shows one problem once when the schema and the rules both report it', () => {
    const a: DocumentIssue = { path: ['name'], message: 'Empty text', severity: 'error' };
    const other: DocumentIssue = { path: ['message'], message: 'Empty text', severity: 'error' };
    assert.deepEqual(dedupeIssues([a, { ...a }, other, { ...a, severity: 'warning' }]), [a, other]);
  });
});
