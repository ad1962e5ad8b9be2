import { Emitter } from './emitter';
import {
  asRequestFailure,
  isOffline,
  type Alert,
  type ConnectionSource,
  type RequestFailure,
  type ResourceKind,
  type ResourceValues,
} from './model';

/**
 * Cache of everything the tree has loaded, one entry per (connection, service, resource kind).
 *
 * - Nothing is loaded until someone asks (`ensure`). Concurrent askers share one request.
 * - `invalidate` marks an entry for reloading but keeps its value, so that when the reload fails for network reasons
 *   the last good value stays visible, flagged as stale.
 * - A reload started before an invalidation never overwrites the newer state (generation check).
 */

export interface Entry<K extends ResourceKind> {
  /** Last good value. */
  value?: ResourceValues[K];
  /** When `value` was fetched (epoch ms). */
  fetchedAt?: number;
  /** Error of the last attempt, if it failed. */
  error?: RequestFailure;
  /** True once the current value (or error) answers the latest request for data. */
  valid: boolean;
  pending?: Promise<void>;
  generation: number;
}

export interface CacheChange {
  readonly connectionId: string;
  readonly serviceId: string;
  readonly kind: ResourceKind;
  /** Who asked for the load: the tree itself redraws what it asked for; other loads need a redraw. */
  readonly origin: LoadOrigin;
}

export type LoadOrigin = 'tree' | 'background';

type Entries = { [K in ResourceKind]: Entry<K> };

function emptyEntries(): Entries {
  return {
    dashboards: { valid: false, generation: 0 },
    alerts: { valid: false, generation: 0 },
    sources: { valid: false, generation: 0 },
    webhooks: { valid: false, generation: 0 },
    savedSearches: { valid: false, generation: 0 },
    roles: { valid: false, generation: 0 },
    queryEndpoint: { valid: false, generation: 0 },
    team: { valid: false, generation: 0 },
  };
}

