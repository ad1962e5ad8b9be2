/**
 * The target file of a service folder (`service.observability.json`): which service the folder belongs to. Cloud:
 * `organizationId` and `serviceId`; self-hosted ClickStack / HyperDX: `baseUrl`. The labels are for readers only; the
 * IDs (or the address) decide. No vscode import: used by the build (JSON Schema) and by unit tests.
 */
import * as z from 'zod';
import { checkServiceTarget, lazySchema, uuidSchema } from '../schema';
import { SELF_HOSTED_ORGANIZATION_ID, SELF_HOSTED_SERVICE_ID } from '../api/oss';
import { deploymentAddress } from '../api/connection';

export const targetFileSchema = lazySchema(() =>
  z
    .object({
      $schema: z.string().min(1).optional().describe('JSON Schema of this file, for tools outside VS Code. Optional.'),
      connection: z.string().optional().describe('Label of the connection the folder was pulled with (for readers).'),
      service: z.string().optional().describe('Name of the service (for readers).'),
      organizationId: uuidSchema.optional().describe('ClickHouse Cloud: organization (UUID) of the service.'),
      serviceId: uuidSchema.optional().describe('ClickHouse Cloud: the service (UUID) the folder belongs to.'),
      baseUrl: z
        .string()
        .min(1)
        .optional()
        .describe(
          'Self-hosted ClickStack / HyperDX: the base URL of the deployment, exactly as its connection was added.',
        ),
      prune: z
        .boolean()
        .optional()
        .describe(
          'When true, a plan deletes resources of the service that no file of the folder describes. Off by default.',
        ),
    })
    .strict()
    .superRefine((file, ctx) => checkServiceTarget(file, ctx, SELF_HOSTED_ORGANIZATION_ID))
    .describe(
      'Service folder target: the service whose dashboards, alerts, webhooks, saved searches and sources the folder holds.',
    ),
);

export type TargetFile = z.infer<typeof targetFileSchema>;

/** Where a folder's resources live, normalised. */
export interface FolderTarget {
  readonly organizationId: string;
  readonly serviceId: string;
  /** Set for a self-hosted deployment (then the IDs are the deployment's pseudo IDs). */
  readonly baseUrl?: string;
  readonly prune: boolean;
  readonly connectionLabel?: string;
  readonly serviceLabel?: string;
}

/** Reads a target file's value; the message says what is wrong. */
export function parseTarget(value: unknown): { ok: true; target: FolderTarget } | { ok: false; message: string } {
  const result = targetFileSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return { ok: false, message: `${where}${issue?.message ?? 'not a service folder target'}` };
  }
  const file = result.data;
  const labels = {
    prune: file.prune === true,
    ...(file.connection ? { connectionLabel: file.connection } : {}),
    ...(file.service ? { serviceLabel: file.service } : {}),
  };
  if (file.baseUrl !== undefined) {
    return {
      ok: true,
      target: {
        organizationId: SELF_HOSTED_ORGANIZATION_ID,
        serviceId: SELF_HOSTED_SERVICE_ID,
        baseUrl: file.baseUrl,
        ...labels,
      },
    };
  }
  return { ok: true, target: { organizationId: file.organizationId!, serviceId: file.serviceId!, ...labels } };
}

/** The target file's value for a service. */
export function targetFileValue(target: Omit<FolderTarget, 'prune'> & { prune?: boolean }): TargetFile {
  const out: TargetFile = {};
  if (target.connectionLabel) out.connection = target.connectionLabel;
  if (target.serviceLabel) out.service = target.serviceLabel;
  if (target.baseUrl !== undefined) out.baseUrl = target.baseUrl;
  else {
    out.organizationId = target.organizationId;
    out.serviceId = target.serviceId;
  }
  out.prune = target.prune === true;
  return out;
}

/** True when two targets name the same service (self-hosted: the same deployment address). */
export function sameTarget(
  a: FolderTarget,
  b: Pick<FolderTarget, 'organizationId' | 'serviceId' | 'baseUrl'>,
): boolean {
  if (a.baseUrl !== undefined || b.baseUrl !== undefined) {
    return (
      a.baseUrl !== undefined &&
      b.baseUrl !== undefined &&
      deploymentAddress(a.baseUrl) === deploymentAddress(b.baseUrl)
    );
  }
  return (
    a.organizationId.toLowerCase() === b.organizationId.toLowerCase() &&
    a.serviceId.toLowerCase() === b.serviceId.toLowerCase()
  );
}
