import * as vscode from 'vscode';
import { ApiError, type ConnectionConfig, type ObservabilityClient } from '../api';
import { CLICKSTACK_PATH_SEGMENT, DEFAULT_BASE_URL, DEFAULT_PATH_SEGMENT } from '../connections/types';
import { sameOrigin } from '../connections/validation';
import { errorMessage } from '../errors';

/**
 * Proves a connection with one request before it is saved: listing the sources of the first service checks the base
 * URL, the key, the organization, the service and the product path segment at once. Without services, listing the
 * organization's services checks everything but the segment.
 */
export async function checkConnection(
  client: ObservabilityClient,
  config: ConnectionConfig,
  signal?: AbortSignal,
): Promise<void> {
  const first = config.serviceIds[0];
  if (first !== undefined) {
    await client.listSources(first, { signal });
  } else {
    await client.listServices(config.organizationId, { signal });
  }
}

/** The product path segments tried, in order, when none is given: ClickHouse Cloud's first, then the API document's. */
export const SEGMENT_CANDIDATES: readonly string[] = [CLICKSTACK_PATH_SEGMENT, DEFAULT_PATH_SEGMENT];

/** The segment assumed for an address when nothing can be asked (a connection saved without a check). */
export function assumedPathSegment(baseUrl: string): string {
  return sameOrigin(baseUrl, DEFAULT_BASE_URL) ? CLICKSTACK_PATH_SEGMENT : DEFAULT_PATH_SEGMENT;
}

export interface SegmentDetection {
  /** The segment the service answers on; undefined when neither is served or the service could not be reached. */
  readonly segment?: string;
  /** The failure, when the check did not pass (the segment may still be known: e.g. a 401 on a served route). */
  readonly error?: unknown;
  /** The segments asked, in order. */
  readonly tried: readonly string[];
}

/** Thrown (as `SegmentDetection.error`) when every candidate segment answers with the web server's HTML 404. */
export class NoSegmentServedError extends Error {
  constructor(
    host: string,
    tried: readonly string[],
    readonly last: ApiError,
  ) {
    super(
      vscode.l10n.t(
        'The service at {0} serves neither /{1} nor /{2}: both answered with an HTML "404 Not Found". Check the base URL and that ClickStack is enabled for the service, or enter the product path segment yourself. Last answer: {3}',
        host,
        tried[0] ?? '',
        tried[1] ?? '',
        last.message,
      ),
    );
    this.name = 'NoSegmentServedError';
  }
}

/**
 * Finds the product path segment by running the check with each candidate (at most two requests): the first one
 * whose route the service serves wins. An HTML 404 means "route not served" and moves on to the next candidate; any
 * other HTTP answer means the route exists (a 401 still names the segment, but fails the check); a failure to reach
 * the service stops at once.
 */
export async function detectPathSegment(
  probe: (segment: string) => Promise<void>,
  host: string,
): Promise<SegmentDetection> {
  const tried: string[] = [];
  let last: ApiError | undefined;
  for (const segment of SEGMENT_CANDIDATES) {
    tried.push(segment);
    try {
      await probe(segment);
      return { segment, tried };
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'routeNotServed') {
        last = error;
        continue;
      }
      const answered = error instanceof ApiError && error.status !== undefined;
      return answered ? { segment, error, tried } : { error, tried };
    }
  }
  return { error: new NoSegmentServedError(host, tried, last as ApiError), tried };
}

/** A one-paragraph reason for a failed check, with what to try next. */
export function explainCheckFailure(error: unknown, config: ConnectionConfig): string {
  if (!(error instanceof ApiError)) {
    return errorMessage(error);
  }
  const hint = checkHint(error, config);
  return hint ? `${error.message.trimEnd()} ${hint}` : error.message;
}

/**
 * What the client's own hint cannot know: during a check, "not found" on the sources of a service that was just
 * picked from a listing usually means the product path segment is wrong.
 */
function checkHint(error: ApiError, config: ConnectionConfig): string | undefined {
  if (error.kind === 'notFound' && config.pathSegment !== CLICKSTACK_PATH_SEGMENT) {
    return vscode.l10n.t(
      'If the IDs are right, check the product path segment ("{0}"); Managed ClickStack in ClickHouse Cloud uses "{1}".',
      config.pathSegment,
      CLICKSTACK_PATH_SEGMENT,
    );
  }
  if (error.kind === 'notFound' || error.kind === 'routeNotServed') {
    return error.hint === undefined
      ? vscode.l10n.t('Check the organization and service IDs, and that ClickStack is enabled for the service.')
      : undefined;
  }
  return undefined;
}
