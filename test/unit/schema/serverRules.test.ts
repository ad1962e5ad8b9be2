import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { schemaCheck } from '../../../src/jsonDocuments/checks';
import type { ServerKind } from '../../../src/schema';
import { dashboardBody, seedAlertBody, SOURCE_ID } from './fixtures';

type Json = Record<string, unknown>;

/** What a check says of a body on each server kind: `ok` with its warnings' paths, or the errors' paths. */
function verdict(kind: 'dashboard' | 'alert', body: Json, server: ServerKind | undefined) {
  const checked = schemaCheck(kind, true, body, server);
  return checked.ok
    ? { ok: true, warnings: checked.warnings.map((w) => `${w.path.join('.')}: ${w.message}`) }
    : {
        ok: false,
        errors: checked.issues.filter((i) => i.severity === 'error').map((i) => `${i.path.join('.')}: ${i.message}`),
      };
}

function withIncrease(): Json {
  const body = dashboardBody();
  const tile = (body.tiles as Json[])[0]!;
  (tile.config as Json).select = [{ aggFn: 'increase', valueExpression: 'Value', where: '', whereLanguage: 'lucene' }];
  return body;
}

function withFilter(type: string): Json {
  const body = dashboardBody();
  body.filters = [{ type, name: 'Region', expression: 'region', sourceId: SOURCE_ID, values: ['eu', 'us'] }];
  return body;
}

function inlineAlert(): Json {
  const body = seedAlertBody();
  for (const k of ['dashboardId', 'tileId', 'savedSearchId']) delete body[k];
  return {
    ...body,
    source: 'inline',
    chartConfig: { displayType: 'line', sourceId: SOURCE_ID, select: [{ aggFn: 'count' }] },
  };
}

const CASES: [string, 'dashboard' | 'alert', () => Json, string][] = [
  ['a series aggFn "increase"', 'dashboard', withIncrease, 'tiles.0.config.select.0.aggFn'],
  ['a STATIC_LIST filter', 'dashboard', () => withFilter('STATIC_LIST'), 'filters.0.type'],
  ['a PROMETHEUS_LABEL filter', 'dashboard', () => withFilter('PROMETHEUS_LABEL'), 'filters.0.type'],
  ['an inline alert', 'alert', inlineAlert, 'source'],
];

describe('Checks that follow the server a body is sent to', () => {
  for (const [what, kind, body, path] of CASES) {
    it(`${what}: blocked on Cloud, saying the Cloud API does not accept it`, () => {
      const v = verdict(kind, body(), 'cloud');
      assert.equal(v.ok, false);
      assert.ok(
        v.errors!.some((e) => e.startsWith(`${path}: `) && /not accepted by ClickHouse Cloud/.test(e)),
        v.errors!.join('\n'),
      );
    });
    it(`${what}: a warning on a self-hosted deployment (newer HyperDX accepts it; the server decides)`, () => {
      const v = verdict(kind, body(), 'selfHosted');
      assert.equal(v.ok, true, JSON.stringify(v));
      assert.equal(v.warnings!.length, 1, v.warnings!.join('\n'));
      assert.match(v.warnings![0]!, new RegExp(`^${path.replace(/\./g, '\\.')}: .*newer HyperDX versions only`));
    });
    it(`${what}: the local schema alone still refuses it (no server named)`, () => {
      assert.equal(verdict(kind, body(), undefined).ok, false);
    });
  }

  it('what every version refuses stays blocked on a self-hosted deployment', () => {
    const body = withIncrease();
    (((body.tiles as Json[])[0]!.config as Json).select as Json[])[0]!.aggFn = 'median';
    const v = verdict('dashboard', body, 'selfHosted');
    assert.equal(v.ok, false);
    const inline = inlineAlert();
    inline.threshold = 'high';
    const w = verdict('alert', inline, 'selfHosted');
    assert.equal(w.ok, false);
    assert.ok(
      w.errors!.some((e) => e.startsWith('threshold: ')),
      w.errors!.join('\n'),
    );
  });

  for (const key of ['displayName', 'tags'] as const) {
    it(`an alert "${key}": a warning on both kinds (a server that does not know it drops it), kept as an unknown field without a server`, () => {
      const body = { ...seedAlertBody(), [key]: key === 'tags' ? ['checkout'] : 'Checkout latency' };
      const cloud = verdict('alert', body, 'cloud');
      assert.equal(cloud.ok, true);
      assert.equal(cloud.warnings!.length, 1);
      assert.match(
        cloud.warnings![0]!,
        new RegExp(`^${key}: .*not in ClickHouse Cloud's API: the service may drop it`),
      );
      const selfHosted = verdict('alert', body, 'selfHosted');
      assert.equal(selfHosted.ok, true);
      assert.equal(selfHosted.warnings!.length, 1);
      assert.match(selfHosted.warnings![0]!, new RegExp(`^${key}: .*newer HyperDX versions only`));
      const checked = schemaCheck('alert', true, body, 'selfHosted');
      assert.ok(checked.ok);
      assert.deepEqual((checked.data as Json)[key], body[key], 'sent as written');
      assert.deepEqual(verdict('alert', body, undefined), { ok: true, warnings: [] });
    });
  }

  it('what the server itself sent (its own version holds the same value) is neither warned about nor blocked; a changed value is', () => {
    const served = { ...seedAlertBody(), displayName: 'Checkout latency', tags: ['checkout'] };
    for (const server of ['cloud', 'selfHosted'] as const) {
      const same = schemaCheck('alert', false, { ...served }, server, served);
      assert.ok(same.ok);
      assert.deepEqual(same.warnings, [], server);
      const edited = schemaCheck('alert', false, { ...served, tags: ['checkout', 'p1'] }, server, served);
      assert.ok(edited.ok);
      assert.deepEqual(
        edited.warnings.map((w) => w.path.join('.')),
        ['tags'],
        server,
      );
    }
    // An increase tile a Cloud service sent back is its own: not blocked there; a new one is.
    const body = withIncrease();
    assert.equal(schemaCheck('dashboard', true, body, 'cloud', withIncrease()).ok, true);
    assert.equal(schemaCheck('dashboard', true, body, 'cloud', dashboardBody()).ok, false);
  });

  it('a body every version accepts has no warning on either kind', () => {
    for (const server of ['cloud', 'selfHosted'] as const) {
      assert.deepEqual(verdict('dashboard', dashboardBody(), server), { ok: true, warnings: [] });
      assert.deepEqual(verdict('alert', seedAlertBody(), server), { ok: true, warnings: [] });
    }
  });
});
