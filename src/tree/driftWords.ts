import * as vscode from 'vscode';
import { escapeMarkdown } from '../api';
import type { DriftMark, DriftMarks } from '../resources/driftMarks';
import type { Node } from './nodes';

/**
 * The words of the service folders' drift on the Observability tree's items: a resource whose pulled file differs
 * from it, and its service, end their tooltip with what the Explorer and Source Control say ("Differs from
 * checkout-prod: tags"); the `M` itself is the folders' file decoration of the item's drift URI.
 */
export function driftMarkOf(marks: DriftMarks | undefined, node: Node): DriftMark | undefined {
  if (!marks) return undefined;
  switch (node.type) {
    case 'connection': {
      // A self-hosted deployment's one service is not drawn: its connection's row stands for it.
      const serviceId = node.connection.kind === 'selfHosted' ? node.connection.serviceIds[0] : undefined;
      return serviceId === undefined ? undefined : marks.markOf(node.connection.id, serviceId);
    }
    case 'service':
      return marks.markOf(node.connectionId, node.serviceId);
    case 'dashboard':
      return marks.markOf(node.connectionId, node.serviceId, { kind: 'dashboard', id: node.dashboard.id });
    case 'alert':
      return marks.markOf(node.connectionId, node.serviceId, { kind: 'alert', id: node.alert.id });
    case 'source':
      return marks.markOf(node.connectionId, node.serviceId, { kind: 'source', id: node.source.id });
    case 'item':
      return node.kind === 'webhook' || node.kind === 'savedSearch'
        ? marks.markOf(node.connectionId, node.serviceId, { kind: node.kind, id: node.item.id })
        : undefined;
    default:
      return undefined;
  }
}

/** The tooltip with the drift's words after it (a tooltip still to be built on hover is left to `resolveTreeItem`). */
export function withDriftWords(item: vscode.TreeItem, mark: DriftMark | undefined): vscode.TreeItem {
  if (!mark || item.tooltip === undefined) return item;
  let tooltip: vscode.MarkdownString;
  if (typeof item.tooltip === 'string') {
    // The same lines, escaped, one per line (Markdown breaks a line on two trailing spaces).
    tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(item.tooltip.split('\n').map(escapeMarkdown).join('  \n'));
  } else {
    tooltip = item.tooltip;
  }
  tooltip.isTrusted = false;
  tooltip.supportHtml = false;
  tooltip.appendMarkdown(`\n\n---\n\n$(diff-modified) ${escapeMarkdown(mark.tooltip)}`);
  item.tooltip = tooltip;
  return item;
}
