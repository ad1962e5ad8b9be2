import * as vscode from 'vscode';
import type { ResourceApplier } from './apply';
import { parseDocument } from '../jsonDocuments/diagnostics';
import { editableValue, sameJson } from '../jsonDocuments/documents';
import type { ResourceFileSystem } from './fileSystem';
import type { LiveData } from '../resources/live';
import { isNew, parseUri } from '../jsonDocuments/uris';

/**
 * A line above each resource document saying where it goes and whether it differs from the version it was opened
 * from: "Apply to <service>" (or "Create on <service>"), "Compare with Service", and "not applied" while it differs.
 * Saving keeps a local draft, so this, not the dirty marker, tells whether the service has the text. Dashboard
 * documents also get "Validate with Service".
 */
export class ApplyCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(
    private readonly fs: ResourceFileSystem,
    private readonly live: LiveData,
    applier: ResourceApplier,
  ) {
    this.disposables.push(applier.onDidApply(() => this.changed.fire()));
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const ref = parseUri(doc.uri);
    if (!ref) return [];
    const service = this.live.serviceLabel(ref.connectionId, ref.serviceId);
    const range = new vscode.Range(0, 0, 0, 0);
    const target = { uri: doc.uri.toString() };
    // Dashboards: ask the service whether it would take the text, without saving anything.
    const validate =
      ref.kind === 'dashboard'
        ? [
            new vscode.CodeLens(range, {
              title: `$(checklist) ${vscode.l10n.t('Validate with Service')}`,
              tooltip: vscode.l10n.t(
                "Check this text (unsaved edits included) with the service's rules; nothing is saved",
              ),
              command: 'observability.validateDashboard',
              arguments: [target],
            }),
          ]
        : [];
    if (isNew(ref)) {
      return [
        new vscode.CodeLens(range, {
          title: `$(cloud-upload) ${vscode.l10n.t('Create on {0}', service)}`,
          tooltip: vscode.l10n.t(
            'Send this {0} to the service (Ctrl+Enter). Saving (Ctrl+S) keeps a local draft.',
            ref.kind,
          ),
          command: 'observability.applyResource',
          arguments: [doc.uri],
        }),
        ...validate,
      ];
    }
    const held = this.fs.get(ref);
    const parsed = parseDocument(doc.getText());
    const inSync =
      held !== undefined &&
      parsed.value !== undefined &&
      (held.exists ? sameJson(editableValue(ref.kind, held.base), parsed.value) : false);
    const lenses = [
      new vscode.CodeLens(range, {
        title: `$(check) ${vscode.l10n.t('Apply to {0}', service)}`,
        tooltip: vscode.l10n.t(
          'Show what changes on the service, then send it (Ctrl+Enter). Saving (Ctrl+S) keeps a local draft.',
        ),
        command: 'observability.applyResource',
        arguments: [doc.uri],
      }),
    ];
    if (held?.exists) {
      lenses.push(
        new vscode.CodeLens(range, {
          title: `$(diff) ${vscode.l10n.t('Compare with Service')}`,
          tooltip: vscode.l10n.t("Diff the service's current version against this text"),
          command: 'observability.compareWithService',
          arguments: [target],
        }),
      );
    }
    lenses.push(...validate);
    lenses.push(
      new vscode.CodeLens(
        range,
        inSync
          ? {
              title: vscode.l10n.t('same as when opened'),
              tooltip: vscode.l10n.t('This text matches the version loaded from the service'),
              command: '',
            }
          : {
              title: `$(circle-filled) ${vscode.l10n.t('not applied')}`,
              tooltip: vscode.l10n.t(
                'Saving (Ctrl+S) keeps a local draft; only Apply (Ctrl+Enter) sends the text to the service',
              ),
              command: '',
            },
      ),
    );
    return lenses;
  }
}
