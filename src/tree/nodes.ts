import * as vscode from 'vscode';
import { resourceDriftUri, type DriftResourceKind } from '../resources/driftUri';
import { escapeMarkdown, markdownCode, sanitizeServerText } from '../api';
import {
  alertDescription,
  alertIcon,
  alertLabel,
  alertStatus,
  alertStatusText,
  contextState,
  isSilenced,
  nameOf,
  sourceDescription,
  sourceIconId,
  tileIconId,
  tileLabel,
  type FailurePresentation,
} from '../labels/format';
import type {
  Alert,
  ConnectionView,
  Dashboard,
  FolderKind,
  ResourceKind,
  Role,
  SavedSearch,
  Source,
  TeamMemberInfo,
  TileResponse,
  Webhook,
} from '../resources/model';
import { maskWebhookUrl } from '../resources/dependents';
import { EXPLORER_NODE, type ExplorerNode } from '../commandArgs';

/**
 * Tree nodes. Each node keeps its parent (for `getParent`/`reveal`) and a stable `id` derived from the path of
 * resource IDs, so VS Code keeps expansion and selection across refreshes. `treeItem()` is cheap: no requests,
 * no Markdown; alert tooltips are built on hover (`resolveTreeItem`).
 */

export type Node =
  | ConnectionNode
  | ServiceNode
  | FolderNode
  | DashboardNode
  | TileNode
  | AlertNode
  | SourceNode
  | ItemNode
  | MemberNode
  | InfoNode
  | ErrorNode;

/** Identifies the service a node belongs to. */
export interface ServiceScope {
  readonly connectionId: string;
  readonly serviceId: string;
}

const None = vscode.TreeItemCollapsibleState.None;
const Collapsed = vscode.TreeItemCollapsibleState.Collapsed;

export class ConnectionNode {
  readonly type = 'connection';
  readonly [EXPLORER_NODE] = true;
  readonly parent = undefined;
  readonly id: string;
  constructor(readonly connection: ConnectionView) {
    this.id = `c:${connection.id}`;
  }
  get connectionId(): string {
    return this.connection.id;
  }
  get copyValue(): string {
    return this.connection.kind === 'selfHosted' ? this.connection.baseUrl : this.connection.organizationId;
  }
  treeItem(): vscode.TreeItem {
    if (this.connection.kind === 'selfHosted') return this.selfHostedItem();
    const item = new vscode.TreeItem(this.connection.label, vscode.TreeItemCollapsibleState.Expanded);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('organization');
    // Label, then host: the words that tell connections apart come first at the default sidebar width.
    const organizationName = sanitizeServerText(this.connection.organizationName);
    item.description = [
      new URL(this.connection.baseUrl).host,
      organizationName !== this.connection.label ? organizationName : '',
    ]
      .filter((x) => x)
      .join(' · ');
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.isTrusted = false;
    tooltip.supportHtml = false;
    tooltip.appendMarkdown(`**${escapeMarkdown(sanitizeServerText(this.connection.label))}**\n\n`);
    tooltip.appendMarkdown(`- ${vscode.l10n.t('Organization')}: ${markdownCode(this.connection.organizationId)}\n`);
    tooltip.appendMarkdown(
      `- ${vscode.l10n.t('Address')}: ${escapeMarkdown(sanitizeServerText(this.connection.baseUrl))}\n`,
    );
    tooltip.appendMarkdown(`- ${vscode.l10n.t('Path segment')}: ${markdownCode(this.connection.pathSegment)}`);
    item.tooltip = tooltip;
    item.contextValue = 'connection refreshable copyable';
    return item;
  }

