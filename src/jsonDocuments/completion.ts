import * as vscode from 'vscode';
import { getLocation, parseTree, findNodeAtLocation, type Node as JsonNode } from 'jsonc-parser/lib/esm/main';
import { ALERTABLE_DISPLAY_TYPES, QUERY_ENDPOINT_ROLES } from '../schema';
import type { LiveData } from '../resources/live';
import { parseUri, RESOURCE_SCHEME, type ResourceRef } from './uris';

/**
 * Completion of live values in resource documents: dashboard IDs (with names), tile IDs of the chosen dashboard,
 * webhook IDs, saved search IDs, source IDs (of saved searches and correlated sources, the right kind first), the
 * ClickHouse connections the sources use, and for the query endpoint the organization's API keys and the two roles. Schema
 * completion (field names, enums) comes from VS Code's JSON support.
 */

interface Choice {
  readonly value: string;
  readonly label: string;
  readonly detail?: string;
  readonly description?: string;
  readonly kind: vscode.CompletionItemKind;
  readonly preferred?: boolean;
}

const ROLE_DETAILS: Record<string, string> = {
  sql_console_read_only: 'Queries can only read',
  sql_console_admin: 'Queries run with admin rights',
};

function pathIs(path: readonly (string | number)[], ...pattern: (string | number | '#')[]): boolean {
  return (
    path.length === pattern.length && pattern.every((p, i) => (p === '#' ? typeof path[i] === 'number' : path[i] === p))
  );
}

export class LiveCompletionProvider implements vscode.CompletionItemProvider {
  static readonly selector: vscode.DocumentSelector = [
    { scheme: RESOURCE_SCHEME, language: 'json' },
    { scheme: RESOURCE_SCHEME, language: 'jsonc' },
  ];

  /** `refOf` tells which service a document belongs to (default: the `observability:` address). */
  constructor(
    private readonly live: LiveData,
    private readonly refOf: (doc: vscode.TextDocument) => ResourceRef | undefined | Promise<ResourceRef | undefined> = (
      doc,
    ) => parseUri(doc.uri),
  ) {}

