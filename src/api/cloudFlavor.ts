/**
 * The cloud flavor: the ClickHouse Cloud API with its ClickStack (observability) resources.
 *
 * Paths: `/v1/organizations/{org}/services/{svc}/{segment}/{kind}[/{id}]`; HTTP Basic auth with the key ID and secret;
 * success bodies `{status, requestId, result}` (read by `readEnvelope` of the schema package); errors
 * `{status, error, requestId}`, or an HTML page / text from a gateway.
 */
import { readEnvelope } from '../schema/envelope';
import { joinPath } from './connection';
import { parseErrorBody } from './errorBody';
import type {
  ApiCredential,
  ApiFlavor,
  ParsedError,
  ResourceKind,
  ResourceScope,
  Unwrapped,
  UnwrapExpect,
} from './flavor';

/** Tokens of the credentials of requests in flight: the header and the redaction list share one encoding. */
const tokens = new WeakMap<ApiCredential, string>();

function basicToken(cred: ApiCredential): string {
  let token = tokens.get(cred);
  if (token === undefined) {
    token = Buffer.from(`${cred.keyId}:${cred.secret}`, 'utf8').toString('base64');
    tokens.set(cred, token);
  }
  return token;
}

export const CLOUD_ERROR_SHAPE = { messageKeys: ['error', 'message'], requestIdKey: 'requestId' } as const;

export const cloudFlavor: ApiFlavor = {
  kind: 'cloud',
  valuePath: 'result',
  authHeader(cred: ApiCredential): string {
    return `Basic ${basicToken(cred)}`;
  },
  secretForms(cred: ApiCredential): string[] {
    return [basicToken(cred)];
  },
  resourcePath(scope: ResourceScope, kind: ResourceKind, id?: string): string {
    const rest = [
      'v1',
      'organizations',
      scope.organizationId ?? '',
      'services',
      scope.serviceId ?? '',
      scope.pathSegment ?? 'clickstack',
      kind,
    ];
    if (id !== undefined) rest.push(id);
    return joinPath(...rest);
  },
  unwrap(json: unknown, expect: UnwrapExpect): Unwrapped {
    return readEnvelope(json, expect);
  },
  parseError(
    _status: number,
    bodyText: string,
    headers: Record<string, string | string[] | undefined>,
    truncated?: boolean,
  ): ParsedError {
    return parseErrorBody(bodyText, headers, truncated, CLOUD_ERROR_SHAPE);
  },
};

/** Cloud paths outside a service's product resources: organizations, services, keys, the service query endpoint. */
export function cloudOrgPath(...rest: string[]): string {
  return joinPath('v1', 'organizations', ...rest);
}
