/**
 * Pure helpers of the preview webview (no DOM): number formats, time labels, a small safe Markdown parser producing
 * a tree of plain nodes (never HTML), and the y range that keeps thresholds in view.
 */
import { formatTime } from '../../panels/chartTime';
import type { NumberFormat, Threshold } from '../protocol';

const BYTE_UNITS_IEC = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
const BYTE_UNITS_SI = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];

/** Formats a number the way a tile's `numberFormat` asks, for the simple outputs (number, percent, currency, byte). */
export function formatNumber(value: number | null | undefined, format?: NumberFormat): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const f = format ?? {};
  const v = value * (typeof f.factor === 'number' && Number.isFinite(f.factor) ? f.factor : 1);
  const mantissa =
    typeof f.mantissa === 'number' && f.mantissa >= 0 && f.mantissa <= 10 ? Math.floor(f.mantissa) : undefined;
  const plain = (n: number, digits = mantissa): string =>
    n.toLocaleString('en-US', {
      useGrouping: f.thousandSeparated !== false,
      minimumFractionDigits: digits ?? 0,
      maximumFractionDigits: digits ?? (Math.abs(n) >= 100 ? 0 : Math.abs(n) >= 1 ? 2 : 4),
    });
  const short = (n: number): string => {
    const abs = Math.abs(n);
    for (const [limit, suffix] of [
      [1e12, 'T'],
      [1e9, 'B'],
      [1e6, 'M'],
      [1e3, 'k'],
    ] as const) {
      if (abs >= limit) return `${plain(n / limit, mantissa ?? 1)}${suffix}`;
    }
    return plain(n);
  };
  const unit = typeof f.unit === 'string' && f.unit ? ` ${f.unit}` : '';
  switch (f.output) {
    case 'duration':
      // As ClickStack shows durations: the value (times the factor) in seconds, in an adaptive unit.
      return formatDurationMs(
        value * (typeof f.factor === 'number' && Number.isFinite(f.factor) ? f.factor : 1) * 1000,
      );
    case 'percent':
      return `${plain(v * 100, mantissa ?? 1)}%`;
    case 'currency':
      return `${typeof f.currencySymbol === 'string' ? f.currencySymbol : '$'}${plain(v, mantissa ?? 2)}`;
    case 'byte': {
      const base = f.decimalBytes ? 1000 : 1024;
      const units = f.decimalBytes ? BYTE_UNITS_SI : BYTE_UNITS_IEC;
      let n = v;
      let i = 0;
      while (Math.abs(n) >= base && i < units.length - 1) {
        n /= base;
        i++;
      }
      return `${plain(n, mantissa ?? (i === 0 ? 0 : 1))} ${units[i]}`;
    }
    default:
      return `${f.average ? short(v) : plain(v)}${unit}`;
  }
}

/** A duration in milliseconds as ClickStack writes it: `45ms`, `1.5s`, `2.25min`, `3µs`. */
export function formatDurationMs(ms: number): string {
  if (ms < 0) return `-${formatDurationMs(-ms)}`;
  if (ms === 0) return '0ms';
  if (ms < 1) {
    const us = ms * 1000;
    if (us < 10) return `${parseFloat(us.toPrecision(2))}µs`;
    if (Math.round(us) < 1000) return `${Math.round(us)}µs`;
  }
  if (ms < 1000) return ms < 10 ? `${parseFloat(ms.toPrecision(3))}ms` : `${parseFloat(ms.toFixed(1))}ms`;
  if (ms < 60_000) return `${parseFloat((ms / 1000).toFixed(2))}s`;
  if (ms < 3_600_000) return `${parseFloat((ms / 60_000).toFixed(2))}min`;
  return `${parseFloat((ms / 3_600_000).toFixed(2))}h`;
}

/** The value of a `datetime-local` input for a time. */
export function toLocalInput(ms: number): string {
  return formatTime(ms).replace(' ', 'T');
}

