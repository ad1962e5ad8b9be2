/**
 * Alert files (`*.alert.json` in the workspace): one alert as code. The body is the alert write body (create = update)
 * plus the fields that say where it lives:
 *
 * - `organizationId` and `serviceId`: the target service (not a local connection name, so the file works for everyone
 *   with access to the organization);
 * - `id`: the live alert the file manages; absent until the first create writes it back;
 * - `$schema`: optional, for tools outside VS Code (the extension associates the schema by file name).
 *
 * A webhook channel may say `webhookName` instead of `webhookId`, and the file `savedSearchName` instead of
 * `savedSearchId`: names looked up on the target service and replaced by their IDs before anything is checked or sent
 * (names.ts; the JSON Schema adds both fields, jsonSchema.ts).
 *
 * No vscode import: used by the build (JSON Schema) and by unit tests.
 */
import * as z from 'zod';
import { alertWriteSchema, checkServiceTarget, lazySchema, resourceIdSchema, uuidSchema } from '../schema';
import { SELF_HOSTED_ORGANIZATION_ID } from '../api/oss';

/** Keys that belong to the file and are never sent to the service. */
export const FILE_ONLY_FIELDS = ['$schema', 'organizationId', 'serviceId', 'baseUrl', 'id'] as const;

export const ALERT_FILE_SUFFIX = '.alert.json';

export const alertFileSchema = lazySchema(() =>
  alertWriteSchema
    .safeExtend({
      $schema: z.string().min(1).optional().describe('JSON Schema of this file, for tools outside VS Code. Optional.'),
      organizationId: uuidSchema
        .optional()
        .describe(
          'ClickHouse Cloud: organization (UUID) that owns the target service. With serviceId; not with baseUrl.',
        ),
      serviceId: uuidSchema
        .optional()
        .describe(
          'ClickHouse Cloud: service (UUID) the alert lives on. Any connection to this organization can apply the file.',
        ),
      baseUrl: z
        .string()
        .min(1)
        .optional()
        .describe(
          'Self-hosted ClickStack / HyperDX: the base URL of the deployment, exactly as its connection was added. Not with organizationId or serviceId.',
        ),
      id: resourceIdSchema
        .optional()
        .describe(
          'The live alert this file manages. Leave it out to create a new alert; the ID is written here after the create.',
        ),
    })
    // The write body keeps unknown keys (newer server fields); a file written by hand stays strict at its top level.
    .strict()
    .superRefine((file, ctx) => checkServiceTarget(file, ctx, SELF_HOSTED_ORGANIZATION_ID))
    .describe('Alert file: one alert of a service, applied with "Create on …" / "Update …" or the alert plan.'),
);

export type AlertFile = z.infer<typeof alertFileSchema>;
