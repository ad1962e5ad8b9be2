import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/manager';
import { targetOf } from './format';
import type { AlertFileService } from './service';
import { parseAlertFile } from './text';
import { connectionFor } from '../connections/fileTarget';
import { isAlertFileUri, PREVIEW_SCHEME } from './workspace';

/**
 * Lenses at the top of each alert file: "Create on <service>" (no `id`) or "Update <alert>" (with `id`), "Compare
 * with Service" and "Validate"; without a connection to the file's organization, "Add Connection" instead. In an
 * untrusted workspace only "Validate" is shown (it sends nothing). On the plan document: "Apply Plan" and a
 * "Compare" lens on each update.
 */
export class AlertFileCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(
    private readonly connections: ConnectionManager,
    private readonly service: AlertFileService,
  ) {
    this.disposables.push(
      connections.onDidChange(() => this.changed.fire()),
      service.onDidChange(() => this.changed.fire()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire()),
    );
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (doc.uri.scheme === PREVIEW_SCHEME) return this.planLenses(doc);
    if (!isAlertFileUri(doc.uri)) return [];
    const range = new vscode.Range(0, 0, 0, 0);
    const args = [{ uri: doc.uri.toString() }];
    const validate = new vscode.CodeLens(range, {
      title: `$(checklist) ${vscode.l10n.t('Validate')}`,
      tooltip: vscode.l10n.t('Check the file (schema, rules, references on the service)'),
      command: 'observability.validateAlertFile',
      arguments: args,
    });
    if (!vscode.workspace.isTrusted) return [validate];
    const parsed = parseAlertFile(doc.getText());
    const target = targetOf(parsed.value);
    if (!target.organizationId || !target.serviceId) return [validate];
    const connection = connectionFor(this.connections, target.organizationId, target.serviceId, target.baseUrl);
    if (!connection) {
      return [
        new vscode.CodeLens(range, {
          title: `$(plug) ${vscode.l10n.t('No connection to this organization: Add Connection')}`,
          tooltip: vscode.l10n.t('Any API key of organization {0} can apply this file', target.organizationId),
          command: 'observability.addConnection',
        }),
        validate,
      ];
    }
    if (!target.id) {
      return [
        new vscode.CodeLens(range, {
          title: `$(cloud-upload) ${vscode.l10n.t('Create on {0}', connection.serviceLabel)}`,
          tooltip: vscode.l10n.t('Create the alert and write its ID into this file'),
          command: 'observability.applyAlertFile',
          arguments: args,
        }),
        validate,
      ];
    }
    return [
      new vscode.CodeLens(range, {
        title: `$(check) ${vscode.l10n.t('Update {0}', target.name ?? target.id)}`,
        tooltip: vscode.l10n.t(
          'Show the diff against alert {0} on {1}, then update it with the fields this file sets (fields it leaves out keep their value on the service)',
          target.id,
          connection.serviceLabel,
        ),
        command: 'observability.applyAlertFile',
        arguments: args,
      }),
      new vscode.CodeLens(range, {
        title: `$(diff) ${vscode.l10n.t('Compare with Service')}`,
        tooltip: vscode.l10n.t('Diff the live alert against this file'),
        command: 'observability.compareAlertFile',
        arguments: args,
      }),
      validate,
    ];
  }

  private planLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (!this.service.planUri || doc.uri.toString() !== this.service.planUri.toString()) return [];
    const lenses = [
      new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
        title: `$(run-all) ${vscode.l10n.t('Apply Plan')}`,
        tooltip: vscode.l10n.t('Plan again and send the creates and updates'),
        command: 'observability.applyAlertPlan',
      }),
    ];
    for (const { line, uri } of this.service.planLines) {
      if (line >= doc.lineCount) continue;
      lenses.push(
        new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
          title: `$(diff) ${vscode.l10n.t('Compare')}`,
          tooltip: vscode.l10n.t('Diff the live alert against the file'),
          command: 'observability.compareAlertFile',
          arguments: [{ uri }],
        }),
      );
    }
    return lenses;
  }
}
