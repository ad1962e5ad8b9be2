/**
 * Entry loaded in the extension host of the readable-charts UI test (`extensionTestsPath`, test/e2e/charts.e2e.ts).
 * It starts the Cloud emulator (its query host runs SQL on a real embedded ClickHouse over the seeded telemetry), adds
 * a connection with the query host, adds a dashboard whose tile draws the log lines of each of the seven services, and
 * then works as a user who looks at each panel before opening the next: a SQL document runs a statement grouped by
 * service (the results open beside it), the results column gets the focus, the seven-series tile is previewed, its
 * column gets the focus, and the backtest of the seeded firing p95 latency alert opens. When the browser-driven steps
 * ask, the seeded "Checkout service" dashboard is previewed the same way. Then it stays pending so the workbench keeps
 * running.
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { PreviewOutcome } from '../../src/preview';
import { startEmulator } from '../emulator/server';
import type { StoredDashboard } from '../emulator/types';
import { connectCloud } from './previewSetup';

/** The seven services of the sample shop (the sample data's showcase traces log from services of their own). */
const SHOP_SERVICES = "ServiceName IN ('cart', 'checkout', 'frontend', 'inventory', 'payment', 'search', 'shipping')";
/** The statement of the SQL document: log lines per 5 minutes and service of the shop over the last hour. */
const SERVICES_SQL = `SELECT toStartOfInterval(Timestamp, INTERVAL 5 MINUTE) AS t, ServiceName, count() AS lines\nFROM otel_logs\nWHERE Timestamp >= now() - INTERVAL 1 HOUR AND ${SHOP_SERVICES}\nGROUP BY t, ServiceName\nORDER BY t\n`;
const SERVICES_TILE = 'Log lines by service';

export async function run(): Promise<void> {
  await vscode.extensions.getExtension('obs-tools.observability-explorer')!.activate();
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  const emulator = await startEmulator({ flavor: 'cloud', rateLimit: false });
  const { connectionId, serviceId, data } = await connectCloud(emulator);
  const dashboards = [...data.dashboards.values()] as unknown as { id: string; name: string }[];
  const checkout = dashboards.find((d) => d.name === 'Checkout service')!;
  const alerts = [...data.alerts.values()] as unknown as { id: string; name: string }[];
  const alert = alerts.find((a) => a.name === 'Checkout p95 latency above 1.5 s')!;
  const logs = [...data.sources.values()].find((s) => s.kind === 'log')!;
  const dashboardId = '6a0c0ffee000000000000a01';
  const tileId = '6a0c0ffee000000000000a02';
  data.dashboards.set(dashboardId, {
    ...(data.dashboards.get(checkout.id) as StoredDashboard),
    id: dashboardId,
    name: 'Logs by service',
    filters: [],
    tiles: [
      {
        id: tileId,
        name: SERVICES_TILE,
        x: 0,
        y: 0,
        w: 24,
        h: 5,
        config: {
          displayType: 'line',
          sourceId: logs.id as string,
          select: [{ aggFn: 'count', where: SHOP_SERVICES, whereLanguage: 'sql' }],
          groupBy: 'ServiceName',
        },
      },
    ],
  } as StoredDashboard);

  const check = (what: string, out: PreviewOutcome | undefined) => {
    if (!out?.ok) throw new Error(`${what}: ${out?.error ?? 'no answer'}`);
  };
  // Looking at what just opened: its column has the focus when the next command runs.
  const lookAtPanels = () => vscode.commands.executeCommand('workbench.action.focusLastEditorGroup');

  const uri = await vscode.commands.executeCommand<string>('observability.newQuery', {
    connectionId,
    serviceId,
    sql: SERVICES_SQL,
  });
  const ran = await vscode.commands.executeCommand<{ ok: boolean; error?: string }>('observability.runQuery', {
    uri,
    noPrompt: true,
  });
  if (!ran?.ok) throw new Error(`the query: ${ran?.error ?? 'no answer'}`);
  await lookAtPanels();
  check(
    'the tile preview',
    await vscode.commands.executeCommand<PreviewOutcome>('observability.previewTile', {
      connectionId,
      serviceId,
      dashboardId,
      tileId,
    }),
  );
  await lookAtPanels();
  check(
    'the backtest',
    await vscode.commands.executeCommand<PreviewOutcome>('observability.backtestAlert', {
      connectionId,
      serviceId,
      alertId: alert.id,
    }),
  );
  console.log('E2E CHARTS READY');
  // The browser-driven steps ask for the dashboard preview (which takes the tile preview's place) by writing the file
  // named by OBS_E2E_CHARTS_SIGNAL.
  const signal = process.env.OBS_E2E_CHARTS_SIGNAL!;
  while (!fs.existsSync(signal)) await new Promise((resolve) => setTimeout(resolve, 200));
  await lookAtPanels();
  check(
    'the dashboard preview',
    await vscode.commands.executeCommand<PreviewOutcome>('observability.previewDashboard', {
      connectionId,
      serviceId,
      dashboardId: checkout.id,
    }),
  );
  console.log('E2E CHARTS DASHBOARD');
  // Then, when asked (the same file name with "-heatmap"), the seeded heatmap tile.
  while (!fs.existsSync(`${signal}-heatmap`)) await new Promise((resolve) => setTimeout(resolve, 200));
  const withHeatmap = [...data.dashboards.values()].find((d) =>
    (d.tiles as { config?: { displayType?: string } }[]).some((t) => t.config?.displayType === 'heatmap'),
  )!;
  const heatmap = (withHeatmap.tiles as { id: string; config?: { displayType?: string } }[]).find(
    (t) => t.config?.displayType === 'heatmap',
  )!;
  check(
    'the heatmap preview',
    await vscode.commands.executeCommand<PreviewOutcome>('observability.previewTile', {
      connectionId,
      serviceId,
      dashboardId: withHeatmap.id,
      tileId: heatmap.id,
    }),
  );
  console.log('E2E CHARTS HEATMAP');
  // Then its dashboard, the heatmap as one tile of the grid.
  while (!fs.existsSync(`${signal}-heatmap-dashboard`)) await new Promise((resolve) => setTimeout(resolve, 200));
  check(
    'the heatmap dashboard preview',
    await vscode.commands.executeCommand<PreviewOutcome>('observability.previewDashboard', {
      connectionId,
      serviceId,
      dashboardId: withHeatmap.id,
    }),
  );
  console.log('E2E CHARTS HEATMAP DASHBOARD');
  await new Promise<void>(() => undefined);
}
