/**
 * A cold dashboard preview under the default query budget (10 statements per 10 s), in VS Code against the emulator:
 * the seeded dashboard's tiles twice over (a 12-tile dashboard, 10 of them querying, on 2 sources) cost two
 * statements — the column types of both sources' tables, then every tile in one batch — and every tile is drawn; a
 * dashboard previewed again costs one. A tile whose SQL fails shows its own error; the others are drawn.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import type { PreviewOutcome } from '../../src/preview';
import { activate, configure } from './support';

const preview = (arg: unknown) =>
  vscode.commands.executeCommand<PreviewOutcome>('observability.previewDashboard', arg) as Thenable<PreviewOutcome>;

describe('Dashboard preview batches (emulator, default query budget)', function () {
  this.timeout(240_000);
  let emulator: Emulator;
  let connectionId: string;
  let serviceId: string;
  let twelve: { id: string; name: string; tiles: { id: string; name: string; config: Record<string, unknown> }[] };

  before(async () => {
    await configure('rateLimit.requestsPerWindow', undefined);
    emulator = await startEmulator({ rateLimit: false });
    await activate();
    serviceId = emulator.serviceIds[0]!;
    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: emulator.url,
      keyId: emulator.keyId,
      keySecret: emulator.keySecret,
      organizationId: emulator.organizationId,
      serviceIds: [serviceId],
      label: 'Preview batches (emulator)',
      skipCheck: true,
    });
    await vscode.commands.executeCommand('observability.setQueryHost', { connectionId, queryUrl: emulator.queryUrl });
    emulator.state.data.get(serviceId)!.queryEndpoint = {
      id: 'e1f0c8e2-3a4d-4e5f-8a6b-7c8d9e0f1a2d',
      roles: ['sql_console_read_only'],
      openApiKeys: [SAMPLE_KEY_UUID],
      allowedOrigins: '',
    };
    const all = [...emulator.state.data.get(serviceId)!.dashboards.values()] as unknown as (typeof twelve)[];
    const seeded = all.find((d) => d.tiles.some((t) => t.config.displayType === 'search'))!;
    assert.equal(seeded.tiles.length, 6, 'the seeded service dashboard');
    twelve = {
      ...seeded,
      id: 'cccccccccccccccccccccccc',
      name: 'Twelve tiles',
      tiles: [
        ...seeded.tiles,
        ...seeded.tiles.map((t, i) => ({ ...t, id: `copy${i}`, y: ((t as { y?: number }).y ?? 0) + 20 })),
      ],
    };
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, skipConfirmation: true });
    }
    await emulator?.close();
  });

  const statementsSince = (since: number) =>
    emulator.requests
      .filter((r) => r.path.endsWith('/run') && r.at >= since)
      .map((r) => (r.body as { sql: string }).sql);

  it('previews a cold 12-tile dashboard with two statements and draws every tile; again with one', async () => {
    const since = Date.now();
    const cold = await preview({ connectionId, serviceId, dashboard: twelve });
    assert.equal(cold.ok, true, cold.error);
    const sent = statementsSince(since);
    assert.equal(sent.length, 2, sent.map((s) => s.slice(0, 80)).join('\n'));
    assert.equal(cold.queries, 2);
    assert.match(sent[0]!, /FROM system\.columns/, 'first the column types of both tables');
    assert.match(sent[0]!, /'otel_traces'/);
    assert.match(sent[0]!, /'otel_logs'/);
    assert.match(sent[1]!, /UNION ALL/, 'then every tile in one batch');
    const tiles = cold.rendered!.tiles;
    assert.equal(tiles.length, 12);
    assert.deepEqual(
      tiles.filter((t) => t.kind === 'error' || t.kind === 'loading'),
      [],
      'every tile drawn',
    );
    const kinds = tiles.map((t) => t.kind);
    assert.deepEqual(kinds.slice(0, 6), kinds.slice(6), 'each copy drawn as its original');
    assert.deepEqual(kinds.slice(0, 6).sort(), ['markdown', 'number', 'search', 'table', 'timeseries', 'timeseries']);
    assert.equal(cold.statements?.length, 10, "each querying tile's own statement is reported (Show SQL's)");
    assert.match(cold.rendered!.text, /Error rate Open as Table Copy Search Events \d+ /, 'the big number is drawn');

    const since2 = Date.now();
    const warm = await preview({ connectionId, serviceId, dashboard: twelve });
    assert.equal(warm.ok, true, warm.error);
    assert.equal(statementsSince(since2).length, 1, 'the column types are kept: only the batch');
    assert.equal(warm.rendered!.tiles.filter((t) => t.kind === 'error').length, 0);
  });

  it('a tile whose SQL fails shows its own error, and the other tiles are drawn', async () => {
    const bad = {
      id: 'badsql',
      name: 'Broken raw SQL',
      x: 0,
      y: 0,
      w: 12,
      h: 4,
      config: {
        configType: 'sql',
        displayType: 'table',
        connectionId: 'x',
        sqlTemplate: 'SELECT count() AS n FROM no_such_table WHERE 1',
      },
    };
    const dashboard = {
      ...twelve,
      id: 'dddddddddddddddddddddddd',
      tiles: [bad, ...twelve.tiles.slice(0, 6).map((t) => ({ ...t, y: ((t as { y?: number }).y ?? 0) + 10 }))],
    };
    const since = Date.now();
    const out = await preview({ connectionId, serviceId, dashboard });
    assert.equal(out.ok, true, out.error);
    const tiles = out.rendered!.tiles;
    const broken = tiles.find((t) => t.id === 'badsql')!;
    assert.equal(broken.kind, 'error');
    assert.match(out.rendered!.text, /^Twelve tiles Broken raw SQL Could not load the data: .*no_such_table/);
    assert.deepEqual(
      tiles.filter((t) => t.id !== 'badsql' && (t.kind === 'error' || t.kind === 'loading')),
      [],
      'the other tiles are drawn',
    );
    const sent = statementsSince(since);
    // The column types (unless kept from an earlier preview), the batch, then each of the 6 querying tiles on its own.
    const columns = sent.filter((s) => /FROM system\.columns/.test(s));
    assert.ok(columns.length <= 1, 'the column types are read at most once');
    const tileStatements = sent.filter((s) => !columns.includes(s));
    assert.equal(tileStatements.length, 1 + 6, tileStatements.map((s) => s.slice(0, 60)).join('\n'));
    assert.match(tileStatements[0]!, /UNION ALL/, 'first the batch');
  });
});
