import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import {
  createDispatcher,
  type Dispatcher,
  limiterFor,
  ObservabilityClient,
  validateConnection,
  type ConnectionConfig,
  type ObservabilityApi,
  type RequestLogEntry,
  type SkippedListItem,
} from '../api';
import { ApiError } from '../api/errors';
import { SelfHostedServiceClient, selfHostedConnectionIssues } from '../api/oss';
import { affectsRequests, readSettings } from '../config';
import type { Logger } from '../log';
import { SecretStorageError } from './keyring';
import { clickHousePlainHttpGrantable, needsPlainHttpConsent, originOf, settlePlainHttp } from '../plainHttpGrant';
import {
  clickHouseSecretKeyFor,
  CONNECTIONS_STATE_KEY,
  connectionIdOfSecretKey,
  isSelfHosted,
  SECRET_KEY_PREFIX,
  secretKeyFor,
  storedConnectionSchema,
  type ClickHouseAccess,
  type ConnectionPatch,
  type NewConnection,
  type StoredConnection,
} from './types';
import { normalizeBaseUrl, sameOrigin } from './validation';
import { errorMessage } from '../errors';

/** Written to SecretStorage whenever connection metadata changes, so other windows hear about it. */
const REVISION_KEY = `${SECRET_KEY_PREFIX}revision`;

export interface ConnectionChangeEvent {
  /** The connection that changed; undefined when several may have (e.g. a change made in another window). */
  readonly connectionId?: string;
}

export interface ConnectionManagerOptions {
  readonly globalState: vscode.Memento;
  readonly secrets: vscode.SecretStorage;
  readonly log: Logger;
  /** Sent as the User-Agent header. */
  readonly userAgent: string;
}

/** Formats one request attempt for the log. Never includes headers or bodies. */
export function formatRequestLogEntry(entry: RequestLogEntry): string {
  const outcome = entry.status !== undefined ? String(entry.status) : (entry.errorKind ?? 'no response');
  const attempt = entry.attempt > 1 ? ` [attempt ${entry.attempt}]` : '';
  const requestId = entry.requestId ? ` (requestId ${entry.requestId})` : '';
  return `${entry.method} ${entry.path} -> ${outcome} in ${Math.round(entry.durationMs)} ms${requestId}${attempt}`;
}

/**
 * Owns the saved connections. Metadata is kept in the extension's global state (never in settings or workspace
 * state, so a repository cannot point a stored key at another host); each connection's key secret is one
 * SecretStorage entry. Builds and caches one API client per connection.
 */
