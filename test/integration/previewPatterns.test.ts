/**
 * Event pattern tiles previewed in VS Code against the emulator, on both kinds of connection (Cloud: the sample query
 * on the query endpoint's ClickHouse; self-hosted: the search and chart series APIs), with the emulator's clock frozen
 * at the golden values' time: the seeded "Payment log patterns" tile over 15 minutes and an hour (ranges whose rows
 * all fit in the sample, so the patterns do not depend on the random order) gives the patterns, counts, levels and
 * trends recorded with drain3's own Python source (`test/unit/preview/patterns-golden.json`), and the panel draws
 * them as HyperDX's pattern table with the extrapolation said in the subtitle.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { SELF_HOSTED_SERVICE_ID } from '../../src/api/oss';
import type { PreviewApi } from '../../src/preview';
import type { PatternsData } from '../../src/preview/protocol';
import { startEmulator, type Emulator } from '../emulator/server';
import { ossData } from '../emulator/oss/seed';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import { NOW, RANGES } from '../unit/preview/patternsSeeded';
import { activate, configure, exportedApi } from './support';

interface GoldenRange {
  name: string;
  times: number[];
  sampled: number;
  total: number;
  patterns: { pattern: string; count: number; level: string; trend: number[] }[];
}
const golden = (
  JSON.parse(
    readFileSync(join(__dirname, '..', '..', '..', 'test', 'unit', 'preview', 'patterns-golden.json'), 'utf8'),
  ) as { seeded: GoldenRange[] }
).seeded;

type SeededTile = { id: string; name: string; config: Record<string, unknown> };
type SeededDashboard = { id: string; name: string; tiles: SeededTile[] };

const FLAVORS = [
  {
    name: 'Cloud',
    async connect(
      emulator: Emulator,
    ): Promise<{ connectionId: string; serviceId: string; dashboards: SeededDashboard[] }> {
      const serviceId = emulator.serviceIds[0]!;
      const connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
        baseUrl: emulator.url,
        keyId: emulator.keyId,
        keySecret: emulator.keySecret,
        organizationId: emulator.organizationId,
        serviceIds: [serviceId],
        label: 'Patterns (emulator)',
        skipCheck: true,
      });
      await vscode.commands.executeCommand('observability.setQueryHost', { connectionId, queryUrl: emulator.queryUrl });
      emulator.state.data.get(serviceId)!.queryEndpoint = {
        id: 'e1f0c8e2-3a4d-4e5f-8a6b-7c8d9e0f1a2d',
        roles: ['sql_console_read_only'],
        openApiKeys: [SAMPLE_KEY_UUID],
        allowedOrigins: '',
      };
      const dashboards = [...emulator.state.data.get(serviceId)!.dashboards.values()] as unknown as SeededDashboard[];
      return { connectionId, serviceId, dashboards };
    },
  },
  {
    name: 'self-hosted',
    flavor: 'oss' as const,
    async connect(
      emulator: Emulator,
    ): Promise<{ connectionId: string; serviceId: string; dashboards: SeededDashboard[] }> {
      const connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
        kind: 'selfHosted',
        baseUrl: emulator.url,
        apiKey: emulator.ossApiKey,
      });
      const dashboards = [...ossData(emulator.state).dashboards.values()] as unknown as SeededDashboard[];
      return { connectionId, serviceId: SELF_HOSTED_SERVICE_ID, dashboards };
    },
  },
];

for (const flavor of FLAVORS) {
  describe(`Event pattern tile previews (${flavor.name})`, function () {
    this.timeout(240_000);
    let emulator: Emulator;
    let connectionId = '';
    let serviceId = '';
    let dashboard: SeededDashboard;
    let tile: SeededTile;

    before(async () => {
      await configure('rateLimit.requestsPerWindow', 1000);
      emulator = await startEmulator({
        rateLimit: false,
        now: NOW,
        ...(flavor.flavor ? { flavor: flavor.flavor } : {}),
      });
      await activate();
      const c = await flavor.connect(emulator);
      ({ connectionId, serviceId } = c);
      assert.ok(connectionId, 'the connection was added');
      dashboard = c.dashboards.find((d) => d.tiles.some((t) => t.config.displayType === 'event_patterns'))!;
      assert.ok(dashboard, 'a seeded dashboard with an event pattern tile');
      tile = dashboard.tiles.find((t) => t.config.displayType === 'event_patterns')!;
    });

    after(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      if (connectionId) {
        await vscode.commands.executeCommand('observability.removeConnection', { connectionId, noPrompt: true });
      }
      await configure('rateLimit.requestsPerWindow', undefined);
      await emulator?.close();
    });

    for (const range of RANGES.filter((r) => r.name !== '6 h')) {
      it(`gives the golden patterns, counts, levels and trends and draws them as a pattern table (${range.name})`, async () => {
        const expected = golden.find((g) => g.name === range.name)!;
        const api = exportedApi<{ preview: PreviewApi }>();
        const data = (await api.preview.tileData(
          { connectionId, serviceId },
          { dashboardId: dashboard.id, tileId: tile.id },
          { from: range.from, to: range.to },
        )) as PatternsData;
        assert.equal(data.kind, 'patterns', JSON.stringify(data).slice(0, 500));
        assert.equal(data.sampled, expected.sampled);
        assert.equal(data.total, expected.total);
        assert.deepEqual(data.times, expected.times);
        // Cluster IDs and the order of ties follow the sample's random order; the patterns do not.
        const key = (p: { pattern: string; count: number; level?: string | undefined; trend: number[] }) =>
          JSON.stringify([p.pattern, p.count, p.level, p.trend]);
        assert.deepEqual(data.patterns.map(key).sort(), expected.patterns.map(key).sort());
        assert.deepEqual(
          data.patterns.map((p) => p.count),
          expected.patterns.map((p) => p.count),
        );
        // The panel's subtitle (the source, then how the counts came about): the total counts the range aligned to
        // the count chart's buckets, more rows than were mined, so the counts are extrapolated as HyperDX's are.
        assert.match(
          data.subtitle ?? '',
          new RegExp(`· ~ counts extrapolated from ${expected.sampled} rows to ${expected.total} in total$`),
        );

        // The panel, in the same range (a restored panel takes its range from its saved state).
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        const panel = vscode.window.createWebviewPanel('observability.preview', 'restored', vscode.ViewColumn.One, {});
        const out = await api.preview.restore('preview', panel, {
          range: { preset: 'custom', from: range.from, to: range.to },
          restore: { kind: 'tile', args: { connectionId, serviceId, dashboardId: dashboard.id, tileId: tile.id } },
        });
        assert.equal(out.ok, true, out.error);
        const s = out.rendered!;
        assert.equal(s.kind, 'patterns');
        assert.equal(s.dataTables, 1, 'the trends as a table');
        assert.match(s.text, new RegExp(`^${tile.name} `));
        assert.ok(s.text.includes('Trend Count Level Pattern'), s.text);
        for (const p of expected.patterns) {
          assert.ok(s.text.includes(`~${p.count} ${p.level} ${p.pattern}`), `${p.pattern} in\n${s.text}`);
        }
        assert.equal(s.text.match(/ ~\d+ /g)?.length, expected.patterns.length, s.text);
        if (flavor.name === 'Cloud') assert.match(out.sql ?? '', /ORDER BY rand\(\) DESC LIMIT 10000$/);
        else assert.match(out.request ?? '', /"orderBy": "rand\(\) DESC"[\s\S]*\/api\/v2\/charts\/series/);
      });
    }
  });
}
