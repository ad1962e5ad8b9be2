import * as z from 'zod';
import { DEFAULT_PATH_SEGMENT } from '../api/connection';
import { lazySchema } from '../schema/lazySchema';

/** Where the service's API lives unless the user says otherwise. */
export const DEFAULT_BASE_URL = 'https://api.clickhouse.cloud';
/** The product path segment as written in the API document. */
export { DEFAULT_PATH_SEGMENT };
/** The path segment that Managed ClickStack in ClickHouse Cloud serves. */
export const CLICKSTACK_PATH_SEGMENT = 'clickstack';

/** Key in `context.globalState` that holds the list of connections (metadata only, never a secret). */
export { CONNECTIONS_STATE_KEY } from '../constants';
/** Prefix of every SecretStorage entry the extension writes. */
export const SECRET_KEY_PREFIX = 'observability.connection.';

/** SecretStorage key of one connection's API key secret. */
export function secretKeyFor(connectionId: string): string {
  return `${SECRET_KEY_PREFIX}${connectionId}.secret`;
}

/** SecretStorage key of a self-hosted connection's ClickHouse password (ClickHouse access for previews). */
export function clickHouseSecretKeyFor(connectionId: string): string {
  return `${SECRET_KEY_PREFIX}${connectionId}.clickhouse`;
}

/** The connection ID named by a SecretStorage key, if the key is one of ours. */
export function connectionIdOfSecretKey(key: string): string | undefined {
  const match = /^observability\.connection\.([^.]+)\.secret$/.exec(key);
  return match ? match[1] : undefined;
}

/** A service of the connection's organization, as last listed. */
export interface ServiceSummary {
  id: string;
  name: string;
  region?: string;
  state?: string;
}

/** The summary kept of a listed service: lower-case ID, name (or the ID), region and state when known. */
export function toServiceSummary(s: {
  id: string;
  name?: string | null;
  region?: unknown;
  state?: unknown;
}): ServiceSummary {
  return {
    id: s.id.toLowerCase(),
    name: s.name || s.id,
    ...(s.region ? { region: String(s.region) } : {}),
    ...(s.state ? { state: String(s.state) } : {}),
  };
}

/** One saved connection: everything but the key secret, which lives in SecretStorage. */
export interface StoredConnection {
  /** Random UUID made when the connection is added. */
  id: string;
  label: string;
  baseUrl: string;
  organizationId: string;
  organizationName?: string;
  /** The services shown in the explorer. */
  serviceIds: string[];
  /** The organization's known services (names for the IDs above and the choices for "Choose Services"). */
  services: ServiceSummary[];
  keyId: string;
  pathSegment: string;
  /**
   * `selfHosted`: a self-hosted ClickStack / HyperDX deployment (External API v2, personal API key as Bearer); it is
   * its own one service. Absent means ClickHouse Cloud (Managed ClickStack).
   */
  kind?: ConnectionKind;
  /**
   * Self-hosted only: the user confirmed that the key may travel unencrypted to this plain-http, non-loopback address.
   * Derived when read: true only while `plainHttpOrigin` names the current address (see plainHttpGrant.ts).
   */
  allowPlainHttp?: boolean;
  /** Self-hosted only: the API origin plain http was confirmed for; the permission goes when the address changes. */
  plainHttpOrigin?: string;
  /**
   * Self-hosted only: ClickHouse access for previews (the address of ClickHouse's HTTP interface and the user; the
   * password lives in SecretStorage). With it, previews and backtests run SQL there instead of the chart series API.
   */
  clickHouse?: ClickHouseAccess;
}

/** Where a self-hosted deployment's ClickHouse answers SQL for previews, and as whom. */
export interface ClickHouseAccess {
  url: string;
  user: string;
  /** The ClickHouse origin plain http was allowed for (on the API's own host, under its permission). */
  plainHttpOrigin?: string;
}

export type ConnectionKind = 'cloud' | 'selfHosted';

/** Whether a connection is to a self-hosted deployment. */
export function isSelfHosted(connection: { kind?: ConnectionKind }): boolean {
  return connection.kind === 'selfHosted';
}

/** What a caller supplies to add a connection; the manager assigns the ID. */
export type NewConnection = Omit<StoredConnection, 'id'>;

/** Fields of a connection that may change after it is added. */
export type ConnectionPatch = Partial<NewConnection>;

const serviceSummarySchema = lazySchema(() =>
  z.object({
    id: z.string().min(1),
    name: z.string(),
    region: z.string().optional(),
    state: z.string().optional(),
  }),
);

/** Shape check for what is read back from global state (it may come from an older or newer version). */
export const storedConnectionSchema = lazySchema(() =>
  z.object({
    id: z.string().min(1),
    label: z.string(),
    baseUrl: z.string().min(1),
    organizationId: z.string().min(1),
    organizationName: z.string().optional(),
    serviceIds: z.array(z.string()),
    services: z.array(serviceSummarySchema).catch([]),
    keyId: z.string().min(1),
    pathSegment: z.string().min(1).catch(DEFAULT_PATH_SEGMENT),
    kind: z.enum(['cloud', 'selfHosted']).optional(),
    allowPlainHttp: z.boolean().optional(),
    plainHttpOrigin: z.string().min(1).optional().catch(undefined),
    clickHouse: z
      .object({ url: z.string().min(1), user: z.string().min(1), plainHttpOrigin: z.string().min(1).optional() })
      .optional()
      .catch(undefined),
  }),
);