  /** A self-hosted deployment: its host, and a warning when the key travels over plain http. */
  private selfHostedItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.connection.label, vscode.TreeItemCollapsibleState.Expanded);
    item.id = this.id;
    const plain = this.connection.allowPlainHttp === true;
    const host = new URL(this.connection.baseUrl).host;
    item.iconPath = plain
      ? new vscode.ThemeIcon('unlock', new vscode.ThemeColor('list.warningForeground'))
      : new vscode.ThemeIcon('server');
    item.description = plain ? vscode.l10n.t('{0} · plain http, key unencrypted', host) : host;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.isTrusted = false;
    tooltip.supportHtml = false;
    tooltip.appendMarkdown(`**${escapeMarkdown(sanitizeServerText(this.connection.label))}**\n\n`);
    tooltip.appendMarkdown(
      `- ${vscode.l10n.t('Kind')}: ${escapeMarkdown(vscode.l10n.t('Self-hosted ClickStack / HyperDX'))}\n`,
    );
    tooltip.appendMarkdown(
      `- ${vscode.l10n.t('Address')}: ${escapeMarkdown(sanitizeServerText(this.connection.baseUrl))}\n`,
    );
    if (plain) {
      tooltip.appendMarkdown(
        `\n$(warning) ${escapeMarkdown(vscode.l10n.t('Plain http allowed: the personal API key and all data travel unencrypted. Withdraw with "Observability: Withdraw Plain HTTP Permission".'))}`,
      );
    }
    const clickHouse = this.connection.clickHouse;
    if (clickHouse) {
      tooltip.appendMarkdown(
        `- ${vscode.l10n.t('ClickHouse access for previews')}: ${escapeMarkdown(sanitizeServerText(`${clickHouse.user} @ ${clickHouse.url}`))}\n`,
      );
    }
    item.tooltip = tooltip;
    item.contextValue = `connection selfHosted refreshable copyable${plain ? ' plainHttp' : ''}${clickHouse ? ' clickHouse' : ''}`;
    // The deployment's one service is not drawn: the connection carries its drift mark.
    const serviceId = this.connection.serviceIds[0];
    if (serviceId !== undefined) item.resourceUri = driftUriOf(this.connection.id, serviceId);
    return item;
  }
}

