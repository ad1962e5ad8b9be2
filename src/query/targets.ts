/**
 * Where a SQL document runs: its bound service (chosen once per document, kept for the session and, for files,
 * in workspace state), the query host of each connection (kept in global state like the base URL, so a
 * repository's settings can never send a stored key elsewhere), and the status bar item that shows and changes
 * the target of the active SQL editor.
 */
import * as vscode from 'vscode';
import { DEFAULT_QUERY_HOST, queryHostIssues } from '../api/query';
import { isLoopbackHost } from '../api';
import type { ConnectionManager } from '../connections/manager';
import { DEFAULT_BASE_URL, isSelfHosted } from '../connections/types';
import { sameOrigin } from '../connections/validation';

export interface QueryTarget {
  connectionId: string;
  serviceId: string;
}

const BINDINGS_KEY = 'observability.query.bindings';
const HOSTS_KEY = 'observability.query.hosts';
/** The base URL each connection had when its query host was set: a connection moved elsewhere loses its host. */
const HOST_ORIGINS_KEY = 'observability.query.hostOrigins';

/**
 * The query host a connection has without one set for it: ClickHouse Cloud's (`https://queries.clickhouse.cloud`)
 * for a connection to ClickHouse Cloud's own API address, and none for any other base URL (a local API, a proxy, a
 * staging address): its key is never sent to a host the user did not name. Such a connection runs SQL once the user
 * sets its query host (Set Query Host).
 */
export function defaultQueryHost(baseUrl: string): string | undefined {
  return sameOrigin(baseUrl, DEFAULT_BASE_URL) ? DEFAULT_QUERY_HOST : undefined;
}

