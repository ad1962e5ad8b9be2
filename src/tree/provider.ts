import * as vscode from 'vscode';
import { sanitizeServerText } from '../api';
import type { CacheChange, Entry, ResourceCache } from '../resources/cache';
import { alertsOnSavedSearch, alertsUsingWebhook } from '../resources/dependents';
import {
  alertTooltip,
  isFiringUnsilenced,
  nameOf,
  presentFailure,
  queryEndpointLines,
  sortAlerts,
  sortByName,
  tileLabel,
} from '../labels/format';
import type { Alert, ConnectionSource, ConnectionView, FolderKind, ResourceKind, Webhook } from '../resources/model';
import type { DriftMarks } from '../resources/driftMarks';
import { driftMarkOf, withDriftWords } from './driftWords';
import {
  AlertNode,
  ConnectionNode,
  DashboardNode,
  ErrorNode,
  FOLDER_READS,
  FOLDER_RESOURCES,
  FolderNode,
  InfoNode,
  ItemNode,
  MemberNode,
  ServiceNode,
  SourceNode,
  TileNode,
  type Node,
} from './nodes';

/** Context key set while a name filter narrows the tree. */
export const FILTER_CONTEXT_KEY = 'observability.filterActive';

/** Folders of a service that a self-hosted deployment's External API v2 does not serve. */
const SELF_HOSTED_HIDDEN_FOLDERS: ReadonlySet<string> = new Set(['queryEndpoint', 'roles']);
/** Folders only a self-hosted deployment shows (a Cloud service's people are its organization's, managed in Cloud). */
const CLOUD_HIDDEN_FOLDERS: ReadonlySet<string> = new Set(['team']);

const FOLDER_WHAT: Record<FolderKind, () => string> = {
  dashboards: () => vscode.l10n.t('dashboards'),
  alerts: () => vscode.l10n.t('alerts'),
  webhooks: () => vscode.l10n.t('webhooks'),
  savedSearches: () => vscode.l10n.t('saved searches'),
  sources: () => vscode.l10n.t('sources'),
  roles: () => vscode.l10n.t('roles'),
  queryEndpoint: () => vscode.l10n.t('the query endpoint'),
  team: () => vscode.l10n.t('team members'),
};

/** What the tree draws of a connection (its rows, services and folders). */
function drawnPartsOf(c: ConnectionView): string {
  const { label, baseUrl, organizationId, organizationName, serviceIds, services, pathSegment, kind } = c;
  const parts = [label, baseUrl, organizationId, organizationName, serviceIds, services, pathSegment, kind];
  return JSON.stringify([...parts, c.allowPlainHttp, c.clickHouse]);
}

/** Every list a folder reads: what it shows and what its descriptions use. */
function folderKinds(folder: FolderNode): ResourceKind[] {
  return [...FOLDER_RESOURCES[folder.kind], ...(FOLDER_READS[folder.kind] ?? [])];
}

/**
 * How long a folder's first rows wait for VS Code to draw its row again (it does so at once, or within its 200 ms
 * batching of redraws, when it shows the folder).
 */
const REDRAW_WAIT_MS = 1000;

/** The rows a folder showed last and what they were built from. */
interface FolderRows {
  readonly inputs: readonly unknown[];
  readonly nodes: Node[];
}

/**
 * Organization → service → Dashboards / Alerts / Sources / Query Endpoint.
 *
 * Folders are drawn at once; each folder loads its list when first expanded and keeps it until refreshed. A refresh
 * of one folder redraws that folder only. Connection, service and folder nodes are kept between redraws so that
 * `onDidChangeTreeData` can name them.
 */
