/**
 * Lucene terms on array columns, as ClickStack searches them (`renderArrayFieldExpression` in its query parser):
 * an element equal to or containing the term (`has`, `arrayExists(el -> el ILIKE …)`), numbers and booleans by
 * value, and arrays of maps (span events' `Events.Attributes`) by the element's key: `Events.Attributes.k:v`.
 */
import { sqlIdentifierPath, sqlString } from './sql';

/** What an array's elements are (`kindOf` of the element type). */
export type ElementKind = 'string' | 'number' | 'bool' | 'json' | 'map' | 'array' | 'unknown';

export class ArraySearchError extends Error {}

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, '\\$&');
}

/** The element's value under `key` (maps by subscript, JSON by path). */
function elementAt(kind: ElementKind, key: string): string {
  return kind === 'map' ? `el[${sqlString(key)}]` : `el.${sqlIdentifierPath(key)}`;
}

function needKey(column: string, key: string | undefined): string {
  if (!key) {
    const name = column.replace(/`/g, '');
    throw new ArraySearchError(
      `searching the array column ${name} needs the key of its elements, e.g. "${name}.key:value"`,
    );
  }
  return key;
}

/**
 * An element of `column` matches `term`: equal to it (`exact`, a quoted term) or containing it. `key` is the rest
 * of the field after the column (arrays of maps or JSON). `negated` puts NOT in front.
 */
export function arrayMatch(
  column: string,
  element: ElementKind,
  key: string | undefined,
  term: string,
  exact: boolean,
  negated: boolean,
): string {
  const not = negated ? 'NOT ' : '';
  if (element === 'number') return `${not}has(${column}, CAST(${sqlString(term)}, 'Float64'))`;
  if (element === 'bool') {
    const t = term.trim().toLowerCase();
    return `${not}has(${column}, ${t === 'true' ? '1' : t === 'false' ? '0' : sqlString(term)})`;
  }
  const like = sqlString(`%${escapeLike(term)}%`);
  if (element === 'map' || element === 'json') {
    const at = elementAt(element, needKey(column, key));
    const value = element === 'json' ? `toString(${at})` : at;
    return exact
      ? `${not}arrayExists(el -> ${value} = ${sqlString(term)}, ${column})`
      : `${not}arrayExists(el -> ${value} ILIKE ${like}, ${column})`;
  }
  if (element === 'string') {
    return exact ? `${not}has(${column}, ${sqlString(term)})` : `${not}arrayExists(el -> el ILIKE ${like}, ${column})`;
  }
  return exact
    ? `${not}arrayExists(el -> toString(el) = ${sqlString(term)}, ${column})`
    : `${not}arrayExists(el -> toString(el) ILIKE ${like}, ${column})`;
}

/** `field:*` on an array column: an element with a non-empty value under `key`, else a non-empty array. */
export function arrayNotEmpty(column: string, element: ElementKind, key: string | undefined, negated: boolean): string {
  if ((element === 'map' || element === 'json') && key) {
    return `${negated ? 'NOT ' : ''}arrayExists(el -> notEmpty(toString(${elementAt(element, key)})) = 1, ${column})`;
  }
  return `notEmpty(${column}) ${negated ? '!' : ''}= 1`;
}
