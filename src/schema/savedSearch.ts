/**
 * Saved searches: the response (unknown fields kept) and the create/update body (the server's
 * saved-search request schema). PUT is a full replace: optional fields left out reset to their
 * defaults (`select`, `where`, `orderBy` "", `whereLanguage` lucene, `tags` and `filters` []).
 * Unknown keys of a body are kept and sent (the server drops the ones it does not know).
 */
import * as z from 'zod';
import { omitNullOr, requiredOr, resourceIdSchema } from './ids';
import { withoutReadOnlyAndNulls } from './writeBody';
import { lazySchema } from './lazySchema';

export const SAVED_SEARCH_LIMITS = {
  name: 1024,
  select: 4 * 1024,
  where: 8 * 1024,
  orderBy: 1024,
  tags: 50,
  tag: 32,
  filters: 100,
  filterExpression: 8 * 1024,
} as const;
export const SAVED_SEARCH_LANGUAGES = ['lucene', 'sql'] as const;
export const SQL_AST_OPERATORS = ['=', '<', '>', '!=', '<=', '>='] as const;

const max = (n: number) => ({ error: `must be at most ${n} characters` });
const optionalText = (limit: number, what: string) =>
  z
    .string({ error: omitNullOr('must be a string') })
    .max(limit, max(limit))
    .optional()
    .describe(what);

/** A pinned filter as read: an SQL (or Lucene) condition, or a structured `sql_ast` comparison. */
export const savedSearchFilterSchema = lazySchema(() =>
  z.looseObject({
    type: z.string().optional(),
    condition: z.string().optional(),
  }),
);

/**
 * A pinned filter of a body. The server also requires a filter that is new or changed to be a
 * predicate the sidebar can show (`col IN (...)`, `NOT IN (...)`, `BETWEEN a AND b`); it says so.
 */
export const savedSearchFilterWriteSchema = lazySchema(() =>
  z.union(
    [
      z.looseObject({
        type: z.enum(['lucene', 'sql'], { error: omitNullOr('must be "sql" or "lucene"') }).optional(),
        condition: z
          .string({ error: requiredOr('must be a string') })
          .max(SAVED_SEARCH_LIMITS.filterExpression, max(SAVED_SEARCH_LIMITS.filterExpression)),
      }),
      z.looseObject({
        type: z.literal('sql_ast'),
        operator: z.enum(SQL_AST_OPERATORS),
        left: z.string().max(SAVED_SEARCH_LIMITS.filterExpression, max(SAVED_SEARCH_LIMITS.filterExpression)),
        right: z.string().max(SAVED_SEARCH_LIMITS.filterExpression, max(SAVED_SEARCH_LIMITS.filterExpression)),
      }),
    ],
    { error: 'must be {type?: "sql", condition} or {type: "sql_ast", operator, left, right}' },
  ),
);

export const savedSearchWriteSchema = lazySchema(() =>
  z.looseObject({
    name: z
      .string({ error: requiredOr('must be a string') })
      .refine((v) => v.trim().length > 0, { error: 'must not be empty' })
      .refine((v) => v.trim().length <= SAVED_SEARCH_LIMITS.name, max(SAVED_SEARCH_LIMITS.name))
      .describe('Display name.'),
    sourceId: resourceIdSchema.describe('ID of the source to query (a source of this service).'),
    select: optionalText(SAVED_SEARCH_LIMITS.select, 'Comma-separated column expressions; empty: the source default.'),
    where: optionalText(SAVED_SEARCH_LIMITS.where, 'Row filter, in whereLanguage.'),
    whereLanguage: z
      .enum(SAVED_SEARCH_LANGUAGES, { error: omitNullOr('must be "lucene" or "sql"') })
      .optional()
      .describe('Language of where (default lucene).'),
    orderBy: optionalText(SAVED_SEARCH_LIMITS.orderBy, 'ORDER BY expression; empty: the source default.'),
    tags: z
      .array(z.string().max(SAVED_SEARCH_LIMITS.tag, max(SAVED_SEARCH_LIMITS.tag)), {
        error: omitNullOr('must be a list of strings'),
      })
      .max(SAVED_SEARCH_LIMITS.tags, { error: `at most ${SAVED_SEARCH_LIMITS.tags} tags` })
      .optional()
      .describe('Tags.'),
    filters: z
      .array(savedSearchFilterWriteSchema, { error: omitNullOr('must be a list of filters') })
      .max(SAVED_SEARCH_LIMITS.filters, { error: `at most ${SAVED_SEARCH_LIMITS.filters} filters` })
      .optional()
      .describe('Pinned filters.'),
  }),
);

export type SavedSearchWrite = z.input<typeof savedSearchWriteSchema>;

export const savedSearchSchema = lazySchema(() =>
  z.looseObject({
    id: z.string().min(1),
    name: z.string(),
    sourceId: z.string().optional(),
    select: z.string().nullable().optional(),
    where: z.string().nullable().optional(),
    whereLanguage: z.string().nullable().optional(),
    orderBy: z.string().nullable().optional(),
    tags: z.array(z.string()).optional(),
    filters: z.array(savedSearchFilterSchema).optional(),
    teamId: z.string().optional(),
    createdAt: z.string().nullable().optional(),
    updatedAt: z.string().nullable().optional(),
  }),
);

export type SavedSearch = z.infer<typeof savedSearchSchema>;

export const SAVED_SEARCH_READ_ONLY_FIELDS = ['id', 'teamId', 'createdAt', 'updatedAt'] as const;

/** An update body from a saved search as read: read-only fields and nulls left out. */
export function savedSearchToWriteBody(search: SavedSearch): Record<string, unknown> {
  return withoutReadOnlyAndNulls(search, SAVED_SEARCH_READ_ONLY_FIELDS);
}