export class ServiceNode implements ServiceScope {
  readonly type = 'service';
  readonly [EXPLORER_NODE] = true;
  readonly id: string;
  readonly folders: ReadonlyMap<FolderKind, FolderNode>;
  constructor(
    readonly parent: ConnectionNode,
    readonly serviceId: string,
    readonly name: string,
    readonly region?: string,
    readonly state?: string,
  ) {
    this.id = `${parent.id}/s:${serviceId}`;
    this.folders = new Map(FOLDER_KINDS.map((k) => [k, new FolderNode(this, k)]));
  }
  get connectionId(): string {
    return this.parent.connection.id;
  }
  get copyValue(): string {
    return this.serviceId;
  }
  treeItem(): vscode.TreeItem {
    const name = sanitizeServerText(this.name) || sanitizeServerText(this.serviceId);
    const item = new vscode.TreeItem(name, Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('server');
    item.description =
      [this.region, this.state]
        .map((x) => sanitizeServerText(x))
        .filter((x) => x)
        .join(' · ') || undefined;
    item.tooltip = `${name}\n${vscode.l10n.t('Service ID')}: ${sanitizeServerText(this.serviceId)}`;
    item.contextValue = 'service refreshable copyable';
    item.resourceUri = driftUriOf(this.connectionId, this.serviceId);
    return item;
  }
}

const FOLDER_LABELS: Record<FolderKind, () => string> = {
  dashboards: () => vscode.l10n.t('Dashboards'),
  alerts: () => vscode.l10n.t('Alerts'),
  webhooks: () => vscode.l10n.t('Webhooks'),
  savedSearches: () => vscode.l10n.t('Saved Searches'),
  sources: () => vscode.l10n.t('Sources'),
  roles: () => vscode.l10n.t('Roles'),
  queryEndpoint: () => vscode.l10n.t('Query Endpoint'),
  team: () => vscode.l10n.t('Team'),
};
const FOLDER_ICONS: Record<FolderKind, string> = {
  dashboards: 'dashboard',
  alerts: 'bell',
  webhooks: 'send',
  savedSearches: 'search',
  sources: 'database',
  roles: 'shield',
  queryEndpoint: 'plug',
  team: 'organization',
};

/** The resources a folder needs to draw its children. */
export const FOLDER_RESOURCES: Record<FolderKind, readonly ResourceKind[]> = {
  dashboards: ['dashboards'],
  alerts: ['alerts', 'webhooks'],
  webhooks: ['webhooks'],
  savedSearches: ['savedSearches'],
  sources: ['sources'],
  roles: ['roles'],
  queryEndpoint: ['queryEndpoint'],
  team: ['team'],
};

/** Lists a folder reads for its descriptions (alerts that use a webhook or saved search), loaded but not refreshed. */
export const FOLDER_READS: Partial<Record<FolderKind, readonly ResourceKind[]>> = {
  webhooks: ['alerts'],
  savedSearches: ['alerts'],
};

/** The folders, in the order a service shows them (`team`: self-hosted deployments only). */
export const FOLDER_KINDS: readonly FolderKind[] = [
  'dashboards',
  'alerts',
  'webhooks',
  'savedSearches',
  'sources',
  'roles',
  'queryEndpoint',
  'team',
];

export class FolderNode implements ServiceScope {
  readonly type = 'folder';
  readonly [EXPLORER_NODE] = true;
  readonly id: string;
  /** Set by the provider after loading: count, filter and offline state. */
  description?: string;
  /** Extra contextValue tokens (e.g. `configured` for a query endpoint). */
  extraContext = '';
  /** Set once the folder's children were read (it was expanded). */
  loaded = false;
  /**
   * The description and context tokens of the row as last drawn: null before it is first drawn, undefined while a
   * redraw is on its way.
   */
  private drawn: string | null | undefined = null;
  private readonly drawWaiters: (() => void)[] = [];
  constructor(
    readonly parent: ServiceNode,
    readonly kind: FolderKind,
  ) {
    this.id = `${parent.id}/f:${kind}`;
  }
  /** Whether the row as drawn says this (or is yet to be drawn: it will say what is true then). */
  drawnAs(description: string | undefined, extraContext: string): boolean {
    return this.drawn == null || this.drawn === `${description ?? ''}\u0000${extraContext}`;
  }
  /** VS Code was told to draw the row again (it asks for `treeItem()`, which says what is true then). */
  redrawAnnounced(): void {
    if (this.drawn !== null) this.drawn = undefined;
  }
  /** Resolves when the row is next drawn. */
  nextDraw(): Promise<void> {
    return new Promise((resolve) => this.drawWaiters.push(resolve));
  }
  get connectionId(): string {
    return this.parent.connectionId;
  }
  get serviceId(): string {
    return this.parent.serviceId;
  }
  get label(): string {
    return FOLDER_LABELS[this.kind]();
  }
  /** ` webApp` when the items can be opened in the deployment's web app (self-hosted; see `webAppUrl`). */
  get webAppToken(): string {
    return this.parent.parent.connection.kind === 'selfHosted' ? ' webApp' : '';
  }
  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(FOLDER_ICONS[this.kind]);
    item.description = this.description;
    item.contextValue = `folder ${this.kind} refreshable${this.extraContext}`;
    this.drawn = `${this.description ?? ''}\u0000${this.extraContext}`;
    for (const resolve of this.drawWaiters.splice(0)) resolve();
    return item;
  }
}

