import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/manager';
import type { AlertFileService } from '../alertFiles/service';
import { isAlertFileUri } from '../alertFiles/workspace';

/**
 * Commands of alert files. Each takes what VS Code passes (a file URI, a tree node) or an argument object for
 * automation and tests: `{ uri }` for one file, `{ folder }` to plan part of the workspace, `{ confirm: true }` to skip
 * the confirmation of an update or of Apply Plan.
 */

export interface AlertFileCommandDeps {
  readonly connections: ConnectionManager;
  readonly service: AlertFileService;
}

interface FileArgs { readonly uri?: string | vscode.Uri; readonly confirm?: boolean; readonly quiet?: boolean }
interface PlanArgs { readonly folder?: string | vscode.Uri; readonly confirm?: boolean; readonly show?: boolean }
interface ExportArgs { readonly connectionId?: string; readonly serviceId?: string; readonly alertId?: string; readonly uri?: string | vscode.Uri }

function toUri(value: string | vscode.Uri | undefined): vscode.Uri | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? vscode.Uri.parse(value) : value;
}

function objectArg<T>(value: unknown): Partial<T> {
  return typeof value === 'object' && value !== null && !(value instanceof vscode.Uri) ? value as Partial<T> : {};
}

/** The file a command is about: its argument, else the active editor's alert file. */
function fileOf(arg: unknown): vscode.Uri | undefined {
  const uri = arg instanceof vscode.Uri ? arg : toUri(objectArg<FileArgs>(arg).uri) ?? vscode.window.activeTextEditor?.document.uri;
  if (uri && isAlertFileUri(uri)) return uri;
  void vscode.window.showInformationMessage(vscode.l10n.t('Open an alert file (*.alert.json) first.'));
  return undefined;
}

export function registerAlertFileCommands(context: vscode.ExtensionContext, deps: AlertFileCommandDeps): void {
  const { service, connections } = deps;
  const register = (id: string, fn: (...args: unknown[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, fn));

  register('observability.applyAlertFile', async (arg: unknown) => {
    const uri = fileOf(arg);
    if (!uri) return undefined;
    const confirm = objectArg<FileArgs>(arg).confirm === true;
    return service.apply(uri, { confirm });
  });

  register('observability.compareAlertFile', async (arg: unknown) => {
    const uri = fileOf(arg);
    return uri ? service.compare(uri) : false;
  });

  register('observability.validateAlertFile', async (arg: unknown) => {
    const uri = fileOf(arg);
    return uri ? service.validate(uri, objectArg<FileArgs>(arg).quiet === true) : undefined;
  });

  register('observability.planAlertFiles', async (arg: unknown) => {
    const args = objectArg<PlanArgs>(arg);
    const folder = toUri(args.folder) ?? (arg instanceof vscode.Uri ? arg : undefined);
    return service.showPlan(folder ? { folder } : {}, args.show !== false);
  });

  register('observability.applyAlertPlan', async (arg: unknown) => {
    const args = objectArg<PlanArgs>(arg);
    const folder = toUri(args.folder);
    return service.applyPlan({ ...(folder ? { folder } : {}), confirm: args.confirm === true });
  });

  register('observability.exportAlertToFile', async (arg: unknown) => {
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
  });
}
