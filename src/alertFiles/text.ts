/**
 * The text side of alert files: parsing (comments tolerated) and writing the `id` back with jsonc-parser edits, so
 * formatting and comments stay as they are.
 */
import {
  applyEdits,
  getNodeValue,
  modify,
  parseTree,
  type Node as JsonNode,
  type ParseError,
} from 'jsonc-parser/lib/esm/main';

export interface ParsedAlertFile {
  readonly root: JsonNode | undefined;
  /** The parsed value; undefined when the text has syntax errors. */
  readonly value: unknown;
  readonly syntaxErrors: readonly ParseError[];
}

/** Parses the text of an alert file. Comments are tolerated (and kept when the file is rewritten). */
export function parseAlertFile(text: string): ParsedAlertFile {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: false });
  const value: unknown = errors.length === 0 && root ? getNodeValue(root) : undefined;
  return { root, value, syntaxErrors: errors };
}

/** Detects the indentation of a file, for edits that match it. */
function formattingOf(textValue: string): { tabSize: number; insertSpaces: boolean; eol: string } {
  const eol = textValue.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^([ \t]+)"/m.exec(textValue)?.[1] ?? '  ';
  return indent.startsWith('\t')
    ? { tabSize: 1, insertSpaces: false, eol }
    : { tabSize: indent.length, insertSpaces: true, eol };
}

/**
 * The text with `id` set (formatting and comments kept). A new `id` goes right after `serviceId` (or
 * `organizationId`), where readers look for it.
 */
export function withId(textValue: string, id: string): string {
  const edits = modify(textValue, ['id'], id, {
    formattingOptions: formattingOf(textValue),
    getInsertionIndex: (properties) => {
      const after = Math.max(properties.indexOf('serviceId'), properties.indexOf('organizationId'));
      return after >= 0 ? after + 1 : 0;
    },
  });
  return applyEdits(textValue, edits);
}
