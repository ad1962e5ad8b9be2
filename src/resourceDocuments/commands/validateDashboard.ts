import * as vscode from 'vscode';
import type { DashboardValidator, ValidateResult } from '../validateDashboard';
import { asObject } from './common';

interface ValidateArgs {
  /** The dashboard document (default: the active editor's). */
  readonly uri?: string | vscode.Uri;
  /** Open the diff with the body as the service normalizes it at once, instead of offering it. */
  readonly showNormalized?: boolean;
}

/** `observability.validateDashboard`: Validate with Service on a dashboard document. */
export function registerValidateDashboard(context: vscode.ExtensionContext, validator: DashboardValidator): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.validateDashboard', async (arg): Promise<ValidateResult> => {
      const o = arg instanceof vscode.Uri ? {} : asObject<ValidateArgs>(arg);
      const uri =
        arg instanceof vscode.Uri
          ? arg
          : typeof o.uri === 'string'
            ? vscode.Uri.parse(o.uri)
            : o.uri instanceof vscode.Uri
              ? o.uri
              : vscode.window.activeTextEditor?.document.uri;
      if (!uri) {
        const message = vscode.l10n.t(
          'Validate with Service works on the dashboard documents opened from the Observability explorer.',
        );
        void vscode.window.showInformationMessage(message);
        return { outcome: 'notDashboard', message };
      }
      const target = uri.toString();
      const doc =
        vscode.workspace.textDocuments.find((d) => d.uri.toString() === target) ??
        (await vscode.workspace.openTextDocument(uri));
      return validator.validate(doc, { showNormalized: o.showNormalized === true });
    }),
  );
}
