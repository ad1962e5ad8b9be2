/**
 * The query client's failure: `QueryError`, an `ApiError` that says what the caller can offer (`reason`), and the
 * one way every part of the client builds it (`failureFor`), which takes the secrets of the request out of every text
 * it carries.
 */
import { ApiError, type ApiErrorInit } from '../errors';
import { redact } from '../redact';
import { cleanRequestId } from '../sanitize';

export type QueryFailureReason =
  /** ClickHouse rejected or failed the statement (see `clickHouseCode`). */
  | 'sql'
  /** 401/403 from the query host: this key is not enabled on the service's query endpoint. */
  | 'keyNotEnabled'
  /** The service is idle and would be woken by running the query (resend with `wakeService`). */
  | 'serviceIdle'
  /** The service is stopped; it must be started first. */
  | 'serviceStopped'
  /** The query host gave up waiting; the statement may still be running on the service. */
  | 'gatewayTimeout'
  /** 401/403 from a ClickHouse HTTP interface: the user or password is wrong, or the user may not run this. */
  | 'accessDenied'
  | 'other';

export interface ClickHouseErrorInfo {
  code: number;
  /** e.g. SYNTAX_ERROR, when the text names it. */
  name?: string;
  /** `Code: 62. DB::Exception: …` */
  text: string;
}

export type QueryErrorInit = ApiErrorInit & {
  reason: QueryFailureReason;
  clickHouse?: ClickHouseErrorInfo;
  rowsBeforeError?: number;
};

export class QueryError extends ApiError {
  readonly reason: QueryFailureReason;
  readonly clickHouse?: ClickHouseErrorInfo;
  /** Rows received before the failure (an error in the middle of a result). */
  readonly rowsBeforeError?: number;

  constructor(init: QueryErrorInit) {
    super(init);
    this.name = 'QueryError';
    this.reason = init.reason;
    if (init.clickHouse) this.clickHouse = init.clickHouse;
    if (init.rowsBeforeError !== undefined) this.rowsBeforeError = init.rowsBeforeError;
  }
}

/** Builds a `QueryError`; every text it carries is redacted first. */
export type Fail = (init: QueryErrorInit) => QueryError;

/** Operation, method and path of the request, as every error of it names them. */
export interface RequestBase {
  operation: string;
  method: string;
  path: string;
}

/**
 * The `Fail` of one request: the secrets (read once the secret is) are taken out of the server message, the detail,
 * ClickHouse's text and the cause, and a request ID that echoes one is dropped.
 */
export function failureFor(secrets: () => readonly string[]): Fail {
  return (init) => {
    const s = secrets();
    const clean = { ...init };
    if (clean.serverMessage !== undefined) clean.serverMessage = redact(clean.serverMessage, s);
    if (clean.detail !== undefined) clean.detail = redact(clean.detail, s);
    if (clean.clickHouse) clean.clickHouse = { ...clean.clickHouse, text: redact(clean.clickHouse.text, s) };
    if (clean.requestId !== undefined) {
      const id = cleanRequestId(clean.requestId, s);
      if (id) clean.requestId = id;
      else delete clean.requestId;
    }
    if (clean.cause instanceof Error) clean.cause = new Error(redact(clean.cause.message, s));
    return new QueryError(clean);
  };
}