export class ResourceCache {
  private readonly services = new Map<string, Entries>();
  private readonly alertIndex = new WeakMap<readonly Alert[], Map<string, Alert[]>>();
  private readonly changed = new Emitter<CacheChange>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly connections: ConnectionSource,
    private readonly log?: (line: string) => void,
  ) {}

  dispose(): void {
    this.changed.dispose();
  }

  private entries(connectionId: string, serviceId: string): Entries {
    const key = `${connectionId}/${serviceId}`;
    let entries = this.services.get(key);
    if (!entries) {
      entries = emptyEntries();
      this.services.set(key, entries);
    }
    return entries;
  }

  entry<K extends ResourceKind>(connectionId: string, serviceId: string, kind: K): Entry<K> {
    return this.entries(connectionId, serviceId)[kind] as Entry<K>;
  }

  /** Returns the cached value if any (fresh or stale), without loading. */
  peek<K extends ResourceKind>(connectionId: string, serviceId: string, kind: K): ResourceValues[K] | undefined {
    return this.services.get(`${connectionId}/${serviceId}`)?.[kind].value as ResourceValues[K] | undefined;
  }

  /**
   * Loads the entry unless it is valid and (when `maxAgeMs` is given) younger than that. Never throws: the outcome is
   * in the entry (`value`, `error`).
   */
  ensure<K extends ResourceKind>(
    connectionId: string,
    serviceId: string,
    kind: K,
    options: { maxAgeMs?: number; origin?: LoadOrigin } = {},
  ): Promise<Entry<K>> {
    const entry = this.entry(connectionId, serviceId, kind);
    const tooOld =
      options.maxAgeMs !== undefined &&
      (entry.fetchedAt === undefined || Date.now() - entry.fetchedAt > options.maxAgeMs);
    if (entry.valid && !tooOld) return Promise.resolve(entry);
    if (!entry.pending) {
      entry.pending = this.load(connectionId, serviceId, kind, entry, options.origin ?? 'tree');
    }
    return entry.pending.then(() => entry);
  }

  private async load<K extends ResourceKind>(
    connectionId: string,
    serviceId: string,
    kind: K,
    entry: Entry<K>,
    origin: LoadOrigin,
  ): Promise<void> {
    const generation = ++entry.generation;
    const started = Date.now();
    try {
      const value = await this.fetch(connectionId, serviceId, kind);
      if (entry.generation !== generation) return;
      entry.value = value;
      entry.fetchedAt = started;
      entry.error = undefined;
    } catch (error) {
      if (entry.generation !== generation) return;
      const failure = asRequestFailure(error);
      entry.error = failure;
      // Keep the last good value only when the failure is about reaching the service.
      if (!isOffline(failure)) {
        entry.value = undefined;
        entry.fetchedAt = undefined;
      }
      this.log?.(`Loading ${kind} of service ${serviceId} failed: ${failure.message}`);
    } finally {
      if (entry.generation === generation) {
        entry.valid = true;
        entry.pending = undefined;
      }
    }
    this.changed.fire({ connectionId, serviceId, kind, origin });
  }

  private async fetch<K extends ResourceKind>(
    connectionId: string,
    serviceId: string,
    kind: K,
  ): Promise<ResourceValues[K]> {
    const client = this.connections.clientFor(connectionId);
    switch (kind) {
      case 'dashboards':
        return (await client.listDashboards(serviceId)).data as ResourceValues[K];
      case 'alerts':
        return (await client.listAlerts(serviceId)).data as ResourceValues[K];
      case 'sources':
        return (await client.listSources(serviceId)).data as ResourceValues[K];
      case 'webhooks':
        return (await client.listWebhooks(serviceId)).data as ResourceValues[K];
      case 'savedSearches':
        return (await client.listSavedSearches(serviceId)).data as ResourceValues[K];
      case 'roles':
        return (await client.listRoles(serviceId)).data as ResourceValues[K];
      case 'queryEndpoint':
        return (await client.getQueryEndpoint(serviceId)).data as ResourceValues[K];
      case 'team': {
        // Only a self-hosted deployment's client reads a team; a Cloud service's team is its organization.
        if (!client.getTeam || !client.listTeamMembers) {
          throw new Error('Only a self-hosted deployment shows its team.');
        }
        const [team, members] = await Promise.all([client.getTeam(), client.listTeamMembers()]);
        return { team: team.data, members: members.data } as ResourceValues[K];
      }
      default:
        throw new Error(`Unknown resource kind ${String(kind)}`);
    }
  }

  /** Marks entries for reload; values stay for offline fallback. A pending load's result will be ignored. */
  invalidate(connectionId: string, serviceId?: string, kinds?: readonly ResourceKind[]): void {
    for (const [key, entries] of this.services) {
      const [cid, sid] = key.split('/');
      if (cid !== connectionId || (serviceId !== undefined && sid !== serviceId)) continue;
      for (const kind of kinds ?? (Object.keys(entries) as ResourceKind[])) {
        const entry = entries[kind];
        entry.valid = false;
        entry.pending = undefined;
        entry.generation++;
      }
    }
  }

  invalidateAll(): void {
    for (const entries of this.services.values()) {
      for (const entry of Object.values(entries) as Entry<ResourceKind>[]) {
        entry.valid = false;
        entry.pending = undefined;
        entry.generation++;
      }
    }
  }

  /** Drops everything of a connection (removed, or its address or key changed). */
  forget(connectionId: string): void {
    for (const key of [...this.services.keys()]) {
      if (key.startsWith(`${connectionId}/`)) this.services.delete(key);
    }
  }

  forgetAll(): void {
    this.services.clear();
  }

  /** Alerts that watch one tile, from the cached alerts list (index built once per list). */
  alertsForTile(connectionId: string, serviceId: string, dashboardId: string, tileId: string): readonly Alert[] {
    return this.tileIndex(connectionId, serviceId)?.get(`${dashboardId}\u0000${tileId}`) ?? [];
  }

  /** Alerts that belong to one dashboard (the server deletes them with it). */
  alertsForDashboard(connectionId: string, serviceId: string, dashboardId: string): readonly Alert[] {
    const alerts = this.peek(connectionId, serviceId, 'alerts') ?? [];
    return alerts.filter((a) => a.dashboardId === dashboardId);
  }

  private tileIndex(connectionId: string, serviceId: string): Map<string, Alert[]> | undefined {
    const alerts = this.peek(connectionId, serviceId, 'alerts');
    if (!alerts) return undefined;
    let index = this.alertIndex.get(alerts);
    if (!index) {
      index = new Map();
      for (const alert of alerts) {
        if (!alert.dashboardId || !alert.tileId) continue;
        const key = `${alert.dashboardId}\u0000${alert.tileId}`;
        const list = index.get(key);
        if (list) list.push(alert);
        else index.set(key, [alert]);
      }
      this.alertIndex.set(alerts, index);
    }
    return index;
  }
}
