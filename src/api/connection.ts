/**
 * Connection settings and URL path building. Every value that ends up in a
 * URL path is validated first (UUIDs for organization and service, a strict
 * pattern for resource IDs) and then percent-encoded, so no input can change
 * which endpoint a request goes to.
 */
import { RESOURCE_ID_PATTERN } from '../schema/ids';
import { ApiError, type ApiErrorIssue } from './errors';
import { isLoopbackHost } from '../loopback';

export { isLoopbackHost };

export interface ConnectionConfig {
  /** e.g. `https://api.clickhouse.cloud`; may carry a path prefix, never credentials, a query or a fragment. */
  baseUrl: string;
  organizationId: string;
  serviceIds: string[];
  /** The API key ID (the Basic-auth user name). The secret is never part of the configuration. */
  keyId: string;
  /** Product path segment: 'observability' by default, 'clickstack' on the live service. */
  pathSegment: string;
}

export const DEFAULT_PATH_SEGMENT = 'observability';
export const LIVE_PATH_SEGMENT = 'clickstack';

const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const SEGMENT_PATTERN = /^[a-z][a-z0-9-]{0,63}$/;
/** Printable ASCII without ':' (the Basic-auth separator) and without spaces. */
const KEY_ID_PATTERN = /^[\x21-\x39\x3b-\x7e]{1,256}$/;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

export function isResourceId(value: unknown): value is string {
  return typeof value === 'string' && RESOURCE_ID_PATTERN.test(value);
}

/** Why plain http is refused for this URL, or undefined when it is allowed (https, or http to a loopback host). */
export function plainHttpProblem(url: URL): string | undefined {
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return undefined;
  return 'must use https (plain http is allowed only for localhost, 127.0.0.0/8 and ::1)';
}

/** Problems with a connection configuration; empty when it is usable. */
export function connectionIssues(cfg: ConnectionConfig): ApiErrorIssue[] {
  const issues: ApiErrorIssue[] = [];
  let url: URL | undefined;
  try {
    url = new URL(cfg.baseUrl);
  } catch {
    issues.push({ path: 'baseUrl', message: 'must be an absolute URL such as https://api.clickhouse.cloud' });
  }
  if (url) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      issues.push({ path: 'baseUrl', message: `must use https (got ${url.protocol.replace(/:$/, '')})` });
    } else {
      const problem = plainHttpProblem(url);
      if (problem) issues.push({ path: 'baseUrl', message: problem });
    }
    if (url.username || url.password) {
      issues.push({ path: 'baseUrl', message: 'must not contain credentials; the API key is configured separately' });
    }
    if (url.search || cfg.baseUrl.includes('?')) {
      issues.push({ path: 'baseUrl', message: 'must not contain a query string' });
    }
    if (url.hash || cfg.baseUrl.includes('#')) issues.push({ path: 'baseUrl', message: 'must not contain a fragment' });
  }
  if (!isUuid(cfg.organizationId)) {
    issues.push({ path: 'organizationId', message: 'must be a UUID (8-4-4-4-12 hexadecimal digits)' });
  }
  if (!Array.isArray(cfg.serviceIds)) {
    issues.push({ path: 'serviceIds', message: 'must be a list of service UUIDs' });
  } else {
    cfg.serviceIds.forEach((id, i) => {
      if (!isUuid(id)) {
        issues.push({ path: `serviceIds.${i}`, message: 'must be a UUID (8-4-4-4-12 hexadecimal digits)' });
      }
    });
  }
  if (typeof cfg.keyId !== 'string' || !KEY_ID_PATTERN.test(cfg.keyId)) {
    issues.push({ path: 'keyId', message: 'must be the API key ID: non-empty, without spaces or ":"' });
  }
  if (typeof cfg.pathSegment !== 'string' || !SEGMENT_PATTERN.test(cfg.pathSegment)) {
    issues.push({
      path: 'pathSegment',
      message: "must be lowercase letters, digits or '-' starting with a letter (e.g. 'observability' or 'clickstack')",
    });
  }
  return issues;
}

/** Throws ApiError kind 'invalidInput' listing every problem of the configuration. */
export function validateConnection(cfg: ConnectionConfig, operation = 'Check connection'): void {
  const issues = connectionIssues(cfg);
  if (issues.length > 0) {
    throw new ApiError({
      kind: 'invalidInput',
      operation,
      method: '-',
      path: '-',
      detail: 'the connection settings are invalid',
      issues,
    });
  }
}

/** Origin and path prefix of a validated base URL (`https://host`, `/prefix` or ''). */
export function splitBaseUrl(baseUrl: string): { origin: string; prefix: string } {
  const url = new URL(baseUrl);
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
}

/**
 * A self-hosted deployment's address as alert files and connections are compared by it: origin and path, without
 * trailing slashes; undefined when it is not an http(s) URL.
 */
export function deploymentAddress(baseUrl: string): string | undefined {
  try {
    const url = new URL(baseUrl.trim());
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return undefined;
  }
}

export type PathParam =
  { name: string; kind: 'uuid'; value: unknown } | { name: string; kind: 'resourceId'; value: unknown };

/**
 * Checks path parameters. Returns issues instead of throwing so the caller can
 * raise one error naming its operation.
 */
export function pathParamIssues(params: readonly PathParam[]): ApiErrorIssue[] {
  const issues: ApiErrorIssue[] = [];
  for (const p of params) {
    if (p.kind === 'uuid' && !isUuid(p.value)) {
      issues.push({
        path: p.name,
        message: `must be a UUID (8-4-4-4-12 hexadecimal digits), got ${describe(p.value)}`,
      });
    } else if (p.kind === 'resourceId' && !isResourceId(p.value)) {
      issues.push({
        path: p.name,
        message: `must be an ID of at most 128 letters, digits, "_" or "-" starting with a letter or digit, got ${describe(p.value)}`,
      });
    }
  }
  return issues;
}

function describe(value: unknown): string {
  if (typeof value !== 'string') return typeof value;
  if (value === '') return 'an empty string';
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
}

/** Joins already validated segments, percent-encoding each one. */
export function joinPath(...segments: readonly string[]): string {
  return '/' + segments.map((s) => encodeURIComponent(s)).join('/');
}
