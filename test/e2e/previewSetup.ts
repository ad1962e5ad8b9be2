/**
 * Entry loaded in the extension host of the chart preview UI test (`extensionTestsPath`). It starts the emulator of the
 * flavor `$OBS_E2E_FLAVOR` names (`cloud`, the default: its query host runs the SQL on a real embedded ClickHouse
 * over the seeded telemetry; `oss`: its chart series and search API reads the same ClickHouse), adds a connection to
 * its first service (a Cloud connection with the query host, or a self-hosted one to the deployment), and opens through the extension's own commands the preview of the seeded "Checkout service" dashboard and
 * the backtest of its firing "Checkout p95 latency above 1.5 s" alert, as tabs of one editor group. Then it stays
 * pending so the workbench keeps running for the browser-driven steps.
 */
import * as vscode from 'vscode';
import { SELF_HOSTED_SERVICE_ID } from '../../src/api/oss';
import type { PreviewOutcome } from '../../src/preview';
import { ossData } from '../emulator/oss/seed';
import { startEmulator, type Emulator } from '../emulator/server';
import { SAMPLE_KEY_UUID } from '../emulator/seed';
import type { ServiceData } from '../emulator/types';

const LABEL = 'Northwind (emulator)';

/** Cloud: a connection to the first service, its queries sent to the emulator's query host through the endpoint. */
export async function connectCloud(
  emulator: Emulator,
): Promise<{ connectionId: string; serviceId: string; data: ServiceData }> {
  const serviceId = emulator.serviceIds[0]!;
  const connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
    baseUrl: emulator.url,
    keyId: emulator.keyId,
    keySecret: emulator.keySecret,
    organizationId: emulator.organizationId,
    serviceIds: [serviceId],
    label: LABEL,
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
  return { connectionId, serviceId, data };
}

/** Self-hosted: a connection to the deployment (plain HTTP on loopback), its previews fed by the chart series API. */
async function connectSelfHosted(
  emulator: Emulator,
): Promise<{ connectionId: string; serviceId: string; data: ServiceData }> {
  const connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
    kind: 'selfHosted',
    baseUrl: emulator.url,
    apiKey: emulator.ossApiKey,
    label: LABEL,
  });
  return { connectionId, serviceId: SELF_HOSTED_SERVICE_ID, data: ossData(emulator.state) };
}

export async function run(): Promise<void> {
  await vscode.extensions.getExtension('obs-tools.observability-explorer')!.activate();
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  const flavor = process.env.OBS_E2E_FLAVOR === 'oss' ? 'oss' : 'cloud';
  const emulator = await startEmulator({ flavor, rateLimit: false });
  const { connectionId, serviceId, data } =
    flavor === 'oss' ? await connectSelfHosted(emulator) : await connectCloud(emulator);
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
