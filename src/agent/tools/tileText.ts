/**
 * A tile's data (as the preview draws it) as a table: time series newest first, numbers, tables, log lines, event
 * patterns.
 */
import { tableText, cellText, type TableCaps } from '../text';
import type { TileResult } from '../tool';

export function tileText(data: TileResult, caps: TableCaps): { data: string; ok: boolean } {
  switch (data.kind) {
    case 'timeseries': {
      const times = data.times ?? [];
      const series = data.series ?? [];
      const rows = times.map((t, i) => [new Date(t).toISOString(), ...series.map((s) => s.values[i] ?? '')]).reverse();
      return {
        ok: true,
        data: tableText({ columns: ['time (newest first)', ...series.map((s) => s.name)], rows }, caps),
      };
    }
    case 'number':
      return { ok: true, data: `value: ${cellText(data.value ?? 'no value')}` };
    case 'table':
      return {
        ok: true,
        data: tableText({ columns: (data.columns ?? []).map((c) => c.name), rows: data.rows ?? [] }, caps),
      };
    case 'search':
      return {
        ok: true,
        data: tableText(
          {
            columns: ['time', 'severity', 'service', 'body'],
            rows: (data.lines ?? []).map((l) => [
              typeof l.time === 'number' ? new Date(l.time).toISOString() : l.time,
              l.severity ?? '',
              l.service ?? '',
              l.body,
            ]),
          },
          { maxCell: 500, ...caps },
        ),
      };
    case 'patterns':
      return {
        ok: true,
        data: tableText(
          {
            columns: ['count', 'level', 'pattern'],
            rows: (data.patterns ?? []).map((p) => [p.countText, p.level ?? '', p.pattern]),
          },
          { maxCell: 500, ...caps },
        ),
      };
    case 'markdown':
      return { ok: true, data: `markdown text: ${cellText(data.text, 2000)}` };
    case 'unsupported':
      return { ok: false, data: `cannot be previewed: ${cellText(data.reason, 500)}` };
    case 'error':
      return { ok: false, data: `failed: ${cellText(data.message, 1000)}` };
    default:
      return { ok: false, data: `no data (${cellText(data.kind)})` };
  }
}
