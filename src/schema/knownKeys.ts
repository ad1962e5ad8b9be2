/**
 * The keys this version of the extension knows at a place of a write body.
 *
 * Write schemas keep keys they do not know (newer server fields survive get → edit → apply),
 * so they never report them. Editors that want to point at a key the user may have mistyped
 * ask here which keys are known at the object that holds it. The walk over the schemas is the one of
 * src/schema/unknownKeys.ts.
 */
import type * as z from 'zod';
import { alertWriteSchema } from './alert';
import { dashboardUpdateSchema, dashboardWriteSchema } from './dashboard';
import { queryEndpointWriteSchema } from './queryEndpoint';
import { knownKeysAt as knownKeysOfSchema } from './unknownKeys';

/** The write bodies, by the name of their shipped JSON Schema (`<kind>.schema.json`). */
export const WRITE_BODY_SCHEMAS = {
  alert: alertWriteSchema,
  dashboard: dashboardWriteSchema,
  'dashboard-update': dashboardUpdateSchema,
  'query-endpoint': queryEndpointWriteSchema,
} as const satisfies Record<string, z.ZodType>;

export type WriteBodyKind = keyof typeof WRITE_BODY_SCHEMAS;

type PathSegment = string | number;

/**
 * The keys known at `path` of a write body of `kind`, e.g. `knownKeysAt('dashboard-update',
 * ['tiles', 0, 'config'], document)`. With `document` (the whole body being edited), unions are
 * resolved by the value at each step (a tile config by its displayType and configType);
 * without it, the keys of every variant are returned. `undefined` when `path` does not lead
 * to an object of the schema (a free-form map, a scalar, or a place the schema does not know).
 */
export function knownKeysAt(
  kind: WriteBodyKind,
  path: readonly PathSegment[],
  document?: unknown,
): string[] | undefined {
  const steps = path.map((segment) =>
    typeof segment === 'string' && /^\d+$/.test(segment) ? Number(segment) : segment,
  );
  const keys = knownKeysOfSchema(WRITE_BODY_SCHEMAS[kind], steps, document);
  return keys ? [...keys].sort() : undefined;
}
