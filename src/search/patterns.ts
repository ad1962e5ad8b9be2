/**
 * The Patterns tab of a search (no `vscode`), as HyperDX's search page reads it: one statement samples up to 10,000
 * random rows of the search (the event's body — a log's body, a span's name —, its first timestamp, its severity or
 * status code) under the same condition, range and table filter as the rows; the rows are mined with the same miner
 * as the pattern tiles (`src/render/patterns`), and each pattern's count is scaled to the search's total (the
 * histogram's count), as the search page scales it.
 */
import { groupPatterns, type SampledRow } from '../render/patterns';
import { splitTopLevel } from '../render/sql';
import { eventBodyOf, eventLevelOf, PATTERN_SAMPLES } from '../render/tile';
import type { PatternsView } from './protocol';
import { rendered, type Run, type SearchRequest } from './request';
import { boundedText, CELL_CHARS, timeOf } from './text';

/** Patterns shown at most (the rest are counted in the note). */
export const MAX_PATTERNS = 500;

/** The sample statement of a search's patterns, and whether its rows carry a level (column 2). */
export function patternsSql(req: SearchRequest): { sql: string; level: boolean } {
  const body = eventBodyOf(req.source);
  if (!body) throw new Error('the source has no body expression for the patterns (bodyExpression)');
  const tve = splitTopLevel(String(req.source.timestampValueExpression ?? ''))[0];
  if (!tve) throw new Error('the source has no timestamp expression');
  const level = eventLevelOf(req.source);
  const select = [
    `${body} AS __hdx_pattern_field`,
    `${tve} AS __hdx_timestamp`,
    ...(level ? [`${level} AS __hdx_severity_text`] : []),
  ].join(', ');
  const r = rendered({ ...req, select, orderBy: 'rand() DESC', limit: PATTERN_SAMPLES });
  return { sql: r.rows.sql, level: level !== undefined };
}

/** The sampled rows of the statement's result ([text, time, level?]). */
export function sampledRows(rows: readonly (readonly unknown[])[], level: boolean): SampledRow[] {
  return rows.map((r) => ({
    text: r[0] === null || r[0] === undefined ? '' : String(r[0]),
    time: timeOf(r[1]),
    ...(level ? { level: r[2] === null || r[2] === undefined ? '' : String(r[2]) } : {}),
  }));
}

/** The Patterns tab of sampled rows, the counts scaled to `total` (the search's count). */
export function patternsView(
  rows: readonly SampledRow[],
  total: number | undefined,
  range: { from: number; to: number },
): PatternsView {
  const mined = groupPatterns(rows, total, range);
  const shown = mined.patterns.slice(0, MAX_PATTERNS);
  const notes: string[] = [];
  if (mined.multiplier !== 1 && mined.sampled > 0) {
    notes.push(`~ counts extrapolated from a random sample of ${mined.sampled} rows to ${total} in total`);
  }
  if (shown.length < mined.patterns.length) {
    notes.push(`the first ${shown.length} of ${mined.patterns.length} patterns`);
  }
  return {
    loading: false,
    rows: shown.map((p) => ({
      pattern: boundedText(p.pattern, CELL_CHARS),
      count: p.count,
      countText: mined.multiplier === 1 ? String(p.count) : p.countText,
      ...(p.level !== undefined ? { level: boundedText(p.level, 100) } : {}),
      sample: boundedText(p.sample, CELL_CHARS),
    })),
    sampled: mined.sampled,
    ...(total !== undefined ? { total } : {}),
    ...(notes.length ? { note: notes.join('; ') } : {}),
  };
}

/** Runs the sample statement and mines it. */
export async function runPatterns(run: Run, req: SearchRequest, total: number | undefined): Promise<PatternsView> {
  const { sql, level } = patternsSql(req);
  const result = await run(sql);
  return patternsView(sampledRows(result.rows, level), total, req.range);
}
