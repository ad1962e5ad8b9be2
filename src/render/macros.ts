/**
 * Raw-SQL tiles: ClickStack's time macros and query parameters.
 *
 * Macros: $__fromTime, $__toTime, $__fromTime_ms, $__toTime_ms, $__timeFilter(col), $__timeFilter_ms(col),
 * $__dateFilter(col), $__dateTimeFilter(dateCol, timeCol), $__dt(dateCol, timeCol), $__timeInterval(col),
 * $__timeInterval_ms(col), $__interval_s, $__filters and $__sourceTable. Dashboard variable macros
 * ($__filter(expr, $var), $__conditionalAll(cond, $var)) expand to `1=1` while the variable has no selection.
 * Query parameters {startDateMilliseconds:Int64}, {endDateMilliseconds:Int64} (every raw SQL tile) and
 * {intervalSeconds:Int64}, {intervalMilliseconds:Int64} (line and stacked bar only) are written in as numbers,
 * so the statement runs as it stands.
 */
import { splitTopLevel } from './sql';

export class MacroError extends Error {}

const start = '{startDateMilliseconds:Int64}';
const end = '{endDateMilliseconds:Int64}';
const intervalS = '{intervalSeconds:Int64}';
const intervalMs = '{intervalMilliseconds:Int64}';
const toDate = (p: string) => `toDate(fromUnixTimestamp64Milli(${p}))`;
const toDateTime = (p: string) => `toDateTime(fromUnixTimestamp64Milli(${p}))`;
const toDateTime64 = (p: string) => `fromUnixTimestamp64Milli(${p})`;

interface MacroDef {
  args: [number, number];
  replace(args: string[]): string;
}

const MACROS: Record<string, MacroDef> = {
  fromTime: { args: [0, 0], replace: () => toDateTime(start) },
  toTime: { args: [0, 0], replace: () => toDateTime(end) },
  fromTime_ms: { args: [0, 0], replace: () => toDateTime64(start) },
  toTime_ms: { args: [0, 0], replace: () => toDateTime64(end) },
  timeFilter: { args: [1, 1], replace: ([c]) => `${c} >= ${toDateTime(start)} AND ${c} <= ${toDateTime(end)}` },
  timeFilter_ms: { args: [1, 1], replace: ([c]) => `${c} >= ${toDateTime64(start)} AND ${c} <= ${toDateTime64(end)}` },
  dateFilter: { args: [1, 1], replace: ([c]) => `${c} >= ${toDate(start)} AND ${c} <= ${toDate(end)}` },
  dateTimeFilter: {
    args: [2, 2],
    replace: ([d, t]) =>
      `(${d} >= ${toDate(start)} AND ${d} <= ${toDate(end)}) AND (${t} >= ${toDateTime(start)} AND ${t} <= ${toDateTime(end)})`,
  },
  dt: {
    args: [2, 2],
    replace: ([d, t]) =>
      `(${d} >= ${toDate(start)} AND ${d} <= ${toDate(end)}) AND (${t} >= ${toDateTime(start)} AND ${t} <= ${toDateTime(end)})`,
  },
  timeInterval: { args: [1, 1], replace: ([c]) => `toStartOfInterval(toDateTime(${c}), INTERVAL ${intervalS} second)` },
  timeInterval_ms: {
    args: [1, 1],
    replace: ([c]) => `toStartOfInterval(toDateTime64(${c}, 3), INTERVAL ${intervalMs} millisecond)`,
  },
  interval_s: { args: [0, 0], replace: () => intervalS },
};

/** Index of the parenthesis closing the one at `open`, quote-aware; -1 when unbalanced. */
function closingParen(text: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i;
  }
  return -1;
}

export interface MacroContext {
  /** `db`.`table` of the tile's source, when it has one. */
  sourceTable?: string | undefined;
  /** The dashboard filters for this tile as one SQL condition, or undefined when none apply. */
  filtersSql?: string | undefined;
  /** Names of the dashboard's variables (variable-enabled filters) and whether each has a selection. */
  variables?: ReadonlyMap<string, boolean> | undefined;
}

