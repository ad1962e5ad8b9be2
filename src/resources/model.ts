import { errorMessage } from '../errors';
import type {
  Alert,
  ApiKey,
  Dashboard,
  QueryEndpoint,
  Role,
  SavedSearch,
  Source,
  TileResponse,
  Webhook,
} from '../schema';

/**
 * The resources of a service as the tree, the status item, the checks and completion read them: the response types of
 * src/schema (the client has parsed every response with them), the parts of the connection manager and the client
 * that loading them needs, and what a failed request looks like.
 */

// The tree, the status item, the checks and completion read the types of src/schema: one type per concept.
export type { Alert, Dashboard, QueryEndpoint, Role, SavedSearch, Source, TileResponse, Webhook } from '../schema';

/** The part of the API client the tree calls. `ObservabilityClient` satisfies it. */
export interface ResourceClient {
  listDashboards(serviceId: string): Promise<{ readonly data: readonly Dashboard[] }>;
  listAlerts(serviceId: string): Promise<{ readonly data: readonly Alert[] }>;
  listSources(serviceId: string): Promise<{ readonly data: readonly Source[] }>;
  listWebhooks(serviceId: string): Promise<{ readonly data: readonly Webhook[] }>;
  listSavedSearches(serviceId: string): Promise<{ readonly data: readonly SavedSearch[] }>;
  listRoles(serviceId: string): Promise<{ readonly data: readonly Role[] }>;
  getQueryEndpoint(serviceId: string): Promise<{ readonly data: QueryEndpoint | null }>;
  deleteDashboard(serviceId: string, id: string): Promise<unknown>;
  deleteAlert(serviceId: string, id: string): Promise<unknown>;
  deleteWebhook(serviceId: string, id: string): Promise<unknown>;
  deleteSavedSearch(serviceId: string, id: string): Promise<unknown>;
  deleteSource(serviceId: string, id: string): Promise<unknown>;
  deleteRole(serviceId: string, id: string): Promise<unknown>;
  /** Self-hosted deployments only: the team that holds every resource, and its members (read-only). */
  getTeam?(): Promise<{ readonly data: TeamInfo }>;
  listTeamMembers?(): Promise<{ readonly data: readonly TeamMemberInfo[] }>;
}

/** A self-hosted deployment's team (`GET /api/v2/team`); fields the server adds are kept. */
export interface TeamInfo {
  readonly id: string;
  readonly name: string;
  readonly [field: string]: unknown;
}

/** A member of a self-hosted deployment's team (`GET /api/v2/team/members`); fields the server adds are kept. */
export interface TeamMemberInfo {
  readonly id: string;
  readonly email: string;
  readonly name?: string;
  readonly isCurrentUser?: boolean;
  readonly [field: string]: unknown;
}

/** The Team folder's data: the team and its members. */
export interface TeamView {
  readonly team: TeamInfo;
  readonly members: readonly TeamMemberInfo[];
}

export interface ConnectionView {
  readonly id: string;
  readonly label: string;
  readonly baseUrl: string;
  readonly organizationId: string;
  readonly organizationName?: string;
  readonly serviceIds: readonly string[];
  readonly services: readonly {
    readonly id: string;
    readonly name: string;
    readonly region?: string;
    readonly state?: string;
  }[];
  readonly pathSegment: string;
  /** `selfHosted`: a self-hosted ClickStack / HyperDX deployment, shown as its one service. */
  readonly kind?: 'cloud' | 'selfHosted';
  /** Self-hosted: the user allowed the key to travel over plain http to this host. */
  readonly allowPlainHttp?: boolean;
  /** Self-hosted: ClickHouse access for previews (address and user; the password is never here). */
  readonly clickHouse?: { readonly url: string; readonly user: string };
}

/** The part of the connection manager the tree uses. `ConnectionManager` satisfies it. */
export interface ConnectionSource {
  list(): readonly ConnectionView[];
  get(id: string): ConnectionView | undefined;
  readonly onDidChange: ResourceEvent<{ connectionId?: string }>;
  clientFor(connectionId: string): ResourceClient;
}

/** What a failed request looks like to the tree (`ApiError` from src/api, read structurally). */
export interface RequestFailure {
  readonly message: string;
  readonly kind: string;
  readonly operation?: string;
  readonly method?: string;
  readonly path?: string;
  readonly status?: number;
  readonly serverMessage?: string;
  readonly requestId?: string;
  readonly retryable?: boolean;
}

export function asRequestFailure(error: unknown): RequestFailure {
  if (error instanceof Error && typeof (error as { kind?: unknown }).kind === 'string') {
    return error as Error & RequestFailure;
  }
  const message = errorMessage(error);
  return { message, kind: 'unknown' };
}

/** Network trouble: keep showing what was loaded before instead of an error. */
export function isOffline(failure: RequestFailure): boolean {
  return failure.kind === 'network' || failure.kind === 'timeout';
}

export type ResourceKind =
  'dashboards' | 'alerts' | 'sources' | 'webhooks' | 'savedSearches' | 'roles' | 'queryEndpoint' | 'team';

/** `team`: the read-only Team folder of a self-hosted deployment (not shown for Cloud services). */
export type FolderKind =
  'dashboards' | 'alerts' | 'sources' | 'webhooks' | 'savedSearches' | 'roles' | 'queryEndpoint' | 'team';

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

export interface ResourceValues {
  dashboards: readonly Dashboard[];
  alerts: readonly Alert[];
  sources: readonly Source[];
  webhooks: readonly Webhook[];
  savedSearches: readonly SavedSearch[];
  roles: readonly Role[];
  queryEndpoint: QueryEndpoint | null;
  team: TeamView;
}

/** A subscription to changes (`vscode.Event` satisfies it; this layer does not import `vscode`). */
export type ResourceEvent<T> = (listener: (e: T) => unknown) => { dispose(): unknown };

/** Kinds of the documents the extension edits. */
export type DocumentKind = 'alert' | 'dashboard' | 'queryEndpoint' | 'webhook' | 'savedSearch' | 'source' | 'role';

/** Invalidates resource kinds of one service and redraws whatever shows them (the explorer tree). */
export interface ResourceRefresher {
  refreshKinds(connectionId: string, serviceId: string, kinds: readonly ResourceKind[]): void;
}

/** Names of things on the service that a document refers to (webhooks, saved searches, API keys). */
export type NamedInfo = Webhook | SavedSearch | ApiKey;
/** @deprecated Use `Dashboard` (kept so existing imports keep compiling). */
export type DashboardInfo = Dashboard;
/** @deprecated Use `TileResponse` (kept so existing imports keep compiling). */
export type TileInfo = TileResponse;

/** What is known about the service; a list that could not be loaded is undefined and its checks are skipped. */
export interface LiveFacts {
  readonly serviceLabel: string;
  readonly dashboards?: readonly Dashboard[];
  readonly webhooks?: readonly NamedInfo[];
  readonly savedSearches?: readonly NamedInfo[];
  readonly apiKeys?: readonly NamedInfo[];
  /** For a saved search or a source: the service's sources (references to them are checked). */
  readonly sources?: readonly Source[];
  /** For a dashboard: its tiles on the service that alerts watch. */
  readonly watchedTiles?: readonly {
    readonly tileId: string;
    readonly tileName?: string | null;
    readonly alerts: readonly string[];
  }[];
}
