/**
 * An event pattern tile through the series route (no `vscode`): the sample from the search API and the total from
 * the chart series API (both requests at once), mined as HyperDX mines them (`../patterns`).
 */
import { groupPatterns, type SampledRow } from '../../render/patterns';
import { patternsDataOf, samplingNote } from '../patternsData';
import { numberOf, timeOf } from '../data';
import type { PatternsData } from '../protocol';
import type { SeriesPlan } from './plan';
import type { SeriesRoute } from './index';

type PatternsPlan = Extract<SeriesPlan, { ok: true; route: 'patterns' }>;

const text = (v: unknown): string =>
  v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** The patterns, and the subtitle's line on how the counts came about (none when they are plain counts). */
export async function patternsBySeries(
  route: SeriesRoute,
  plan: PatternsPlan,
): Promise<{ data: PatternsData; note?: string | undefined }> {
  const [records, counts] = await Promise.all([route.search(plan.search), route.chartSeries(plan.count)]);
  // The columns in the order asked: the pattern column, the timestamp, the level (read by position: the server may
  // name an expression's column as it writes it).
  const rows: SampledRow[] = records.map((r) => {
    const values = Object.values(r);
    return {
      text: text(values[0]),
      time: timeOf(values[1]),
      ...(plan.level ? { level: text(values[2]) } : {}),
    };
  });
  const total = counts.reduce((sum, row) => sum + (numberOf(row['series_0.data']) ?? 0), 0);
  const mined = groupPatterns(rows, total, plan.range);
  const samples = plan.search.maxResults ?? rows.length;
  const { subtitle: _drop, ...data } = patternsDataOf(mined, samples);
  return { data, note: samplingNote(mined, samples) };
}
