/**
 * The one time format of every chart the extension draws (axes, hover readouts, data tables, transitions, verdicts):
 * `2026-11-26 12:05` in the viewer's time zone, 24-hour clock, with the zone named (`UTC`, `UTC+01:00`). Pure: no DOM,
 * no `vscode`. Each function takes the zone's offset in minutes east of UTC (default: the viewer's at that time), so
 * tests do not depend on the machine's zone.
 */

const pad = (n: number): string => String(n).padStart(2, '0');

/** Minutes east of UTC of the viewer's zone at a time (e.g. 60 for Central European Time in winter). */
export function localOffsetMinutes(ms: number): number {
  const offset = -new Date(ms).getTimezoneOffset();
  return offset === 0 ? 0 : offset;
}

/** The zone as shown beside times: `UTC`, `UTC+01:00`, `UTC−05:30`. */
export function zoneLabel(offsetMinutes: number): string {
  if (offsetMinutes === 0) return 'UTC';
  const abs = Math.abs(offsetMinutes);
  return `UTC${offsetMinutes > 0 ? '+' : '−'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The zone of a range of times: one label, or both when it changes within the range (daylight saving). */
export function zoneOfRange(from: number, to: number): string {
  const a = zoneLabel(localOffsetMinutes(from));
  const b = zoneLabel(localOffsetMinutes(to));
  return a === b ? a : `${a} / ${b}`;
}

/** Calendar fields of a time in the zone of the offset. */
function fields(
  ms: number,
  offsetMinutes: number,
): { y: number; mo: number; d: number; h: number; mi: number; s: number } {
  const d = new Date(ms + offsetMinutes * 60_000);
  return {
    y: d.getUTCFullYear(),
    mo: d.getUTCMonth() + 1,
    d: d.getUTCDate(),
    h: d.getUTCHours(),
    mi: d.getUTCMinutes(),
    s: d.getUTCSeconds(),
  };
}

/** `2026-11-26 12:05` (`12:05:09` with seconds), without the zone (tables say it in their header). */
export function formatTime(ms: number, seconds = false, offsetMinutes = localOffsetMinutes(ms)): string {
  const f = fields(ms, offsetMinutes);
  return `${f.y}-${pad(f.mo)}-${pad(f.d)} ${pad(f.h)}:${pad(f.mi)}${seconds ? `:${pad(f.s)}` : ''}`;
}

/** `2026-11-26 12:05 UTC`: a time standing on its own (readouts, verdicts). */
export function formatTimeZoned(ms: number, seconds = false, offsetMinutes = localOffsetMinutes(ms)): string {
  return `${formatTime(ms, seconds, offsetMinutes)} ${zoneLabel(offsetMinutes)}`;
}

/**
 * Labels of time-axis ticks, in the same format cut short: `12:05` within a day, with the date (`11-26 12:05`) on the
 * first tick and where the day changes; `2026-11-26` when ticks are a day or more apart; seconds when they are less
 * than a minute apart. `offsetOf` gives the zone's offset at a time (default: the viewer's).
 */
export function axisTimeLabels(
  ticks: readonly number[],
  stepMs: number,
  offsetOf: (ms: number) => number = localOffsetMinutes,
): string[] {
  let lastDay = '';
  return ticks.map((ms) => {
    const f = fields(ms, offsetOf(ms));
    const day = `${f.y}-${pad(f.mo)}-${pad(f.d)}`;
    if (stepMs >= 86_400_000) return day;
    const clock = `${pad(f.h)}:${pad(f.mi)}${stepMs < 60_000 ? `:${pad(f.s)}` : ''}`;
    const label = day !== lastDay ? `${pad(f.mo)}-${pad(f.d)} ${clock}` : clock;
    lastDay = day;
    return label;
  });
}
