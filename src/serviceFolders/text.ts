/** The text side of service folder files: parsing (comments tolerated) and writing an `id` in, formatting kept. */
import { applyEdits, modify, parse, type ParseError } from 'jsonc-parser/lib/esm/main';

/** The value of a file's text, or why it cannot be read. */
export function parseFileText(text: string): { value: unknown } | { error: string } {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: false, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0]!;
    const line = text.slice(0, first.offset).split('\n').length;
    return { error: `not valid JSON (line ${line})` };
  }
  return { value };
}

/** The text with `id` set, first in the object when it is new (formatting and comments kept). */
export function withIdText(text: string, id: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^([ \t]+)"/m.exec(text)?.[1] ?? '  ';
  const formattingOptions = indent.startsWith('\t')
    ? { tabSize: 1, insertSpaces: false, eol }
    : { tabSize: indent.length, insertSpaces: true, eol };
  return applyEdits(text, modify(text, ['id'], id, { formattingOptions, getInsertionIndex: () => 0 }));
}
