import * as vscode from 'vscode';
import { AlertFileCommandDeps, ExportArgs, objectArg, toUri } from './common';

/** `observability.exportAlertToFile`. */
export function registerExportAlertToFile(context: vscode.ExtensionContext, deps: AlertFileCommandDeps): void {
  const { service, connections } = deps;
  context.subscriptions.push(vscode.commands.registerCommand('observability.exportAlertToFile', async (arg: unknown) => {
    // A tree node: { connectionId, serviceId, alert: { id } }; or an argument object.
    const node = objectArg<{ connectionId: string; serviceId: string; alert: { id: string } }>(arg);
    const args = objectArg<ExportArgs>(arg);
    const connectionId = node.connectionId ?? args.connectionId;
    const serviceId = node.serviceId ?? args.serviceId;
    const alertId = node.alert?.id ?? args.alertId;
    if (!connectionId || !serviceId || !alertId || !connections.get(connectionId)) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Pick an alert in the Observability explorer to export it.'));
      return undefined;
    }
    const uri = await service.exportAlert(connectionId, serviceId, alertId, toUri(args.uri));
    return uri?.toString();
  }));
}
