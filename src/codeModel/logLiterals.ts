/**
 * Logger calls with a literal message, found line by line (`logger.info("payment declined for %s", id)`,
 * `console.warn(\`cart ${id} empty\`)`, `log.info(f"charged {amount}")`, `log.Printf("retry %d", n)`,
 * `_logger.LogWarning("Order {OrderId} declined", id)`, `Rails.logger.info "paid #{id}"`), each turned into the fixed
 * parts of its message for matching against production log bodies: a LIKE pattern (`%payment declined for %`, with
 * `%`, `_` and `\` escaped) and the same parts as needles for ClickHouse's `multiSearchAllPositions`.
 *
 * Placeholders of every common style split the message: printf (`%s`, `%5.2f`, `%(name)s`, `%v`), braces (`{}`,
 * `{0}`, `{name}`, `{Name:format}`: SLF4J, str.format, .NET templates, f-strings), `${…}` and `#{…}`. Splitting where
 * a runtime would print the text as is only widens the match. A message whose fixed parts are shorter than
 * MIN_FIXED_CHARS in all matches too much and gets no pattern. Bounded like the definition scan.
 */
import { MAX_SCAN_LINES, MAX_SCAN_LINE_CHARS } from './definitionTypes';

export interface LogLiteral {
  /** 1-based line and column of the call. */
  line: number;
  column: number;
  /** The call as written (`logger.info`, `log.Printf`). */
  call: string;
  /** The literal's text without its quotes, escapes read (raw strings as written). */
  message: string;
  /** The fixed parts between placeholders, in order. */
  parts: string[];
  /** `%part%part%` for `Body LIKE …` (escaped), undefined when the fixed parts are too short to mean anything. */
  like?: string;
}

export const MIN_FIXED_CHARS = 4;
export const MAX_LITERALS = 2000;

const METHODS =
  'log|info|warn|warning|error|debug|trace|fatal|critical|exception|notice|verbose|print|printf|println|panic|panicf|infof|warnf|warningf|errorf|debugf|fatalf|tracef|infow|warnw|errorw|debugw|loginformation|logwarning|logerror|logdebug|logcritical|logtrace';
const RECEIVERS = 'console|_?log|_?logger|logging|slog|klog|sugar';
/** `<receiver>.<method>(` or `<receiver>.<method> ` (Ruby), the receiver possibly qualified (`this.logger`, up to three parts). */
const CALL = new RegExp(
  `(?<![\\w$])((?:[\\w$]+\\.){0,3}(?:${RECEIVERS}))\\s*\\.\\s*(${METHODS})(?:\\s*\\(\\s*|\\s+(?=["']))`,
  'gi',
);
/** String prefixes: Python f/r/b, C# `$`/`@`. */
const PREFIX = /^([fFrRbBuU]{1,2}|\$@?|@\$?)?(["'`])/;
/** Placeholders; their inner parts are bounded so a hostile line cannot make matching slow. */
const PLACEHOLDER =
  /%\([^)]{0,64}\)[-+ #0]{0,5}\d{0,5}(?:\.\d{1,5})?[a-zA-Z]|%[-+ #0]{0,5}(?:\d{1,5}|\*)?(?:\.(?:\d{1,5}|\*))?[hlLqjzt]{0,2}[a-zA-Z]|\$\{[^}]{0,200}\}|#\{[^}]{0,200}\}|\{[^{}]{0,200}\}/g;

interface Literal {
  text: string;
  raw: boolean;
}

/** The literal starting at `s[0]` (prefix and quote), read to its closing quote on the same line. */
function readLiteral(s: string): Literal | undefined {
  const m = PREFIX.exec(s);
  if (!m) return undefined;
  const prefix = (m[1] ?? '').toLowerCase();
  const quote = m[2] as string;
  const raw = prefix.includes('r') || prefix.includes('@');
  let text = '';
  for (let i = m[0].length; i < s.length; i++) {
    const c = s[i] as string;
    if (c === quote) return { text, raw };
    if (c === '\\' && !raw && i + 1 < s.length) {
      const next = s[++i] as string;
      text += next === 'n' ? '\n' : next === 't' ? '\t' : next === 'r' ? '\r' : next;
    } else text += c;
  }
  return undefined;
}

/** The fixed parts of a message: the text between placeholders (`%%`, `{{` and `}}` read as the character). */
export function fixedParts(message: string): string[] {
  const parts: string[] = [];
  let last = 0;
  const cut = (end: number): void => {
    const part = message.slice(last, end).replace(/%%/g, '%').replace(/\{\{/g, '{').replace(/\}\}/g, '}');
    if (part) parts.push(part);
  };
  const text = message.replace(/%%|\{\{|\}\}/g, (t) => '\u0000'.repeat(t.length));
  for (const m of text.matchAll(PLACEHOLDER)) {
    cut(m.index);
    last = m.index + m[0].length;
  }
  cut(message.length);
  return parts;
}

/** A LIKE pattern matching the parts in order anywhere in a body (`%`, `_` and `\` escaped). */
export function likePattern(parts: readonly string[]): string {
  return `%${parts.map((p) => p.replace(/[\\%_]/g, (c) => `\\${c}`)).join('%')}%`;
}

/** Logger calls with a literal message in a file's text. */
export function findLogLiterals(text: string): { literals: LogLiteral[]; truncated: boolean } {
  const lines = text.split(/\r?\n/);
  let truncated = lines.length > MAX_SCAN_LINES;
  const literals: LogLiteral[] = [];
  for (let i = 0; i < Math.min(lines.length, MAX_SCAN_LINES); i++) {
    const line = lines[i] as string;
    if (line.length > MAX_SCAN_LINE_CHARS) {
      truncated = true;
      continue;
    }
    for (const m of line.matchAll(CALL)) {
      const literal = readLiteral(line.slice(m.index + m[0].length));
      if (!literal) continue;
      if (literals.length >= MAX_LITERALS) return { literals, truncated: true };
      const parts = fixedParts(literal.text);
      const found: LogLiteral = {
        line: i + 1,
        column: m.index + 1,
        call: `${m[1]}.${m[2]}`,
        message: literal.text,
        parts,
      };
      if (parts.join('').trim().length >= MIN_FIXED_CHARS) found.like = likePattern(parts);
      literals.push(found);
    }
  }
  return { literals, truncated };
}
