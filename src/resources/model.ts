import { errorMessage } from '../errors';

/**
 * The shapes the tree reads from the service. They are deliberately loose views of the response schemas: every field
 * the tree does not need to draw an item is left out, and everything it reads is optional, so a response with missing
 * fields still draws (with a fallback label) instead of failing the whole folder.
 */

export interface TileView {
  readonly id: string;
  readonly name?: string | null;
  readonly config?: { readonly displayType?: string | null; readonly configType?: string | null } | null;
}

export interface DashboardView {
  readonly id: string;
  readonly name?: string | null;
  readonly tiles?: readonly TileView[] | null;
  readonly tags?: readonly string[] | null;
}

export interface AlertChannelView {
  readonly type?: string | null;
  readonly webhookId?: string | null;
  readonly emailRecipients?: readonly string[] | null;
}

export interface AlertView {
  readonly id: string;
  readonly name?: string | null;
  readonly state?: string | null;
  readonly threshold?: number | null;
  readonly thresholdMax?: number | null;
  readonly thresholdType?: string | null;
  readonly interval?: string | null;
  readonly source?: string | null;
  readonly dashboardId?: string | null;
  readonly tileId?: string | null;
  readonly savedSearchId?: string | null;
  readonly channel?: AlertChannelView | null;
  readonly message?: string | null;
  readonly note?: string | null;
  readonly numConsecutiveWindows?: number | null;
  readonly silenced?: { readonly by?: string | null; readonly at?: string | null; readonly until?: string | null } | null;
  readonly executionErrors?: readonly { readonly timestamp?: string | null; readonly type?: string | null; readonly message?: string | null }[] | null;
  readonly createdAt?: string | null;
  readonly updatedAt?: string | null;
}

export interface SourceView {
  readonly id: string;
  readonly name?: string | null;
  readonly kind?: string | null;
  readonly from?: { readonly databaseName?: string | null; readonly tableName?: string | null } | null;
  readonly disabled?: boolean | null;
}

export interface WebhookView {
  readonly id: string;
  readonly name?: string | null;
  readonly service?: string | null;
}

export interface QueryEndpointView {
  readonly id?: string | null;
  readonly roles?: readonly string[] | null;
  readonly openApiKeys?: readonly string[] | null;
  readonly allowedOrigins?: string | null;
}

/** The part of the API client the tree calls. `ObservabilityClient` satisfies it. */
export interface ResourceClient {
  listDashboards(serviceId: string): Promise<{ readonly data: readonly DashboardView[] }>;
  listAlerts(serviceId: string): Promise<{ readonly data: readonly AlertView[] }>;
  listSources(serviceId: string): Promise<{ readonly data: readonly SourceView[] }>;
  listWebhooks(serviceId: string): Promise<{ readonly data: readonly WebhookView[] }>;
  getQueryEndpoint(serviceId: string): Promise<{ readonly data: QueryEndpointView | null }>;
  deleteDashboard(serviceId: string, id: string): Promise<unknown>;
  deleteAlert(serviceId: string, id: string): Promise<unknown>;
}

export interface ConnectionView {
  readonly id: string;
  readonly label: string;
  readonly baseUrl: string;
  readonly organizationId: string;
  readonly organizationName?: string;
  readonly serviceIds: readonly string[];
  readonly services: readonly { readonly id: string; readonly name: string; readonly region?: string; readonly state?: string }[];
  readonly pathSegment: string;
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

export type ResourceKind = 'dashboards' | 'alerts' | 'sources' | 'webhooks' | 'queryEndpoint';

export type FolderKind = 'dashboards' | 'alerts' | 'sources' | 'queryEndpoint';

export const FOLDER_KINDS: readonly FolderKind[] = ['dashboards', 'alerts', 'sources', 'queryEndpoint'];

export interface ResourceValues {
  dashboards: readonly DashboardView[];
  alerts: readonly AlertView[];
  sources: readonly SourceView[];
  webhooks: readonly WebhookView[];
  queryEndpoint: QueryEndpointView | null;
}

/** A subscription to changes (`vscode.Event` satisfies it; this layer does not import `vscode`). */
export type ResourceEvent<T> = (listener: (e: T) => unknown) => { dispose(): unknown };

/** Kinds of the documents the extension edits. */
export type DocumentKind = 'alert' | 'dashboard' | 'queryEndpoint';

/** Invalidates resource kinds of one service and redraws whatever shows them (the explorer tree). */
export interface ResourceRefresher {
  refreshKinds(connectionId: string, serviceId: string, kinds: readonly ResourceKind[]): void;
}

export interface TileInfo { readonly id: string; readonly name?: string | null; readonly config?: { readonly displayType?: string | null } | null }
export interface DashboardInfo { readonly id: string; readonly name?: string | null; readonly tiles?: readonly TileInfo[] | null }
export interface NamedInfo { readonly id: string; readonly name?: string | null }

/** What is known about the service; a list that could not be loaded is undefined and its checks are skipped. */
export interface LiveFacts {
  readonly serviceLabel: string;
  readonly dashboards?: readonly DashboardInfo[];
  readonly webhooks?: readonly NamedInfo[];
  readonly savedSearches?: readonly NamedInfo[];
  readonly apiKeys?: readonly NamedInfo[];
  /** For a dashboard: its tiles on the service that alerts watch. */
  readonly watchedTiles?: readonly { readonly tileId: string; readonly tileName?: string | null; readonly alerts: readonly string[] }[];
}