export class ObservabilityTreeProvider implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly refreshedAll = new vscode.EventEmitter<void>();
  /** Fires when everything is reloaded (the view's Refresh). */
  readonly onDidRefreshAll = this.refreshedAll.event;
  private readonly disposables: vscode.Disposable[] = [];
  private roots: ConnectionNode[] | undefined;
  private readonly servicesByConnection = new Map<string, ServiceNode[]>();
  private filterText = '';
  private readonly webhookNameMaps = new WeakMap<readonly Webhook[], Map<string, string>>();
  private readonly rowsOf = new WeakMap<FolderNode, FolderRows>();

  constructor(
    private readonly connections: ConnectionSource,
    readonly cache: ResourceCache,
    /** The service folders' drift, whose words end the tooltips of the items it marks. */
    private readonly driftMarks?: DriftMarks,
  ) {
    this.disposables.push(
      driftMarks?.onDidChange((services) => {
        for (const s of services) this.redrawService(s.connectionId, s.serviceId);
      }) ?? { dispose: () => undefined },
      this.changed,
      this.refreshedAll,
      connections.onDidChange((e) => {
        if (e.connectionId && this.reloadInPlace(e.connectionId)) return;
        if (e.connectionId) cache.forget(e.connectionId);
        else cache.forgetAll();
        this.roots = undefined;
        this.servicesByConnection.clear();
        this.changed.fire(undefined);
      }),
      cache.onDidChange((e) => this.onCacheChange(e)),
      // A redraw announced is on its way: VS Code asks for the rows it names (all of them for the whole tree).
      this.changed.event((node) => {
        for (const folder of node ? this.foldersUnder(node) : this.allFolders()) folder.redrawAnnounced();
      }),
    );
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  get filter(): string {
    return this.filterText;
  }

  /** Narrows dashboards, alerts and sources to names containing `text` (case-insensitive). Empty clears it. */
  setFilter(text: string): void {
    const next = text.trim();
    if (next === this.filterText) return;
    this.filterText = next;
    void vscode.commands.executeCommand('setContext', FILTER_CONTEXT_KEY, next !== '');
    for (const folder of this.allFolders()) this.changed.fire(folder);
  }

  private matches(name: string): boolean {
    return this.filterText === '' || name.toLocaleLowerCase().includes(this.filterText.toLocaleLowerCase());
  }

  // ---- TreeDataProvider ----

  getTreeItem(node: Node): vscode.TreeItem {
    // A folder's count, firing count and offline mark are those of the rows it shows now (computed from the cache,
    // without a request), not those of the rows it showed when last expanded.
    if (node.type === 'folder' && this.knows(node)) this.folderRows(node);
    return withDriftWords(node.treeItem(), driftMarkOf(this.driftMarks, node));
  }

  /** Draws a service again (a self-hosted deployment: its connection's row, which stands for it). */
  private redrawService(connectionId: string, serviceId: string): void {
    const service = this.servicesByConnection.get(connectionId)?.find((s) => s.serviceId === serviceId);
    if (!service) return;
    this.changed.fire(service.parent.connection.kind === 'selfHosted' ? service.parent : service);
  }

  /** Whether the cache knows anything of a folder's list (a value, even stale, or the error of its last read). */
  private knows(folder: FolderNode): boolean {
    const entry = this.cache.entry(folder.connectionId, folder.serviceId, FOLDER_RESOURCES[folder.kind][0]);
    return entry.value !== undefined || entry.error !== undefined;
  }

  getParent(node: Node): Node | undefined {
    // A self-hosted deployment's one service is not drawn: its folders hang under the connection.
    if (node.type === 'folder' && node.parent.parent.connection.kind === 'selfHosted') return node.parent.parent;
    return node.parent;
  }

  async resolveTreeItem(item: vscode.TreeItem, node: Node): Promise<vscode.TreeItem> {
    if (node.type === 'alert') {
      const alert = node.alert;
      let dashboardName: string | undefined;
      let tileName: string | undefined;
      if (alert.dashboardId) {
        const dashboard = this.cache
          .peek(node.connectionId, node.serviceId, 'dashboards')
          ?.find((d) => d.id === alert.dashboardId);
        if (dashboard) {
          dashboardName = nameOf(dashboard);
          const tile = dashboard.tiles?.find((t) => t.id === alert.tileId);
          if (tile) tileName = tileLabel(tile);
        }
      }
      // A saved search is named by its name: the list is read once per service (shared with the Saved Searches folder).
      let savedSearchName: string | undefined;
      if (alert.savedSearchId) {
        const entry = await this.cache.ensure(node.connectionId, node.serviceId, 'savedSearches', { origin: 'tree' });
        const search = entry.value?.find((s) => s.id === alert.savedSearchId);
        if (search) savedSearchName = nameOf(search);
      }
      item.tooltip = alertTooltip(alert, node.webhooks, dashboardName, tileName, savedSearchName, {
        connectionId: node.connectionId,
        serviceId: node.serviceId,
      });
      withDriftWords(item, driftMarkOf(this.driftMarks, node));
    }
    return item;
  }

  async getChildren(node?: Node): Promise<Node[]> {
    if (!node) return this.rootNodes();
    switch (node.type) {
      case 'connection':
        if (node.connection.kind === 'selfHosted') return this.selfHostedFolders(node);
        return this.serviceNodes(node);
      case 'service':
        return [...node.folders.values()].filter((f) => !CLOUD_HIDDEN_FOLDERS.has(f.kind));
      case 'folder':
        return this.folderChildren(node);
      case 'dashboard':
        return this.tileNodes(node);
      case 'tile':
        return this.tileAlerts(node);
      default:
        return [];
    }
  }

  // ---- structure ----

  rootNodes(): ConnectionNode[] {
    if (!this.roots) {
      this.roots = this.connections.list().map((c) => new ConnectionNode(c));
    }
    return this.roots;
  }

  serviceNodes(node: ConnectionNode): Node[] {
    let services = this.servicesByConnection.get(node.connection.id);
    if (!services) {
      const known = new Map(node.connection.services.map((s) => [s.id, s]));
      services = node.connection.serviceIds.map((id) => {
        const s = known.get(id);
        return new ServiceNode(node, id, s?.name || id, s?.region, s?.state);
      });
      this.servicesByConnection.set(node.connection.id, services);
    }
    if (services.length === 0) {
      return [
        new InfoNode(
          node,
          'no-services',
          vscode.l10n.t('No services selected'),
          vscode.l10n.t('edit the connection to pick some'),
          'info',
          'message noServices',
        ),
      ];
    }
    return services;
  }

  /**
   * A self-hosted deployment is its own one service: the connection node holds that service's folders directly,
   * without the ones its External API v2 does not serve (the service query endpoint).
   */
  selfHostedFolders(node: ConnectionNode): Node[] {
    const service = this.serviceNodes(node).find((n): n is ServiceNode => n.type === 'service');
    if (!service) return [];
    return [...service.folders.values()].filter((f) => !SELF_HOSTED_HIDDEN_FOLDERS.has(f.kind));
  }

  /** The folders drawn under a node (itself, for a folder). */
  private foldersUnder(node: Node): FolderNode[] {
    if (node.type === 'folder') return [node];
    if (node.type === 'service') return [...node.folders.values()];
    if (node.type === 'connection') {
      return (this.servicesByConnection.get(node.connection.id) ?? []).flatMap((s) => [...s.folders.values()]);
    }
    return [];
  }

  /** Every folder node currently known (of drawn services). */
  allFolders(): FolderNode[] {
    const out: FolderNode[] = [];
    for (const services of this.servicesByConnection.values()) {
      for (const service of services) out.push(...service.folders.values());
    }
    return out;
  }

  findService(connectionId: string, serviceId: string): ServiceNode | undefined {
    if (!this.servicesByConnection.has(connectionId)) {
      const root = this.rootNodes().find((r) => r.connection.id === connectionId);
      if (root) this.serviceNodes(root);
    }
    return this.servicesByConnection.get(connectionId)?.find((s) => s.serviceId === serviceId);
  }

  folder(connectionId: string, serviceId: string, kind: FolderKind): FolderNode | undefined {
    return this.findService(connectionId, serviceId)?.folders.get(kind);
  }

  // ---- loading ----

  private async ensureAll(
    scope: { connectionId: string; serviceId: string },
    kinds: readonly ResourceKind[],
  ): Promise<Entry<ResourceKind>[]> {
    return Promise.all(kinds.map((k) => this.cache.ensure(scope.connectionId, scope.serviceId, k, { origin: 'tree' })));
  }

  private webhookNames(connectionId: string, serviceId: string): ReadonlyMap<string, string> {
    const hooks = this.cache.peek(connectionId, serviceId, 'webhooks');
    if (!hooks) return new Map();
    let names = this.webhookNameMaps.get(hooks);
    if (!names) {
      names = new Map(hooks.map((h) => [h.id, nameOf(h)]));
      this.webhookNameMaps.set(hooks, names);
    }
    return names;
  }

  private failureNodes(
    parent: FolderNode | DashboardNode,
    kind: ResourceKind,
    entry: Entry<ResourceKind>,
    what: string,
    retryKinds: readonly ResourceKind[],
  ): { nodes: Node[]; usable: boolean } {
    if (!entry.error) return { nodes: [], usable: true };
    const connection = this.connections.get(parent.connectionId);
    const presentation = presentFailure(entry.error, what, connection);
    if (entry.value !== undefined) {
      const when = entry.fetchedAt ? new Date(entry.fetchedAt).toLocaleTimeString() : '';
      const label = vscode.l10n.t('Offline: showing {0} loaded at {1}', what, when);
      return { nodes: [new ErrorNode(parent, 'warning', presentation, retryKinds, label)], usable: true };
    }
    void kind;
    return { nodes: [new ErrorNode(parent, 'error', presentation, retryKinds, presentation.label)], usable: false };
  }

  private async folderChildren(folder: FolderNode): Promise<Node[]> {
    await this.ensureAll(folder, folderKinds(folder));
    folder.loaded = true;
    const rows = this.folderRows(folder);
    if (this.drawnStale(folder)) await this.redrawBeforeRows(folder);
    return rows;
  }

  /**
   * On a folder's first expansion its row was drawn before its list was read. It is drawn again before VS Code gets
   * its rows: a redraw makes VS Code forget the rows under the row (and drop this answer), then ask for them again
   * (the same rows, from `folderRows`). Redrawn after VS Code had the rows, a dashboard opened meanwhile would be
   * asked for by a handle VS Code had just forgotten, and show no tiles. VS Code asks for the row at once (unless
   * it does not show the folder: then the rows go after a short wait).
   */
  private async redrawBeforeRows(folder: FolderNode): Promise<void> {
    const drawn = folder.nextDraw();
    this.changed.fire(folder);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([drawn, new Promise<void>((resolve) => (timer = setTimeout(resolve, REDRAW_WAIT_MS)))]);
    clearTimeout(timer);
  }

  /** Whether a folder's row, as VS Code last drew it, says other than its rows now (count, firing, offline). */
  private drawnStale(folder: FolderNode): boolean {
    if (!this.knows(folder)) return false;
    this.folderRows(folder);
    return !folder.drawnAs(folder.description, folder.extraContext);
  }

  /** A folder's rows: the same nodes as long as what they are built from (lists, errors, filter) is the same. */
  private folderRows(folder: FolderNode): Node[] {
    const inputs: unknown[] = [this.filterText];
    for (const kind of folderKinds(folder)) {
      const entry = this.cache.entry(folder.connectionId, folder.serviceId, kind);
      inputs.push(entry.value, entry.error, entry.fetchedAt);
    }
    const last = this.rowsOf.get(folder);
    if (last && last.inputs.length === inputs.length && last.inputs.every((x, i) => x === inputs[i])) return last.nodes;
    const nodes = this.buildFolderChildren(folder);
    this.rowsOf.set(folder, { inputs, nodes });
    return nodes;
  }

  private buildFolderChildren(folder: FolderNode): Node[] {
    const { connectionId, serviceId } = folder;
    const what = FOLDER_WHAT[folder.kind]();
    const primary: ResourceKind = FOLDER_RESOURCES[folder.kind][0];
    const entry = this.cache.entry(connectionId, serviceId, primary);
    const failure = this.failureNodes(folder, primary, entry, what, FOLDER_RESOURCES[folder.kind]);
    folder.extraContext = '';
    if (!failure.usable) {
      folder.description = undefined;
      return failure.nodes;
    }
    const offline = failure.nodes.length > 0 ? vscode.l10n.t('offline') : undefined;
    let items: Node[];
    let total: number;
    switch (folder.kind) {
      case 'dashboards': {
        const all = this.cache.peek(connectionId, serviceId, 'dashboards') ?? [];
        total = all.length;
        items = sortByName(all.filter((d) => this.matches(nameOf(d)))).map((d) => new DashboardNode(folder, d));
        break;
      }
      case 'alerts': {
        const all = this.cache.peek(connectionId, serviceId, 'alerts') ?? [];
        total = all.length;
        const names = this.webhookNames(connectionId, serviceId);
        const shown = this.filterText ? all.filter((a) => this.matches(a.name ?? a.id)) : all;
        items = sortAlerts(shown).map((a) => new AlertNode(folder, a, names));
        const now = Date.now();
        const firing = all.reduce((n, a) => n + (isFiringUnsilenced(a, now) ? 1 : 0), 0);
        folder.description = [
          this.countText(items.length, total),
          firing ? vscode.l10n.t('{0} firing', firing) : undefined,
          offline,
        ]
          .filter((x) => x)
          .join(' · ');
        return [...failure.nodes, ...items, ...this.emptyOrFiltered(folder, items.length, total, what)];
      }
      case 'sources': {
        const all = this.cache.peek(connectionId, serviceId, 'sources') ?? [];
        total = all.length;
        items = sortByName(all.filter((s) => this.matches(nameOf(s)))).map((s) => new SourceNode(folder, s));
        break;
      }
      case 'webhooks': {
        const all = this.cache.peek(connectionId, serviceId, 'webhooks') ?? [];
        const alerts = this.cache.peek(connectionId, serviceId, 'alerts') ?? [];
        total = all.length;
        items = sortByName(all.filter((w) => this.matches(nameOf(w)))).map(
          (w) => new ItemNode(folder, 'webhook', w, alertsUsingWebhook(alerts, w.id).length),
        );
        break;
      }
      case 'savedSearches': {
        const all = this.cache.peek(connectionId, serviceId, 'savedSearches') ?? [];
        const alerts = this.cache.peek(connectionId, serviceId, 'alerts') ?? [];
        total = all.length;
        items = sortByName(all.filter((x) => this.matches(nameOf(x)))).map(
          (x) => new ItemNode(folder, 'savedSearch', x, alertsOnSavedSearch(alerts, x.id).length),
        );
        break;
      }
      case 'roles': {
        const all = this.cache.peek(connectionId, serviceId, 'roles') ?? [];
        total = all.length;
        items = sortByName(all.filter((r) => this.matches(nameOf(r)))).map((r) => new ItemNode(folder, 'role', r));
        break;
      }
      case 'team': {
        const view = this.cache.peek(connectionId, serviceId, 'team');
        const members = view?.members ?? [];
        total = members.length;
        // The key's owner first, then by name (or email).
        const byName = new Map(
          sortByName(members.map((m) => ({ id: m.id, name: m.name || m.email }))).map((m, i) => [m.id, i]),
        );
        items = members
          .filter((m) => this.matches(m.name || m.email))
          .sort(
            (a, b) =>
              Number(b.isCurrentUser === true) - Number(a.isCurrentUser === true) ||
              (byName.get(a.id) ?? 0) - (byName.get(b.id) ?? 0),
          )
          .map((m) => new MemberNode(folder, m));
        folder.extraContext = ' json';
        const teamName = view ? sanitizeServerText(view.team.name, 200) : '';
        folder.description =
          [teamName || undefined, this.countText(items.length, total), offline].filter((x) => x).join(' · ') ||
          undefined;
        return [...failure.nodes, ...items, ...this.emptyOrFiltered(folder, items.length, total, what)];
      }
      case 'queryEndpoint': {
        const endpoint = this.cache.peek(connectionId, serviceId, 'queryEndpoint');
        if (!endpoint) {
          folder.description = [vscode.l10n.t('not configured'), offline].filter((x) => x).join(' · ');
          return [
            ...failure.nodes,
            new InfoNode(
              folder,
              'not-configured',
              vscode.l10n.t('Not configured'),
              vscode.l10n.t('no query endpoint for this service'),
              'circle-slash',
              'message notConfigured',
            ),
          ];
        }
        folder.extraContext = ' configured json';
        folder.description = offline;
        return [
          ...failure.nodes,
          ...queryEndpointLines(endpoint).map(
            (l) =>
              new InfoNode(
                folder,
                l.key,
                l.label,
                l.description,
                l.icon,
                `queryEndpointProperty ${l.key} json`,
                `${l.label}: ${l.description}`,
              ),
          ),
        ];
      }
    }
    folder.description = [this.countText(items.length, total), offline].filter((x) => x).join(' · ') || undefined;
    return [...failure.nodes, ...items, ...this.emptyOrFiltered(folder, items.length, total, what)];
  }

  private countText(shown: number, total: number): string {
    return this.filterText && shown !== total ? vscode.l10n.t('{0} of {1}', shown, total) : String(total);
  }

  private emptyOrFiltered(folder: FolderNode, shown: number, total: number, what: string): Node[] {
    if (total === 0) {
      return [new InfoNode(folder, 'empty', vscode.l10n.t('No {0}', what), undefined, 'info', 'message empty')];
    }
    if (shown < total && this.filterText) {
      return [
        new InfoNode(
          folder,
          'filtered',
          vscode.l10n.t('{0} hidden by the filter', total - shown),
          `"${this.filterText}"`,
          'filter',
          'message filtered',
        ),
      ];
    }
    return [];
  }

  private async tileNodes(node: DashboardNode): Promise<Node[]> {
    const { connectionId, serviceId } = node;
    const [alerts] = await this.ensureAll(node, ['alerts', 'webhooks']);
    const failure = this.failureNodes(node, 'alerts', alerts, FOLDER_WHAT.alerts(), ['alerts', 'webhooks']);
    const tiles = node.dashboard.tiles ?? [];
    return [
      ...tiles.map(
        (t) => new TileNode(node, t, this.cache.alertsForTile(connectionId, serviceId, node.dashboard.id, t.id).length),
      ),
      ...failure.nodes,
    ];
  }

  private tileAlerts(node: TileNode): Node[] {
    const { connectionId, serviceId } = node;
    const alerts: readonly Alert[] = this.cache.alertsForTile(
      connectionId,
      serviceId,
      node.parent.dashboard.id,
      node.tile.id,
    );
    const names = this.webhookNames(connectionId, serviceId);
    return sortAlerts(alerts).map((a) => new AlertNode(node, a, names));
  }

  // ---- refresh ----

  /** Reloads what a node shows and redraws only that node. No node: everything. */
  refresh(node?: Node): void {
    if (!node) {
      this.cache.invalidateAll();
      for (const folder of this.allFolders()) folder.description = undefined;
      this.roots = undefined;
      this.servicesByConnection.clear();
      this.changed.fire(undefined);
      this.refreshedAll.fire();
      return;
    }
    switch (node.type) {
      case 'connection':
        this.cache.invalidate(node.connection.id);
        for (const service of this.servicesByConnection.get(node.connection.id) ?? []) this.reloadFolders(service);
        return;
      case 'service':
        this.cache.invalidate(node.connectionId, node.serviceId);
        this.reloadFolders(node);
        return;
      case 'folder':
        this.refreshKinds(node.connectionId, node.serviceId, FOLDER_RESOURCES[node.kind]);
        return;
      case 'dashboard':
      case 'tile':
        this.refreshKinds(node.connectionId, node.serviceId, ['dashboards', 'alerts', 'webhooks']);
        return;
      case 'item':
      case 'member':
        this.refreshKinds(node.connectionId, node.serviceId, FOLDER_RESOURCES[node.parent.kind]);
        return;
      case 'alert':
      case 'source':
        this.refreshKinds(
          node.connectionId,
          node.serviceId,
          node.type === 'alert' ? ['alerts', 'webhooks'] : ['sources'],
        );
        return;
      case 'error':
        this.refreshKinds(node.connectionId, node.serviceId, node.retryKinds);
        return;
      case 'info':
        if (node.parent) this.refresh(node.parent);
        return;
    }
  }

  /**
   * Invalidates resource kinds of one service and redraws the folders that show them. A folder already expanded
   * once is read again first and redrawn when its own reads are done, row and children together: its count never
   * runs ahead of or behind its rows, and one slow list does not hold back the other folders.
   */
  refreshKinds(connectionId: string, serviceId: string, kinds: readonly ResourceKind[]): void {
    this.cache.invalidate(connectionId, serviceId, kinds);
    for (const folder of this.foldersFor(connectionId, serviceId, kinds)) this.reloadAndRedraw(folder);
  }

  private reloadFolders(service: ServiceNode): void {
    for (const folder of service.folders.values()) this.reloadAndRedraw(folder);
  }

  private reloadAndRedraw(folder: FolderNode): void {
    if (!folder.loaded) {
      this.changed.fire(folder);
      return;
    }
    void this.ensureAll(folder, folderKinds(folder)).then(() => this.changed.fire(folder));
  }

  /**
   * A connection whose drawn parts did not change (its key secret was updated, in this window or another): its
   * lists are read again, and each folder expanded once is redrawn as soon as its own reads return, instead of the
   * whole tree waiting for every read of the connection. False when the connection must be drawn anew.
   */
  private reloadInPlace(connectionId: string): boolean {
    const root = this.roots?.find((r) => r.connection.id === connectionId);
    const now = this.connections.get(connectionId);
    if (!root || !now || drawnPartsOf(root.connection) !== drawnPartsOf(now)) return false;
    const ids = this.connections.list().map((c) => c.id);
    if (ids.join('\n') !== this.roots!.map((r) => r.connection.id).join('\n')) return false;
    this.cache.forget(connectionId);
    for (const service of this.servicesByConnection.get(connectionId) ?? []) this.reloadFolders(service);
    return true;
  }

  private foldersFor(connectionId: string, serviceId: string, kinds: readonly ResourceKind[]): Set<FolderNode> {
    const folders = new Set<FolderNode>();
    const service = this.findService(connectionId, serviceId);
    if (!service) return folders;
    for (const folder of service.folders.values()) {
      const shows = FOLDER_RESOURCES[folder.kind];
      // Dashboards show tiles joined with alerts.
      const deps = folder.kind === 'dashboards' ? [...shows, 'alerts', 'webhooks'] : shows;
      if (kinds.some((k) => deps.includes(k))) folders.add(folder);
    }
    return folders;
  }

  private redrawFoldersFor(connectionId: string, serviceId: string, kinds: readonly ResourceKind[]): void {
    for (const folder of this.foldersFor(connectionId, serviceId, kinds)) this.changed.fire(folder);
  }

  private onCacheChange(e: CacheChange): void {
    if (e.origin === 'tree') return;
    this.redrawFoldersFor(e.connectionId, e.serviceId, [e.kind]);
  }
}
