import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEmulator, type Emulator, type HyperdxVersion } from '../../emulator';
import { dashboardBody, failOnResponseIssues } from './helpers';

failOnResponseIssues();

type Json = Record<string, unknown>;

async function call(
  emu: Emulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${emu.url}/api/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${emu.ossApiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Json) : {} };
}

/** A dashboard with a sum metric's `increase` tile and a STATIC_LIST filter (the newest HyperDX only). */
function newerDashboard(metricSourceId: string, logSourceId: string): Json {
  return {
    ...dashboardBody('Jobs', ['line'], metricSourceId),
    tiles: [
      {
        name: 'Jobs processed',
        x: 0,
        y: 0,
        w: 12,
        h: 3,
        config: {
          displayType: 'line',
          sourceId: metricSourceId,
          select: [
            { aggFn: 'increase', metricName: 'app.jobs.processed', metricType: 'sum', valueExpression: 'Value' },
          ],
        },
      },
    ],
    filters: [
      { type: 'STATIC_LIST', name: 'Region', expression: 'region', sourceId: logSourceId, values: ['eu', 'us'] },
      { type: 'QUERY_EXPRESSION', name: 'Service', expression: 'ServiceName', sourceId: logSourceId },
      {
        type: 'PROMETHEUS_LABEL',
        name: 'Job',
        isBroadcastEnabled: false,
        isVariableEnabled: true,
        variableName: 'job',
      },
    ],
  };
}

function inlineAlert(sourceId: string, webhookId: string, extra: Json = {}): Json {
  return {
    name: 'Error burst',
    source: 'inline',
    chartConfig: { displayType: 'line', sourceId, select: [{ aggFn: 'count', where: 'SeverityText:error' }] },
    threshold: 10,
    thresholdType: 'above',
    interval: '5m',
    channel: { type: 'webhook', webhookId },
    ...extra,
  };
}

