/**
 * Lucene search text → ClickHouse SQL condition, as ClickStack translates it (its `CustomSchemaSQLSerializerV2`
 * over the `@hyperdx/lucene` grammar), without the index-specific rewrites that do not change which rows match.
 *
 * Fields map to columns by the table's column types when known (`columns`): an exact column; else the longest
 * column that is a dotted prefix of the field — a Map column gives `Map['rest']` (plus ClickStack's
 * `indexHint(mapContains(…))`), a JSON column `toString(field)`, a String column `JSONExtractString(col, …path)`;
 * else the field is used as written (an alias). Bare terms search the source's implicit column (body).
 */
import * as lucene from '@hyperdx/lucene';
import { ArraySearchError, arrayMatch, arrayNotEmpty, type ElementKind } from './luceneArrays';
import { splitTopLevel, sqlIdentifier, sqlIdentifierPath, sqlString } from './sql';

export interface LuceneContext {
  /** Column types of the source table by column name (from DESCRIBE); undefined when not known. */
  columns?: Readonly<Record<string, string>> | undefined;
  /** Expression searched by bare terms (the source's implicit column, else its body expression). */
  implicitColumnExpression?: string | undefined;
}

export class LuceneError extends Error {}

const IMPLICIT = '<implicit>';

/** Range prefixes of a term (longest first) and the comparison that negates each. */
const RANGE_OPERATORS = [
  ['>=', '<'],
  ['<=', '>'],
  ['>', '<='],
  ['<', '>='],
] as const;

/** Map columns of ClickStack's default OpenTelemetry tables, used when the table's column types are not known. */
const DEFAULT_MAP_COLUMNS = ['LogAttributes', 'ResourceAttributes', 'ScopeAttributes', 'SpanAttributes', 'Attributes'];