export class QueryTargets implements vscode.Disposable {
  private readonly bindings = new Map<string, QueryTarget>();
  private readonly emitter = new vscode.EventEmitter<string>();
  /** Fires with a document URI when its target changes. */
  readonly onDidChange = this.emitter.event;
  private readonly hostEmitter = new vscode.EventEmitter<string>();
  /** Fires with a connection ID when its query host is set or removed. */
  readonly onDidChangeHost = this.hostEmitter.event;
  private readonly status: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly connections: ConnectionManager,
  ) {
    const saved = context.workspaceState.get<Record<string, QueryTarget>>(BINDINGS_KEY) ?? {};
    for (const [uri, t] of Object.entries(saved)) {
      if (t && typeof t.connectionId === 'string' && typeof t.serviceId === 'string') this.bindings.set(uri, t);
    }
    this.status = vscode.window.createStatusBarItem('observability.queryTarget', vscode.StatusBarAlignment.Right, 100);
    this.status.name = vscode.l10n.t('Observability Query Target');
    this.status.command = 'observability.chooseQueryTarget';
    this.disposables.push(
      this.status,
      this.emitter,
      this.hostEmitter,
      vscode.window.onDidChangeActiveTextEditor(() => this.updateStatus()),
      this.onDidChange(() => this.updateStatus()),
      connections.onDidChange(() => this.updateStatus()),
    );
    this.updateStatus();
  }

  get(uri: vscode.Uri): QueryTarget | undefined {
    const t = this.bindings.get(uri.toString());
    if (!t) return undefined;
    const c = this.connections.get(t.connectionId);
    return c ? t : undefined;
  }

  async bind(uri: vscode.Uri, target: QueryTarget): Promise<void> {
    this.bindings.set(uri.toString(), target);
    if (uri.scheme === 'file') {
      const saved = {
        ...(this.context.workspaceState.get<Record<string, QueryTarget>>(BINDINGS_KEY) ?? {}),
        [uri.toString()]: target,
      };
      await this.context.workspaceState.update(BINDINGS_KEY, saved);
    }
    this.emitter.fire(uri.toString());
  }

  serviceName(target: QueryTarget): string {
    return (
      this.connections.get(target.connectionId)?.services.find((s) => s.id === target.serviceId)?.name ??
      target.serviceId
    );
  }

  /**
   * The query host of a connection: the one set for it (while the connection keeps the base URL it had then), else
   * ClickHouse Cloud's for a connection to ClickHouse Cloud's API address; undefined when it has none.
   */
  queryHost(connectionId: string): string | undefined {
    const c = this.connections.get(connectionId);
    const set = this.setHost(connectionId);
    if (set) return set;
    return c ? defaultQueryHost(c.baseUrl) : undefined;
  }

  /** The query host set for a connection, if the connection is still at the address it was set for. */
  private setHost(connectionId: string): string | undefined {
    const set = (this.context.globalState.get<Record<string, string>>(HOSTS_KEY) ?? {})[connectionId];
    if (!set) return undefined;
    const origin = (this.context.globalState.get<Record<string, string>>(HOST_ORIGINS_KEY) ?? {})[connectionId];
    const c = this.connections.get(connectionId);
    // A host set before origins were kept is taken as it is.
    return origin === undefined || (c !== undefined && sameOrigin(c.baseUrl, origin)) ? set : undefined;
  }

  /** Sets a connection's query host (validated: https, or http on loopback only); empty or undefined removes it. */
  async setQueryHost(connectionId: string, queryUrl: string | undefined): Promise<void> {
    const hosts = { ...(this.context.globalState.get<Record<string, string>>(HOSTS_KEY) ?? {}) };
    const origins = { ...(this.context.globalState.get<Record<string, string>>(HOST_ORIGINS_KEY) ?? {}) };
    if (queryUrl === undefined || queryUrl === '') {
      delete hosts[connectionId];
      delete origins[connectionId];
    } else {
      const issues = queryHostIssues(queryUrl);
      if (issues.length > 0) throw new Error(issues.map((i) => i.message).join('; '));
      hosts[connectionId] = queryUrl.replace(/\/+$/, '');
      const c = this.connections.get(connectionId);
      if (c) origins[connectionId] = c.baseUrl;
      else delete origins[connectionId];
    }
    await this.context.globalState.update(HOSTS_KEY, hosts);
    await this.context.globalState.update(HOST_ORIGINS_KEY, origins);
    this.hostEmitter.fire(connectionId);
    this.updateStatus();
  }

  /** Asks for a connection's service; undefined when cancelled. */
  async pick(current?: QueryTarget): Promise<QueryTarget | undefined> {
    type Item = vscode.QuickPickItem & { target: QueryTarget };
    const items: Item[] = [];
    for (const c of this.connections.list()) {
      // A self-hosted deployment runs no SQL through its API: only with ClickHouse access of its own.
      if (isSelfHosted(c) && !c.clickHouse) continue;
      for (const id of c.serviceIds) {
        const s = c.services.find((x) => x.id === id);
        const target = { connectionId: c.id, serviceId: id };
        const here = current?.connectionId === c.id && current.serviceId === id;
        items.push({
          label: `$(server) ${s?.name ?? id}`,
          description: [c.label, s?.state].filter(Boolean).join(' · '),
          detail: here ? vscode.l10n.t('Current target') : undefined,
          target,
        });
      }
    }
    if (items.length === 0) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Add a connection first: Observability: Add Connection.'),
      );
      return undefined;
    }
    const picked =
      items.length === 1
        ? items[0]
        : await vscode.window.showQuickPick(items, {
            title: vscode.l10n.t('Run SQL on which service?'),
            matchOnDescription: true,
          });
    return picked?.target;
  }

  private updateStatus(): void {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.languageId !== 'sql' || this.connections.list().length === 0) {
      this.status.hide();
      return;
    }
    const t = this.get(editor.document.uri);
    this.status.text = t ? `$(database) ${this.serviceName(t)}` : `$(database) ${vscode.l10n.t('Choose service')}`;
    const host = t ? this.queryHost(t.connectionId) : undefined;
    const selfHosted = t ? this.connections.get(t.connectionId)?.clickHouse : undefined;
    this.status.tooltip = !t
      ? vscode.l10n.t('Choose the service this SQL document runs on.')
      : host || selfHosted
        ? vscode.l10n.t(
            'SQL in this document runs on {0} ({1}). Click to change.',
            this.serviceName(t),
            hostLabel(selfHosted ? selfHosted.url : host!),
          )
        : vscode.l10n.t(
            'SQL in this document would run on {0}, but its connection has no query host: run "Set Query Host…".',
            this.serviceName(t),
          );
    this.status.show();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

function hostLabel(url: string): string {
  try {
    const u = new URL(url);
    return isLoopbackHost(u.hostname) ? u.host : u.hostname;
  } catch {
    return url;
  }
}