  async provideCompletionItems(doc: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionItem[]> {
    const ref = await this.refOf(doc);
    if (!ref) return [];
    const text = doc.getText();
    const offset = doc.offsetAt(position);
    const location = getLocation(text, offset);
    if (location.isAtPropertyKey) return [];
    const choices = await this.choices(ref, location.path, text);
    if (choices.length === 0) return [];

    // Replace the whole string literal under the cursor (quotes included), or insert a new one.
    const previous = location.previousNode;
    let range: vscode.Range;
    if (
      previous &&
      previous.type === 'string' &&
      offset >= previous.offset &&
      offset <= previous.offset + previous.length
    ) {
      range = new vscode.Range(doc.positionAt(previous.offset), doc.positionAt(previous.offset + previous.length));
    } else if (
      previous &&
      previous.type !== 'string' &&
      offset >= previous.offset &&
      offset <= previous.offset + previous.length
    ) {
      range = new vscode.Range(doc.positionAt(previous.offset), doc.positionAt(previous.offset + previous.length));
    } else {
      range = new vscode.Range(position, position);
    }
    const typed = doc.getText(range).replace(/^"|"$/g, '');
    return choices.map((c, index) => {
      const item = new vscode.CompletionItem(
        { label: c.label, description: c.description, detail: c.detail ? ` ${c.detail}` : undefined },
        c.kind,
      );
      item.insertText = JSON.stringify(c.value);
      item.range = range;
      // Filter on the ID and the name, whichever the user started typing.
      item.filterText = `"${c.value} ${c.label}`;
      item.sortText = `${c.preferred === false ? '1' : '0'}${String(index).padStart(4, '0')}`;
      if (typed && c.value === typed) item.preselect = true;
      item.documentation = new vscode.MarkdownString(`\`${c.value}\``);
      return item;
    });
  }

  private async choices(ref: ResourceRef, path: readonly (string | number)[], text: string): Promise<Choice[]> {
    const { connectionId, serviceId } = ref;
    if (ref.kind === 'alert') {
      if (pathIs(path, 'dashboardId')) {
        const dashboards = (await this.live.dashboards(connectionId, serviceId)) ?? [];
        return dashboards.map((d) => ({
          value: d.id,
          label: d.name || d.id,
          description: d.id,
          detail: vscode.l10n.t('{0} tiles', (d.tiles ?? []).length),
          kind: vscode.CompletionItemKind.Reference,
        }));
      }
      if (pathIs(path, 'tileId')) {
        const dashboardId = stringAt(text, ['dashboardId']);
        const dashboards = (await this.live.dashboards(connectionId, serviceId)) ?? [];
        const dashboard = dashboards.find((d) => d.id === dashboardId);
        const tiles = dashboard ? (dashboard.tiles ?? []) : [];
        return tiles.map((t) => {
          const displayType = t.config?.displayType ?? '';
          const alertable = (ALERTABLE_DISPLAY_TYPES as readonly string[]).includes(displayType);
          return {
            value: t.id,
            label: t.name || t.id,
            description: t.id,
            detail: alertable ? displayType : vscode.l10n.t('{0} (cannot carry an alert)', displayType || '?'),
            kind: vscode.CompletionItemKind.Reference,
            preferred: alertable,
          };
        });
      }
      if (pathIs(path, 'channel', 'webhookId') || pathIs(path, 'channels', '#', 'webhookId')) {
        const webhooks = (await this.live.webhooks(connectionId, serviceId)) ?? [];
        return webhooks.map((w) => ({
          value: w.id,
          label: w.name || w.id,
          description: w.id,
          detail: (w as { service?: string }).service,
          kind: vscode.CompletionItemKind.Reference,
        }));
      }
      if (pathIs(path, 'savedSearchId')) {
        const searches = (await this.live.listSavedSearches(connectionId, serviceId)) ?? [];
        return searches.map((s) => ({
          value: s.id,
          label: s.name || s.id,
          description: s.id,
          kind: vscode.CompletionItemKind.Reference,
        }));
      }
    }
    if (ref.kind === 'savedSearch' || ref.kind === 'source') {
      // References to the service's sources: a saved search's source, a source's correlated sources (of one kind).
      const wanted: Record<string, string | undefined> =
        ref.kind === 'savedSearch'
          ? { sourceId: undefined }
          : { traceSourceId: 'trace', logSourceId: 'log', metricSourceId: 'metric', sessionSourceId: 'session' };
      const field = path.length === 1 && typeof path[0] === 'string' ? path[0] : undefined;
      if (field && field in wanted) {
        const kind = wanted[field];
        const sources = (await this.live.sources(connectionId, serviceId)) ?? [];
        return sources
          .filter((s) => s.id !== ref.id)
          .map((s) => ({
            value: s.id,
            label: s.name || s.id,
            description: s.id,
            detail: s.kind,
            kind: vscode.CompletionItemKind.Reference,
            preferred: kind === undefined || s.kind === kind,
          }));
      }
      if (ref.kind === 'source' && pathIs(path, 'connection')) {
        const sources = (await this.live.sources(connectionId, serviceId)) ?? [];
        const connections = [...new Set(sources.map((s) => s.connection).filter((c) => typeof c === 'string' && c))];
        return connections.map((c) => ({
          value: c as string,
          label: c as string,
          detail: vscode.l10n.t(
            'ClickHouse connection of {0} source(s)',
            sources.filter((s) => s.connection === c).length,
          ),
          kind: vscode.CompletionItemKind.Reference,
        }));
      }
    }
    if (ref.kind === 'queryEndpoint') {
      if (pathIs(path, 'openApiKeys', '#')) {
        const keys = (await this.live.listApiKeys(connectionId)) ?? [];
        return keys.map((k) => ({
          value: k.id,
          label: k.name || k.id,
          description: k.keySuffix ? `…${k.keySuffix.slice(-4)}` : undefined,
          detail: [k.id, k.state && k.state !== 'enabled' ? k.state : undefined].filter((x) => x).join(' · '),
          kind: vscode.CompletionItemKind.Value,
          preferred: k.state !== 'disabled',
        }));
      }
      if (pathIs(path, 'roles', '#')) {
        return QUERY_ENDPOINT_ROLES.map((r) => ({
          value: r,
          label: r,
          detail: ROLE_DETAILS[r],
          kind: vscode.CompletionItemKind.EnumMember,
        }));
      }
    }
    return [];
  }
}

function stringAt(text: string, path: (string | number)[]): string | undefined {
  const root: JsonNode | undefined = parseTree(text);
  if (!root) return undefined;
  const node = findNodeAtLocation(root, path);
  return node && typeof node.value === 'string' ? node.value : undefined;
}
