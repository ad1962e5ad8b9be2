/**
 * Which connection serves the target an alert file names (Cloud: `organizationId` + `serviceId`; self-hosted:
 * `baseUrl`). Shared by the alert files and the previews (backtests of alert files), so that both apply one rule: a
 * file never aims a stored key at a host the user did not add.
 */
import { deploymentAddress } from '../api/connection';
import type { ConnectionManager } from './manager';

export interface ServiceConnection {
  readonly connectionId: string;
  readonly serviceLabel: string;
}

/**
 * The connection that serves a file's target: one to the same organization, preferring one that shows the service,
 * then one that knows it. API keys belong to the organization, so any of them can reach the service.
 */
export function connectionFor(
  connections: ConnectionManager,
  organizationId: string | undefined,
  serviceId: string | undefined,
  baseUrl?: string,
): ServiceConnection | undefined {
  if (baseUrl !== undefined) {
    // A self-hosted deployment: only a connection the user added to exactly this address, never another host.
    const address = deploymentAddress(baseUrl);
    const match =
      address === undefined
        ? undefined
        : connections.list().find((c) => c.kind === 'selfHosted' && deploymentAddress(c.baseUrl) === address);
    return match ? { connectionId: match.id, serviceLabel: match.label } : undefined;
  }
  if (!organizationId || !serviceId) return undefined;
  // A file naming an organization and service aims at ClickHouse Cloud only: never at a self-hosted deployment.
  const all = connections
    .list()
    .filter((c) => c.kind !== 'selfHosted' && c.organizationId.toLowerCase() === organizationId.toLowerCase());
  const chosen =
    all.find((c) => c.serviceIds.includes(serviceId)) ??
    all.find((c) => c.services.some((s) => s.id === serviceId)) ??
    all[0];
  if (!chosen) return undefined;
  const name = all.flatMap((c) => c.services).find((s) => s.id === serviceId)?.name;
  return { connectionId: chosen.id, serviceLabel: name ?? serviceId };
}
