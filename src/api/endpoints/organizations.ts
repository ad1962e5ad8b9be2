/** Organization-level reads of the cloud API: organizations, services, API keys. */
import {
  apiKeySchema,
  organizationSchema,
  serviceSchema,
  type ApiKey,
  type Organization,
  type Service,
} from '../../schema';
import { cloudOrgPath } from '../cloudFlavor';
import type { ListResponse, RequestEngine, RequestOptions } from '../engine';

export async function listOrganizations(
  engine: RequestEngine,
  opts?: RequestOptions,
): Promise<ListResponse<Organization>> {
  return engine.readList({ operation: 'List organizations', path: cloudOrgPath(), item: organizationSchema }, opts);
}

export async function listServices(
  engine: RequestEngine,
  orgId: string,
  opts?: RequestOptions,
): Promise<ListResponse<Service>> {
  return engine.readList(
    {
      operation: 'List services',
      path: cloudOrgPath(orgId, 'services'),
      item: serviceSchema,
      params: [{ name: 'organizationId', kind: 'uuid', value: orgId }],
    },
    opts,
  );
}

export async function listApiKeys(
  engine: RequestEngine,
  orgId: string,
  opts?: RequestOptions,
): Promise<ListResponse<ApiKey>> {
  return engine.readList(
    {
      operation: 'List API keys',
      path: cloudOrgPath(orgId, 'keys'),
      item: apiKeySchema,
      params: [{ name: 'organizationId', kind: 'uuid', value: orgId }],
    },
    opts,
  );
}