/** Expands every `$__macro` of a raw SQL template (arguments first, left to right). Throws MacroError. */
export function expandMacros(template: string, ctx: MacroContext): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const at = template.indexOf('$__', i);
    if (at < 0) {
      out += template.slice(i);
      break;
    }
    out += template.slice(i, at);
    const m = /^\$__([A-Za-z_][A-Za-z0-9_]*)/.exec(template.slice(at));
    if (!m) {
      out += '$__';
      i = at + 3;
      continue;
    }
    // Longest known macro name that is a prefix and ends at a word boundary.
    const name = m[1] as string;
    let next = at + m[0].length;
    let args: string[] = [];
    if (template[next] === '(') {
      const close = closingParen(template, next);
      if (close < 0) throw new MacroError(`the arguments of $__${name} are not closed by ")"`);
      args = splitTopLevel(template.slice(next + 1, close)).map((a) => expandMacros(a, ctx));
      next = close + 1;
    }
    out += expandOne(name, args, ctx);
    i = next;
  }
  return out;
}

function expandOne(name: string, args: string[], ctx: MacroContext): string {
  const def = MACROS[name];
  if (def) {
    const [min, max] = def.args;
    if (args.length < min || args.length > max) {
      throw new MacroError(
        `$__${name} takes ${min === max ? min : `${min}-${max}`} argument(s), but has ${args.length}`,
      );
    }
    return def.replace(args);
  }
  if (name === 'filters') {
    if (args.length > 0) throw new MacroError('$__filters takes no arguments');
    return ctx.filtersSql ?? '(1=1 /** no filters applied */)';
  }
  if (name === 'sourceTable') {
    if (args.length > 0) throw new MacroError('$__sourceTable(metricType) (metric sources) is not previewed yet');
    if (!ctx.sourceTable) throw new MacroError('$__sourceTable needs the tile to have a source with a table');
    return ctx.sourceTable;
  }
  if (name === 'filter' || name === 'conditionalAll') {
    const variable = (args[args.length - 1] ?? '').replace(/^\$\{?|\}$/g, '').split(':')[0] ?? '';
    const known = ctx.variables?.get(variable);
    if (known === undefined) {
      throw new MacroError(`$__${name} names "${variable}", which is not a variable of this dashboard`);
    }
    if (known) throw new MacroError(`$__${name}: dashboard variables with selected values are not previewed yet`);
    return '1=1';
  }
  throw new MacroError(`$__${name} is not a macro ClickStack knows`);
}

const PARAMS = {
  startDateMilliseconds: 'all',
  endDateMilliseconds: 'all',
  intervalSeconds: 'time',
  intervalMilliseconds: 'time',
} as const;

/**
 * Writes the query parameters in as numbers. Throws MacroError for a parameter ClickStack does not pass to this
 * display type, and for any other `{name:Type}` parameter.
 */
export function bindParams(
  sql: string,
  values: { startMs: number; endMs: number; intervalSeconds?: number | undefined },
  timeSeries: boolean,
): string {
  return replaceOutsideQuotes(
    sql,
    /\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([A-Za-z0-9_()]+)\s*\}/g,
    (whole, name: string) => {
      const kind = (PARAMS as Record<string, string>)[name];
      if (kind === undefined) {
        throw new MacroError(`the query parameter ${whole} is not one ClickStack passes to raw SQL tiles`);
      }
      if (kind === 'time' && !timeSeries) throw new MacroError(`${whole} is only passed to line and stacked bar tiles`);
      switch (name) {
        case 'startDateMilliseconds':
          return String(values.startMs);
        case 'endDateMilliseconds':
          return String(values.endMs);
        case 'intervalSeconds':
          return String(values.intervalSeconds ?? 0);
        default:
          return String((values.intervalSeconds ?? 0) * 1000);
      }
    },
  );
}

/** Replaces matches of `re` that are not inside quotes. */
function replaceOutsideQuotes(text: string, re: RegExp, fn: (whole: string, ...groups: string[]) => string): string {
  let out = '';
  let segmentStart = 0;
  let quote: string | undefined;
  const flush = (endAt: number) => {
    out += text
      .slice(segmentStart, endAt)
      .replace(re, (whole: string, ...groups: unknown[]) =>
        fn(whole, ...(groups.filter((g) => typeof g === 'string') as string[])),
      );
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) {
        quote = undefined;
        out += text.slice(segmentStart, i + 1);
        segmentStart = i + 1;
      }
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`') {
      flush(i);
      segmentStart = i;
      quote = ch;
    }
  }
  if (quote) out += text.slice(segmentStart);
  else flush(text.length);
  return out;
}
