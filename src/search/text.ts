/**
 * Server text as the search panel shows it (no `vscode`): cut, stripped of ANSI and control characters (the webview
 * sets it as text only), and ClickHouse time cells read as epoch ms.
 */
/** Characters of one cell in the rows list; of one value in a row's details; map keys shown per map. */
export const CELL_CHARS = 500;
export const DETAIL_CHARS = 64 * 1024;
export const MAP_KEYS = 500;
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(\u0007|\u001b\\)?|\u001b[@-_]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

/** Text of a value cut to `max` characters, ANSI sequences and control characters removed (tabs and newlines kept). */
export function boundedText(value: unknown, max: number): string {
  let s: string;
  if (value === null || value === undefined) s = '';
  else if (typeof value === 'string') s = value;
  else if (typeof value === 'object') s = jsonCut(value, max);
  else s = String(value);
  // Scan a little more than shown, so stripped characters do not leave the cut short.
  if (s.length > max * 2 + 64) s = s.slice(0, max * 2 + 64);
  s = s.replace(ANSI, '').replace(CONTROLS, '');
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** JSON of an object, cut: maps and arrays beyond MAP_KEYS entries are left out. */
function jsonCut(value: object, max: number): string {
  const entries = Array.isArray(value) ? value.slice(0, MAP_KEYS) : Object.entries(value).slice(0, MAP_KEYS);
  try {
    const s = JSON.stringify(Array.isArray(value) ? entries : Object.fromEntries(entries as [string, unknown][]));
    return s.length > max * 2 ? s.slice(0, max * 2) : s;
  } catch {
    return '';
  }
}

/** Epoch ms of a ClickHouse time cell ("YYYY-MM-DD hh:mm:ss[.fff]" in UTC, seconds or ms). */
export function timeOf(v: unknown): number {
  if (typeof v === 'number') return v < 1e11 ? v * 1000 : v;
  if (typeof v === 'string') {
    if (/^\d+(\.\d+)?$/.test(v)) return timeOf(Number(v));
    const iso = /[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v.replace(' ', 'T')}${v.length <= 10 ? 'T00:00:00' : ''}Z`;
    return Date.parse(iso);
  }
  return NaN;
}
