/**
 * Entry loaded in the extension host of the chart preview UI test (`extensionTestsPath`). It starts the emulator (its
 * query host runs the SQL on a real embedded ClickHouse over the seeded telemetry), adds a connection to its first
 * service, and opens through the extension's own commands the preview of the seeded "Checkout service" dashboard and
 * the backtest of its firing "Checkout p95 latency above 1.5 s" alert, as tabs of one editor group. Then it stays
 * pending so the workbench keeps running for the browser-driven steps.
 */
import * as vscode from 'vscode';
import type { PreviewOutcome } from '../../src/preview';
import { startEmulator } from '../emulator/server';
import { SAMPLE_KEY_UUID } from '../emulator/seed';

export async function run(): Promise<void> {
  await vscode.extensions.getExtension('obs-tools.observability-explorer')!.activate();
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  const emulator = await startEmulator({ rateLimit: false });
  const serviceId = emulator.serviceIds[0]!;
  const connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
    baseUrl: emulator.url,
    keyId: emulator.keyId,
    keySecret: emulator.keySecret,
    organizationId: emulator.organizationId,
    serviceIds: [serviceId],
    label: 'Northwind (emulator)',
    skipCheck: true,
  });
  await vscode.commands.executeCommand('observability.setQueryHost', { connectionId, queryUrl: emulator.queryUrl });
  const data = emulator.state.data.get(serviceId)!;
  data.queryEndpoint = {
    id: 'e1f0c8e2-3a4d-4e5f-8a6b-7c8d9e0f1a2c',
    roles: ['sql_console_read_only'],
    openApiKeys: [SAMPLE_KEY_UUID],
    allowedOrigins: '',
  };
  const dashboards = [...data.dashboards.values()] as unknown as { id: string; name: string }[];
  const dashboard = dashboards.find((d) => d.name === 'Checkout service')!;
  const alerts = [...data.alerts.values()] as unknown as { id: string; name: string }[];
  const alert = alerts.find((a) => a.name === 'Checkout p95 latency above 1.5 s')!;
  const check = (what: string, out: PreviewOutcome | undefined) => {
    if (!out?.ok) throw new Error(`${what}: ${out?.error ?? 'no answer'}`);
  };
  check(
    'the backtest',
    await vscode.commands.executeCommand<PreviewOutcome>('observability.backtestAlert', {
      connectionId,
      serviceId,
      alertId: alert.id,
    }),
  );
  check(
    'the dashboard preview',
    await vscode.commands.executeCommand<PreviewOutcome>('observability.previewDashboard', {
      connectionId,
      serviceId,
      dashboardId: dashboard.id,
    }),
  );
  await vscode.commands.executeCommand('workbench.action.joinAllGroups');
  console.log('E2E PREVIEW READY');
  await new Promise<void>(() => undefined);
}
