/**
 * Entry loaded in the extension host of the chart preview UI test (`extensionTestsPath`). It opens the preview panel
 * with a 12-tile dashboard and the backtest panel with an alert's backtest, both from fixed data
 * (test/support/previewData.ts), as tabs of one editor group; a range picked in either panel is answered by showing
 * the data again with the range in the subtitle (the data plumbing is not part of this test). Then it stays pending
 * so the workbench keeps running for the browser-driven steps.
 */
import * as vscode from 'vscode';
import { PreviewPanel } from '../../src/preview/panel';
import type { PreviewData, TimeRange } from '../../src/preview/protocol';
import { checkoutBacktest, checkoutDashboard } from '../support/previewData';

const describe = (r: TimeRange): string =>
  r.preset === 'custom' ? 'custom range' : `last ${r.preset.replace(/(\d+)/, '$1 ')}`;

export async function run(): Promise<void> {
  const uri = vscode.extensions.getExtension('obs-tools.observability-explorer')!.extensionUri;
  const end = Date.now();
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  const preview = new PreviewPanel(uri, 'preview');
  const backtest = new PreviewPanel(uri, 'backtest');
  const wire = (panel: PreviewPanel, data: PreviewData) => {
    panel.onDidRequest((req) => {
      const subtitle = `${describe(panel.range)} · ${req.type === 'refresh' ? 'refreshed' : 'range changed'}`;
      void panel.show({ ...data, subtitle });
    });
  };
  const dashboard = checkoutDashboard(end);
  const alert = { ...checkoutBacktest(end), title: 'Checkout errors above 40 per 15 m' };
  wire(preview, dashboard);
  wire(backtest, alert);
  await backtest.show(alert);
  await preview.show(dashboard);
  await vscode.commands.executeCommand('workbench.action.joinAllGroups');
  console.log('E2E PREVIEW READY');
  await new Promise<void>(() => undefined);
}
