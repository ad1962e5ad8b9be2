import * as vscode from 'vscode';
import type { ResourceCache } from '../resources/cache';
import type { ResourceKind } from '../resources/model';
import { maskWebhookUrl } from '../resources/dependents';

/** Scheme of the read-only JSON views ("Open as JSON"). */
export const READONLY_SCHEME = 'observability-readonly';

export type JsonItemKind =
  'dashboard' | 'alert' | 'source' | 'webhook' | 'savedSearch' | 'role' | 'queryEndpoint' | 'team' | 'teamMember';

export interface JsonItemRef {
  readonly connectionId: string;
  readonly serviceId: string;
  readonly kind: JsonItemKind;
  /** Resource ID; ignored for the query endpoint and the team (one per service). */
  readonly id?: string;
}

const LIST_OF: Record<JsonItemKind, ResourceKind> = {
  dashboard: 'dashboards',
  alert: 'alerts',
  source: 'sources',
  webhook: 'webhooks',
  savedSearch: 'savedSearches',
  role: 'roles',
  queryEndpoint: 'queryEndpoint',
  team: 'team',
  teamMember: 'team',
};

function safeFileName(name: string): string {
  const printable = [...name].map((ch) => (ch.charCodeAt(0) < 32 ? ' ' : ch)).join('');
  const cleaned = printable
    .replace(/[\\/:*?"<>|#%]+/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
  return cleaned || 'item';
}

/**
 * Serves pretty-printed JSON of cached objects. The document follows the cache: when the list it came from is
 * reloaded, an open document updates; when the object is gone, the last text stays.
 */
export class ReadonlyJsonProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly lastText = new Map<string, string>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly cache: ResourceCache) {
    this.subscription = cache.onDidChange((e) => {
      for (const doc of vscode.workspace.textDocuments) {
        if (doc.uri.scheme !== READONLY_SCHEME) continue;
        const ref = ReadonlyJsonProvider.parse(doc.uri);
        if (
          ref &&
          ref.connectionId === e.connectionId &&
          ref.serviceId === e.serviceId &&
          LIST_OF[ref.kind] === e.kind
        ) {
          this.changed.fire(doc.uri);
        }
      }
    });
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }

  static uriFor(ref: JsonItemRef, name: string): vscode.Uri {
    const query = new URLSearchParams({
      c: ref.connectionId,
      s: ref.serviceId,
      k: ref.kind,
      id: ref.id ?? '',
    }).toString();
    return vscode.Uri.from({ scheme: READONLY_SCHEME, path: `/${ref.kind}/${safeFileName(name)}.json`, query });
  }

  static parse(uri: vscode.Uri): JsonItemRef | undefined {
    const q = new URLSearchParams(uri.query);
    const kind = q.get('k') as JsonItemKind | null;
    const connectionId = q.get('c');
    const serviceId = q.get('s');
    if (!kind || !(kind in LIST_OF) || !connectionId || !serviceId) return undefined;
    return { connectionId, serviceId, kind, id: q.get('id') || undefined };
  }

  /** The cached object a reference points at, if still cached. */
  lookup(ref: JsonItemRef): unknown {
    if (ref.kind === 'queryEndpoint') {
      return this.cache.peek(ref.connectionId, ref.serviceId, 'queryEndpoint') ?? undefined;
    }
    if (ref.kind === 'team' || ref.kind === 'teamMember') {
      const view = this.cache.peek(ref.connectionId, ref.serviceId, 'team');
      if (ref.kind === 'team') return view?.team;
      return view?.members.find((m) => m.id === ref.id);
    }
    const list = this.cache.peek(ref.connectionId, ref.serviceId, LIST_OF[ref.kind]) as
      readonly { id: string }[] | undefined;
    return list?.find((item) => item.id === ref.id);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const key = uri.toString();
    const ref = ReadonlyJsonProvider.parse(uri);
    const value = ref ? this.lookup(ref) : undefined;
    if (value !== undefined) {
      // A webhook URL carries its secret (Slack path, keys): shown masked.
      const shown =
        ref?.kind === 'webhook' && typeof (value as { url?: unknown }).url === 'string'
          ? { ...(value as object), url: maskWebhookUrl((value as { url: string }).url) }
          : value;
      const text = `${JSON.stringify(shown, null, 2)}\n`;
      this.lastText.set(key, text);
      return text;
    }
    return (
      this.lastText.get(key) ??
      `// ${vscode.l10n.t('This item is no longer loaded. Refresh the tree and open it again.')}\n`
    );
  }
}
