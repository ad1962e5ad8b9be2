/**
 * Whether the SQL an agent asks to run only reads — decided conservatively: anything this cannot show to be a single
 * read statement is refused (never confirmed). Rules, on the text with comments removed and string literals blanked:
 * - exactly one statement (a `;` may only end it);
 * - it starts with SELECT, WITH, SHOW, DESCRIBE/DESC or EXPLAIN;
 * - no word that writes, changes settings or reaches outside the service appears anywhere as a keyword (INSERT,
 *   ALTER, CREATE, DROP, …, SET, SETTINGS, INTO OUTFILE), and no table function that reads files, URLs or other
 *   servers (`url(`, `s3(`, `file(`, `remote(`, …) is called.
 * A column that happens to be named like such a keyword is refused too; quoting it with backticks gets it through.
 * No `vscode` here: unit-tested in plain Node.
 */
import { splitStatements, stripComments } from '../api/query/sql';

const READ_STARTS = new Set(['SELECT', 'WITH', 'SHOW', 'DESCRIBE', 'DESC', 'EXPLAIN']);

/** Words that write, change state or settings, or export: refused wherever they stand as a keyword. */
const REFUSED_WORDS = new Set([
  'INSERT',
  'UPDATE',
  'DELETE',
  'ALTER',
  'CREATE',
  'DROP',
  'TRUNCATE',
  'RENAME',
  'ATTACH',
  'DETACH',
  'EXCHANGE',
  'OPTIMIZE',
  'GRANT',
  'REVOKE',
  'KILL',
  'SYSTEM',
  'SET',
  'SETTINGS',
  'USE',
  'OUTFILE',
  'BACKUP',
  'RESTORE',
  'UNDROP',
  'MOVE',
]);

/** Table functions that read files, URLs, other servers or run programs. */
const REFUSED_FUNCTIONS = new Set([
  'url',
  'urlcluster',
  's3',
  's3cluster',
  'gcs',
  'azureblobstorage',
  'azureblobstoragecluster',
  'file',
  'filecluster',
  'hdfs',
  'hdfscluster',
  'remote',
  'remotesecure',
  'cluster',
  'clusterallreplicas',
  'mysql',
  'postgresql',
  'mongodb',
  'redis',
  'sqlite',
  'jdbc',
  'odbc',
  'executable',
  'input',
  'iceberg',
  'deltalake',
  'hudi',
  'dictionary',
]);

export type ReadOnlyVerdict = { ok: true; statement: string } | { ok: false; reason: string };

/** The text with comments removed and the inside of string literals blanked (quoted identifiers kept). */
function codeOnly(sql: string): string {
  const text = stripComments(sql);
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'") {
      let j = i + 1;
      while (j < text.length) {
        if (text[j] === '\\') j += 2;
        else if (text[j] === "'") {
          if (text[j + 1] === "'") j += 2;
          else break;
        } else j++;
      }
      out += "''";
      i = j + 1;
    } else if (c === '`' || c === '"') {
      // Quoted identifiers are names, never keywords: blanked to a neutral name.
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      out += 'q';
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

export function checkReadOnly(sql: string): ReadOnlyVerdict {
  if (typeof sql !== 'string' || sql.trim() === '') return { ok: false, reason: 'the statement is empty' };
  const statements = splitStatements(sql);
  if (statements.length === 0) return { ok: false, reason: 'the statement is empty' };
  if (statements.length > 1) {
    return { ok: false, reason: `only one statement can run at a time (found ${statements.length})` };
  }
  const statement = statements[0]!.text;
  const code = codeOnly(statement);
  const first = /^[\s(]*([A-Za-z]+)/.exec(code)?.[1]?.toUpperCase() ?? '';
  if (!READ_STARTS.has(first)) {
    return {
      ok: false,
      reason: `only SELECT, WITH, SHOW, DESCRIBE and EXPLAIN statements run here${first ? ` (this one starts with ${first})` : ''}`,
    };
  }
  for (const m of code.matchAll(/([A-Za-z_][A-Za-z0-9_]*)/g)) {
    const word = m[1]!;
    const before = code[(m.index ?? 0) - 1];
    const after = code.slice((m.index ?? 0) + word.length).trimStart()[0];
    // `system.tables`, `t.delete`: a qualified name is no keyword.
    if (before === '.' || after === '.') continue;
    if (REFUSED_WORDS.has(word.toUpperCase())) {
      return {
        ok: false,
        reason: `the statement contains ${word.toUpperCase()}, which is not allowed in a read-only query`,
      };
    }
    if (after === '(' && REFUSED_FUNCTIONS.has(word.toLowerCase())) {
      return { ok: false, reason: `the table function ${word}() reads outside the service and is not allowed` };
    }
  }
  return { ok: true, statement };
}
