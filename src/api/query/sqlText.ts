/**
 * ClickHouse SQL text as ClickStack's renderer writes it: literal and identifier quoting, and bracket-aware splitting
 * of expression lists. Vscode-free, so the tile renderer and the code model's statements share it.
 */

/** A string literal as ClickStack writes it (MySQL-style escapes, which ClickHouse reads the same way). */
export function sqlString(value: string): string {
  // eslint-disable-next-line no-control-regex
  const escaped = value.replace(/[\0\b\t\n\r\x1a"'\\]/g, (ch) => {
    switch (ch) {
      case '\0':
        return '\\0';
      case '\b':
        return '\\b';
      case '\t':
        return '\\t';
      case '\n':
        return '\\n';
      case '\r':
        return '\\r';
      case '\x1a':
        return '\\Z';
      default:
        return `\\${ch}`;
    }
  });
  return `'${escaped}'`;
}

/** A value as a SQL literal: numbers bare, booleans as true/false, strings quoted. */
export function sqlValue(value: string | number | boolean): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'NULL';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return sqlString(value);
}

/** An identifier in backticks; a dotted name becomes `a`.`b` (as ClickStack's `escapeId`). */
export function sqlIdentifierPath(name: string): string {
  return name
    .split('.')
    .map((part) => `\`${part.replace(/`/g, '``')}\``)
    .join('.');
}

/** One identifier in backticks (dots kept inside). */
export function sqlIdentifier(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

/** `db`.`table` of a source (the database omitted when empty). */
export function tableRef(databaseName: string | null | undefined, tableName: string): string {
  return databaseName ? `${sqlIdentifier(databaseName)}.${sqlIdentifier(tableName)}` : sqlIdentifier(tableName);
}

/**
 * Splits a comma-separated expression list at top level: commas inside (), [], {} or quotes do not split.
 * Each part is trimmed; empty parts are dropped.
 */
export function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let current = '';
  for (let i = 0; i < list.length; i++) {
    const ch = list[i] as string;
    if (quote) {
      current += ch;
      if (ch === '\\' && i + 1 < list.length) {
        current += list[++i];
      } else if (ch === quote) {
        quote = undefined;
      }
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`') {
      quote = ch;
      current += ch;
    } else if (ch === '(' || ch === '[' || ch === '{') {
      depth++;
      current += ch;
    } else if (ch === ')' || ch === ']' || ch === '}') {
      depth--;
      current += ch;
    } else if (ch === ',' && depth === 0) {
      if (current.trim()) parts.push(current.trim());
      current = '';
    } else {
      current += ch;
    }
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}
