import { isLoopbackHost } from './loopback';

/**
 * The permission to send a self-hosted connection's credentials over plain http to another machine belongs to the
 * exact origin it was confirmed for: the API address (`plainHttpOrigin`) and, for ClickHouse access, ClickHouse's
 * address (`clickHouse.plainHttpOrigin`). It is checked against the current address at every use, so a permission
 * left over from an earlier address admits nothing. No `vscode` here: the thin entry (MCP servers) reads it too.
 */

/** The origin (`scheme://host:port`) of an address, or undefined when it does not parse. */
export function originOf(address: string): string | undefined {
  try {
    return new URL(address.trim()).origin;
  } catch {
    return undefined;
  }
}

/** True when the address is plain http to a host that is not this machine: what needs the user's confirmation. */
export function needsPlainHttpConsent(address: string): boolean {
  try {
    const url = new URL(address.trim());
    return url.protocol === 'http:' && !isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}

function sameHostname(a: string, b: string): boolean {
  try {
    return new URL(a).hostname === new URL(b).hostname;
  } catch {
    return false;
  }
}

/** The fields of a saved connection that say where plain http is allowed. */
export interface PlainHttpFields {
  baseUrl: string;
  /** The effective permission for the current API address (derived; written too, for older versions). */
  allowPlainHttp?: boolean;
  /** The API origin the permission was confirmed for. */
  plainHttpOrigin?: string;
  clickHouse?: { url: string; user: string; plainHttpOrigin?: string };
}

/**
 * The permissions of a connection as they stand for its current addresses: `allowPlainHttp` is true only when the
 * API address is plain http beyond loopback and the permission names exactly its origin; ClickHouse's permission is
 * kept only when it names exactly ClickHouse's origin. A new permission is given as `allowPlainHttp: true` without
 * an origin (it is for the current address). `fromOlderVersion`: an entry written before permissions named their
 * origin, whose ClickHouse access on the API's own host was admitted by the API's permission.
 */
export function settlePlainHttp<T extends PlainHttpFields>(connection: T, fromOlderVersion = false): T {
  const out: T = { ...connection };
  const current = originOf(connection.baseUrl);
  const granted = connection.plainHttpOrigin ?? (connection.allowPlainHttp === true ? current : undefined);
  const allowed = needsPlainHttpConsent(connection.baseUrl) && granted !== undefined && granted === current;
  out.allowPlainHttp = allowed;
  if (allowed) out.plainHttpOrigin = granted;
  else delete out.plainHttpOrigin;
  const clickHouse = connection.clickHouse;
  if (clickHouse) {
    const older =
      fromOlderVersion &&
      connection.plainHttpOrigin === undefined &&
      allowed &&
      sameHostname(clickHouse.url, connection.baseUrl);
    const chGranted = clickHouse.plainHttpOrigin ?? (older ? originOf(clickHouse.url) : undefined);
    const kept =
      needsPlainHttpConsent(clickHouse.url) && chGranted !== undefined && chGranted === originOf(clickHouse.url);
    out.clickHouse = kept
      ? { url: clickHouse.url, user: clickHouse.user, plainHttpOrigin: chGranted }
      : { url: clickHouse.url, user: clickHouse.user };
  }
  return out;
}

/**
 * Whether ClickHouse at `address` may be reached over plain http beyond loopback when its access is set: the
 * connection's API permission holds for its current address, and ClickHouse is on that same host.
 */
export function clickHousePlainHttpGrantable(
  connection: Pick<PlainHttpFields, 'baseUrl' | 'allowPlainHttp'>,
  address: string,
): boolean {
  return (
    connection.allowPlainHttp === true &&
    needsPlainHttpConsent(connection.baseUrl) &&
    originOf(connection.baseUrl) !== undefined &&
    needsPlainHttpConsent(address) &&
    sameHostname(address, connection.baseUrl)
  );
}

/**
 * Whether a request to ClickHouse at `address` may go over plain http beyond loopback now: grantable as above, and the
 * stored ClickHouse permission names exactly this origin.
 */
export function clickHousePlainHttpAllowed(connection: PlainHttpFields, address: string): boolean {
  const settled = settlePlainHttp(connection);
  return (
    clickHousePlainHttpGrantable(settled, address) &&
    settled.clickHouse?.plainHttpOrigin !== undefined &&
    settled.clickHouse.plainHttpOrigin === originOf(address)
  );
}
