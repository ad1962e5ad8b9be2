import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator';
import { client, dashboardBody, OBJECT_ID, resultOf, failOnResponseIssues } from './helpers';

failOnResponseIssues();

interface Tile {
  id: string;
  name: string;
  config: { displayType: string };
}
interface Dashboard {
  id: string;
  name: string;
  tiles: Tile[];
  tags: string[];
  containers?: unknown[];
}

describe('emulator: dashboards', () => {
  let emu: Emulator;
  let api: ReturnType<typeof client>;
  let webhookId: string;
  before(async () => {
    emu = await startEmulator({ rateLimit: false });
    api = client(emu);
  });
  beforeEach(async () => {
    emu.reset();
    webhookId = resultOf<{ id: string }[]>(await api.call('GET', '/webhooks'))[0]?.id ?? '';
  });
  after(() => emu.close());

  async function create(types: string[]): Promise<Dashboard> {
    const r = await api.call('POST', '/dashboards', dashboardBody('Payments', types));
    assert.equal(r.status, 200, r.text);
    return resultOf<Dashboard>(r);
  }

  async function tileAlert(d: Dashboard, tileIndex: number): Promise<string> {
    const r = await api.call('POST', '/alerts', {
      source: 'tile',
      dashboardId: d.id,
      tileId: d.tiles[tileIndex]?.id,
      threshold: 5,
      thresholdType: 'above',
      interval: '5m',
      channel: { type: 'webhook', webhookId },
      name: `alert on tile ${tileIndex}`,
    });
    assert.equal(r.status, 200, r.text);
    return resultOf<{ id: string }>(r).id;
  }

  async function alertExists(id: string): Promise<boolean> {
    return (await api.call('GET', `/alerts/${id}`)).status === 200;
  }

  it('regenerates every tile id on create', async () => {
    const d = await create(['line', 'number', 'markdown']);
    assert.equal(d.tiles.length, 3);
    for (const t of d.tiles) {
      assert.match(t.id, OBJECT_ID);
      assert.ok(!t.id.startsWith('client-tile'));
    }
    assert.equal(new Set(d.tiles.map((t) => t.id)).size, 3);
    assert.deepEqual(d.tags, []);
    assert.equal('containers' in d, false);
    const got = resultOf<Dashboard>(await api.call('GET', `/dashboards/${d.id}`));
    assert.deepEqual(got, d);
  });

  it('keeps matching tile ids on PUT and regenerates the others', async () => {
    const d = await create(['line', 'stacked_bar']);
    const body = {
      name: 'Payments v2',
      tiles: [
        { id: d.tiles[0]?.id, name: 'kept', x: 0, y: 0, w: 6, h: 3, config: d.tiles[0]?.config },
        { id: 'made-up', name: 'new', x: 6, y: 0, w: 6, h: 3, config: d.tiles[1]?.config },
      ],
    };
    const r = await api.call('PUT', `/dashboards/${d.id}`, body);
    assert.equal(r.status, 200, r.text);
    const next = resultOf<Dashboard>(r);
    assert.equal(next.name, 'Payments v2');
    assert.equal(next.tiles[0]?.id, d.tiles[0]?.id);
    assert.notEqual(next.tiles[1]?.id, 'made-up');
    assert.notEqual(next.tiles[1]?.id, d.tiles[1]?.id);
    assert.match(next.tiles[1]?.id ?? '', OBJECT_ID);
  });

  it('deletes alerts of removed, renamed and no-longer-alertable tiles on PUT', async () => {
    const d = await create(['line', 'number', 'stacked_bar', 'line']);
    const kept = await tileAlert(d, 0);
    const removed = await tileAlert(d, 1);
    const renamed = await tileAlert(d, 2);
    const retyped = await tileAlert(d, 3);
    const t = d.tiles;
    const r = await api.call('PUT', `/dashboards/${d.id}`, {
      name: d.name,
      tiles: [
        { id: t[0]?.id, name: 'a', x: 0, y: 0, w: 6, h: 2, config: t[0]?.config },
        { id: 'renamed-tile', name: 'b', x: 0, y: 2, w: 6, h: 2, config: t[2]?.config },
        { id: t[3]?.id, name: 'c', x: 0, y: 4, w: 6, h: 2, config: { displayType: 'markdown', markdown: 'now text' } },
      ],
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(await alertExists(kept), true);
    assert.equal(await alertExists(removed), false);
    assert.equal(await alertExists(renamed), false);
    assert.equal(await alertExists(retyped), false);
  });

  it('accepts a builder alert on a markdown tile, then drops it on the next PUT (K14)', async () => {
    const d = await create(['markdown']);
    const id = await tileAlert(d, 0);
    const r = await api.call('PUT', `/dashboards/${d.id}`, {
      name: d.name,
      tiles: [{ id: d.tiles[0]?.id, name: 'm', x: 0, y: 0, w: 4, h: 2, config: d.tiles[0]?.config }],
    });
    assert.equal(r.status, 200);
    assert.equal(await alertExists(id), false);
  });

  it('deletes the alerts of a deleted dashboard', async () => {
    const d = await create(['line', 'number']);
    const a = await tileAlert(d, 0);
    const b = await tileAlert(d, 1);
    assert.equal((await api.call('DELETE', `/dashboards/${d.id}`)).status, 200);
    assert.equal(await alertExists(a), false);
    assert.equal(await alertExists(b), false);
    assert.equal((await api.call('DELETE', `/dashboards/${d.id}`)).status, 404);
  });

  it('keeps omitted optional fields on PUT and replaces sent ones', async () => {
    const seeded = resultOf<Dashboard[]>(await api.call('GET', '/dashboards')).find(
      (x) => x.name === 'Ingest pipeline',
    );
    assert.ok(seeded?.containers && seeded.containers.length === 2);
    const r = await api.call('PUT', `/dashboards/${seeded.id}`, {
      name: seeded.name,
      tiles: seeded.tiles,
      tags: ['a', 'a', 'b'],
    });
    assert.equal(r.status, 200, r.text);
    const next = resultOf<Dashboard>(r);
    assert.deepEqual(next.tags, ['a', 'b']);
    assert.equal(next.containers?.length, 2);
    assert.deepEqual(
      next.tiles.map((t) => t.id),
      seeded.tiles.map((t) => t.id),
    );
  });

  it('applies the server rules beyond the schema', async () => {
    const cases: [unknown, RegExp][] = [
      [{ name: '', tiles: [] }, /\/name: must not be empty/],
      [
        { name: 'x', tiles: [{ name: 't', x: 30, y: 0, w: 4, h: 2, config: { displayType: 'markdown' } }] },
        /\/tiles\/0\/x/,
      ],
      [{ name: 'x', tiles: [{ name: 't', x: 0, y: 0, w: 4, h: 2 }] }, /exactly one of config or series/],
      [
        {
          name: 'x',
          tiles: [
            {
              name: 't',
              x: 0,
              y: 0,
              w: 4,
              h: 2,
              config: { displayType: 'number', sourceId: 's', select: [{ aggFn: 'count' }, { aggFn: 'sum' }] },
            },
          ],
        },
        /exactly 1 select/,
      ],
      [
        {
          name: 'x',
          tiles: [
            { id: 'a', name: 't', x: 0, y: 0, w: 4, h: 2, config: { displayType: 'markdown' } },
            { id: 'a', name: 'u', x: 0, y: 0, w: 4, h: 2, config: { displayType: 'markdown' } },
          ],
        },
        /duplicate tile id/,
      ],
      [
        {
          name: 'x',
          tiles: [{ name: 't', x: 0, y: 0, w: 4, h: 2, containerId: 'nope', config: { displayType: 'markdown' } }],
        },
        /container "nope" is not declared/,
      ],
      [{ name: 'x', tiles: [], savedQuery: 'a', savedQueryLanguage: null }, /savedQueryLanguage/],
      [
        {
          name: 'x',
          tiles: [],
          filters: [{ type: 'QUERY_EXPRESSION', name: 'n', expression: 'e', sourceId: 's', extra: 1 }],
        },
        /\/filters\/0\/extra: unrecognized key/,
      ],
      [
        {
          name: 'x',
          tiles: [
            {
              name: 't',
              x: 0,
              y: 0,
              w: 4,
              h: 2,
              config: { displayType: 'line', sourceId: 's', select: [{ aggFn: 'median' }] },
            },
          ],
        },
        /\/tiles\/0\/config\/select\/0\/aggFn: must be one of/,
      ],
    ];
    for (const [body, expected] of cases) {
      const r = await api.call('POST', '/dashboards', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(String(r.json.error), expected);
    }
  });

  it('validates without persisting', async () => {
    const before = resultOf<unknown[]>(await api.call('GET', '/dashboards')).length;
    const good = await api.call('POST', '/dashboards/validate', dashboardBody('Draft', ['line', 'table']));
    assert.equal(good.status, 200);
    const v = resultOf<{ valid: boolean; errors: unknown[]; normalized: { tiles: unknown[] } | null }>(good);
    assert.equal(v.valid, true);
    assert.deepEqual(v.errors, []);
    assert.equal(v.normalized?.tiles.length, 2);
    const bad = resultOf<{ valid: boolean; errors: { path: string; message: string }[]; normalized: unknown }>(
      await api.call('POST', '/dashboards/validate', {
        name: 'x',
        tiles: [{ name: 't', x: 0, y: 0, w: 40, h: 2, config: { displayType: 'markdown' } }],
      }),
    );
    assert.equal(bad.valid, false);
    // Dot-separated, as the API documents (`tiles.0.config`).
    assert.equal(bad.errors[0]?.path, 'tiles.0.w');
    assert.equal(bad.normalized, null);
    assert.equal(resultOf<unknown[]>(await api.call('GET', '/dashboards')).length, before);
  });

  it('converts legacy series tiles to config', async () => {
    const r = await api.call('POST', '/dashboards', {
      name: 'Legacy',
      tiles: [
        {
          name: 'old',
          x: 0,
          y: 0,
          w: 6,
          h: 3,
          series: [
            {
              type: 'time',
              sourceId: 's1',
              aggFn: 'count',
              where: '',
              whereLanguage: 'lucene',
              groupBy: ['ServiceName'],
            },
          ],
        },
      ],
    });
    assert.equal(r.status, 200, r.text);
    const tile = resultOf<Dashboard>(r).tiles[0] as Tile & { series?: unknown; config: Record<string, unknown> };
    assert.equal(tile.series, undefined);
    assert.equal(tile.config.displayType, 'line');
    assert.equal(tile.config.groupBy, 'ServiceName');
  });

  it('returns 400 for an id that is not an ObjectId', async () => {
    const r = await api.call('GET', '/dashboards/not-an-id');
    assert.equal(r.status, 400);
    assert.equal(r.json.error, 'Invalid ObjectId');
  });
});