for (const version of ['newest', 'older'] as HyperdxVersion[]) {
  describe(`emulator: self-hosted flavor answering as the ${version} HyperDX`, () => {
    let emu: Emulator;
    let sources: { id: string; kind: string }[];
    let webhookId: string;
    const idOf = (kind: string): string => sources.find((s) => s.kind === kind)!.id;
    before(async () => {
      emu = await startEmulator({
        flavor: 'oss',
        rateLimit: false,
        ...(version === 'older' ? { hyperdxVersion: 'older' } : {}),
      });
    });
    beforeEach(async () => {
      emu.reset();
      sources = (await call(emu, 'GET', '/sources')).json.data as { id: string; kind: string }[];
      webhookId = ((await call(emu, 'GET', '/webhooks')).json.data as { id: string }[])[0]!.id;
    });
    after(() => emu.close());

    it(
      version === 'newest'
        ? 'stores an increase tile and a STATIC_LIST filter as sent'
        : "refuses increase and STATIC_LIST in HyperDX's 400 shape",
      async () => {
        const body = newerDashboard(idOf('metric'), idOf('log'));
        const created = await call(emu, 'POST', '/dashboards', body);
        if (version === 'older') {
          assert.equal(created.status, 400);
          assert.deepEqual(Object.keys(created.json), ['message']);
          assert.match(String(created.json.message), /^Body validation failed: tiles\.0\.config/);
          const noIncrease = structuredClone(body);
          ((noIncrease.tiles as Json[])[0]!.config as { select: Json[] }).select[0]!.aggFn = 'sum';
          const filter = await call(emu, 'POST', '/dashboards', noIncrease);
          assert.equal(filter.status, 400);
          assert.match(String(filter.json.message), /^Body validation failed: filters\.0/);
          return;
        }
        assert.equal(created.status, 200, JSON.stringify(created.json));
        const id = (created.json.data as Json).id as string;
        const read = (await call(emu, 'GET', `/dashboards/${id}`)).json.data as Json;
        const select = ((read.tiles as Json[])[0]!.config as { select: Json[] }).select;
        assert.equal(select[0]!.aggFn, 'increase');
        const filters = read.filters as Json[];
        assert.deepEqual(
          filters.map((f) => [f.type, f.name]),
          [
            ['STATIC_LIST', 'Region'],
            ['QUERY_EXPRESSION', 'Service'],
            ['PROMETHEUS_LABEL', 'Job'],
          ],
        );
        assert.deepEqual(filters[0]!.values, ['eu', 'us'], 'the new filter type is kept whole');
        assert.equal(typeof filters[0]!.id, 'string');
        // Validation answers alike; a new filter type's flags are fixed.
        const valid = await call(emu, 'POST', '/dashboards/validate', body);
        assert.equal((valid.json as { valid?: boolean }).valid, true, JSON.stringify(valid.json));
        const broadcast = structuredClone(body);
        (broadcast.filters as Json[])[0]!.isBroadcastEnabled = true;
        const refused = await call(emu, 'POST', '/dashboards', broadcast);
        assert.equal(refused.status, 400);
        assert.match(String(refused.json.message), /^Body validation failed: filters\.0/);
      },
    );

    it(
      version === 'newest'
        ? 'accepts an inline alert, names and tags every alert'
        : 'refuses an inline alert and drops displayName and tags',
      async () => {
        const inline = await call(emu, 'POST', '/alerts', inlineAlert(idOf('log'), webhookId));
        const named = await call(emu, 'POST', '/alerts', {
          ...inlineAlert(idOf('log'), webhookId, { displayName: 'Checkout errors', tags: ['checkout'] }),
          source: 'saved_search',
          chartConfig: undefined,
          savedSearchId: ((await call(emu, 'GET', '/saved-searches')).json.data as Json[])[0]!.id,
        });
        if (version === 'older') {
          assert.equal(inline.status, 400);
          assert.deepEqual(inline.json, {
            message: 'Body validation failed: source: must be one of "saved_search", "tile"',
          });
          assert.equal(named.status, 200, JSON.stringify(named.json));
          const alert = named.json.data as Json;
          assert.equal(alert.displayName, undefined, 'an older deployment drops what it does not know');
          assert.equal(alert.tags, undefined);
          const listed = (await call(emu, 'GET', '/alerts')).json.data as Json[];
          assert.ok(listed.every((a) => a.displayName === undefined));
          return;
        }
        assert.equal(inline.status, 200, JSON.stringify(inline.json));
        const created = inline.json.data as Json;
        assert.equal(created.source, 'inline');
        assert.equal((created.chartConfig as Json).displayType, 'line');
        assert.equal(created.displayName, 'Error burst', "an inline alert's derived display name is its name");
        assert.deepEqual(created.tags, []);
        const one = (await call(emu, 'GET', `/alerts/${String(created.id)}`)).json.data as Json;
        assert.deepEqual(one.chartConfig, created.chartConfig, 'one alert carries its chart');
        const listed = (await call(emu, 'GET', '/alerts')).json.data as Json[];
        const inList = listed.find((a) => a.id === created.id)!;
        assert.equal(inList.chartConfig, undefined, 'the list omits the chart');
        assert.ok(
          listed.every((a) => typeof a.displayName === 'string' && Array.isArray(a.tags)),
          'always in responses',
        );
        // Derived for a tile alert: "dashboard – tile".
        const tile = listed.find((a) => a.source === 'tile')!;
        const dashboard = (await call(emu, 'GET', `/dashboards/${String(tile.dashboardId)}`)).json.data as Json;
        const tileName = (dashboard.tiles as Json[]).find((t) => t.id === tile.tileId)!.name;
        assert.equal(tile.displayName, `${String(dashboard.name)} – ${String(tileName)}`);

        assert.equal(named.status, 200, JSON.stringify(named.json));
        assert.equal((named.json.data as Json).displayName, 'Checkout errors');
        assert.deepEqual((named.json.data as Json).tags, ['checkout']);

        const tooLong = await call(
          emu,
          'POST',
          '/alerts',
          inlineAlert(idOf('log'), webhookId, { displayName: 'x'.repeat(513) }),
        );
        assert.equal(tooLong.status, 400);
        assert.match(String(tooLong.json.message), /^Body validation failed: displayName/);
        const table = await call(
          emu,
          'POST',
          '/alerts',
          inlineAlert(idOf('log'), webhookId, {
            chartConfig: { displayType: 'table', sourceId: idOf('log'), select: [{ aggFn: 'count' }] },
          }),
        );
        assert.equal(table.status, 400, 'line, stacked_bar or number only');
        assert.deepEqual(Object.keys(table.json), ['message']);
        const onTile = await call(emu, 'POST', '/alerts', {
          ...inlineAlert(idOf('log'), webhookId),
          source: 'tile',
          dashboardId: tile.dashboardId,
          tileId: tile.tileId,
        });
        assert.equal(onTile.status, 400, 'a chartConfig on another source is refused');
        assert.match(String(onTile.json.message), /chartConfig/);
      },
    );

    it(version === 'newest' ? 'charts the increase of a sum metric' : 'refuses an increase series', async () => {
      const end = Date.now();
      const series = (aggFn: string, metricDataType = 'sum') => ({
        startTime: end - 3600_000,
        endTime: end,
        granularity: '5m',
        series: [
          {
            sourceId: idOf('metric'),
            aggFn,
            where: '',
            groupBy: [],
            metricName: 'app.jobs.processed',
            metricDataType,
          },
        ],
      });
      const increase = await call(emu, 'POST', '/charts/series', series('increase'));
      if (version === 'older') {
        assert.equal(increase.status, 400);
        assert.match(String(increase.json.message), /^Body validation failed: series\.0\.aggFn: must be one of/);
        return;
      }
      assert.equal(increase.status, 200, JSON.stringify(increase.json));
      const rows = increase.json.data as Json[];
      assert.ok(rows.length > 0);
      assert.ok(rows.every((r) => typeof r['series_0.data'] === 'number' && (r['series_0.data'] as number) >= 0));
      // The per-bucket increases of every worker, added up: what `sum` over the same counter answers.
      const sum = await call(emu, 'POST', '/charts/series', series('sum'));
      assert.deepEqual(rows, sum.json.data);
      const avg = await call(emu, 'POST', '/charts/series', series('avg'));
      assert.notDeepEqual(rows, avg.json.data, 'not the average over the workers');
      const gauge = await call(emu, 'POST', '/charts/series', series('increase', 'gauge'));
      assert.equal(gauge.status, 500);
      assert.match(JSON.stringify(gauge.json), /only supported for Sum \(counter\) metrics/);
    });
  });
}
