/** How the figures read: compact counts, error rates, durations and ranges (no `vscode`: unit tested). */

/** `1.2k`, `12k`, `3.4M`. */
export function compact(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1e6) return `${trim(n / 1e3)}k`;
  if (n < 1e9) return `${trim(n / 1e6)}M`;
  return `${trim(n / 1e9)}G`;
}

function trim(n: number): string {
  return n >= 100 ? String(Math.round(n)) : n.toFixed(1).replace(/\.0$/, '');
}

export function errorRate(calls: number, errors: number): string {
  if (calls <= 0) return '0%';
  const pct = (errors / calls) * 100;
  return `${pct >= 10 || pct === 0 ? Math.round(pct) : pct.toFixed(1)}%`;
}

export function duration(ms: number | null): string {
  if (ms === null) return '–';
  if (ms >= 1000) return `${(ms / 1000).toFixed(ms >= 10_000 ? 0 : 1)} s`;
  return `${ms >= 10 ? Math.round(ms) : ms.toFixed(1)} ms`;
}

/** The range as a lens says it (`24 h`, `7 d`). */
export function rangeLabel(range: string): string {
  return range.replace(/^(\d+)([a-z])$/, '$1 $2');
}

const BARS = '▁▂▃▄▅▆▇█';

/** A text sparkline of the values (`▁▂▅█`): zero is the lowest bar, any other value at least the second. */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(0, ...values);
  return values
    .map((v) => (v <= 0 || max <= 0 ? BARS[0] : BARS[Math.max(1, Math.round((v / max) * (BARS.length - 1)))]))
    .join('');
}

/** `2026-11-29 13:05 UTC` (minutes), for times in hovers that must read the same on every machine. */
export function utcMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A bucket length in seconds as words (`5 min`, `1 h`, `1 d`). */
export function stepLabel(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} d`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  return `${Math.round(seconds / 60)} min`;
}
