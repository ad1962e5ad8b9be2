import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as z from 'zod';

/**
 * Loading the extension's modules builds no zod schema: every module-level schema is a `lazySchema(() => …)` stand-in,
 * built the first time something parses with it. Every module of src/ that loads in plain Node is loaded here (this
 * file runs in its own process, and imports nothing of src/ before the count starts); the modules that import `vscode`
 * cannot, and their argument schemas are exercised by the connection commands' integration tests.
 *
 * A zod schema (or check) is counted when zod gives it its `_zod` internals; the first test proves the count sees
 * schemas being built, so a zod upgrade that builds them differently fails here instead of passing silently.
 */

const SRC = path.resolve(__dirname, '..', '..', '..', 'src');

let built = 0;
const defineProperty = Object.defineProperty;
function countingDefineProperty<T>(target: T, key: PropertyKey, attributes: PropertyDescriptor & ThisType<unknown>): T {
  if (key === '_zod') built++;
  return defineProperty(target, key, attributes);
}

function modulesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...modulesUnder(full));
    else if (entry.isFile() && entry.name.endsWith('.js')) out.push(full);
  }
  return out.sort();
}

const rel = (file: string) => path.relative(SRC, file).split(path.sep).join('/');

describe('schemas are built on first use', () => {
  const loaded: string[] = [];
  const notLoaded = new Map<string, string>();
  let builtWhileLoading = -1;

  before(async () => {
    assert.equal(
      Object.keys(require.cache).filter((f) => f.startsWith(SRC + path.sep)).length,
      0,
      'no module of src/ is loaded before the count starts',
    );
    Object.defineProperty = countingDefineProperty as typeof Object.defineProperty;
    try {
      for (const file of modulesUnder(SRC)) {
        try {
          await import(file);
          loaded.push(rel(file));
        } catch (err) {
          // `vscode` exists only inside VS Code; a module that fails stops before its own module-level code runs,
          // and whatever it built before failing is still counted.
          notLoaded.set(rel(file), err instanceof Error ? err.message.split('\n')[0] : String(err));
        }
      }
    } finally {
      builtWhileLoading = built;
    }
  });

  after(() => {
    Object.defineProperty = defineProperty;
  });

  it('counts every schema and check zod builds', () => {
    const before = built;
    z.object({ a: z.string().min(1) });
    // The object, its shape's string and the string's length check, at least.
    assert.ok(built - before >= 3, `building a schema counted ${built - before}`);
  });

  it('loads the schema modules, the clients and the connection types in plain Node', () => {
    for (const name of [
      'schema/index.js',
      'schema/alert.js',
      'schema/dashboard.js',
      'schema/source.js',
      'api/index.js',
      'api/oss/client.js',
      'api/query/client.js',
      'resources/kinds.js',
      'connections/types.js',
      'alertFiles/schema.js',
    ]) {
      assert.ok(loaded.includes(name), `${name} loads (${notLoaded.get(name) ?? 'not found'})`);
    }
    for (const [name, message] of notLoaded) {
      assert.ok(
        /Cannot find module 'vscode'|jsonc-parser\/lib\/esm/.test(message),
        `${name} fails to load only for want of VS Code (or jsonc-parser's ESM build): ${message}`,
      );
    }
  });

  it('builds no zod schema while the modules load', () => {
    assert.equal(
      builtWhileLoading,
      0,
      `loading ${loaded.length} modules built ${builtWhileLoading} zod schemas/checks`,
    );
  });

  it('builds a stand-in when it is first used, with the same rules and messages', async () => {
    const { storedConnectionSchema } = await import('../../../src/connections/types');
    const oss = await import('../../../src/api/oss/client');
    const before = built;
    const stored = storedConnectionSchema.safeParse({
      id: 'c1',
      label: 'Prod',
      baseUrl: 'https://api.clickhouse.cloud',
      organizationId: 'org',
      serviceIds: [],
      services: 'not a list',
      keyId: 'k',
      pathSegment: '',
    });
    assert.ok(built > before, 'parsing built the schema');
    assert.ok(stored.success);
    assert.deepEqual(stored.data.services, []);
    assert.equal(stored.data.pathSegment, 'observability');
    assert.equal(storedConnectionSchema.safeParse({ id: '' }).success, false);

    const messages = (schema: z.ZodType, value: unknown) => {
      const result = schema.safeParse(value);
      return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    const now = Date.now();
    const series = { sourceId: 's', aggFn: 'count', where: '', groupBy: [] };
    assert.deepEqual(messages(oss.seriesRequestSchema, { startTime: now - 1000, endTime: now, series: [series] }), []);
    assert.deepEqual(
      messages(oss.seriesRequestSchema, {
        startTime: 1_700_000_000,
        endTime: now,
        series: [series, { ...series, groupBy: ['ServiceName'] }],
      }),
      ['series: All series must have the same groupBy fields', 'startTime: Timestamp must be in milliseconds'],
    );
    assert.deepEqual(messages(oss.searchRequestSchema, { sourceId: 's', select: 'Body, (SELECT 1)' }), [
      'select: select must not contain semicolons or SELECT subqueries; use column references, map lookups, or scalar functions only',
    ]);
    assert.deepEqual(messages(oss.teamSchema, { id: 't', name: 'Team', extra: 1 }), []);
    assert.deepEqual(oss.teamMemberSchema.parse({ id: 'u', email: 'a@b.c', role: 'admin' }), {
      id: 'u',
      email: 'a@b.c',
      role: 'admin',
    });
    assert.deepEqual(messages(oss.seriesPointSchema, { ts_bucket: 'x' }), [
      'ts_bucket: Invalid input: expected number, received string',
    ]);
  });
});
