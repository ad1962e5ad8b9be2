import * as vscode from 'vscode';
import { ApiError, type ConnectionConfig, type ObservabilityClient } from '../api';
import { CLICKSTACK_PATH_SEGMENT } from './types';

/**
 * Proves a connection with one request before it is saved: listing the sources of the first service checks the base
 * URL, the key, the organization, the service and the product path segment at once. Without services, listing the
 * organization's services checks everything but the segment.
 */
export async function checkConnection(client: ObservabilityClient, config: ConnectionConfig, signal?: AbortSignal): Promise<void> {
  const first = config.serviceIds[0];
  if (first !== undefined) {
    await client.listSources(first, { signal });
  } else {
    await client.listServices(config.organizationId, { signal });
  }
}

/** A one-paragraph reason for a failed check, with what to try next. */
export function explainCheckFailure(error: unknown, config: ConnectionConfig): string {
  if (!(error instanceof ApiError)) {
    return error instanceof Error ? error.message : String(error);
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
    return vscode.l10n.t('If the IDs are right, check the product path segment ("{0}"); Managed ClickStack in ClickHouse Cloud uses "{1}".', config.pathSegment, CLICKSTACK_PATH_SEGMENT);
  }
  if (error.kind === 'notFound' || error.kind === 'routeNotServed') {
    return error.hint === undefined ? vscode.l10n.t('Check the organization and service IDs, and that ClickStack is enabled for the service.') : undefined;
  }
  return undefined;
}
