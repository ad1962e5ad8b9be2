/** Organization-level reads of the cloud API: organizations, services, API keys. */
import type { z } from 'zod';
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

/** A list of one organization: its ID is checked before anything is sent. */
function listInOrganization<T>(
  engine: RequestEngine,
  operation: string,
  orgId: string,
  segment: string,
  item: z.ZodType<T>,
  opts: RequestOptions | undefined,
): Promise<ListResponse<T>> {
  return engine.readList(
    {
      operation,
      path: cloudOrgPath(orgId, segment),
      item,
      params: [{ name: 'organizationId', kind: 'uuid', value: orgId }],
    },
    opts,
  );
}

export async function listServices(
  engine: RequestEngine,
  orgId: string,
  opts?: RequestOptions,
): Promise<ListResponse<Service>> {
  return listInOrganization(engine, 'List services', orgId, 'services', serviceSchema, opts);
}

export async function listApiKeys(
  engine: RequestEngine,
  orgId: string,
  opts?: RequestOptions,
): Promise<ListResponse<ApiKey>> {
  return listInOrganization(engine, 'List API keys', orgId, 'keys', apiKeySchema, opts);
}
