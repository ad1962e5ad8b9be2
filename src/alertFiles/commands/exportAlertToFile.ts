import * as vscode from 'vscode';
import { AlertFileCommandDeps, ExportArgs, objectArg, toUri } from './common';
import { nodeOf } from '../../commandArgs';

/** `observability.exportAlertToFile`. */
export function registerExportAlertToFile(context: vscode.ExtensionContext, deps: AlertFileCommandDeps): void {
  const { service, connections } = deps;
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.exportAlertToFile', async (arg: unknown) => {
      // An alert node of the explorer, or an argument object.
      const node = nodeOf(arg);
      // A node may come with a target `uri` beside it (automation standing in for the save dialog).
      const args = node ? { uri: (arg as ExportArgs).uri } : objectArg<ExportArgs>(arg);
      const fromNode =
        node?.type === 'alert'
          ? { connectionId: node.connectionId, serviceId: node.serviceId, alertId: node.alert.id }
          : {};
      const connectionId = fromNode.connectionId ?? args.connectionId;
      const serviceId = fromNode.serviceId ?? args.serviceId;
      const alertId = fromNode.alertId ?? args.alertId;
      if (!connectionId || !serviceId || !alertId || !connections.get(connectionId)) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('Pick an alert in the Observability explorer to export it.'),
        );
        return undefined;
      }
      const uri = await service.exportAlert(connectionId, serviceId, alertId, toUri(args.uri));
      return uri?.toString();
    }),
  );
}
