import * as vscode from 'vscode';
import { getLocation, parse } from 'jsonc-parser/lib/esm/main';
import { kindOfFile, LAYOUT } from './layout';
import { choicesFor, referenceAt, type NameChoice } from './names';
import { REF_LABEL } from './refs';
import type { ServiceFolderDrift } from './driftView';

/**
 * Completion and hover of the name fields of a service folder's files (`sourceName`, `dashboardName`, `tileName`,
 * `webhookName`, …): the names of the folder's files and of its service (the lists read last, no request).
 */
export class ServiceFolderNameHelp implements vscode.CompletionItemProvider, vscode.HoverProvider {
  constructor(private readonly drift: ServiceFolderDrift) {}

  private referenceOf(doc: vscode.TextDocument, position: vscode.Position) {
    const kind = kindOfFile(doc.uri.path.split('/').pop() ?? '');
    const context = kind ? this.drift.contextOf(doc.uri) : undefined;
    if (!kind || !context) return undefined;
    const text = doc.getText();
    const offset = doc.offsetAt(position);
    const location = getLocation(text, offset);
    if (location.isAtPropertyKey) return undefined;
    const value: unknown = parse(text);
    const ref = referenceAt(kind, value, location.path);
    if (!ref) return undefined;
    const choices = choicesFor(ref.refKind, value, ref.holder, context.files, context.live);
    return { ...ref, choices, location, offset, serviceLabel: context.serviceLabel };
  }

  private describe(choice: NameChoice, serviceLabel: string): string {
    const where: string[] = [];
    if (choice.path) where.push(vscode.l10n.t('in the folder: {0}', choice.path));
    if (choice.id) where.push(vscode.l10n.t('on {0}: {1}', serviceLabel, choice.id));
    return where.join(' · ');
  }

  provideCompletionItems(doc: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] {
    const found = this.referenceOf(doc, position);
    if (!found) return [];
    const previous = found.location.previousNode;
    const range =
      previous && found.offset >= previous.offset && found.offset <= previous.offset + previous.length
        ? new vscode.Range(doc.positionAt(previous.offset), doc.positionAt(previous.offset + previous.length))
        : undefined;
    return found.choices.map((choice) => {
      const item = new vscode.CompletionItem(
        { label: choice.name, description: this.describe(choice, found.serviceLabel) },
        vscode.CompletionItemKind.Reference,
      );
      item.insertText = JSON.stringify(choice.name);
      item.filterText = JSON.stringify(choice.name);
      item.detail = REF_LABEL[found.refKind];
      if (range) item.range = range;
      return item;
    });
  }

  provideHover(doc: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const found = this.referenceOf(doc, position);
    const node = found?.location.previousNode;
    if (!found || !node || node.type !== 'string' || typeof node.value !== 'string') return undefined;
    const name = node.value;
    const matches = found.choices.filter((c) => c.name === name);
    const label = REF_LABEL[found.refKind];
    const text = new vscode.MarkdownString();
    // Names are the user's and the service's text: shown as code, never as markup or links.
    text.appendText(`${label} "${name}"\n\n`);
    if (matches.length === 0) {
      text.appendText(
        vscode.l10n.t(
          'No {0} of that name in the folder or on {1} (as read last): a plan reports it and sends nothing.',
          label,
          found.serviceLabel,
        ),
      );
    } else {
      text.appendText(matches.map((m) => this.describe(m, found.serviceLabel)).join('\n'));
    }
    return new vscode.Hover(
      text,
      new vscode.Range(doc.positionAt(node.offset), doc.positionAt(node.offset + node.length)),
    );
  }

  /** Where the providers apply: every resource file of a service folder. */
  static selector(): vscode.DocumentFilter[] {
    return Object.values(LAYOUT).map((layout) => ({
      scheme: 'file',
      pattern: `**/${layout.folder}/*${layout.suffix}`,
    }));
  }
}