export class DashboardNode implements ServiceScope {
  readonly type = 'dashboard';
  readonly [EXPLORER_NODE] = true;
  readonly id: string;
  constructor(
    readonly parent: FolderNode,
    readonly dashboard: Dashboard,
  ) {
    this.id = `${parent.id}/d:${dashboard.id}`;
  }
  get connectionId(): string {
    return this.parent.connectionId;
  }
  get serviceId(): string {
    return this.parent.serviceId;
  }
  get copyValue(): string {
    return this.dashboard.id;
  }
  get label(): string {
    return nameOf(this.dashboard);
  }
  treeItem(): vscode.TreeItem {
    const tiles = this.dashboard.tiles ?? [];
    const item = new vscode.TreeItem(this.label, tiles.length > 0 ? Collapsed : None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('dashboard');
    const tags = (this.dashboard.tags ?? []).map((t) => sanitizeServerText(t, 100)).filter((t) => t);
    item.description = [
      tiles.length === 1 ? vscode.l10n.t('1 tile') : vscode.l10n.t('{0} tiles', tiles.length),
      tags.join(', '),
    ]
      .filter((x) => x)
      .join(' · ');
    item.tooltip = `${this.label}\n${vscode.l10n.t('Dashboard ID')}: ${sanitizeServerText(this.dashboard.id)}${tags.length ? `\n${vscode.l10n.t('Tags')}: ${tags.join(', ')}` : ''}`;
    item.contextValue = `dashboard copyable json deletable${this.parent.webAppToken}`;
    item.resourceUri = driftUriOf(this.connectionId, this.serviceId, 'dashboard', this.dashboard.id);
    return item;
  }
}

export class TileNode implements ServiceScope {
  readonly type = 'tile';
  readonly [EXPLORER_NODE] = true;
  readonly id: string;
  constructor(
    readonly parent: DashboardNode,
    readonly tile: TileResponse,
    readonly alertCount: number,
  ) {
    this.id = `${parent.id}/t:${tile.id}`;
  }
  get connectionId(): string {
    return this.parent.connectionId;
  }
  get serviceId(): string {
    return this.parent.serviceId;
  }
  get copyValue(): string {
    return this.tile.id;
  }
  treeItem(): vscode.TreeItem {
    const label = tileLabel(this.tile);
    const item = new vscode.TreeItem(label, this.alertCount > 0 ? Collapsed : None);
    item.id = this.id;
    const displayType = sanitizeServerText(this.tile.config?.displayType) || undefined;
    item.iconPath = new vscode.ThemeIcon(tileIconId(this.tile));
    // The alerts watching the tile first: the icon already shows the display type.
    item.description = [
      this.alertCount === 1
        ? vscode.l10n.t('1 alert')
        : this.alertCount > 1
          ? vscode.l10n.t('{0} alerts', this.alertCount)
          : undefined,
      displayType,
    ]
      .filter((x) => x)
      .join(' · ');
    item.tooltip = `${label}\n${vscode.l10n.t('Tile ID')}: ${sanitizeServerText(this.tile.id)}${displayType ? `\n${vscode.l10n.t('Display type')}: ${displayType}` : ''}`;
    // `sql`: the tile's query runs as SQL through the service's query endpoint (Cloud; a self-hosted deployment has none).
    const sql = this.parent.parent.parent.parent.connection.kind === 'selfHosted' ? '' : ' sql';
    item.contextValue = `tile copyable${this.alertCount > 0 ? ' watched' : ''}${sql}`;
    return item;
  }
}

export class AlertNode implements ServiceScope {
  readonly type = 'alert';
  readonly [EXPLORER_NODE] = true;
  readonly id: string;
  constructor(
    readonly parent: FolderNode | TileNode,
    readonly alert: Alert,
    private readonly webhookNames: ReadonlyMap<string, string>,
  ) {
    this.id = `${parent.id}/a:${alert.id}`;
  }
  get connectionId(): string {
    return this.parent.connectionId;
  }
  get serviceId(): string {
    return this.parent.serviceId;
  }
  get copyValue(): string {
    return this.alert.id;
  }
  get label(): string {
    return alertLabel(this.alert);
  }
  get webhooks(): ReadonlyMap<string, string> {
    return this.webhookNames;
  }
  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, None);
    item.id = this.id;
    const now = Date.now();
    item.iconPath = alertIcon(this.alert, now);
    item.description = alertDescription(this.alert, this.webhookNames, now);
    item.accessibilityInformation = {
      label: `${this.label}, ${alertStatusText(this.alert, now)}, ${item.description}`,
    };
    const silenced = isSilenced(this.alert, now) ? ' silenced' : '';
    const error = alertStatus(this.alert, now) === 'error' ? ' executionError' : '';
    const folder = this.parent.type === 'folder' ? this.parent : this.parent.parent.parent;
    item.contextValue = `alert ${contextState(this.alert.state)}${silenced}${error} copyable json deletable${folder.webAppToken}`;
    item.resourceUri = driftUriOf(this.connectionId, this.serviceId, 'alert', this.alert.id);
    return item;
  }
}

