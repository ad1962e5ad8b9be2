import * as vscode from 'vscode';
import { splitStatements } from '../api/query';
import type { ConnectionManager } from '../connections/manager';
import type { QueryTargets } from './targets';

/** **Run on <service>** above each statement of a SQL document (none while there is no connection). */
export function runQueryLenses(
  connections: ConnectionManager,
  targets: QueryTargets,
  changed: vscode.Event<void>,
): vscode.CodeLensProvider {
  return {
    onDidChangeCodeLenses: changed,
    provideCodeLenses(doc) {
      if (connections.list().length === 0) return [];
      const target = targets.get(doc.uri);
      const title = target
        ? `$(play) ${vscode.l10n.t('Run on {0}', targets.serviceName(target))}`
        : `$(play) ${vscode.l10n.t('Run on…')}`;
      return splitStatements(doc.getText()).map((s) => {
        const pos = doc.positionAt(s.start);
        return new vscode.CodeLens(new vscode.Range(pos, pos), {
          title,
          command: 'observability.runQuery',
          arguments: [{ uri: doc.uri.toString(), line: pos.line }],
        });
      });
    },
  };
}
