/** The agent's read-only SQL check: one read statement passes; anything it cannot show to only read is refused. */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { checkReadOnly } from '../../../src/agent/readOnlySql';

const ok = (sql: string) => {
  const v = checkReadOnly(sql);
  assert.ok(v.ok, `${sql}: ${v.ok ? '' : v.reason}`);
  return v.statement;
};
const refused = (sql: string, reason: RegExp) => {
  const v = checkReadOnly(sql);
  assert.equal(v.ok, false, `${sql} is refused`);
  if (!v.ok) assert.match(v.reason, reason, sql);
};

test('single read statements pass, with comments, strings, a trailing semicolon and qualified names', () => {
  ok('SELECT 1');
  ok("  -- count\nselect count() from otel_logs where Body = 'DROP TABLE x; INSERT';");
  ok('WITH t AS (SELECT 1 AS x) SELECT x FROM t');
  ok('(SELECT 1) UNION ALL (SELECT 2)');
  ok('SHOW TABLES');
  ok('DESCRIBE TABLE otel_logs');
  ok('DESC otel_logs');
  ok('EXPLAIN SELECT 1');
  ok('SELECT name FROM system.tables ORDER BY name DESC LIMIT 5');
  ok('SELECT `delete`, "update" FROM t /* ALTER */');
  assert.equal(ok('SELECT 1;  '), 'SELECT 1');
});

test('several statements, writes, DDL and settings are refused', () => {
  refused('', /empty/);
  refused('-- nothing', /empty/);
  refused('SELECT 1; SELECT 2', /one statement/);
  refused('SELECT 1; DROP TABLE t', /one statement/);
  refused('DROP TABLE t', /starts with DROP/);
  refused('INSERT INTO t SELECT 1', /starts with INSERT/);
  refused('ALTER TABLE t DELETE WHERE 1', /starts with ALTER/);
  refused('/* SELECT */ TRUNCATE TABLE t', /starts with TRUNCATE/);
  refused('SET readonly = 0', /starts with SET/);
  refused('SYSTEM FLUSH LOGS', /starts with SYSTEM/);
  refused('KILL QUERY WHERE 1', /starts with KILL/);
  refused('SELECT 1 SETTINGS readonly = 0', /SETTINGS/);
  refused("SELECT 1 INTO OUTFILE '/tmp/x'", /OUTFILE/);
  refused('WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x', /INSERT/);
  refused('EXPLAIN ALTER TABLE t DROP COLUMN c', /ALTER/);
});

test('table functions that read outside the service are refused', () => {
  refused("SELECT * FROM url('http://127.0.0.1/x', CSV)", /url\(\)/);
  refused("SELECT * FROM s3('https://bucket/x')", /s3\(\)/);
  refused("SELECT * FROM file('/etc/passwd')", /file\(\)/);
  refused("SELECT * FROM remote('host', db.t)", /remote\(\)/);
  refused("SELECT * FROM mysql('h', 'db', 't', 'u', 'p')", /mysql\(\)/);
  refused("SELECT * FROM executable('x', CSV, 'a String')", /executable\(\)/);
  // A column that happens to be called like one is fine.
  ok('SELECT url, file FROM t');
});
