/**
 * An API flavor: what differs between the APIs the request engine (`engine.ts`) can talk to.
 *
 * - `cloud`: the ClickHouse Cloud API (`/v1/organizations/{org}/services/{svc}/clickstack/...`), HTTP Basic auth with
 *   key ID and secret, `{status, requestId, result}` envelopes, `{status, error, requestId}` errors.
 * - `oss`: self-hosted HyperDX (`/api/v2/...`), Bearer auth with a personal API key, `{data}` responses,
 *   `{message}` errors.
 *
 * Everything else — deadline, request ID, rate limit, retries, paging, bounds, per-item validation, error mapping and
 * redaction — is the engine's and is the same for every flavor. A flavor holds no secret: the engine asks for the
 * credential per request and hands it to `authHeader`.
 *
 * This interface is stable; add optional members only.
 */

/** Resource kinds that have REST paths of their own. */
export type ResourceKind =
  | 'dashboards'
  | 'alerts'
  | 'sources'
  | 'webhooks'
  | 'saved-searches'
  | 'roles'
  | 'connections'
  | 'team'
  | 'search'
  | 'charts';

/**
 * Where a resource lives. The cloud flavor needs `organizationId` and `serviceId` (UUIDs, already checked by the
 * caller) and the product path segment; a self-hosted server has one team per API key and ignores all of them.
 */
export interface ResourceScope {
  organizationId?: string;
  serviceId?: string;
  /** Cloud product segment (`clickstack` live, `observability` in older deployments). */
  pathSegment?: string;
}

/** The credential of one request, read from secret storage just before the request is sent and never kept. */
export interface ApiCredential {
  /** Cloud: the key ID (Basic user name). Self-hosted: unused (may be empty). */
  keyId: string;
  /** Cloud: the key secret. Self-hosted: the personal API key. */
  secret: string;
}

/** The value inside a success response, and what the envelope says about it. */
export type Unwrapped =
  | {
      ok: true;
      /** The resource, the list (an array), or undefined when the response carries none (DELETE). */
      value: unknown;
      requestId?: string;
      /** The size of the whole list, when the response reports one. */
      totalCount?: number;
    }
  | {
      ok: false;
      /** What is wrong with the envelope, e.g. `the response envelope has no "result"`. */
      problem: string;
      /** Where in the body (`result`), when the problem is at a place. */
      path?: string;
      /** What is wrong at `path` (`expected an array`). */
      issue?: string;
      requestId?: string;
    };

/** What a flavor expects a success body to carry. */
export type UnwrapExpect = 'one' | 'list' | 'none';

/** What an error response says. All text is raw: the engine shortens, sanitises and redacts it. */
export interface ParsedError {
  message?: string;
  /** A machine-readable error code, when the server sends one. */
  code?: string;
  requestId?: string;
  /** The body was JSON (an answer of the API, not of a proxy or gateway). */
  json?: boolean;
  /** The body was an HTML page (typically a proxy, gateway or login page). */
  html?: boolean;
}

export interface ApiFlavor {
  readonly kind: 'cloud' | 'oss';
  /** The `Authorization` header value for a credential. */
  authHeader(cred: ApiCredential): string;
  /** Strings derived from the credential that must never appear in errors or logs (besides the secret itself). */
  secretForms?(cred: ApiCredential): string[];
  /**
   * The path of a resource collection, or of one resource with `id`, relative to the base URL's path prefix,
   * starting with `/`, every segment percent-encoded. `id` may also be a sub-path word such as `validate`.
   */
  resourcePath(scope: ResourceScope, kind: ResourceKind, id?: string): string;
  /** The value of a parsed JSON success body. Must not throw. */
  unwrap(json: unknown, expect: UnwrapExpect): Unwrapped;
  /**
   * Message, code and request ID of an error response. `bodyText` may be cut short (`truncated`) and may be HTML or
   * plain text. Must not throw; linear in the size of the body.
   */
  parseError(
    status: number,
    bodyText: string,
    headers: Record<string, string | string[] | undefined>,
    truncated?: boolean,
  ): ParsedError;
  /** Where the value sits in a success body (`result`): validation issues of the value are reported below it. */
  readonly valuePath?: string;
  /** Query parameters of one list page (default: `limit` and `offset`). */
  pageQuery?(limit: number, offset: number): Record<string, string | number>;
}
