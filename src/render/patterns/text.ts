/**
 * The text steps around HyperDX's pattern mining (pure): escape sequences are removed from each row's text before
 * mining (`strip-ansi` 6.0.1, whose pattern is `ansi-regex` 5.0.1's), and a pattern is shown as its last row's text
 * with the mined template's tokens written over the row's words (`reconstructTemplate`).
 */

const ANSI =
  // eslint-disable-next-line no-control-regex
  /[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g;

/** The text without ANSI escape sequences, as `strip-ansi` 6 leaves it. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/**
 * HyperDX's `reconstructTemplate`: runs of whitespace become one space; each run of ASCII letters and digits is
 * replaced by the template's next token (kept when the template has no more), everything between is kept.
 */
export function reconstructTemplate(original: string, template: string): string {
  const normalized = original.replace(/\s+/g, ' ');
  const tokens = template.split(' ').filter((t) => t.length > 0);
  if (tokens.length === 0) return normalized;
  let index = 0;
  return normalized.replace(/[A-Za-z0-9]+/g, (word) => tokens[index++] ?? word);
}
