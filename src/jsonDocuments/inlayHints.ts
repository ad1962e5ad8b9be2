import * as vscode from 'vscode';
import { getNodePath, parseTree, type Node as JsonNode } from 'jsonc-parser/lib/esm/main';
import type { LiveData } from '../resources/live';
import { parseUri, RESOURCE_SCHEME, type ResourceRef } from './uris';

/**
 * Names beside IDs: in resource documents and alert files, each dashboard, tile, webhook and saved search ID gets an
 * inlay hint with the name it has on the service, so a reader never has to look an ID up. Names come from the lists
 * the explorer and the live checks already read (no extra request per ID).
 */

type Where = Pick<ResourceRef, 'connectionId' | 'serviceId'>;

function stringValues(root: JsonNode | undefined): { node: JsonNode; path: (string | number)[] }[] {
  const out: { node: JsonNode; path: (string | number)[] }[] = [];
  const walk = (n: JsonNode) => {
    if (n.type === 'string' && n.parent?.type === 'property' && n.parent.children?.[1] === n) {
      out.push({ node: n, path: getNodePath(n) });
    }
    for (const c of n.children ?? []) walk(c);
  };
  if (root) walk(root);
  return out;
}

export class IdNameInlayHintsProvider implements vscode.InlayHintsProvider {
  static readonly resourceSelector: vscode.DocumentSelector = [{ scheme: RESOURCE_SCHEME }];

  /** `whereOf` tells which service a document belongs to (default: the `observability:` address). */
  constructor(
    private readonly live: LiveData,
    private readonly whereOf: (doc: vscode.TextDocument) => Where | undefined = (doc) => parseUri(doc.uri),
  ) {}

  async provideInlayHints(doc: vscode.TextDocument, range: vscode.Range): Promise<vscode.InlayHint[]> {
    const where = this.whereOf(doc);
    if (!where) return [];
    const root = parseTree(doc.getText(), [], { allowTrailingComma: true });
    const values = stringValues(root).filter(({ node }) => range.contains(doc.positionAt(node.offset)));
    const wanted = (key: string) => values.some(({ path }) => path[path.length - 1] === key);
    const isDashboardDoc = parseUri(doc.uri)?.kind === 'dashboard';
    const [dashboards, webhooks, savedSearches] = await Promise.all([
      wanted('dashboardId') || wanted('tileId')
        ? this.live.dashboards(where.connectionId, where.serviceId).catch(() => undefined)
        : undefined,
      wanted('webhookId') ? this.live.webhooks(where.connectionId, where.serviceId).catch(() => undefined) : undefined,
      wanted('savedSearchId') ? this.live.listSavedSearches(where.connectionId, where.serviceId) : undefined,
    ]);
    const rootValue = root ? (JSON.parse(JSON.stringify(nodeValue(root))) as Record<string, unknown>) : undefined;
    const hints: vscode.InlayHint[] = [];
    for (const { node, path } of values) {
      const key = path[path.length - 1];
      const id = String(node.value);
      let name: string | null | undefined;
      if (key === 'dashboardId') name = dashboards?.find((d) => d.id === id)?.name;
      else if (key === 'webhookId') name = webhooks?.find((w) => w.id === id)?.name;
      else if (key === 'savedSearchId') name = savedSearches?.find((s) => s.id === id)?.name;
      else if (key === 'tileId' && !isDashboardDoc) {
        const dashboardId = typeof rootValue?.dashboardId === 'string' ? rootValue.dashboardId : undefined;
        const dashboard = dashboards?.find((d) => d.id === dashboardId);
        name = dashboard?.tiles?.find((t) => t.id === id)?.name;
      }
      if (!name) continue;
      const tooltip = vscode.l10n.t('Name on the service of {0} {1}', String(key), id);
      let label: string | vscode.InlayHintLabelPart[] = name;
      if (key === 'savedSearchId') {
        // The saved search's name opens it in the search panel (Ctrl/Cmd+click, as any inlay hint link).
        const part = new vscode.InlayHintLabelPart(name);
        part.command = {
          command: 'observability.searchEvents',
          title: vscode.l10n.t('Open in Search'),
          arguments: [{ connectionId: where.connectionId, serviceId: where.serviceId, savedSearchId: id }],
        };
        part.tooltip = `${tooltip} · ${vscode.l10n.t('Open in Search')}`;
        label = [part];
      }
      const hint = new vscode.InlayHint(doc.positionAt(node.offset + node.length), label, vscode.InlayHintKind.Type);
      hint.paddingLeft = true;
      hint.tooltip = tooltip;
      hints.push(hint);
    }
    return hints;
  }
}

function nodeValue(node: JsonNode): unknown {
  switch (node.type) {
    case 'object':
      return Object.fromEntries(
        (node.children ?? []).map((p) => [
          String(p.children?.[0]?.value),
          p.children?.[1] ? nodeValue(p.children[1]) : undefined,
        ]),
      );
    case 'array':
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}