function encodeSpecialTokens(query: string): string {
  return query
    .replace(/\\\\/g, 'HDX_BACKSLASH_LITERAL')
    .replace(/http:\/\//g, 'http_COLON_//')
    .replace(/https:\/\//g, 'https_COLON_//')
    .replace(/localhost:(\d{1,5})/g, 'localhost_COLON_$1')
    .replace(/\\:/g, 'HDX_COLON');
}

function decodeSpecialTokens(query: string): string {
  return query
    .replace(/\\"/g, '"')
    .replace(/HDX_BACKSLASH_LITERAL/g, '\\')
    .replace(/http_COLON_\/\//g, 'http://')
    .replace(/https_COLON_\/\//g, 'https://')
    .replace(/localhost_COLON_(\d{1,5})/g, 'localhost:$1')
    .replace(/HDX_COLON/g, ':');
}

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, '\\$&');
}

type Kind = ElementKind;

interface Resolved {
  column: string;
  kind: Kind;
  /** `AND indexHint(…)` for map keys. */
  postfix: string;
  /** Map subscript: the column is already rendered (not an identifier). */
  rendered: boolean;
  json?: { string: string; number: string };
  /** Array columns: what the elements are, and the rest of the field after the column (a key of map elements). */
  element?: Kind;
  arrayKey?: string;
}

function kindOf(type: string | undefined): Kind {
  if (!type) return 'unknown';
  let t = type.trim();
  for (;;) {
    const m = /^(?:Nullable|LowCardinality)\((.*)\)$/.exec(t);
    if (!m) break;
    t = (m[1] as string).trim();
  }
  if (/^Array\(/.test(t)) return 'array';
  if (/^Map\(/.test(t)) return 'map';
  if (/^(U?Int\d+|Float\d+|Decimal)/.test(t)) return 'number';
  if (/^Bool/.test(t)) return 'bool';
  if (/^(JSON|Object\()/.test(t)) return 'json';
  if (/^(String|FixedString|Enum|UUID|IPv[46])/.test(t)) return 'string';
  // As ClickStack: dates and times compare as numbers (`TimestampTime:1700000000`, `Timestamp:>1700000000`).
  if (/^Date/.test(t)) return 'number';
  return 'unknown';
}

const JSON_NUMBER_TYPES = [
  'Int8',
  'Int16',
  'Int32',
  'Int64',
  'Int128',
  'Int256',
  'UInt8',
  'UInt16',
  'UInt32',
  'UInt64',
  'UInt128',
  'UInt256',
  'Float32',
  'Float64',
];

class Translator {
  constructor(private readonly ctx: LuceneContext) {}

  private resolve(field: string, implicitOverride: string | undefined): Resolved {
    if (field === IMPLICIT) {
      const expr = implicitOverride ?? this.ctx.implicitColumnExpression;
      if (!expr) {
        throw new LuceneError(
          "bare search terms need the source's implicit column (body expression), which this source does not set",
        );
      }
      if (implicitOverride === undefined) {
        const parts = splitTopLevel(expr);
        return {
          column: parts.length > 1 ? `concatWithSeparator(';',${parts.join(',')})` : expr,
          kind: 'string',
          postfix: '',
          rendered: true,
        };
      }
      return this.resolveField(expr);
    }
    return this.resolveField(field);
  }

  private resolveField(field: string): Resolved {
    const columns = this.ctx.columns;
    if (columns) {
      const exact = columns[field];
      if (exact !== undefined) {
        const kind = kindOf(exact);
        if (kind === 'array') return this.arrayColumn(field, exact, undefined);
        return { column: field, kind, postfix: '', rendered: false };
      }
      // Longest dotted prefix that is a column.
      const parts = field.split('.');
      for (let n = parts.length - 1; n >= 1; n--) {
        const name = parts.slice(0, n).join('.');
        const type = columns[name];
        if (type === undefined) continue;
        const rest = parts.slice(n).join('.');
        const bare = type.replace(/^Nullable\((.*)\)$/, '$1');
        if (bare.startsWith('Map')) {
          const valueType = /,\s+(\w+)\)$/.exec(bare)?.[1];
          return {
            column: `${sqlIdentifierPath(name)}[${sqlString(rest)}]`,
            kind: kindOf(valueType),
            postfix: ` AND indexHint(mapContains(${sqlIdentifierPath(name)}, ${sqlString(rest)}))`,
            rendered: true,
          };
        }
        if (bare.startsWith('JSON')) {
          return {
            column: '',
            kind: 'json',
            postfix: '',
            rendered: true,
            json: {
              string: `toString(${sqlIdentifierPath(field)})`,
              number: `dynamicType(${sqlIdentifierPath(field)}) in (${JSON_NUMBER_TYPES.map(sqlString).join(', ')}) and ${sqlIdentifierPath(field)}`,
            },
          };
        }
        if (bare === 'String') {
          const path = rest.split('.');
          return {
            column: `JSONExtractString(${sqlIdentifierPath(name)}, ${path.map(sqlString).join(',')})`,
            kind: 'string',
            postfix: '',
            rendered: true,
          };
        }
        if (bare.startsWith('Array')) return this.arrayColumn(name, bare, rest);
        throw new LuceneError(`column "${name}" has type ${type}, which a search cannot look inside`);
      }
      return { column: field, kind: 'unknown', postfix: '', rendered: false };
    }
    // Column types unknown: the default OpenTelemetry map columns, else the field as written.
    const dot = field.indexOf('.');
    if (dot > 0 && DEFAULT_MAP_COLUMNS.includes(field.slice(0, dot))) {
      const name = field.slice(0, dot);
      const rest = field.slice(dot + 1);
      return {
        column: `${sqlIdentifierPath(name)}[${sqlString(rest)}]`,
        kind: 'string',
        postfix: ` AND indexHint(mapContains(${sqlIdentifierPath(name)}, ${sqlString(rest)}))`,
        rendered: true,
      };
    }
    return { column: field, kind: 'unknown', postfix: '', rendered: false };
  }

  /** An array column (`Events.Name`), or a key inside its map elements (`Events.Attributes` + `exception.type`). */
  private arrayColumn(name: string, type: string, key: string | undefined): Resolved {
    const inner = /^(?:Nullable\()?Array\((.*)\)\)?$/.exec(type.trim())?.[1];
    return {
      column: sqlIdentifier(name),
      kind: 'array',
      postfix: '',
      rendered: true,
      element: kindOf(inner),
      ...(key ? { arrayKey: key } : {}),
    };
  }

  private array(r: Resolved, term: string, exact: boolean, neg: boolean): string {
    try {
      return arrayMatch(r.column, r.element ?? 'unknown', r.arrayKey, term, exact, neg);
    } catch (e) {
      if (e instanceof ArraySearchError) throw new LuceneError(e.message);
      throw e;
    }
  }

  private static noWholeMap(r: Resolved): void {
    if (r.kind === 'map') {
      throw new LuceneError(
        `the map column ${r.column} cannot be searched whole: name a key, e.g. "${r.column}.key:value"`,
      );
    }
  }

  private operand(r: Resolved): string {
    return r.rendered ? r.column : sqlIdentifierPath(r.column);
  }

  private boolValue(term: string): string {
    const t = term.trim().toLowerCase();
    return t === 'true' ? '1' : t === 'false' ? '0' : String(parseInt(t, 10));
  }

  private eq(field: string, term: string, neg: boolean, override: string | undefined): string {
    const r = this.resolve(field, override);
    const post = r.postfix && !neg ? r.postfix : '';
    if (r.kind === 'array') return this.array(r, term, true, neg);
    Translator.noWholeMap(r);
    if (r.kind === 'bool') return `(${this.operand(r)} ${neg ? '!' : ''}= ${this.boolValue(term)}${post})`;
    if (r.kind === 'number') return `(${r.column} ${neg ? '!' : ''}= CAST(${sqlString(term)}, 'Float64')${post})`;
    if (r.kind === 'json') return `(${r.json?.string} ${neg ? '!' : ''}= ${sqlString(term)}${post})`;
    return `(${r.column} ${neg ? '!' : ''}= ${sqlString(term)}${post})`;
  }

  private notNull(field: string, neg: boolean, override: string | undefined): string {
    const r = this.resolve(field, override);
    const post = r.postfix && !neg ? r.postfix : '';
    if (r.kind === 'array') return arrayNotEmpty(r.column, r.element ?? 'unknown', r.arrayKey, neg);
    if (r.kind === 'json') return `notEmpty(${r.json?.string}) ${neg ? '!' : ''}= 1${post}`;
    // ClickStack writes notEmpty(…) here too, which ClickHouse refuses for numbers and dates: every row has a value.
    if ((r.kind === 'number' || r.kind === 'bool') && !r.rendered) {
      return `(${this.operand(r)} IS ${neg ? '' : 'NOT '}NULL)`;
    }
    return `notEmpty(${r.column}) ${neg ? '!' : ''}= 1${post}`;
  }

  private compare(op: '>' | '<' | '>=' | '<=', field: string, term: string, override: string | undefined): string {
    const r = this.resolve(field, override);
    if (r.kind === 'array') throw new LuceneError(`${op} comparison is not supported for Array-type fields`);
    if (r.kind === 'json') return `(${r.json?.number} ${op} ${sqlString(term)}${r.postfix})`;
    return `(${r.column} ${op} ${sqlString(term)}${r.postfix})`;
  }

  private numberOrString(term: string): string {
    const n = Number(term);
    return Number.isNaN(n) ? sqlString(term) : String(n);
  }

  private range(
    field: string,
    min: string,
    max: string,
    inclusive: string,
    neg: boolean,
    override: string | undefined,
  ): string {
    const r = this.resolve(field, override);
    if (r.kind === 'array') throw new LuceneError('range comparison is not supported for Array-type fields');
    const post = r.postfix && !neg ? r.postfix : '';
    const openMin = min === '*';
    const openMax = max === '*';
    if (openMin && openMax) return this.notNull(field, neg, override);
    if (!openMin && !openMax && inclusive === 'both') {
      return `(${r.column} ${neg ? 'NOT ' : ''}BETWEEN ${this.numberOrString(min)} AND ${this.numberOrString(max)}${post})`;
    }
    const bounds: string[] = [];
    if (!openMin) {
      bounds.push(
        `${r.column} ${inclusive === 'both' || inclusive === 'left' ? '>=' : '>'} ${this.numberOrString(min)}`,
      );
    }
    if (!openMax) {
      bounds.push(
        `${r.column} ${inclusive === 'both' || inclusive === 'right' ? '<=' : '<'} ${this.numberOrString(max)}`,
      );
    }
    return neg ? `(NOT (${bounds.join(' AND ')})${post})` : `(${bounds.join(' AND ')}${post})`;
  }

  private search(
    field: string,
    term: string,
    neg: boolean,
    pre: boolean,
    suf: boolean,
    override: string | undefined,
    negParen: boolean,
  ): string {
    const isImplicit = field === IMPLICIT;
    const r = this.resolve(field, override);
    const post = r.postfix && !neg && (!isImplicit || !negParen) ? r.postfix : '';
    if (r.kind === 'array') return this.array(r, term, false, neg);
    Translator.noWholeMap(r);
    if (r.kind === 'bool') return `(${this.operand(r)} ${neg ? '!' : ''}= ${this.boolValue(term)}${post})`;
    if (r.kind === 'number') {
      return `(${this.operand(r)} ${neg ? '!' : ''}= CAST(${sqlString(term)}, 'Float64')${post})`;
    }
    if (r.kind === 'json') {
      return `(${r.json?.string} ${neg ? 'NOT ' : ''}ILIKE ${sqlString(`%${escapeLike(term)}%`)}${post})`;
    }
    if (term.length === 0) return '(1=1)';
    if (isImplicit) {
      const column = r.column;
      if (pre || suf) {
        return `(lower(${column}) ${neg ? 'NOT ' : ''}LIKE lower(${sqlString(`${pre ? '%' : ''}${escapeLike(term)}${suf ? '%' : ''}`)}))`;
      }
      if (override === undefined) {
        // ClickStack's token search on the implicit column (no text or bloom-filter index assumed).
        const separators = /[ -/:-@[-`{-~\t\n\r]+/;
        if (separators.test(term)) {
          const tokens = term.split(separators).filter((t) => t.length > 0);
          const parts = [
            ...tokens.map((t) => `hasToken(lower(${column}), lower(${sqlString(t)}))`),
            `(lower(${column}) LIKE lower(${sqlString(`%${escapeLike(term)}%`)}))`,
          ];
          return `(${neg ? 'NOT (' : ''}${parts.join(' AND ')}${neg ? ')' : ''})`;
        }
        return `(${neg ? 'NOT ' : ''}hasToken(lower(${column}), lower(${sqlString(term)})))`;
      }
    }
    return `(${r.column} ${neg ? 'NOT ' : ''}ILIKE ${sqlString(`%${escapeLike(term)}%`)}${post})`;
  }

  private node(node: lucene.Node, override: string | undefined, negParen: boolean): string {
    const rawField = node.field;
    const field = rawField.startsWith('-') ? rawField.slice(1) : rawField;
    let neg = rawField.startsWith('-');
    const isImplicit = rawField === IMPLICIT;
    if ('term' in node && node.term != null) {
      let term = decodeSpecialTokens(node.term);
      if (isImplicit && node.prefix === '-') neg = true;
      if (!isImplicit && node.prefix === '-') term = node.prefix + term;
      if (node.quoted && !isImplicit) return this.eq(field, term, neg, override);
      if (!node.quoted && term === '*') return this.notNull(field, neg, override);
      if (!node.quoted) {
        const range = RANGE_OPERATORS.find(([op]) => term.startsWith(op));
        if (range) return this.compare(neg ? range[1] : range[0], field, term.slice(range[0].length), override);
      }
      let pre = false;
      let suf = false;
      if (!node.quoted && term.startsWith('*')) {
        pre = true;
        term = term.slice(1);
      }
      if (!node.quoted && term.endsWith('*')) {
        suf = true;
        term = term.slice(0, -1);
      }
      return this.search(field, term, neg, pre, suf, override, negParen);
    }
    const ranged = node as lucene.NodeRangedTerm;
    return this.range(field, ranged.term_min, ranged.term_max, ranged.inclusive, neg, override);
  }

  private operator(op: string | undefined): string {
    switch (op) {
      case 'NOT':
      case 'AND NOT':
        return 'AND NOT';
      case 'OR NOT':
        return 'OR NOT';
      case '&&':
      case '<implicit>':
      case 'AND':
        return 'AND';
      case '||':
      case 'OR':
        return 'OR';
      default:
        throw new LuceneError(`unexpected operator ${String(op)}`);
    }
  }

  serialize(ast: lucene.AST | lucene.Node, override: string | undefined, negParen: boolean): string {
    const a = ast as lucene.AST & Partial<lucene.NodeTerm> & Partial<lucene.NodeRangedTerm>;
    if ((a.term != null && 'field' in a) || (a.inclusive != null && 'field' in a)) {
      return this.node(ast as lucene.Node, override, negParen);
    }
    let nextOverride = override;
    let nextNegParen = negParen;
    const isNegParen = Boolean(a.parenthesized && a.field?.startsWith('-'));
    if (a.field && a.parenthesized && a.field !== IMPLICIT) {
      nextOverride = a.field.startsWith('-') ? a.field.slice(1) : a.field;
      if (isNegParen) nextNegParen = true;
    }
    const open = a.parenthesized ? '(' : '';
    const close = a.parenthesized ? ')' : '';
    const start = a.start != null ? `${a.start} ` : '';
    if (a.right != null && a.left != null) {
      const op = this.operator(a.operator);
      return `${isNegParen ? 'NOT ' : ''}${open}${start}${this.serialize(a.left, nextOverride, nextNegParen)} ${op} ${this.serialize(a.right, nextOverride, nextNegParen)}${close}`;
    }
    if (a.left != null) {
      return `${isNegParen ? 'NOT ' : ''}${open}${start}${this.serialize(a.left, nextOverride, nextNegParen)}${close}`;
    }
    return '';
  }
}

/**
 * Translates Lucene search text to a SQL condition (wrapped in parentheses as ClickStack's query builder does),
 * or '' for empty text. Throws LuceneError with a readable message for syntax errors and unsupported parts.
 */
export function luceneToSql(query: string, ctx: LuceneContext): string {
  if (!query.trim()) return '';
  let ast: lucene.AST;
  try {
    ast = lucene.parse(encodeSpecialTokens(query));
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new LuceneError(`the Lucene search "${query}" cannot be parsed: ${message}`);
  }
  const sql = new Translator(ctx).serialize(ast, undefined, false);
  return sql ? `(${sql})` : '';
}
