import * as vscode from 'vscode';
import { isLoopbackHost } from '../api/connection';

/**
 * Checks for what a user types while adding or editing a connection. Each returns a message for the input box, or
 * undefined when the value is fine. The API client's `validateConnection` repeats the checks on the finished
 * connection; these give feedback while typing.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SEGMENT = /^[a-z][a-z0-9-]{0,63}$/;

export function isUuid(text: string): boolean {
  return UUID.test(text.trim());
}

/** Normalizes a base URL the way it is stored: no trailing slash. Returns undefined when it does not parse. */
export function normalizeBaseUrl(text: string): string | undefined {
  const trimmed = text.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return undefined;
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

/**
 * True when two base URLs name the same scheme, host and port. A stored key secret is only ever sent to the origin it
 * was entered for; moving a connection elsewhere requires typing the secret again.
 */
export function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

export function validateBaseUrl(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return vscode.l10n.t('Enter the base URL of the API, e.g. https://api.clickhouse.cloud');
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return vscode.l10n.t('This is not a valid URL: {0}', trimmed);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return vscode.l10n.t('Use an https:// URL.');
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return vscode.l10n.t(
      'Use https:// — plain http:// is allowed only for this machine (localhost, 127.0.0.1, ::1), so the key is never sent unencrypted.',
    );
  }
  if (url.username !== '' || url.password !== '') {
    return vscode.l10n.t('Remove the user name and password from the URL; the API key is entered in the next steps.');
  }
  if (url.search !== '' || url.hash !== '') {
    return vscode.l10n.t('Remove the query (?…) and fragment (#…) from the URL.');
  }
  if (/\/v1\/?$/.test(url.pathname)) {
    return vscode.l10n.t('Leave out /v1: the extension adds it to every request.');
  }
  return undefined;
}

export function validateKeyId(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return vscode.l10n.t('Enter the key ID of the API key.');
  if (trimmed.includes(':')) return vscode.l10n.t('A key ID cannot contain ":".');
  if (/\s/.test(trimmed)) return vscode.l10n.t('A key ID cannot contain spaces.');
  return undefined;
}

export function validateKeySecret(text: string, allowEmpty = false): string | undefined {
  if (text === '') return allowEmpty ? undefined : vscode.l10n.t('Enter the key secret.');
  if (text.trim() !== text) return vscode.l10n.t('The secret starts or ends with a space; paste it again without it.');
  if (/[\r\n]/.test(text)) return vscode.l10n.t('The secret cannot contain line breaks.');
  return undefined;
}

export function validatePathSegment(text: string): string | undefined {
  const trimmed = text.trim();
  if (!SEGMENT.test(trimmed)) {
    return vscode.l10n.t(
      'Use lowercase letters, digits and "-", starting with a letter (e.g. observability or clickstack).',
    );
  }
  return undefined;
}

export function validateOrganizationId(text: string): string | undefined {
  return isUuid(text)
    ? undefined
    : vscode.l10n.t('An organization ID is a UUID such as 0b1e4c5d-2f3a-4b6c-8d9e-0f1a2b3c4d5e.');
}

/** Splits a pasted list of service IDs (commas, spaces or line breaks). */
export function parseServiceIds(text: string): string[] {
  const ids = text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

export function validateServiceIds(text: string): string | undefined {
  const ids = parseServiceIds(text);
  if (ids.length === 0) return vscode.l10n.t('Enter at least one service ID.');
  const bad = ids.filter((id) => !isUuid(id));
  if (bad.length > 0) return vscode.l10n.t('Not a service ID (UUID): {0}', bad.join(', '));
  return undefined;
}

export function validateLabel(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return vscode.l10n.t('Enter a name for the connection.');
  if (trimmed.length > 100) return vscode.l10n.t('Use at most 100 characters.');
  return undefined;
}
