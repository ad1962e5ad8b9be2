/**
 * SelfHostedServiceClient: a self-hosted ClickStack / HyperDX deployment presented as one service behind the same
 * client surface as the cloud client (`ObservabilityApi`), so the tree, editors and alert files work on it unchanged.
 *
 * The deployment has no organization or service level: every service-scoped method ignores its `serviceId` (the
 * connection holds exactly one, `SELF_HOSTED_SERVICE_ID`) and talks to `/api/v2/...` of the deployment. Operations the
 * External API v2 does not serve (organizations, API keys, roles, the service query endpoint) are refused before
 * anything is sent, with an `ApiError` that says so. No `vscode` import.
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
  SavedSearch,
  SavedSearchWrite,
  Service,
  Source,
  SourceWrite,
  Webhook,
  WebhookWrite,
} from '../../schema';
import type { ObservabilityApi } from '../client';
import type { ConnectionConfig } from '../connection';
import type { ApiResponse, ListResponse, PageOptions, RequestEngine, RequestOptions } from '../engine';
import type { ServiceContext } from '../endpoints/common';
import * as savedSearches from '../endpoints/savedSearches';
import * as sources from '../endpoints/sources';
import * as webhooks from '../endpoints/webhooks';
import { ApiError } from '../errors';
import { SelfHostedClient, type SelfHostedClientOptions, type Team, type TeamMember } from './client';
import { OSS_API_PREFIX } from './flavor';

/** The one "organization" of a self-hosted connection (it has none; the ID only fills the shared shape). */
export const SELF_HOSTED_ORGANIZATION_ID = '00000000-0000-4000-8000-00000000005e';
/** The one "service" of a self-hosted connection: the deployment itself. */
export const SELF_HOSTED_SERVICE_ID = '00000000-0000-4000-8000-0000000005e1';
/** The path segment recorded for a self-hosted connection (its paths come from the self-hosted flavor). */
export const SELF_HOSTED_PATH_SEGMENT = 'api-v2';

/** The refusal of an operation the self-hosted External API v2 does not have. */
export function unsupportedOnSelfHosted(operation: string, what: string): ApiError {
  return new ApiError({
    kind: 'invalidInput',
    operation,
    method: '-',
    path: '-',
    detail: `a self-hosted ClickStack / HyperDX deployment has no ${what} in its External API v2; nothing was sent`,
    retryable: false,
  });
}

export class SelfHostedServiceClient implements ObservabilityApi {
  /** The connection in the shared shape: the deployment's base URL, one pseudo organization and service. */
  readonly connection: Readonly<ConnectionConfig>;
  readonly engine: RequestEngine;
  /** The underlying self-hosted client (team, members, chart data, search). */
  readonly selfHosted: SelfHostedClient;
  private readonly ctx: ServiceContext;

  constructor(options: SelfHostedClientOptions) {
    this.selfHosted = new SelfHostedClient(options);
    this.engine = this.selfHosted.engine;
    this.connection = Object.freeze({
      baseUrl: this.selfHosted.connection.baseUrl,
      organizationId: SELF_HOSTED_ORGANIZATION_ID,
      serviceIds: [SELF_HOSTED_SERVICE_ID],
      keyId: '',
      pathSegment: SELF_HOSTED_PATH_SEGMENT,
    });
    this.ctx = { engine: this.engine, scope: {}, params: [] };
  }

  close(): Promise<void> {
    return this.selfHosted.close();
  }

  // ---- Organization, services, API keys: the deployment is its own (only) service ----

  listOrganizations(_opts?: RequestOptions): Promise<ListResponse<Organization>> {
    return Promise.reject(unsupportedOnSelfHosted('List organizations', 'organizations'));
  }

