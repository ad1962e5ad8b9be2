/**
 * Data sources (read-only in the extension). Each kind has more fields than listed here;
 * all of them are kept.
 */
import * as z from 'zod';
import { openEnum } from './ids';

export const SOURCE_KINDS = ['log', 'trace', 'metric', 'session', 'promql'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** A filter column of a source's filter settings. */
export const sourceFilterColumnSchema = z.looseObject({
  name: z.string(),
  label: z.string().optional(),
  /** SQL expression over the filter-values table (default: the column `name`). */
  valueExpression: z.string().nullable().optional(),
  /** Offer an "All" option (default false). */
  allowAll: z.boolean().optional(),
});

export const sourceSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  kind: openEnum(SOURCE_KINDS),
  connection: z.string().optional(),
  from: z
    .looseObject({
      databaseName: z.string().nullable().optional(),
      tableName: z.string().nullable().optional(),
    })
    .optional(),
  section: z.string().nullable().optional(),
  disabled: z.boolean().nullable().optional(),
  timestampValueExpression: z.string().nullable().optional(),
  /** Log and trace sources: the service version (default: the OpenTelemetry `service.version` attribute). */
  serviceVersionExpression: z.string().nullable().optional(),
  filterSettings: z
    .looseObject({
      columns: z.array(sourceFilterColumnSchema).optional(),
    })
    .nullable()
    .optional(),
});

export type Source = z.infer<typeof sourceSchema>;