export class SourceNode implements ServiceScope {
  readonly type = 'source';
  readonly [EXPLORER_NODE] = true;
  readonly id: string;
  constructor(
    readonly parent: FolderNode,
    readonly source: Source,
  ) {
    this.id = `${parent.id}/src:${source.id}`;
  }
  get connectionId(): string {
    return this.parent.connectionId;
  }
  get serviceId(): string {
    return this.parent.serviceId;
  }
  get copyValue(): string {
    return this.source.id;
  }
  get label(): string {
    return nameOf(this.source);
  }
  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(sourceIconId(this.source));
    item.description = sourceDescription(this.source);
    item.tooltip = `${this.label}\n${vscode.l10n.t('Source ID')}: ${sanitizeServerText(this.source.id)}\n${vscode.l10n.t('Kind')}: ${sanitizeServerText(this.source.kind) || '?'}`;
    item.contextValue = 'source copyable json deletable editable';
    item.resourceUri = driftUriOf(this.connectionId, this.serviceId, 'source', this.source.id);
    return item;
  }
}

/** Kinds of items drawn by `ItemNode`: one entry each in the table below. */
export type ItemKind = 'webhook' | 'savedSearch' | 'role';

type ItemValue<K extends ItemKind> = K extends 'webhook' ? Webhook : K extends 'savedSearch' ? SavedSearch : Role;

interface ItemPresentation<K extends ItemKind> {
  readonly what: () => string;
  readonly icon: (item: ItemValue<K>) => string;
  readonly description: (item: ItemValue<K>, uses: number) => string | undefined;
  /** Tooltip lines after the name and ID; secrets masked. */
  readonly details: (item: ItemValue<K>, uses: number) => string[];
  /** contextValue tokens after the kind. */
  readonly context: (item: ItemValue<K>) => string;
}

function usesText(uses: number): string | undefined {
  if (uses === 0) return undefined;
  return uses === 1 ? vscode.l10n.t('1 alert') : vscode.l10n.t('{0} alerts', uses);
}

