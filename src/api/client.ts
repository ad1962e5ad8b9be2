/**
 * ObservabilityClient: typed access to the observability (ClickStack) REST API of a hosted service, plus the
 * organization, service, API-key and service query-endpoint operations of the same cloud API.
 *
 * The client is a thin facade: requests go through the request engine (`engine.ts`: auth, deadline, request ID,
 * rate limit, retries, paging, bounds, error mapping) with the cloud flavor (`cloudFlavor.ts`: paths, Basic auth,
 * `{status, requestId, result}` envelope, error bodies); the endpoint methods live in `endpoints/`, one file per
 * resource kind. The client never keeps the secret: it is read with `await getSecret()` for every request.
 */
import type { z } from 'zod';
import type {
  Alert,
  AlertWrite,
  ApiKey,
  Dashboard,
  DashboardWrite,
  dashboardUpdateSchema,
  dashboardValidationSchema,
  Organization,
  QueryEndpoint,
  QueryEndpointWrite,
  Role,
  RoleCreate,
  RoleUpdate,
  SavedSearch,
  SavedSearchWrite,
  Service,
  Source,
  SourceWrite,
  Webhook,
  WebhookWrite,
} from '../schema';
import { cloudFlavor } from './cloudFlavor';
import { connectionIssues, type ConnectionConfig } from './connection';
import {
  RequestEngine,
  type ApiResponse,
  type EngineTuning,
  type ListResponse,
  type PageOptions,
  type RequestOptions,
} from './engine';
import * as alerts from './endpoints/alerts';
import type { ServiceContext } from './endpoints/common';
import * as dashboards from './endpoints/dashboards';
import * as orgs from './endpoints/organizations';
import * as queryEndpoint from './endpoints/queryEndpoint';
import * as roles from './endpoints/roles';
import * as savedSearches from './endpoints/savedSearches';
import * as sources from './endpoints/sources';
import * as webhooks from './endpoints/webhooks';
import { ApiError } from './errors';

export {
  DEFAULT_LIST_BOUNDS,
  DEFAULT_PAGE_SIZE,
  DEFAULT_USER_AGENT,
  resetDelayMs,
  type ApiResponse,
  type ClientTimeouts,
  type HttpMethod,
  type ListBounds,
  type ListResponse,
  type PageOptions,
  type RequestLogEntry,
  type RequestOptions,
  type RetryOptions,
  type SkippedListItem,
} from './engine';

export interface ObservabilityClientOptions extends EngineTuning {
  connection: ConnectionConfig;
  getSecret: () => string | Promise<string>;
}

export class ObservabilityClient {
  readonly connection: Readonly<ConnectionConfig>;
  /** The request engine every method of this client goes through. */
  readonly engine: RequestEngine;

  constructor(options: ObservabilityClientOptions) {
    const issues = connectionIssues(options.connection);
    if (issues.length > 0) {
      throw new ApiError({
        kind: 'invalidInput',
        operation: 'Connect',
        method: '-',
        path: '-',
        detail: 'the connection settings are invalid',
        issues,
      });
    }
    this.connection = Object.freeze({ ...options.connection, serviceIds: [...options.connection.serviceIds] });
    const { connection, ...tuning } = options;
    this.engine = new RequestEngine({
      ...tuning,
      flavor: cloudFlavor,
      baseUrl: connection.baseUrl,
      keyId: connection.keyId,
    });
  }

  /** Closes the dispatcher if the client created it. */
  async close(): Promise<void> {
    await this.engine.close();
  }

  /** The resources of one service: its scope for the flavor's paths, and its ID checked before anything is sent. */
  private svc(serviceId: string): ServiceContext {
    return {
      engine: this.engine,
      scope: { organizationId: this.connection.organizationId, serviceId, pathSegment: this.connection.pathSegment },
      params: [{ name: 'serviceId', kind: 'uuid', value: serviceId }],
    };
  }

  // ---- Organization, services, API keys ----

  listOrganizations(opts?: RequestOptions): Promise<ListResponse<Organization>> {
    return orgs.listOrganizations(this.engine, opts);
  }

  listServices(orgId?: string, opts?: RequestOptions): Promise<ListResponse<Service>> {
    return orgs.listServices(this.engine, orgId ?? this.connection.organizationId, opts);
  }

