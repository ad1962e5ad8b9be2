/**
 * Search Events on a tile of the preview, in VS Code against the Cloud emulator (frozen clock): the search it opens
 * reads the tile's source with the tile's condition over the range the tile was drawn for, and its histogram counts
 * what plain SQL counts on that condition (and what the number tile shows); a dashboard offers it on each tile that
 * reads a source.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ConnectionManager } from '../../src/connections/manager';
import type { PreviewApi, PreviewOutcome } from '../../src/preview';
import type { QueryApi } from '../../src/query';
import type { SearchOutcome } from '../../src/search';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import { startEmulator, type Emulator } from '../emulator/server';
import { activate, configure } from './support';

interface Api {
  readonly connections: ConnectionManager;
  readonly query: QueryApi;
  readonly preview: PreviewApi;
}

type Source = { id: string; kind: string; from: { databaseName: string; tableName: string } };
type Tile = { id: string; name: string; config: Record<string, unknown> };
type Dashboard = { id: string; name: string; tiles: Tile[] };

const HOUR = 3_600_000;

describe('Search Events from a tile preview', function () {
  this.timeout(600_000);
  let cloud: Emulator;
  let api: Api;
  let connectionId = '';
  let serviceId = '';

  before(async () => {
    await configure('rateLimit.requestsPerWindow', 1000);
    cloud = await startEmulator({ rateLimit: false, now: 'start' });
    api = await activate<Api>();
    serviceId = cloud.serviceIds[0]!;
    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: cloud.url,
      keyId: cloud.keyId,
      keySecret: cloud.keySecret,
      organizationId: cloud.organizationId,
      serviceIds: [serviceId],
      label: 'Cloud tile search',
      skipCheck: true,
    });
    await vscode.commands.executeCommand('observability.setQueryHost', { connectionId, queryUrl: cloud.queryUrl });
    cloud.state.data.get(serviceId)!.queryEndpoint = {
      id: 'e1f0c8e2-3a4d-4e5f-8a6b-7c8d9e0f1a3d',
      roles: ['sql_console_read_only'],
      openApiKeys: [SAMPLE_KEY_UUID],
      allowedOrigins: '',
    };
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, noPrompt: true });
    }
    await configure('rateLimit.requestsPerWindow', undefined);
    await cloud?.close();
  });

  const client = () => api.connections.clientFor(connectionId);
  const serviceDashboard = async (): Promise<Dashboard> => {
    const list = (await client().listDashboards(serviceId)).data as unknown as Dashboard[];
    const d = list.find((x) => x.tiles.some((t) => t.name === 'Error rate'));
    assert.ok(d, 'the service dashboard');
    return d;
  };
  const sourceById = async (id: string): Promise<Source> => {
    const sources = (await client().listSources(serviceId)).data as unknown as Source[];
    const s = sources.find((x) => x.id === id);
    assert.ok(s, `the source ${id}`);
    return s;
  };
  const count = async (source: Source, range: { from: number; to: number }, sql: string): Promise<number> => {
    const table = `\`${source.from.databaseName}\`.\`${source.from.tableName}\``;
    // As the search reads them: traces by their nanosecond time, logs by their time in seconds.
    const time =
      source.kind === 'log'
        ? `TimestampTime >= toDateTime(${Math.floor(range.from / 1000)}) AND TimestampTime <= toDateTime(${Math.floor(range.to / 1000)})`
        : `Timestamp >= toDateTime64(${range.from / 1000}, 9) AND Timestamp <= toDateTime64(${range.to / 1000}, 9)`;
    const where = `${time} AND (${sql})`;
    const rows = (
      await api.query.run(connectionId, {
        serviceId,
        sql: `SELECT count() FROM ${table} WHERE ${where}`,
        maxRows: 10,
        maxBytes: 1024 * 1024,
      })
    ).rows;
    return Number(rows[0]?.[0]);
  };

  it("a number tile's search has its source, its series' condition and its range, and counts what the tile shows", async () => {
    const d = await serviceDashboard();
    const tile = d.tiles.find((t) => t.name === 'Error rate')!;
    const item = (tile.config.select as { where: string }[])[0]!;
    // The preview keeps the range it last drew (a suite before this one restores a panel with a custom range): this
    // test starts from the last hour, as a new preview panel does.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const fresh = vscode.window.createWebviewPanel('observability.preview', 'preview', vscode.ViewColumn.One, {});
    const reset = await api.preview.restore('preview', fresh, {
      range: { preset: '1h' },
      restore: { kind: 'tile', args: { connectionId, serviceId, dashboardId: d.id, tileId: tile.id } },
    });
    assert.equal(reset.ok, true, reset.error);
    const before = Date.now();
    const out = await vscode.commands.executeCommand<PreviewOutcome>('observability.previewTile', {
      connectionId,
      serviceId,
      dashboardId: d.id,
      tileId: tile.id,
    });
    const afterPreview = Date.now();
    assert.equal(out.ok, true, out.error);
    assert.equal(out.rendered?.searches, 1, 'the panel offers Search Events');
    const shown = Number((/([\d,]+)$/.exec(out.rendered?.text ?? '')?.[1] ?? '').replace(/,/g, ''));

    const search = (await api.preview.searchTile()) as SearchOutcome;
    assert.ok(search?.ok, search?.error);
    const view = search.state!.view;
    assert.equal(view.condition, item.where, "the series' condition");
    assert.equal(view.language, 'lucene');
    assert.equal(view.preset, '', 'the exact range, not a preset');
    assert.equal(view.range.to - view.range.from, HOUR, "the preview's hour");
    assert.ok(view.range.to >= before && view.range.to <= afterPreview, 'the range the tile was drawn for');
    const source = await sourceById(String(tile.config.sourceId));
    assert.equal(source.kind, 'trace');
    const app = /ServiceName:(\S+)/.exec(item.where)![1]!;
    const want = await count(source, view.range, `ServiceName = '${app}' AND lower(StatusCode) = 'error'`);
    assert.ok(want > 0, 'the seeded data has errors in the range');
    assert.equal(view.histogram.total, want, 'the histogram counts what plain SQL counts');
    assert.equal(shown, want, 'and what the tile shows');
  });

  it("a dashboard offers it on each tile with a source; a search tile's search keeps its condition", async () => {
    const d = await serviceDashboard();
    const out = await vscode.commands.executeCommand<PreviewOutcome>('observability.previewDashboard', {
      connectionId,
      serviceId,
      dashboardId: d.id,
    });
    assert.equal(out.ok, true, out.error);
    const withSource = d.tiles.filter((t) => t.config.displayType !== 'markdown').length;
    assert.equal(out.rendered?.searches, withSource, 'every tile but the Markdown one');

    const tile = d.tiles.find((t) => t.config.displayType === 'search')!;
    const search = (await api.preview.searchTile(tile.id)) as SearchOutcome;
    assert.ok(search?.ok, search?.error);
    const view = search.state!.view;
    assert.equal(view.condition, tile.config.where);
    assert.equal(view.range.to - view.range.from, HOUR);
    const source = await sourceById(String(tile.config.sourceId));
    assert.equal(source.kind, 'log');
    const app = /ServiceName:(\S+)/.exec(String(tile.config.where))![1]!;
    const want = await count(source, view.range, `ServiceName = '${app}' AND lower(SeverityText) = 'error'`);
    assert.equal(view.histogram.total, want, 'the histogram counts what plain SQL counts');
    assert.equal(search.state!.model!.raw.length, Math.min(want, 1000), 'the rows found');
  });
});