  /** The deployment as the one service, named after its team when the server tells it. */
  async listServices(_orgId?: string, opts?: RequestOptions): Promise<ListResponse<Service>> {
    const team = await this.selfHosted.getTeam(opts);
    const service = { id: SELF_HOSTED_SERVICE_ID, name: team.data.name || new URL(this.connection.baseUrl).host };
    return {
      data: [service as Service],
      status: team.status,
      skipped: [],
      pages: 1,
      ...(team.requestId !== undefined ? { requestId: team.requestId } : {}),
    };
  }

  listApiKeys(_orgId?: string, _opts?: RequestOptions): Promise<ListResponse<ApiKey>> {
    return Promise.reject(unsupportedOnSelfHosted('List API keys', 'API key listing'));
  }

  // ---- Dashboards, alerts ----

  listDashboards(_serviceId: string, opts?: RequestOptions): Promise<ListResponse<Dashboard>> {
    return this.selfHosted.listDashboards(opts);
  }
  getDashboard(_serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<Dashboard>> {
    return this.selfHosted.getDashboard(id, opts);
  }
  createDashboard(_serviceId: string, body: DashboardWrite, opts?: RequestOptions): Promise<ApiResponse<Dashboard>> {
    return this.selfHosted.createDashboard(body, opts);
  }
  updateDashboard(
    _serviceId: string,
    id: string,
    body: z.input<typeof dashboardUpdateSchema>,
    opts?: RequestOptions,
  ): Promise<ApiResponse<Dashboard>> {
    return this.selfHosted.updateDashboard(id, body, opts);
  }
  deleteDashboard(_serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<void>> {
    return this.selfHosted.deleteDashboard(id, opts);
  }
  validateDashboard(
    _serviceId: string,
    body: DashboardWrite | Record<string, unknown>,
    opts?: RequestOptions,
  ): Promise<ApiResponse<z.infer<typeof dashboardValidationSchema>>> {
    return this.selfHosted.validateDashboard(body, opts);
  }

  listAlerts(
    _serviceId: string,
    paging?: PageOptions & RequestOptions,
    opts?: RequestOptions,
  ): Promise<ListResponse<Alert>> {
    return this.selfHosted.listAlerts(paging, opts);
  }
  getAlert(_serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<Alert>> {
    return this.selfHosted.getAlert(id, opts);
  }
  createAlert(_serviceId: string, body: AlertWrite, opts?: RequestOptions): Promise<ApiResponse<Alert>> {
    return this.selfHosted.createAlert(body, opts);
  }
  updateAlert(_serviceId: string, id: string, body: AlertWrite, opts?: RequestOptions): Promise<ApiResponse<Alert>> {
    return this.selfHosted.updateAlert(id, body, opts);
  }
  deleteAlert(_serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<void>> {
    return this.selfHosted.deleteAlert(id, opts);
  }

  // ---- Sources, webhooks, saved searches ----

  listSources(_serviceId: string, opts?: RequestOptions): Promise<ListResponse<Source>> {
    return this.selfHosted.listSources(opts);
  }
  getSource(_serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<Source>> {
    return this.selfHosted.getSource(id, opts);
  }
  createSource(_serviceId: string, body: SourceWrite, opts?: RequestOptions): Promise<ApiResponse<Source>> {
    return sources.createSource(this.ctx, body, opts);
  }
  updateSource(_serviceId: string, id: string, body: SourceWrite, opts?: RequestOptions): Promise<ApiResponse<Source>> {
    return sources.updateSource(this.ctx, id, body, opts);
  }
  deleteSource(_serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<void>> {
    return sources.deleteSource(this.ctx, id, opts);
  }

  listWebhooks(
    _serviceId: string,
    paging?: PageOptions & RequestOptions,
    opts?: RequestOptions,
  ): Promise<ListResponse<Webhook>> {
    return this.selfHosted.listWebhooks(paging, opts);
  }
  createWebhook(_serviceId: string, body: WebhookWrite, opts?: RequestOptions): Promise<ApiResponse<Webhook>> {
    return webhooks.createWebhook(this.ctx, body, opts);
  }
  updateWebhook(
    _serviceId: string,
    id: string,
    body: WebhookWrite,
    opts?: RequestOptions,
  ): Promise<ApiResponse<Webhook>> {
    return webhooks.updateWebhook(this.ctx, id, body, opts);
  }
  deleteWebhook(_serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<void>> {
    return webhooks.deleteWebhook(this.ctx, id, opts);
  }

  listSavedSearches(
    _serviceId: string,
    paging?: PageOptions & RequestOptions,
    opts?: RequestOptions,
  ): Promise<ListResponse<SavedSearch>> {
    return this.selfHosted.listSavedSearches(paging, opts);
  }
  getSavedSearch(_serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<SavedSearch>> {
    return savedSearches.getSavedSearch(this.ctx, id, opts);
  }
  createSavedSearch(
    _serviceId: string,
    body: SavedSearchWrite,
    opts?: RequestOptions,
  ): Promise<ApiResponse<SavedSearch>> {
    return savedSearches.createSavedSearch(this.ctx, body, opts);
  }
  updateSavedSearch(
    _serviceId: string,
    id: string,
    body: SavedSearchWrite,
    opts?: RequestOptions,
  ): Promise<ApiResponse<SavedSearch>> {
    return savedSearches.updateSavedSearch(this.ctx, id, body, opts);
  }
  deleteSavedSearch(_serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<void>> {
    return savedSearches.deleteSavedSearch(this.ctx, id, opts);
  }

  // ---- Team (read-only) ----

  getTeam(opts?: RequestOptions): Promise<ApiResponse<Team>> {
    return this.selfHosted.getTeam(opts);
  }
  listTeamMembers(opts?: RequestOptions): Promise<ListResponse<TeamMember>> {
    return this.selfHosted.listTeamMembers(opts);
  }

  // ---- Not in the External API v2: roles, the service query endpoint ----

  listRoles(_serviceId: string, _opts?: RequestOptions): Promise<ListResponse<Role>> {
    return Promise.reject(unsupportedOnSelfHosted('List roles', 'roles'));
  }
  getRole(_serviceId: string, _id: string, _opts?: RequestOptions): Promise<ApiResponse<Role>> {
    return Promise.reject(unsupportedOnSelfHosted('Get role', 'roles'));
  }
  createRole(_serviceId: string, _body: unknown, _opts?: RequestOptions): Promise<ApiResponse<Role>> {
    return Promise.reject(unsupportedOnSelfHosted('Create role', 'roles'));
  }
  updateRole(_serviceId: string, _id: string, _body: unknown, _opts?: RequestOptions): Promise<ApiResponse<Role>> {
    return Promise.reject(unsupportedOnSelfHosted('Update role', 'roles'));
  }
  deleteRole(_serviceId: string, _id: string, _opts?: RequestOptions): Promise<ApiResponse<void>> {
    return Promise.reject(unsupportedOnSelfHosted('Delete role', 'roles'));
  }

  getQueryEndpoint(_serviceId: string, _opts?: RequestOptions): Promise<ApiResponse<QueryEndpoint | null>> {
    return Promise.reject(unsupportedOnSelfHosted('Get query endpoint', 'service query endpoint'));
  }
  upsertQueryEndpoint(
    _serviceId: string,
    _body: QueryEndpointWrite,
    _opts?: RequestOptions,
  ): Promise<ApiResponse<QueryEndpoint>> {
    return Promise.reject(unsupportedOnSelfHosted('Save query endpoint', 'service query endpoint'));
  }
  deleteQueryEndpoint(_serviceId: string, _opts?: RequestOptions): Promise<ApiResponse<void>> {
    return Promise.reject(unsupportedOnSelfHosted('Delete query endpoint', 'service query endpoint'));
  }
}

/** Where a self-hosted deployment's API lives under its base URL (for messages). */
export const SELF_HOSTED_API_ROOT = OSS_API_PREFIX;
