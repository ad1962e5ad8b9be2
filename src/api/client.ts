/**
 * ObservabilityClient: typed access to the observability (ClickStack) REST API of a hosted service, plus the
 * organization, service, API-key and service query-endpoint operations of the same cloud API.
 *
 * The client is a thin facade: requests go through the request engine (`engine.ts`: auth, deadline, request ID,
 * rate limit, retries, paging, bounds, error mapping) with the cloud flavor (`cloudFlavor.ts`: paths, Basic auth,
 * `{status, requestId, result}` envelope, error bodies); the endpoint methods live in `endpoints/`, one file per
 * resource kind. The client never keeps the secret: it is read with `await getSecret()` for every request.
 */
import type { ApiKey, Organization, Service } from '../schema';
import { cloudFlavor } from './cloudFlavor';
import { connectionIssues, type ConnectionConfig } from './connection';
import { RequestEngine, type EngineTuning, type ListResponse, type RequestOptions } from './engine';
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

/** The public surface of the cloud client; the self-hosted adapter (`oss/adapter.ts`) implements it too. */
export type ObservabilityApi = { [K in keyof ObservabilityClient]: ObservabilityClient[K] };

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

  /** A function of the endpoint layer, called with this client's context for the service named first. */
  private onService<A extends unknown[], R>(
    fn: (ctx: ServiceContext, ...args: A) => R,
  ): (serviceId: string, ...args: A) => R {
    return (serviceId, ...args) => fn(this.svc(serviceId), ...args);
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
  readonly listDashboards = this.onService(dashboards.listDashboards);

  readonly getDashboard = this.onService(dashboards.getDashboard);

  readonly createDashboard = this.onService(dashboards.createDashboard);

  readonly updateDashboard = this.onService(dashboards.updateDashboard);

  readonly deleteDashboard = this.onService(dashboards.deleteDashboard);

  /**
   * Asks the server to check a dashboard without saving it. The body goes to the
   * server as given (it only has to be a JSON object): the answer lists the problems.
   */
  readonly validateDashboard = this.onService(dashboards.validateDashboard);

  // ---- Alerts ----

  /**
   * All alerts, page by page (`limit`/`offset`): until the reported `totalCount` is reached,
   * else until an empty page (a short page does not end the list).
   */
  readonly listAlerts = this.onService(alerts.listAlerts);

  readonly getAlert = this.onService(alerts.getAlert);

  readonly createAlert = this.onService(alerts.createAlert);

  readonly updateAlert = this.onService(alerts.updateAlert);

  readonly deleteAlert = this.onService(alerts.deleteAlert);

  // ---- Sources ----

  /** All sources. The API declares no paging here (no `limit`/`offset`): one request. */
  readonly listSources = this.onService(sources.listSources);

  readonly getSource = this.onService(sources.getSource);

  readonly createSource = this.onService(sources.createSource);

  /** Replaces a source (a full replace; the kind may change). */
  readonly updateSource = this.onService(sources.updateSource);

  /** Deletes a source. Nothing that uses it is deleted or refused: they keep its ID. */
  readonly deleteSource = this.onService(sources.deleteSource);

  // ---- Webhooks ----

  /** All webhooks, page by page (see `listAlerts`). */
  readonly listWebhooks = this.onService(webhooks.listWebhooks);

  readonly createWebhook = this.onService(webhooks.createWebhook);

  /** Replaces a webhook; headers and query parameters left out are kept unless the URL or service changes. */
  readonly updateWebhook = this.onService(webhooks.updateWebhook);

  /** Deletes a webhook; refused with 409 (nothing deleted) while an alert uses it. */
  readonly deleteWebhook = this.onService(webhooks.deleteWebhook);

  // ---- Saved searches ----

  /** All saved searches, page by page (see `listAlerts`). */
  readonly listSavedSearches = this.onService(savedSearches.listSavedSearches);

  readonly getSavedSearch = this.onService(savedSearches.getSavedSearch);

  readonly createSavedSearch = this.onService(savedSearches.createSavedSearch);

  /** Replaces a saved search: optional fields left out reset to their defaults. */
  readonly updateSavedSearch = this.onService(savedSearches.updateSavedSearch);

  /** Deletes a saved search and the alerts attached to it. */
  readonly deleteSavedSearch = this.onService(savedSearches.deleteSavedSearch);

  // ---- Roles ----

  /** All roles, predefined ones included (one request). */
  readonly listRoles = this.onService(roles.listRoles);

  readonly getRole = this.onService(roles.getRole);

  readonly createRole = this.onService(roles.createRole);

  readonly updateRole = this.onService(roles.updateRole);

  /** Deletes a role; refused for predefined roles, the default role and roles assigned to users. */
  readonly deleteRole = this.onService(roles.deleteRole);

  // ---- Service query endpoint ----

  /** The service query endpoint, or `data: null` when none is configured (the server answers 404). */
  readonly getQueryEndpoint = this.onService(queryEndpoint.getQueryEndpoint);

  /** Creates the service query endpoint, or updates it in place. */
  readonly upsertQueryEndpoint = this.onService(queryEndpoint.upsertQueryEndpoint);

  /** Removes the service query endpoint; succeeds when there is none (404). */
  readonly deleteQueryEndpoint = this.onService(queryEndpoint.deleteQueryEndpoint);
}
