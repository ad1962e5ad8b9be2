/** The loopback rule on its own (no imports), so the thin entry can use it without the API client. */

/**
 * True only for hosts that cannot leave this machine without DNS having a say: literal loopback addresses
 * (127.0.0.0/8, ::1, and ::ffff:127.x.y.z) and the exact name `localhost`. Names under `.localhost` and `localhost.`
 * (with the root dot) go through the resolver like any other name, so they are not loopback here.
 * The one rule for plain http: the connection checks, the input boxes and the proxy bypass all use it.
 */
export function isLoopbackHost(hostname: string): boolean {
  if (typeof hostname !== 'string' || hostname.length > 64) return false;
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost') return true;
  if (isLoopbackIPv4(host)) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  const mapped = /^::ffff:(.+)$/.exec(host);
  if (!mapped) return false;
  const v4 = mapped[1]!;
  if (isLoopbackIPv4(v4)) return true;
  // The URL parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1.
  return /^7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(v4);
}

function isLoopbackIPv4(host: string): boolean {
  const m = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return m !== null && m.slice(1).every((part) => Number(part) <= 255);
}
