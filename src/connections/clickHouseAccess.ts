import * as vscode from 'vscode';
import { isLoopbackHost } from '../api/connection';
import { clickHousePlainHttpGrantable } from '../plainHttpGrant';
import type { StoredConnection } from './types';

/**
 * The address rules of a self-hosted connection's ClickHouse access (ClickHouse's HTTP interface for previews): the
 * same as every client's. https, or plain http to a literal loopback address; plain http to another machine only when
 * the user confirmed plain http for this connection (Allow Plain HTTP for Connection…) and ClickHouse is on that same
 * host (the permission is then kept for ClickHouse's exact origin, see plainHttpGrant.ts). No credentials, query or fragment in the address: the user and password travel only as HTTP Basic.
 */
export function clickHouseAddressIssue(
  connection: Pick<StoredConnection, 'baseUrl' | 'allowPlainHttp'>,
  address: string,
): string | undefined {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    return vscode.l10n.t('Enter an address such as https://clickhouse.example.com:8443');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return vscode.l10n.t('The address must start with https:// (or http:// for a loopback address).');
  }
  if (url.username !== '' || url.password !== '') {
    return vscode.l10n.t('Leave the user and password out of the address: they are asked for separately.');
  }
  if (url.search !== '' || url.hash !== '') {
    return vscode.l10n.t('The address takes no query or fragment.');
  }
  if (
    url.protocol === 'http:' &&
    !isLoopbackHost(url.hostname) &&
    !clickHousePlainHttpGrantable(connection, url.href)
  ) {
    return vscode.l10n.t(
      'Plain http to {0} would send the ClickHouse password unencrypted: use https, or a loopback address, or ClickHouse on the connection\'s own host after "Allow Plain HTTP for Connection…".',
      url.host,
    );
  }
  return undefined;
}

export { clickHousePlainHttpAllowed, clickHousePlainHttpGrantable } from '../plainHttpGrant';

/** The address as stored: trimmed, without a trailing slash. */
export function normalizeClickHouseAddress(address: string): string {
  const url = new URL(address.trim());
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}
