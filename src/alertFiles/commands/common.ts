import * as vscode from 'vscode';
import type { ConnectionManager } from '../../connections/manager';
import type { AlertFileService } from '../service';
import { isAlertFileUri } from '../workspace';
import { argsOf } from '../../commandArgs';

/**
 * Commands of alert files. Each takes what VS Code passes (a file URI, a tree node) or an argument object for
 * automation and tests: `{ uri }` for one file, `{ folder }` to plan part of the workspace, `{ noPrompt: true }` to skip
 * the confirmation of an update or of Apply Plan, the notification of Validate and the plan document (old names, still
 * accepted: `confirm`, `quiet`, `show: false`).
 */

export interface AlertFileCommandDeps {
  readonly connections: ConnectionManager;
  readonly service: AlertFileService;
}

export interface FileArgs {
  readonly uri?: string | vscode.Uri;
  readonly noPrompt?: boolean;
  readonly confirm?: boolean;
  readonly quiet?: boolean;
}
export interface PlanArgs {
  readonly folder?: string | vscode.Uri;
  readonly noPrompt?: boolean;
  readonly confirm?: boolean;
  readonly show?: boolean;
}
export interface ExportArgs {
  readonly connectionId?: string;
  readonly serviceId?: string;
  readonly alertId?: string;
  readonly uri?: string | vscode.Uri;
}

export function toUri(value: string | vscode.Uri | undefined): vscode.Uri | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? vscode.Uri.parse(value) : value;
}

export function objectArg<T>(value: unknown): Partial<T> {
  return argsOf<T>(value);
}

/** The file a command is about: its argument, else the active editor's alert file. */
export function fileOf(arg: unknown): vscode.Uri | undefined {
  const uri =
    arg instanceof vscode.Uri
      ? arg
      : (toUri(objectArg<FileArgs>(arg).uri) ?? vscode.window.activeTextEditor?.document.uri);
  if (uri && isAlertFileUri(uri)) return uri;
  void vscode.window.showInformationMessage(vscode.l10n.t('Open an alert file (*.alert.json) first.'));
  return undefined;
}