export class ConnectionManager implements vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<ConnectionChangeEvent>();
  /** Fires after a connection is added, edited or removed, or its secret changes (here or in another window). */
  readonly onDidChange: vscode.Event<ConnectionChangeEvent> = this.changeEmitter.event;

  /** Global state of the extension; exposed so tests can check that no secret is stored there. */
  readonly globalState: vscode.Memento;

  private readonly secrets: vscode.SecretStorage;
  private readonly log: Logger;
  private readonly userAgent: string;
  private readonly disposables: vscode.Disposable[] = [];
  /** Secrets read or written in this session, for redaction and to avoid keyring round trips. */
  private readonly secretCache = new Map<string, string>();
  /** ClickHouse passwords (ClickHouse access for previews) read or written in this session, by connection. */
  private readonly clickHousePasswords = new Map<string, string>();
  /** Secrets being tried before they are saved (the check while adding). */
  private readonly transientSecrets = new Map<number, string>();
  private transientCounter = 0;
  private readonly clients = new Map<string, ObservabilityApi>();
  /**
   * Per connection, a number that changes whenever the address, key or secret changes. A client remembers the
   * generation it was built in and gets no secret once it is stale, so a request never pairs the old address with
   * the new secret, nor the new address with the old one.
   */
  private readonly generations = new Map<string, number>();
  /** Per connection, the change of address, key or secret under way; secret reads wait for it. */
  private readonly switching = new Map<string, Promise<void>>();
  /** SecretStorage keys written here whose change events should not be treated as news from elsewhere. */
  private readonly ownSecretWrites = new Map<string, number>();
  /** One dispatcher per saved connection: destroying it stops the requests still in flight to the old address. */
  private readonly dispatchers = new Map<string, Dispatcher>();
  /** The dispatcher of checks made before a connection is saved. */
  private dispatcher: Dispatcher | undefined;
  /** Serializes writes to global state so two quick edits do not lose one another. */
  private writeQueue: Promise<unknown> = Promise.resolve();

  constructor(options: ConnectionManagerOptions) {
    this.globalState = options.globalState;
    this.secrets = options.secrets;
    this.log = options.log;
    this.userAgent = options.userAgent;
    this.disposables.push(
      this.changeEmitter,
      this.secrets.onDidChange((e) => this.onSecretChanged(e.key)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affectsRequests(e)) this.resetClients();
      }),
    );
  }

  // ---------------------------------------------------------------- reading

  /** All saved connections, in the order they were added. Entries that do not parse are skipped (and logged). */
  list(): StoredConnection[] {
    const raw = this.rawEntries();
    const out: StoredConnection[] = [];
    for (const entry of raw) {
      const parsed = storedConnectionSchema.safeParse(entry);
      if (parsed.success) {
        // A plain-http permission counts only for the address it was given for.
        out.push(isSelfHosted(parsed.data) ? settlePlainHttp(parsed.data, true) : parsed.data);
      } else {
        this.log.warn(
          `Skipping a saved connection that cannot be read: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        );
      }
    }
    return out;
  }

  get(id: string): StoredConnection | undefined {
    return this.list().find((c) => c.id === id);
  }

  /**
   * A saved connection that is the same as `connection` would be: same kind, address, organization and key (Cloud:
   * the key ID; self-hosted: the personal API key itself, compared in this window only). Undefined when none is.
   */
  async findSame(connection: NewConnection, secret: string): Promise<StoredConnection | undefined> {
    const wanted = this.normalize({ ...connection, id: 'new' });
    for (const existing of this.list()) {
      if ((existing.kind ?? 'cloud') !== (wanted.kind ?? 'cloud')) continue;
      if (existing.baseUrl !== wanted.baseUrl || existing.organizationId !== wanted.organizationId) continue;
      if (existing.keyId !== wanted.keyId) continue;
      if (isSelfHosted(existing) && (await this.readSecret(existing.id).catch(() => undefined)) !== secret) continue;
      return existing;
    }
    return undefined;
  }

  /**
   * The connection's key secret from SecretStorage, or undefined when none is stored. While the connection's
   * address, key or secret is being changed, waits until the change is complete.
   */
  async getSecret(id: string): Promise<string | undefined> {
    await this.settled(id);
    return this.readSecret(id);
  }

  private async readSecret(id: string): Promise<string | undefined> {
    const cached = this.secretCache.get(id);
    if (cached !== undefined) return cached;
    let secret: string | undefined;
    try {
      secret = await this.secrets.get(secretKeyFor(id));
    } catch (error) {
      throw new SecretStorageError('read', error);
    }
    if (secret !== undefined && secret !== '') this.secretCache.set(id, secret);
    return secret === '' ? undefined : secret;
  }

  /** Every secret this window knows, for scrubbing log lines and messages. */
  secretsInUse(): string[] {
    return [
      ...new Set([
        ...this.secretCache.values(),
        ...this.clickHousePasswords.values(),
        ...this.transientSecrets.values(),
      ]),
    ];
  }

  /** The API connection settings of a saved connection. */
  configOf(connection: StoredConnection): ConnectionConfig {
    return {
      baseUrl: connection.baseUrl,
      organizationId: connection.organizationId,
      serviceIds: [...connection.serviceIds],
      keyId: connection.keyId,
      pathSegment: connection.pathSegment,
    };
  }

  // ---------------------------------------------------------------- clients

  /** The (cached) API client of a saved connection. Throws when the connection does not exist. */
  clientFor(connectionId: string): ObservabilityApi {
    const existing = this.clients.get(connectionId);
    if (existing) return existing;
    const connection = this.get(connectionId);
    if (!connection) {
      throw new Error(vscode.l10n.t('The connection {0} no longer exists.', connectionId));
    }
    const generation = this.generationOf(connectionId);
    const client = this.buildClient(
      this.configOf(connection),
      this.selfHostedOf(connection),
      async () => {
        await this.settled(connectionId);
        // The connection moved or got another key or secret since this client was built: its address and key are
        // no longer the ones the stored secret belongs to.
        if (this.generationOf(connectionId) !== generation) {
          throw new Error(
            vscode.l10n.t(
              'The connection "{0}" changed while the request was waiting; it was not sent.',
              connection.label,
            ),
          );
        }
        const secret = await this.readSecret(connectionId);
        if (this.generationOf(connectionId) !== generation) {
          throw new Error(
            vscode.l10n.t(
              'The connection "{0}" changed while the request was waiting; it was not sent.',
              connection.label,
            ),
          );
        }
        if (secret === undefined) {
          throw new Error(
            vscode.l10n.t(
              'No key secret is stored for the connection "{0}". Run "Update Key Secret".',
              connection.label,
            ),
          );
        }
        return secret;
      },
      this.connectionDispatcher(connectionId),
    );
    this.clients.set(connectionId, client);
    return client;
  }

  private generationOf(connectionId: string): number {
    return this.generations.get(connectionId) ?? 0;
  }

  /** Resolves once no change of the connection's address, key or secret is under way. */
  private async settled(connectionId: string): Promise<void> {
    for (let pending = this.switching.get(connectionId); pending; pending = this.switching.get(connectionId)) {
      await pending.catch(() => undefined);
    }
  }

  /**
   * Makes every client of the connection stale and stops its requests in flight: clients built before this call get
   * no secret any more, and requests already sent on the connection's dispatcher are aborted.
   */
  private retire(connectionId: string): void {
    this.generations.set(connectionId, this.generationOf(connectionId) + 1);
    this.clients.delete(connectionId);
    const dispatcher = this.dispatchers.get(connectionId);
    this.dispatchers.delete(connectionId);
    dispatcher?.destroy().catch(() => undefined);
  }

  /**
   * Runs `action` with a client for a connection that is not saved yet (or a secret that is not saved yet). The
   * secret is scrubbed from the log while the action runs.
   */
  async withUnsavedClient<T>(
    config: ConnectionConfig,
    secret: string,
    action: (client: ObservabilityClient) => Promise<T>,
  ): Promise<T> {
    const token = ++this.transientCounter;
    this.transientSecrets.set(token, secret);
    try {
      return await action(
        this.buildClient(config, undefined, () => secret, this.sharedDispatcher()) as ObservabilityClient,
      );
    } finally {
      this.transientSecrets.delete(token);
    }
  }

  /** Like `withUnsavedClient`, for a self-hosted deployment that is not saved yet. */
  async withUnsavedSelfHostedClient<T>(
    baseUrl: string,
    allowPlainHttp: boolean,
    secret: string,
    action: (client: SelfHostedServiceClient) => Promise<T>,
  ): Promise<T> {
    const token = ++this.transientCounter;
    this.transientSecrets.set(token, secret);
    try {
      const config: ConnectionConfig = { baseUrl, organizationId: '', serviceIds: [], keyId: '', pathSegment: '' };
      const client = this.buildClient(config, { allowPlainHttp }, () => secret, this.sharedDispatcher());
      return await action(client as SelfHostedServiceClient);
    } finally {
      this.transientSecrets.delete(token);
    }
  }

  /** The self-hosted settings of a connection, or undefined for a cloud connection. */
  private selfHostedOf(connection: StoredConnection): { allowPlainHttp: boolean } | undefined {
    return isSelfHosted(connection) ? { allowPlainHttp: connection.allowPlainHttp === true } : undefined;
  }

  /**
   * Refuses a connection whose settings are not usable (by kind), before anything is saved. `keepsAddress`: an update
   * that keeps the address may withdraw the plain-http permission (the connection then sends nothing until it is
   * given again).
   */
  private validate(connection: StoredConnection, keepsAddress = false): void {
    if (!isSelfHosted(connection)) {
      validateConnection(this.configOf(connection));
      return;
    }
    const issues = selfHostedConnectionIssues({
      baseUrl: connection.baseUrl,
      allowPlainHttp: keepsAddress || connection.allowPlainHttp === true,
    });
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
  }

  private buildClient(
    connection: ConnectionConfig,
    selfHosted: { allowPlainHttp: boolean } | undefined,
    getSecret: () => string | Promise<string>,
    dispatcher: Dispatcher,
  ): ObservabilityApi {
    const settings = readSettings();
    const timeout = settings.requestTimeoutMs;
    const common = {
      getSecret,
      userAgent: this.userAgent,
      dispatcher,
      timeouts: { connectMs: Math.min(timeout, 15_000), headersMs: timeout, bodyMs: timeout },
      onRequest: (entry: RequestLogEntry) => this.logRequest(entry),
      onSkippedItems: (operation: string, skipped: readonly SkippedListItem[]) => this.logSkipped(operation, skipped),
    };
    if (selfHosted) {
      return new SelfHostedServiceClient({
        ...common,
        connection: { baseUrl: connection.baseUrl, allowPlainHttp: selfHosted.allowPlainHttp },
      });
    }
    return new ObservabilityClient({
      ...common,
      connection,
      limiter: limiterFor(connection.keyId, {
        requests: settings.rateLimit.requests,
        windowMs: settings.rateLimit.windowMs,
      }),
    });
  }

  private logSkipped(operation: string, skipped: readonly SkippedListItem[]): void {
    this.log.warn(
      `${operation}: ${skipped.length} item(s) could not be read and are left out: ${skipped
        .slice(0, 5)
        .map(
          (s) =>
            `#${s.index}${s.id !== undefined ? ` (${s.id})` : ''} ${s.issues
              .slice(0, 3)
              .map((i) => `${i.path || '(item)'} ${i.message}`)
              .join(', ')}`,
        )
        .join('; ')}${skipped.length > 5 ? '; …' : ''}`,
    );
  }

  private sharedDispatcher(): Dispatcher {
    this.dispatcher ??= newDispatcher();
    return this.dispatcher;
  }

  private connectionDispatcher(connectionId: string): Dispatcher {
    let dispatcher = this.dispatchers.get(connectionId);
    if (!dispatcher) {
      dispatcher = newDispatcher();
      this.dispatchers.set(connectionId, dispatcher);
    }
    return dispatcher;
  }

  private logRequest(entry: RequestLogEntry): void {
    const line = formatRequestLogEntry(entry);
    if (entry.errorKind !== undefined || (entry.status !== undefined && entry.status >= 400)) {
      this.log.warn(line);
    } else {
      this.log.info(line);
    }
  }

  /** Drops cached clients (and the dispatcher) so the next request uses current settings. */
  private resetClients(): void {
    this.clients.clear();
    // Limiters are shared per key and outlive clients: apply a changed rate limit to them now.
    const { rateLimit } = readSettings();
    for (const keyId of new Set(this.list().map((c) => c.keyId))) {
      limiterFor(keyId, { requests: rateLimit.requests, windowMs: rateLimit.windowMs });
    }
    const old = [this.dispatcher, ...this.dispatchers.values()];
    this.dispatcher = undefined;
    this.dispatchers.clear();
    // Let requests in flight finish on the old dispatchers.
    for (const d of old) d?.close().catch(() => undefined);
  }

  // ---------------------------------------------------------------- writing

  /**
   * Saves a new connection and its key secret. The secret is stored first, so a keyring failure leaves nothing
   * half-saved. Returns the saved connection (with its new ID).
   */
  async add(connection: NewConnection, secret: string): Promise<StoredConnection> {
    const stored: StoredConnection = this.normalize({ ...connection, id: randomUUID() });
    this.validate(stored);
    if (secret === '') throw new Error(vscode.l10n.t('The key secret is empty.'));
    await this.storeSecret(stored.id, secret);
    try {
      await this.mutate((entries) => [...entries, stored]);
    } catch (error) {
      await this.deleteSecret(stored.id).catch(() => undefined);
      throw error;
    }
    if (isSelfHosted(stored)) {
      this.log.info(
        `Added self-hosted connection "${stored.label}" (${stored.id}) to ${stored.baseUrl}${stored.allowPlainHttp ? ' (plain http confirmed: the key travels unencrypted)' : ''}`,
      );
    } else {
      this.log.info(
        `Added connection "${stored.label}" (${stored.id}) to ${stored.baseUrl}, organization ${stored.organizationId}, ${stored.serviceIds.length} service(s), segment "${stored.pathSegment}"`,
      );
    }
    await this.announce();
    this.changeEmitter.fire({ connectionId: stored.id });
    return stored;
  }

  /**
   * Changes a connection: its metadata and, when `secret` is given, its key secret, as one operation. Moving the
   * connection to another origin needs the secret: the stored one belongs to the old address.
   *
   * When the address, key ID or secret changes, no request ever pairs old and new: requests in flight to the old
   * address are stopped, clients built before the change get no secret, reads of the secret wait until both the
   * secret and the metadata are saved, and the change event fires only then. When saving the metadata fails, the
   * previous secret is put back.
   */
  async update(id: string, patch: ConnectionPatch, secret?: string): Promise<StoredConnection> {
    const previous = this.switching.get(id);
    const run = (async () => {
      await previous?.catch(() => undefined);
      return this.applyUpdate(id, patch, secret);
    })();
    const done = run.then(
      () => undefined,
      () => undefined,
    );
    this.switching.set(id, done);
    try {
      return await run;
    } finally {
      if (this.switching.get(id) === done) this.switching.delete(id);
    }
  }

  private async applyUpdate(id: string, patch: ConnectionPatch, secret: string | undefined): Promise<StoredConnection> {
    const current = this.get(id);
    if (!current) throw new Error(vscode.l10n.t('The connection {0} no longer exists.', id));
    if (secret === '') throw new Error(vscode.l10n.t('The key secret is empty.'));
    const merged: StoredConnection = { ...current, ...stripUndefined(patch), id };
    const organizationChanged = merged.organizationId.trim().toLowerCase() !== current.organizationId;
    if (organizationChanged) {
      // Names and services of the old organization do not describe the new one.
      if (patch.organizationName === undefined) delete merged.organizationName;
      if (patch.services === undefined) merged.services = [];
    }
    const moved = !sameOrigin(normalizeBaseUrl(merged.baseUrl) ?? merged.baseUrl, current.baseUrl);
    if (moved || patch.allowPlainHttp !== undefined) {
      // A plain-http permission belongs to the address it was given for: a move drops it (and ClickHouse's, given
      // under it) unless the patch gives it again for the new address.
      merged.allowPlainHttp = patch.allowPlainHttp === true;
      delete merged.plainHttpOrigin;
    }
    if (moved && merged.clickHouse) merged.clickHouse = { url: merged.clickHouse.url, user: merged.clickHouse.user };
    const next = this.normalize(merged);
    this.validate(next, !moved);
    if (moved && secret === undefined) {
      throw new Error(
        vscode.l10n.t(
          'Moving the connection to another address needs its key secret too: the stored secret is never sent to a new address.',
        ),
      );
    }
    const credentialsChange =
      moved ||
      secret !== undefined ||
      next.keyId !== current.keyId ||
      next.allowPlainHttp !== current.allowPlainHttp ||
      next.kind !== current.kind;
    let previousSecret: string | undefined;
    if (credentialsChange) {
      // From here on, nothing built for the old address or key gets a secret, and what is in flight stops.
      this.retire(id);
    } else {
      this.clients.delete(id);
    }
    if (secret !== undefined) {
      previousSecret = await this.readSecret(id).catch(() => undefined);
      await this.storeSecret(id, secret);
    }
    try {
      await this.mutate((entries) =>
        entries.map((e) => {
          if (entryId(e) !== id) return e;
          const written: Record<string, unknown> = { ...(e as Record<string, unknown>), ...next };
          if (next.organizationName === undefined) delete written.organizationName;
          if (next.plainHttpOrigin === undefined) delete written.plainHttpOrigin;
          return written;
        }),
      );
    } catch (error) {
      if (secret !== undefined) {
        // The metadata still names the old address: the old secret goes back with it.
        const restore = previousSecret !== undefined ? this.storeSecret(id, previousSecret) : this.deleteSecret(id);
        await restore.catch(() => undefined);
      }
      throw error;
    }
    if (credentialsChange) {
      // Clients built while the change was under way still carry the old address.
      this.retire(id);
    } else {
      this.clients.delete(id);
    }
    // Keep the previous secret scrubbed from logs for the rest of the session, too.
    if (previousSecret !== undefined && previousSecret !== secret) {
      this.transientSecrets.set(++this.transientCounter, previousSecret);
    }
    this.log.info(
      `Updated connection "${next.label}" (${id})${moved ? ` to ${next.baseUrl}` : ''}${secret !== undefined ? ' and its key secret' : ''}${plainHttpNote(current, next)}`,
    );
    if (secret !== undefined) this.log.info(`Updated the key secret of connection ${id}`);
    await this.announce();
    this.changeEmitter.fire({ connectionId: id });
    return next;
  }

  /** Replaces a connection's key secret (same address and key); see `update`. */
  async setSecret(id: string, secret: string): Promise<void> {
    if (secret === '') throw new Error(vscode.l10n.t('The key secret is empty.'));
    await this.update(id, {}, secret);
  }

  /** Removes a connection and its secret. */
  async remove(id: string): Promise<void> {
    await this.settled(id);
    const current = this.get(id);
    this.retire(id);
    await this.mutate((entries) => entries.filter((e) => entryId(e) !== id));
    try {
      await this.deleteSecret(id);
      if (current?.clickHouse) await this.deleteClickHousePassword(id);
    } finally {
      this.log.info(`Removed connection ${current ? `"${current.label}" ` : ''}(${id}) and its key secret`);
      this.changeEmitter.fire({ connectionId: id });
    }
  }

  /** The ClickHouse password of a self-hosted connection's ClickHouse access, or undefined when none is stored. */
  async getClickHousePassword(id: string): Promise<string | undefined> {
    const cached = this.clickHousePasswords.get(id);
    if (cached !== undefined) return cached;
    let password: string | undefined;
    try {
      password = await this.secrets.get(clickHouseSecretKeyFor(id));
    } catch (error) {
      throw new SecretStorageError('read', error);
    }
    if (password) this.clickHousePasswords.set(id, password);
    return password || undefined;
  }

  /**
   * Gives a self-hosted connection ClickHouse access for previews: the address and user in its record, the password
   * in SecretStorage (stored first, so a keyring failure leaves the record as it was).
   */
  async setClickHouseAccess(id: string, access: ClickHouseAccess, password: string): Promise<StoredConnection> {
    const current = this.get(id);
    if (!current) throw new Error(vscode.l10n.t('The connection {0} no longer exists.', id));
    if (!isSelfHosted(current)) {
      throw new Error(vscode.l10n.t('"{0}" is not a self-hosted connection.', current.label));
    }
    if (password === '') throw new Error(vscode.l10n.t('The ClickHouse password is empty.'));
    const previous = this.clickHousePasswords.get(id);
    await this.writeSecret(clickHouseSecretKeyFor(id), password);
    if (previous !== undefined && previous !== password) this.transientSecrets.set(++this.transientCounter, previous);
    this.clickHousePasswords.set(id, password);
    // Plain http beyond loopback is allowed for this very ClickHouse origin only, under the API's permission.
    const origin = originOf(access.url);
    const clickHouse: ClickHouseAccess =
      needsPlainHttpConsent(access.url) && origin !== undefined && clickHousePlainHttpGrantable(current, access.url)
        ? { url: access.url, user: access.user, plainHttpOrigin: origin }
        : { url: access.url, user: access.user };
    await this.mutate((entries) =>
      entries.map((e) => (entryId(e) === id ? { ...(e as Record<string, unknown>), clickHouse } : e)),
    );
    this.log.info(
      `Set ClickHouse access for previews of "${current.label}" (${id}): ${clickHouse.url} as ${clickHouse.user}`,
    );
    await this.announce();
    this.changeEmitter.fire({ connectionId: id });
    return { ...current, clickHouse };
  }

  /** Removes a connection's ClickHouse access: the address and user from its record, the password from SecretStorage. */
  async removeClickHouseAccess(id: string): Promise<void> {
    const current = this.get(id);
    await this.mutate((entries) =>
      entries.map((e) => {
        if (entryId(e) !== id) return e;
        const { clickHouse: _dropped, ...rest } = e as Record<string, unknown>;
        return rest;
      }),
    );
    try {
      await this.deleteClickHousePassword(id);
    } finally {
      this.log.info(`Removed ClickHouse access for previews of ${current ? `"${current.label}" ` : ''}(${id})`);
      await this.announce();
      this.changeEmitter.fire({ connectionId: id });
    }
  }

  private async deleteClickHousePassword(id: string): Promise<void> {
    this.dropCached(this.clickHousePasswords, id);
    await this.removeSecret(clickHouseSecretKeyFor(id));
  }

  /** A summary for JSON.stringify (the manager holds live handles that do not serialize). */
  toJSON(): { connections: number } {
    return { connections: this.list().length };
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.clients.clear();
    for (const d of [this.dispatcher, ...this.dispatchers.values()]) d?.close().catch(() => undefined);
    this.dispatcher = undefined;
    this.dispatchers.clear();
  }

  // ---------------------------------------------------------------- internals

  private rawEntries(): unknown[] {
    const value = this.globalState.get<unknown>(CONNECTIONS_STATE_KEY);
    return Array.isArray(value) ? value : [];
  }

  private mutate(change: (entries: unknown[]) => unknown[]): Promise<void> {
    const run = this.writeQueue.then(async () => {
      await this.globalState.update(CONNECTIONS_STATE_KEY, change(this.rawEntries()));
    });
    this.writeQueue = run.catch(() => undefined);
    return run;
  }

  private normalize(connection: StoredConnection): StoredConnection {
    const serviceIds = [...new Set(connection.serviceIds.map((s) => s.trim().toLowerCase()).filter((s) => s !== ''))];
    const known = new Map(connection.services.map((s) => [s.id.toLowerCase(), { ...s, id: s.id.toLowerCase() }]));
    for (const id of serviceIds) {
      if (!known.has(id)) known.set(id, { id, name: id });
    }
    const result: StoredConnection = {
      id: connection.id,
      label: connection.label.trim(),
      baseUrl: normalizeBaseUrl(connection.baseUrl) ?? connection.baseUrl.trim(),
      organizationId: connection.organizationId.trim().toLowerCase(),
      serviceIds,
      services: [...known.values()],
      keyId: connection.keyId.trim(),
      pathSegment: connection.pathSegment.trim(),
    };
    if (connection.organizationName) result.organizationName = connection.organizationName;
    if (connection.kind === 'selfHosted') {
      result.kind = 'selfHosted';
      result.allowPlainHttp = connection.allowPlainHttp === true;
      if (connection.plainHttpOrigin !== undefined) result.plainHttpOrigin = connection.plainHttpOrigin;
      if (connection.clickHouse) {
        const { url, user, plainHttpOrigin } = connection.clickHouse;
        result.clickHouse = plainHttpOrigin !== undefined ? { url, user, plainHttpOrigin } : { url, user };
      }
      return settlePlainHttp(result);
    }
    return result;
  }

  private async storeSecret(id: string, secret: string): Promise<void> {
    await this.writeSecret(secretKeyFor(id), secret);
    this.secretCache.set(id, secret);
  }

  private async deleteSecret(id: string): Promise<void> {
    this.dropCached(this.secretCache, id);
    await this.removeSecret(secretKeyFor(id));
  }

  /** Stores a secret under `key`, as this window's own write (its change event is not taken for another window's). */
  private async writeSecret(key: string, value: string): Promise<void> {
    this.expectOwnWrite(key);
    try {
      await this.secrets.store(key, value);
    } catch (error) {
      this.forgetOwnWrite(key);
      throw new SecretStorageError('store', error);
    }
  }

  /** Deletes the secret under `key`, as this window's own write. */
  private async removeSecret(key: string): Promise<void> {
    this.expectOwnWrite(key);
    try {
      await this.secrets.delete(key);
    } catch (error) {
      this.forgetOwnWrite(key);
      throw new SecretStorageError('delete', error);
    }
  }

  /** Forgets a cached secret; the value is kept among the transient ones so it is still redacted from late errors. */
  private dropCached(cache: Map<string, string>, id: string): void {
    const previous = cache.get(id);
    if (previous !== undefined) this.transientSecrets.set(++this.transientCounter, previous);
    cache.delete(id);
  }

  /** Tells other windows that connection metadata changed (global state has no change event of its own). */
  private async announce(): Promise<void> {
    this.expectOwnWrite(REVISION_KEY);
    try {
      await this.secrets.store(REVISION_KEY, `${Date.now()}-${randomUUID()}`);
    } catch (error) {
      this.forgetOwnWrite(REVISION_KEY);
      this.log.debug(`Could not notify other windows of a connection change: ${errorMessage(error)}`);
    }
  }

  private expectOwnWrite(key: string): void {
    this.ownSecretWrites.set(key, (this.ownSecretWrites.get(key) ?? 0) + 1);
  }

  private forgetOwnWrite(key: string): boolean {
    const pending = this.ownSecretWrites.get(key) ?? 0;
    if (pending <= 0) return false;
    if (pending === 1) this.ownSecretWrites.delete(key);
    else this.ownSecretWrites.set(key, pending - 1);
    return true;
  }

  private onSecretChanged(key: string): void {
    if (key !== REVISION_KEY && !key.startsWith(SECRET_KEY_PREFIX)) return;
    // Our own writes were announced when they happened.
    if (this.forgetOwnWrite(key)) return;
    const clickHouseOf = /^observability\.connection\.([^.]+)\.clickhouse$/.exec(key)?.[1];
    if (clickHouseOf !== undefined) {
      this.dropCached(this.clickHousePasswords, clickHouseOf);
      this.log.debug(`The ClickHouse password of connection ${clickHouseOf} changed in another window`);
      this.changeEmitter.fire({ connectionId: clickHouseOf });
      return;
    }
    const connectionId = connectionIdOfSecretKey(key);
    if (connectionId !== undefined) {
      this.dropCached(this.secretCache, connectionId);
      this.retire(connectionId);
      this.log.debug(`The key secret of connection ${connectionId} changed in another window`);
      this.changeEmitter.fire({ connectionId });
    } else {
      // Another window changed metadata. A connection that now names another address or key must not pair it with
      // what this window's clients were built for.
      for (const [id, client] of [...this.clients]) {
        const now = this.get(id);
        if (!now || !sameOrigin(now.baseUrl, client.connection.baseUrl) || now.keyId !== client.connection.keyId) {
          this.secretCache.delete(id);
          this.retire(id);
        } else {
          this.clients.delete(id);
        }
      }
      this.log.debug('Connections changed in another window');
      this.changeEmitter.fire({});
    }
  }
}

/** A dispatcher for the current proxy and timeout settings. */
function newDispatcher(): Dispatcher {
  const { proxy, requestTimeoutMs } = readSettings();
  return createDispatcher({
    proxy: proxy.proxy,
    strictSSL: proxy.strictSSL,
    noProxy: proxy.noProxy,
    connectTimeoutMs: Math.min(requestTimeoutMs, 15_000),
  });
}

function entryId(entry: unknown): string | undefined {
  if (typeof entry === 'object' && entry !== null && 'id' in entry) {
    const id = (entry as { id: unknown }).id;
    return typeof id === 'string' ? id : undefined;
  }
  return undefined;
}

/** For the log: a plain-http permission given or dropped by an update. */
function plainHttpNote(before: StoredConnection, after: StoredConnection): string {
  if (before.allowPlainHttp === true && after.allowPlainHttp !== true) return ' (plain http permission withdrawn)';
  if (before.allowPlainHttp !== true && after.allowPlainHttp === true) return ' (plain http confirmed)';
  if (before.clickHouse?.plainHttpOrigin !== undefined && after.clickHouse?.plainHttpOrigin === undefined) {
    return ' (plain http to ClickHouse withdrawn)';
  }
  return '';
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(value) as [keyof T, T[keyof T]][]) {
    if (v !== undefined) out[k] = v;
  }
  return out;
}
