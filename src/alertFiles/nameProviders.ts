import * as vscode from 'vscode';
import { findNodeAtLocation, getLocation, getNodeValue, parseTree } from 'jsonc-parser/lib/esm/main';
import type { LiveData } from '../resources/live';
import { lookUp, nameReferences, type NamedItem, type NamedKind } from './names';

/**
 * Completion and inlay hints for webhooks and saved searches named by name in alert files: the names of the target
 * service's webhooks (in a webhook channel's `webhookName`) and saved searches (`savedSearchName`), and beside each
 * name the ID it stands for on that service. The lists are the ones the explorer and the checks already read.
 */

export interface NameWhere {
  readonly connectionId: string;
  readonly serviceId: string;
  readonly serviceLabel: string;
}

function kindAt(path: readonly (string | number)[]): NamedKind | undefined {
  if (path.length === 1 && path[0] === 'savedSearchName') return 'savedSearch';
  if (path.length === 2 && path[0] === 'channel' && path[1] === 'webhookName') return 'webhook';
  if (path.length === 3 && path[0] === 'channels' && typeof path[1] === 'number' && path[2] === 'webhookName') {
    return 'webhook';
  }
  return undefined;
}

async function listOf(live: LiveData, where: NameWhere, kind: NamedKind): Promise<readonly NamedItem[] | undefined> {
  return kind === 'webhook'
    ? live.webhooks(where.connectionId, where.serviceId).catch(() => undefined)
    : live.listSavedSearches(where.connectionId, where.serviceId);
}

export class NameCompletionProvider implements vscode.CompletionItemProvider {
  constructor(
    private readonly live: LiveData,
    private readonly whereOf: (doc: vscode.TextDocument) => NameWhere | undefined,
  ) {}

  async provideCompletionItems(doc: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionItem[]> {
    const where = this.whereOf(doc);
    if (!where) return [];
    const text = doc.getText();
    const offset = doc.offsetAt(position);
    const location = getLocation(text, offset);
    if (location.isAtPropertyKey) return [];
    const kind = kindAt(location.path);
    if (!kind) return [];
    const list = (await listOf(this.live, where, kind)) ?? [];
    const previous = location.previousNode;
    const range =
      previous && offset >= previous.offset && offset <= previous.offset + previous.length
        ? new vscode.Range(doc.positionAt(previous.offset), doc.positionAt(previous.offset + previous.length))
        : new vscode.Range(position, position);
    const counts = new Map<string, number>();
    for (const item of list) if (item.name) counts.set(item.name, (counts.get(item.name) ?? 0) + 1);
    return list
      .filter((item): item is NamedItem & { name: string } => typeof item.name === 'string' && item.name !== '')
      .map((item, index) => {
        const shared = (counts.get(item.name) ?? 0) > 1;
        const entry = new vscode.CompletionItem(
          {
            label: item.name,
            description: item.id,
            ...(shared
              ? { detail: ` ${vscode.l10n.t('({0} share this name: use the ID)', counts.get(item.name) ?? 0)}` }
              : {}),
          },
          vscode.CompletionItemKind.Reference,
        );
        entry.insertText = JSON.stringify(item.name);
        entry.range = range;
        entry.filterText = `"${item.name}`;
        entry.sortText = `${shared ? '1' : '0'}${String(index).padStart(4, '0')}`;
        entry.documentation = new vscode.MarkdownString(
          vscode.l10n.t('On {0}: ID `{1}`', where.serviceLabel.replace(/[\\`*_[\]<>]/g, '\\$&'), item.id),
        );
        return entry;
      });
  }
}

/** Beside each name, the ID it stands for on the file's service (nothing when it matches none or several). */
export class NameInlayHintsProvider implements vscode.InlayHintsProvider {
  constructor(
    private readonly live: LiveData,
    private readonly whereOf: (doc: vscode.TextDocument) => NameWhere | undefined,
  ) {}

  async provideInlayHints(doc: vscode.TextDocument, range: vscode.Range): Promise<vscode.InlayHint[]> {
    const where = this.whereOf(doc);
    if (!where) return [];
    const root = parseTree(doc.getText(), [], { allowTrailingComma: true });
    if (!root) return [];
    const { references } = nameReferences(getNodeValue(root));
    const hints: vscode.InlayHint[] = [];
    const lists = new Map<NamedKind, readonly NamedItem[] | undefined>();
    for (const ref of references) {
      const node = findNodeAtLocation(root, [...ref.namePath]);
      if (!node || !range.contains(doc.positionAt(node.offset))) continue;
      if (!lists.has(ref.kind)) lists.set(ref.kind, await listOf(this.live, where, ref.kind));
      const list = lists.get(ref.kind);
      if (!list) continue;
      const found = lookUp(ref.kind, ref.name, list, where.serviceLabel);
      if (!('id' in found)) continue;
      const hint = new vscode.InlayHint(doc.positionAt(node.offset + node.length), found.id, vscode.InlayHintKind.Type);
      hint.paddingLeft = true;
      hint.tooltip = vscode.l10n.t('ID on {0} of "{1}" (sent in its place)', where.serviceLabel, ref.name);
      hints.push(hint);
    }
    return hints;
  }
}