const ITEM_PRESENTATION: { [K in ItemKind]: ItemPresentation<K> } = {
  webhook: {
    what: () => vscode.l10n.t('Webhook ID'),
    icon: (w) => (String(w.service).startsWith('slack') ? 'comment-discussion' : 'send'),
    description: (w, uses) => [sanitizeServerText(w.service), usesText(uses)].filter((x) => x).join(' · ') || undefined,
    details: (w, uses) => [
      `${vscode.l10n.t('Service')}: ${sanitizeServerText(w.service)}`,
      ...(w.url ? [`${vscode.l10n.t('URL')}: ${sanitizeServerText(maskWebhookUrl(w.url))}`] : []),
      ...(w.description ? [sanitizeServerText(w.description, 300)] : []),
      uses === 1
        ? vscode.l10n.t('Used by 1 alert')
        : uses > 1
          ? vscode.l10n.t('Used by {0} alerts', uses)
          : vscode.l10n.t('Not used by any alert'),
    ],
    context: () => 'copyable json deletable editable',
  },
  savedSearch: {
    what: () => vscode.l10n.t('Saved search ID'),
    icon: () => 'search',
    description: (s, uses) =>
      [sanitizeServerText(s.where, 80), usesText(uses)].filter((x) => x).join(' · ') || undefined,
    details: (s, uses) => [
      `${vscode.l10n.t('Source ID')}: ${sanitizeServerText(s.sourceId)}`,
      ...(s.where ? [`${vscode.l10n.t('Where')}: ${sanitizeServerText(s.where, 300)}`] : []),
      ...(uses > 0 ? [vscode.l10n.t('{0} alert(s) watch it', uses)] : []),
    ],
    context: () => 'copyable json deletable editable',
  },
  role: {
    what: () => vscode.l10n.t('Role ID'),
    icon: (r) => (r.isPredefined ? 'lock' : 'shield'),
    description: (r) =>
      [
        r.isPredefined ? vscode.l10n.t('predefined') : undefined,
        r.permissions.length === 1
          ? vscode.l10n.t('1 permission')
          : vscode.l10n.t('{0} permissions', r.permissions.length),
      ]
        .filter((x) => x)
        .join(' · '),
    details: (r) => [
      ...(r.description ? [sanitizeServerText(r.description, 300)] : []),
      ...r.permissions
        .slice(0, 10)
        .map((p) => `${p.inverted ? '¬ ' : ''}${sanitizeServerText(p.action)} ${sanitizeServerText(p.subject)}`),
    ],
    context: (r) => (r.isPredefined ? 'copyable json predefined' : 'copyable json deletable editable'),
  },
};

/** A webhook, saved search or role. */
export class ItemNode<K extends ItemKind = ItemKind> implements ServiceScope {
  readonly type = 'item';
  readonly [EXPLORER_NODE] = true;
  readonly id: string;
  constructor(
    readonly parent: FolderNode,
    readonly kind: K,
    readonly item: ItemValue<K>,
    /** Alerts that use it (webhook, saved search). */
    readonly uses = 0,
  ) {
    this.id = `${parent.id}/${kind}:${item.id}`;
  }
  get connectionId(): string {
    return this.parent.connectionId;
  }
  get serviceId(): string {
    return this.parent.serviceId;
  }
  get copyValue(): string {
    return this.item.id;
  }
  get label(): string {
    return nameOf(this.item);
  }
  treeItem(): vscode.TreeItem {
    const p = ITEM_PRESENTATION[this.kind] as unknown as ItemPresentation<ItemKind>;
    const item = new vscode.TreeItem(this.label, None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(p.icon(this.item));
    item.description = p.description(this.item, this.uses);
    item.tooltip = [
      this.label,
      `${p.what()}: ${sanitizeServerText(this.item.id)}`,
      ...p.details(this.item, this.uses),
    ].join('\n');
    const webApp = this.kind === 'savedSearch' ? this.parent.webAppToken : '';
    item.contextValue = `${this.kind} ${p.context(this.item)}${this.uses > 0 ? ' inUse' : ''}${webApp}`;
    if (this.kind !== 'role') {
      item.resourceUri = driftUriOf(this.connectionId, this.serviceId, this.kind as DriftResourceKind, this.item.id);
    }
    return item;
  }
}

/** A member of a self-hosted deployment's team (read-only: no edit or delete commands). */
export class MemberNode implements ServiceScope {
  readonly type = 'member';
  readonly [EXPLORER_NODE] = true;
  readonly id: string;
  constructor(
    readonly parent: FolderNode,
    readonly member: TeamMemberInfo,
  ) {
    this.id = `${parent.id}/m:${member.id}`;
  }
  get connectionId(): string {
    return this.parent.connectionId;
  }
  get serviceId(): string {
    return this.parent.serviceId;
  }
  get copyValue(): string {
    return this.member.id;
  }
  /** The server's role of the member, when it sends one (HyperDX OSS sends none: every member may do everything). */
  get role(): string | undefined {
    const role = this.member.role;
    return typeof role === 'string' ? sanitizeServerText(role, 100) || undefined : undefined;
  }
  get label(): string {
    return sanitizeServerText(this.member.name, 200) || sanitizeServerText(this.member.email, 200) || this.member.id;
  }
  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, None);
    item.id = this.id;
    const email = sanitizeServerText(this.member.email, 200);
    const you = this.member.isCurrentUser === true;
    item.iconPath = new vscode.ThemeIcon(you ? 'account' : 'person');
    item.description =
      [email !== this.label ? email : undefined, this.role, you ? vscode.l10n.t('you') : undefined]
        .filter((x) => x)
        .join(' · ') || undefined;
    item.tooltip = [
      this.label,
      `${vscode.l10n.t('Email')}: ${email}`,
      ...(this.role ? [`${vscode.l10n.t('Role')}: ${this.role}`] : []),
      `${vscode.l10n.t('Member ID')}: ${sanitizeServerText(this.member.id)}`,
      ...(you ? [vscode.l10n.t('The owner of the API key this connection uses')] : []),
    ].join('\n');
    item.contextValue = `teamMember copyable json${you ? ' currentUser' : ''}`;
    return item;
  }
}