/** The y range of a chart: the data's, widened to show the threshold (and its upper bound), with zero when near. */
export function yRange(min: number, max: number, threshold?: Threshold): [number, number] {
  let lo = Number.isFinite(min) ? min : 0;
  let hi = Number.isFinite(max) ? max : 1;
  if (threshold) {
    for (const t of [threshold.value, threshold.max]) {
      if (typeof t === 'number' && Number.isFinite(t)) {
        lo = Math.min(lo, t);
        hi = Math.max(hi, t);
      }
    }
  }
  if (lo > 0 && lo < hi * 0.5) lo = 0;
  if (lo === hi) {
    lo = lo === 0 ? 0 : lo - Math.abs(lo) * 0.1;
    hi = hi === 0 ? 1 : hi + Math.abs(hi) * 0.1;
  }
  const margin = (hi - lo) * 0.05;
  return [lo === 0 ? 0 : lo - margin, hi + margin];
}

/** Inline pieces of Markdown. Links keep their text and show their target; nothing is clickable or executable. */
export type Inline =
  | { t: 'text'; text: string }
  | { t: 'strong' | 'em'; children: Inline[] }
  | { t: 'code'; text: string }
  | { t: 'link'; text: string; href: string };

export type Block =
  | { t: 'heading'; level: number; children: Inline[] }
  | { t: 'paragraph'; children: Inline[] }
  | { t: 'list'; ordered: boolean; items: Inline[][] }
  | { t: 'code'; text: string }
  | { t: 'quote'; children: Inline[] }
  | { t: 'rule' };

/** Inline Markdown: `code`, **strong**, *em* / _em_, [text](target). Everything else is text (HTML stays text). */
export function parseInline(s: string): Inline[] {
  const out: Inline[] = [];
  let text = '';
  const flush = (): void => {
    if (text) out.push({ t: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < s.length) {
    const rest = s.slice(i);
    let m: RegExpMatchArray | null;
    if ((m = rest.match(/^`([^`]+)`/))) {
      flush();
      out.push({ t: 'code', text: m[1] as string });
    } else if ((m = rest.match(/^\*\*(.+?)\*\*/)) || (m = rest.match(/^__(.+?)__/))) {
      flush();
      out.push({ t: 'strong', children: parseInline(m[1] as string) });
    } else if ((m = rest.match(/^\*([^*\s][^*]*?)\*/)) || (m = rest.match(/^_([^_\s][^_]*?)_(?![A-Za-z0-9])/))) {
      flush();
      out.push({ t: 'em', children: parseInline(m[1] as string) });
    } else if ((m = rest.match(/^\[([^\]]*)\]\(([^)\s]*)(?:\s+"[^"]*")?\)/))) {
      flush();
      out.push({ t: 'link', text: m[1] as string, href: m[2] as string });
    } else {
      text += s[i];
      i++;
      continue;
    }
    i += m[0].length;
  }
  flush();
  return out;
}

/** Block Markdown: ATX headings, paragraphs, - / * / 1. lists, ``` fences, > quotes, --- rules. */
export function parseMarkdown(src: string): Block[] {
  const lines = src.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let para: string[] = [];
  const endPara = (): void => {
    if (para.length) blocks.push({ t: 'paragraph', children: parseInline(para.join(' ')) });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    let m: RegExpMatchArray | null;
    if (/^\s*```/.test(line)) {
      endPara();
      const code: string[] = [];
      for (i++; i < lines.length && !/^\s*```/.test(lines[i] as string); i++) code.push(lines[i] as string);
      blocks.push({ t: 'code', text: code.join('\n') });
    } else if ((m = line.match(/^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/))) {
      endPara();
      blocks.push({ t: 'heading', level: (m[1] as string).length, children: parseInline(m[2] as string) });
    } else if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
      endPara();
      blocks.push({ t: 'rule' });
    } else if ((m = line.match(/^\s*([-*+]|\d+[.)])\s+(.*)$/))) {
      endPara();
      const ordered = /\d/.test(m[1] as string);
      const items: Inline[][] = [parseInline(m[2] as string)];
      while (i + 1 < lines.length) {
        const next = (lines[i + 1] as string).match(/^\s*([-*+]|\d+[.)])\s+(.*)$/);
        if (!next || /\d/.test(next[1] as string) !== ordered) break;
        items.push(parseInline(next[2] as string));
        i++;
      }
      blocks.push({ t: 'list', ordered, items });
    } else if ((m = line.match(/^\s*>\s?(.*)$/))) {
      endPara();
      blocks.push({ t: 'quote', children: parseInline(m[1] as string) });
    } else if (line.trim() === '') {
      endPara();
    } else {
      para.push(line.trim());
    }
  }
  endPara();
  return blocks;
}
