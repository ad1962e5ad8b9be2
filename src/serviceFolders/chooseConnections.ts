import * as vscode from 'vscode';
import type { ConnectionChoice } from './connections';

const CONNECTION_ID = /^[0-9a-f]{24}$/;

/**
 * Asks, for each ClickHouse connection of the folder's own service that the service promoted to lacks, which of that
 * service's connections stands for it (or its ID, typed). Undefined when the user cancels.
 */
export async function chooseConnections(
  choices: readonly ConnectionChoice[],
  serviceLabel: string,
): Promise<Record<string, string> | undefined> {
  const map: Record<string, string> = {};
  for (const choice of choices) {
    const typed = { label: vscode.l10n.t('$(edit) Type a Connection ID…'), id: '' };
    const picked = await vscode.window.showQuickPick(
      [
        ...choice.candidates.map((c) => ({ label: c.id, description: c.usedBy.slice(0, 3).join(', '), id: c.id })),
        typed,
      ],
      {
        title: vscode.l10n.t('ClickHouse connection on {0} for connection {1}', serviceLabel, choice.id),
        placeHolder: vscode.l10n.t('Named by {0}', choice.files.join(', ')),
        ignoreFocusOut: true,
      },
    );
    if (!picked) return undefined;
    let id = picked.id;
    if (id === '') {
      id =
        (
          await vscode.window.showInputBox({
            title: vscode.l10n.t('ClickHouse connection on {0} for connection {1}', serviceLabel, choice.id),
            prompt: vscode.l10n.t(
              'The ID of the connection on {0} (in ClickStack: Team Settings → Connections)',
              serviceLabel,
            ),
            ignoreFocusOut: true,
            validateInput: (v) =>
              CONNECTION_ID.test(v.trim()) ? undefined : vscode.l10n.t('A connection ID: 24 hexadecimal characters.'),
          })
        )?.trim() ?? '';
      if (id === '') return undefined;
    }
    map[choice.id] = id;
  }
  return map;
}