/** A line of information: a query endpoint property, "not configured", "no dashboards", "3 hidden by the filter". */
export class InfoNode {
  readonly type = 'info';
  readonly [EXPLORER_NODE] = true;
  readonly id: string;
  constructor(
    readonly parent: Node,
    key: string,
    readonly label: string,
    readonly description: string | undefined,
    readonly icon: string,
    readonly contextValue = 'message',
    readonly tooltip?: string,
  ) {
    this.id = `${parent.id}/i:${key}`;
  }
  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(this.icon);
    item.description = this.description;
    item.tooltip = this.tooltip;
    item.contextValue = this.contextValue;
    return item;
  }
}

/** A failed load (`error`) or a stale, offline view of the last good data (`warning`). */
export class ErrorNode implements ServiceScope {
  readonly type = 'error';
  readonly [EXPLORER_NODE] = true;
  readonly id: string;
  constructor(
    readonly parent: FolderNode | DashboardNode,
    readonly severity: 'error' | 'warning',
    readonly presentation: FailurePresentation,
    readonly retryKinds: readonly ResourceKind[],
    readonly label: string,
  ) {
    this.id = `${parent.id}/${severity}:${retryKinds.join('+')}`;
  }
  get connectionId(): string {
    return this.parent.connectionId;
  }
  get serviceId(): string {
    return this.parent.serviceId;
  }
  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, None);
    item.id = this.id;
    item.iconPath =
      this.severity === 'error'
        ? new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'))
        : new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
    item.description = this.presentation.description;
    item.tooltip = this.presentation.tooltip;
    const tokens = [this.severity === 'error' ? 'error' : 'warning offline', 'retryable', ...this.presentation.actions];
    item.contextValue = tokens.join(' ');
    return item;
  }
}

/** Nodes that belong to one service (everything below a service, and the service itself). */
export function scopeOf(node: Node): ServiceScope | undefined {
  if (node.type === 'connection' || node.type === 'info') return undefined;
  return node;
}

// Every node is what commands of other features read as an explorer node.
export type NodeSatisfiesExplorerNode = Node extends ExplorerNode ? true : never;
const nodesAreExplorerNodes: NodeSatisfiesExplorerNode = true;
void nodesAreExplorerNodes;

/**
 * The URI that the service folders' drift decorates for a service or one of its resources (a mark when a pulled file
 * differs from it). The label and icon stay the ones set explicitly: a `resourceUri` only adds the decoration.
 */
function driftUriOf(connectionId: string, serviceId: string, kind?: DriftResourceKind, id?: string): vscode.Uri {
  return vscode.Uri.parse(
    resourceDriftUri(connectionId, serviceId, kind && id !== undefined ? { kind, id } : undefined),
  );
}
