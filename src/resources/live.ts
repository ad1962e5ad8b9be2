import type { Alert, ApiKey, Dashboard, SavedSearch, Source, Webhook } from '../schema';
import type { ConnectionManager } from '../connections/manager';
import type { ResourceCache } from './cache';
import type { DocumentKind, LiveFacts } from './model';

/**
 * Live values of a service for completion and checks. Dashboards, alerts and webhooks come from the explorer's cache
 * (one request shared with the tree); saved searches and the organization's API keys are kept here for a minute.
 */

const TTL_MS = 60_000;

interface Timed<T> {
  readonly at: number;
  readonly value: Promise<T | undefined>;
}

export class LiveData {
  private readonly savedSearches = new Map<string, Timed<readonly SavedSearch[]>>();
  private readonly apiKeys = new Map<string, Timed<readonly ApiKey[]>>();
  private readonly fullAlerts = new Map<string, Timed<Alert>>();

  constructor(
    private readonly connections: ConnectionManager,
    private readonly cache: ResourceCache,
  ) {}

  serviceLabel(connectionId: string, serviceId: string): string {
    const connection = this.connections.get(connectionId);
    return connection?.services.find((s) => s.id === serviceId)?.name ?? serviceId;
  }

  async dashboards(connectionId: string, serviceId: string): Promise<readonly Dashboard[] | undefined> {
    const entry = await this.cache.ensure(connectionId, serviceId, 'dashboards', { origin: 'background' });
    return entry.error && !entry.value ? undefined : entry.value;
  }

  async webhooks(connectionId: string, serviceId: string): Promise<readonly Webhook[] | undefined> {
    const entry = await this.cache.ensure(connectionId, serviceId, 'webhooks', { origin: 'background' });
    return entry.error && !entry.value ? undefined : entry.value;
  }

  async sources(connectionId: string, serviceId: string): Promise<readonly Source[] | undefined> {
    const entry = await this.cache.ensure(connectionId, serviceId, 'sources', { origin: 'background' });
    return entry.error && !entry.value ? undefined : entry.value;
  }

  async alerts(connectionId: string, serviceId: string, fresh = false) {
    const entry = await this.cache.ensure(connectionId, serviceId, 'alerts', {
      origin: 'background',
      ...(fresh ? { maxAgeMs: 0 } : {}),
    });
    return entry.error && !entry.value ? undefined : entry.value;
  }

  listSavedSearches(connectionId: string, serviceId: string): Promise<readonly SavedSearch[] | undefined> {
    return this.timed(
      this.savedSearches,
      `${connectionId}/${serviceId}`,
      async () => (await this.connections.clientFor(connectionId).listSavedSearches(serviceId)).data,
    );
  }

  /** One alert as the service returns it, every field included (the explorer's cache keeps only what it shows). */
  alert(connectionId: string, serviceId: string, alertId: string): Promise<Alert | undefined> {
    return this.timed(
      this.fullAlerts,
      `${connectionId}/${serviceId}/${alertId}`,
      async () => (await this.connections.clientFor(connectionId).getAlert(serviceId, alertId)).data,
    );
  }

  listApiKeys(connectionId: string): Promise<readonly ApiKey[] | undefined> {
    const organizationId = this.connections.get(connectionId)?.organizationId;
    return this.timed(
      this.apiKeys,
      connectionId,
      async () => (await this.connections.clientFor(connectionId).listApiKeys(organizationId)).data,
    );
  }

  /** Everything the checks of a document need; lists that fail to load are left out. */
  async facts(connectionId: string, serviceId: string, kind: DocumentKind, id?: string): Promise<LiveFacts> {
    const serviceLabel = this.serviceLabel(connectionId, serviceId);
    if (kind === 'savedSearch' || kind === 'source') {
      return { serviceLabel, sources: await this.sources(connectionId, serviceId) };
    }
    if (kind === 'webhook' || kind === 'role') return { serviceLabel };
    if (kind === 'alert') {
      const [dashboards, webhooks, savedSearches] = await Promise.all([
        this.dashboards(connectionId, serviceId),
        this.webhooks(connectionId, serviceId),
        this.listSavedSearches(connectionId, serviceId),
      ]);
      return { serviceLabel, dashboards, webhooks, savedSearches };
    }
    if (kind === 'queryEndpoint') return { serviceLabel, apiKeys: await this.listApiKeys(connectionId) };
    if (id === undefined) return { serviceLabel };
    const [dashboards, alerts] = await Promise.all([
      this.dashboards(connectionId, serviceId),
      this.alerts(connectionId, serviceId),
    ]);
    const dashboard = dashboards?.find((d) => d.id === id);
    if (!dashboard || !alerts) return { serviceLabel };
    const watchedTiles = (dashboard.tiles ?? [])
      .map((t) => ({
        tileId: t.id,
        tileName: t.name,
        alerts: alerts.filter((a) => a.dashboardId === id && a.tileId === t.id).map((a) => a.name || a.id),
      }))
      .filter((w) => w.alerts.length > 0);
    return { serviceLabel, watchedTiles };
  }

  /** Drops what this class keeps (after a change on the service). */
  forget(connectionId?: string): void {
    for (const map of [this.savedSearches, this.apiKeys, this.fullAlerts] as Map<string, unknown>[]) {
      for (const key of [...map.keys()]) if (!connectionId || key.startsWith(connectionId)) map.delete(key);
    }
  }

  private timed<T>(map: Map<string, Timed<T>>, key: string, load: () => Promise<T>): Promise<T | undefined> {
    const hit = map.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
    const value = load().then(
      (v) => v,
      () => {
        map.delete(key);
        return undefined;
      },
    );
    map.set(key, { at: Date.now(), value });
    return value;
  }
}