  listApiKeys(orgId?: string, opts?: RequestOptions): Promise<ListResponse<ApiKey>> {
    return orgs.listApiKeys(this.engine, orgId ?? this.connection.organizationId, opts);
  }

  // ---- Dashboards ----

  /** All dashboards. The API declares no paging here (no `limit`/`offset`): one request. */
  listDashboards(serviceId: string, opts?: RequestOptions): Promise<ListResponse<Dashboard>> {
    return dashboards.listDashboards(this.svc(serviceId), opts);
  }

  getDashboard(serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<Dashboard>> {
    return dashboards.getDashboard(this.svc(serviceId), id, opts);
  }

  createDashboard(serviceId: string, body: DashboardWrite, opts?: RequestOptions): Promise<ApiResponse<Dashboard>> {
    return dashboards.createDashboard(this.svc(serviceId), body, opts);
  }

  updateDashboard(
    serviceId: string,
    id: string,
    body: z.input<typeof dashboardUpdateSchema>,
    opts?: RequestOptions,
  ): Promise<ApiResponse<Dashboard>> {
    return dashboards.updateDashboard(this.svc(serviceId), id, body, opts);
  }

  deleteDashboard(serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<void>> {
    return dashboards.deleteDashboard(this.svc(serviceId), id, opts);
  }

  /**
   * Asks the server to check a dashboard without saving it. The body goes to the
   * server as given (it only has to be a JSON object): the answer lists the problems.
   */
  validateDashboard(
    serviceId: string,
    body: DashboardWrite | Record<string, unknown>,
    opts?: RequestOptions,
  ): Promise<ApiResponse<z.infer<typeof dashboardValidationSchema>>> {
    return dashboards.validateDashboard(this.svc(serviceId), body, opts);
  }

  // ---- Alerts ----

  /**
   * All alerts, page by page (`limit`/`offset`): until the reported `totalCount` is reached,
   * else until an empty page (a short page does not end the list).
   */
  listAlerts(
    serviceId: string,
    paging?: PageOptions & RequestOptions,
    opts?: RequestOptions,
  ): Promise<ListResponse<Alert>> {
    return alerts.listAlerts(this.svc(serviceId), paging, opts);
  }

  getAlert(serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<Alert>> {
    return alerts.getAlert(this.svc(serviceId), id, opts);
  }

  createAlert(serviceId: string, body: AlertWrite, opts?: RequestOptions): Promise<ApiResponse<Alert>> {
    return alerts.createAlert(this.svc(serviceId), body, opts);
  }

  updateAlert(serviceId: string, id: string, body: AlertWrite, opts?: RequestOptions): Promise<ApiResponse<Alert>> {
    return alerts.updateAlert(this.svc(serviceId), id, body, opts);
  }

  deleteAlert(serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<void>> {
    return alerts.deleteAlert(this.svc(serviceId), id, opts);
  }

  // ---- Sources ----

  /** All sources. The API declares no paging here (no `limit`/`offset`): one request. */
  listSources(serviceId: string, opts?: RequestOptions): Promise<ListResponse<Source>> {
    return sources.listSources(this.svc(serviceId), opts);
  }

  getSource(serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<Source>> {
    return sources.getSource(this.svc(serviceId), id, opts);
  }

  createSource(serviceId: string, body: SourceWrite, opts?: RequestOptions): Promise<ApiResponse<Source>> {
    return sources.createSource(this.svc(serviceId), body, opts);
  }

  /** Replaces a source (a full replace; the kind may change). */
  updateSource(serviceId: string, id: string, body: SourceWrite, opts?: RequestOptions): Promise<ApiResponse<Source>> {
    return sources.updateSource(this.svc(serviceId), id, body, opts);
  }

  /** Deletes a source. Nothing that uses it is deleted or refused: they keep its ID. */
  deleteSource(serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<void>> {
    return sources.deleteSource(this.svc(serviceId), id, opts);
  }

  // ---- Webhooks ----

  /** All webhooks, page by page (see `listAlerts`). */
  listWebhooks(
    serviceId: string,
    paging?: PageOptions & RequestOptions,
    opts?: RequestOptions,
  ): Promise<ListResponse<Webhook>> {
    return webhooks.listWebhooks(this.svc(serviceId), paging, opts);
  }

  createWebhook(serviceId: string, body: WebhookWrite, opts?: RequestOptions): Promise<ApiResponse<Webhook>> {
    return webhooks.createWebhook(this.svc(serviceId), body, opts);
  }

  /** Replaces a webhook; headers and query parameters left out are kept unless the URL or service changes. */
  updateWebhook(
    serviceId: string,
    id: string,
    body: WebhookWrite,
    opts?: RequestOptions,
  ): Promise<ApiResponse<Webhook>> {
    return webhooks.updateWebhook(this.svc(serviceId), id, body, opts);
  }

  /** Deletes a webhook; refused with 409 (nothing deleted) while an alert uses it. */
  deleteWebhook(serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<void>> {
    return webhooks.deleteWebhook(this.svc(serviceId), id, opts);
  }

  // ---- Saved searches ----

  /** All saved searches, page by page (see `listAlerts`). */
  listSavedSearches(
    serviceId: string,
    paging?: PageOptions & RequestOptions,
    opts?: RequestOptions,
  ): Promise<ListResponse<SavedSearch>> {
    return savedSearches.listSavedSearches(this.svc(serviceId), paging, opts);
  }

  getSavedSearch(serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<SavedSearch>> {
    return savedSearches.getSavedSearch(this.svc(serviceId), id, opts);
  }

  createSavedSearch(
    serviceId: string,
    body: SavedSearchWrite,
    opts?: RequestOptions,
  ): Promise<ApiResponse<SavedSearch>> {
    return savedSearches.createSavedSearch(this.svc(serviceId), body, opts);
  }

  /** Replaces a saved search: optional fields left out reset to their defaults. */
  updateSavedSearch(
    serviceId: string,
    id: string,
    body: SavedSearchWrite,
    opts?: RequestOptions,
  ): Promise<ApiResponse<SavedSearch>> {
    return savedSearches.updateSavedSearch(this.svc(serviceId), id, body, opts);
  }

  /** Deletes a saved search and the alerts attached to it. */
  deleteSavedSearch(serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<void>> {
    return savedSearches.deleteSavedSearch(this.svc(serviceId), id, opts);
  }

  // ---- Roles ----

  /** All roles, predefined ones included (one request). */
  listRoles(serviceId: string, opts?: RequestOptions): Promise<ListResponse<Role>> {
    return roles.listRoles(this.svc(serviceId), opts);
  }

  getRole(serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<Role>> {
    return roles.getRole(this.svc(serviceId), id, opts);
  }

  createRole(serviceId: string, body: RoleCreate, opts?: RequestOptions): Promise<ApiResponse<Role>> {
    return roles.createRole(this.svc(serviceId), body, opts);
  }

  updateRole(serviceId: string, id: string, body: RoleUpdate, opts?: RequestOptions): Promise<ApiResponse<Role>> {
    return roles.updateRole(this.svc(serviceId), id, body, opts);
  }

  /** Deletes a role; refused for predefined roles, the default role and roles assigned to users. */
  deleteRole(serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<void>> {
    return roles.deleteRole(this.svc(serviceId), id, opts);
  }

  // ---- Service query endpoint ----

  /** The service query endpoint, or `data: null` when none is configured (the server answers 404). */
  getQueryEndpoint(serviceId: string, opts?: RequestOptions): Promise<ApiResponse<QueryEndpoint | null>> {
    return queryEndpoint.getQueryEndpoint(this.svc(serviceId), opts);
  }

  /** Creates the service query endpoint, or updates it in place. */
  upsertQueryEndpoint(
    serviceId: string,
    body: QueryEndpointWrite,
    opts?: RequestOptions,
  ): Promise<ApiResponse<QueryEndpoint>> {
    return queryEndpoint.upsertQueryEndpoint(this.svc(serviceId), body, opts);
  }

  /** Removes the service query endpoint; succeeds when there is none (404). */
  deleteQueryEndpoint(serviceId: string, opts?: RequestOptions): Promise<ApiResponse<void>> {
    return queryEndpoint.deleteQueryEndpoint(this.svc(serviceId), opts);
  }
}
