/**
 * The service side of a folder: reading a service's resources (five list requests) and the write calls of an apply,
 * on the API client of either connection kind. Pure (no vscode import).
 */
import type { ObservabilityApi } from '../api/client';
import type { ServerItem, Snapshot } from './files';
import type { FolderKind } from './layout';
import type { WriteClient } from './apply';

type Api = Pick<
  ObservabilityApi,
  | 'listSources'
  | 'listSavedSearches'
  | 'listWebhooks'
  | 'listDashboards'
  | 'listAlerts'
  | 'createSource'
  | 'updateSource'
  | 'deleteSource'
  | 'createSavedSearch'
  | 'updateSavedSearch'
  | 'deleteSavedSearch'
  | 'createWebhook'
  | 'updateWebhook'
  | 'deleteWebhook'
  | 'createDashboard'
  | 'updateDashboard'
  | 'deleteDashboard'
  | 'createAlert'
  | 'updateAlert'
  | 'deleteAlert'
>;

/** Every resource of a service the folder holds, read one list per kind, in dependency order. */
export async function readSnapshot(client: Api, serviceId: string): Promise<Snapshot> {
  const source = (await client.listSources(serviceId)).data;
  const savedSearch = (await client.listSavedSearches(serviceId)).data;
  const webhook = (await client.listWebhooks(serviceId)).data;
  const dashboard = (await client.listDashboards(serviceId)).data;
  const alert = (await client.listAlerts(serviceId)).data;
  return { source, savedSearch, webhook, dashboard, alert };
}

/** The write calls of an apply on one service. Bodies were checked by the plan with the service's write schemas. */
export function writeClientOf(client: Api, serviceId: string): WriteClient {
  const item = (answer: { readonly data: unknown }) => answer.data as ServerItem;
  const calls: Record<
    FolderKind,
    {
      create(body: never): Promise<{ readonly data: unknown }>;
      update(id: string, body: never): Promise<{ readonly data: unknown }>;
      remove(id: string): Promise<unknown>;
    }
  > = {
    source: {
      create: (b) => client.createSource(serviceId, b),
      update: (id, b) => client.updateSource(serviceId, id, b),
      remove: (id) => client.deleteSource(serviceId, id),
    },
    savedSearch: {
      create: (b) => client.createSavedSearch(serviceId, b),
      update: (id, b) => client.updateSavedSearch(serviceId, id, b),
      remove: (id) => client.deleteSavedSearch(serviceId, id),
    },
    webhook: {
      create: (b) => client.createWebhook(serviceId, b),
      update: (id, b) => client.updateWebhook(serviceId, id, b),
      remove: (id) => client.deleteWebhook(serviceId, id),
    },
    dashboard: {
      create: (b) => client.createDashboard(serviceId, b),
      update: (id, b) => client.updateDashboard(serviceId, id, b),
      remove: (id) => client.deleteDashboard(serviceId, id),
    },
    alert: {
      create: (b) => client.createAlert(serviceId, b),
      update: (id, b) => client.updateAlert(serviceId, id, b),
      remove: (id) => client.deleteAlert(serviceId, id),
    },
  };
  return {
    create: async (kind, body) => item(await calls[kind].create(body as never)),
    update: async (kind, id, body) => item(await calls[kind].update(id, body as never)),
    remove: async (kind, id) => {
      await calls[kind].remove(id);
    },
  };
}
