/**
 * The events a tile reads, as a search (Search Events on a tile of the preview): the tile's source and the condition
 * its statement filters rows by. Search, heatmap and pattern tiles filter by the tile's `where`; series tiles (line,
 * bar, number, table, pie) by their series' filters, joined with OR when every series has one (as the statement's
 * WHERE clause), else not at all. Imports nothing from `vscode`.
 */

export interface TileSearch {
  sourceId: string;
  condition: string;
  language: 'lucene' | 'sql';
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const languageOf = (v: unknown): 'lucene' | 'sql' => (v === 'sql' ? 'sql' : 'lucene');

/** The search of a tile's events; undefined for a tile that reads no source (Markdown, raw SQL) or mixes languages. */
export function tileSearchOf(tile: Record<string, unknown>): TileSearch | undefined {
  const config = isObject(tile.config) ? tile.config : undefined;
  if (!config || config.displayType === 'markdown' || config.configType === 'sql') return undefined;
  const sourceId = config.sourceId;
  if (!nonEmpty(sourceId)) return undefined;
  if (['search', 'heatmap', 'event_patterns'].includes(String(config.displayType))) {
    return {
      sourceId,
      condition: nonEmpty(config.where) ? config.where : '',
      language: languageOf(config.whereLanguage),
    };
  }
  const items = Array.isArray(config.select) ? config.select.filter(isObject) : [];
  if (items.length === 0 || !items.every((i) => nonEmpty(i.where))) {
    return { sourceId, condition: '', language: 'lucene' };
  }
  const languages = new Set(items.map((i) => languageOf(i.whereLanguage)));
  if (languages.size > 1) return undefined;
  const conditions = [...new Set(items.map((i) => (i.where as string).trim()))];
  return {
    sourceId,
    condition: conditions.length === 1 ? conditions[0]! : conditions.map((c) => `(${c})`).join(' OR '),
    language: [...languages][0]!,
  };
}
