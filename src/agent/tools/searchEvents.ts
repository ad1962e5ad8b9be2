/**
 * `observability_searchEvents`: a log or trace source's events for a time range, filtered by a Lucene or SQL `where`,
 * newest first — the search a search tile runs (SQL on a Cloud service, the search API on a self-hosted deployment).
 */
import { sanitizeServerText } from '../../api';
import { errorResult } from '../failure';
import { resolveScope, scopeName } from '../scope';
import type { ReadTool } from '../tool';
import { rangeOf, rangeText } from './range';
import { tileText } from './tileText';
import { openTraceNote } from './getTrace';

export const searchEvents: ReadTool = {
  name: 'observability_searchEvents',
  kind: 'read',
  running: () => 'Searching events',
  async run(input, { deps }) {
    const scope = resolveScope(deps.connections.list(), input);
    const range = rangeOf(input, '1h');
    const where = typeof input.where === 'string' ? input.where : '';
    const whereLanguage = input.whereLanguage === 'sql' ? 'sql' : 'lucene';
    try {
      const sources = (await deps.connections.clientFor(scope.connectionId).listSources(scope.serviceId)).data;
      const wanted = typeof input.source === 'string' ? input.source.trim() : '';
      const searchable = sources.filter((s) => s.kind === 'log' || s.kind === 'trace');
      const source = wanted
        ? (sources.find((s) => s.id === wanted) ??
          sources.find((s) => (s.name ?? '').trim().toLowerCase() === wanted.toLowerCase()))
        : searchable.length === 1
          ? searchable[0]
          : searchable.find((s) => s.kind === 'log');
      if (!source) {
        return {
          title: `Name the source to search: one of ${searchable.map((s) => `"${sanitizeServerText(s.name) || s.id}"`).join(', ') || '(no log or trace source)'}.`,
        };
      }
      const tile = {
        id: 'search',
        name: 'Search',
        config: {
          displayType: 'search',
          sourceId: source.id,
          select: typeof input.select === 'string' ? input.select : '',
          where,
          whereLanguage,
        },
      };
      const data = await deps.tileData(scope, { tile }, range);
      const text = tileText(data, { maxRows: typeof input.maxRows === 'number' ? input.maxRows : undefined });
      return {
        title: `Events of ${scopeName(scope)}, ${rangeText(range)} (UTC), newest first${where ? ` matching the ${whereLanguage === 'sql' ? 'SQL' : 'Lucene'} condition` : ''}.`,
        notes: [
          'The search reads at most 200 events.',
          ...(source.traceIdExpression
            ? [openTraceNote(scope, '<trace ID>', undefined) + ' observability_getTrace reads it.']
            : []),
        ],
        data: [`source: ${sanitizeServerText(source.name)} (${sanitizeServerText(source.kind)})`, text.data].join('\n'),
      };
    } catch (error) {
      return errorResult(`Search events of ${scopeName(scope)}`, error);
    }
  },
};
