import * as assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { brotliDecompressSync, constants as zlibConstants, createBrotliCompress } from 'node:zlib';
import { loadBundle } from '../../src/bundleCache';

const root = mkdtempSync(join(tmpdir(), 'obs-bundle-cache-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A bundle like dist/features.js: CommonJS, requires a built-in, reads __dirname, exports functions. */
function writeBundle(dir: string, answer: number): string {
  const file = join(dir, 'features.js');
  writeFileSync(
    file,
    [
      "'use strict';",
      "const path = require('node:path');",
      `function answer() { return ${answer}; }`,
      'exports.answer = answer;',
      'exports.here = () => path.basename(__dirname) + "/" + path.basename(__filename);',
      'exports.thisIsExports = this === exports;',
      'module.exports.line = () => new Error("where").stack.split("\\n")[1];',
      '',
    ].join('\n'),
  );
  return file;
}

/**
 * Loads the bundle in a fresh Node.js process: within one process V8 keeps compiled scripts in memory and would not
 * need the cache file at all.
 */
function loadInChild(file: string, cacheDir: string): { cache: string; answer: number } {
  const script = `const { loadBundle } = require(${JSON.stringify(require.resolve('../../src/bundleCache'))});
    const b = loadBundle(${JSON.stringify(file)}, ${JSON.stringify(cacheDir)});
    process.stdout.write(JSON.stringify({ cache: b.cache, answer: b.exports.answer() }));`;
  const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout) as { cache: string; answer: number };
}

/** Packs the bundles `names` of `dir` as the production build does (esbuild.mjs): one stream, a flush after each. */
async function pack(dir: string, names: string[]): Promise<void> {
  const compressor = createBrotliCompress();
  const chunks: Buffer[] = [];
  compressor.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => compressor.on('end', resolve));
  const index: Record<string, { start: number; end: number; packedEnd: number }> = {};
  let start = 0;
  for (const name of names) {
    const text = readFileSync(join(dir, name));
    compressor.write(text);
    await new Promise<void>((resolve) => compressor.flush(zlibConstants.BROTLI_OPERATION_FLUSH, () => resolve()));
    index[name] = { start, end: start + text.length, packedEnd: chunks.reduce((n, c) => n + c.length, 0) };
    start += text.length;
  }
  compressor.end();
  await ended;
  const packed = Buffer.concat(chunks);
  // The first bundle comes back from its part of the stream alone.
  const first = index[names[0]!]!;
  assert.equal(
    brotliDecompressSync(packed.subarray(0, first.packedEnd), { finishFlush: zlibConstants.BROTLI_OPERATION_FLUSH })
      .length,
    first.end,
  );
  writeFileSync(join(dir, 'bundles.br'), packed);
  writeFileSync(join(dir, 'bundles.json'), JSON.stringify(index));
}

type Exports = { answer(): number; here(): string; thisIsExports: boolean; line(): string };

describe('loadBundle (features bundle with a V8 code cache)', () => {
  it('evaluates the bundle as require would, then loads it from the cache it saved', () => {
    const dir = mkdtempSync(join(root, 'dist-'));
    const cacheDir = join(root, 'cache-a');
    const file = writeBundle(dir, 41);

    const first = loadBundle(file, cacheDir);
    const exports = first.exports as Exports;
    assert.equal(first.cache, 'none');
    assert.equal(exports.answer(), 41);
    assert.equal(exports.here(), `${dir.split(/[\\/]/).pop()}/features.js`);
    assert.equal(exports.thisIsExports, true);
    // Listed where require lists the modules it loaded, as require(file) would.
    assert.equal(require.cache[file]?.exports, exports);
    // Stack traces name the bundle file and its own line numbers.
    assert.match(exports.line(), /features\.js:7:/);

    first.saveCache();
    assert.equal(readdirSync(cacheDir).filter((f) => f.endsWith('.v8cache')).length, 1);

    assert.deepEqual(loadInChild(file, cacheDir), { cache: 'used', answer: 41 });
  });

  it('never runs the cache of another text of the bundle, even of the same length, and keeps only the newest cache', () => {
    const dir = mkdtempSync(join(root, 'dist-'));
    const cacheDir = join(root, 'cache-b');
    const file = writeBundle(dir, 41);
    loadBundle(file, cacheDir).saveCache();

    writeBundle(dir, 42); // same length, different code
    const changed = loadBundle(file, cacheDir);
    assert.equal(changed.cache, 'none');
    assert.equal((changed.exports as Exports).answer(), 42);
    changed.saveCache();
    assert.equal(readdirSync(cacheDir).filter((f) => f.endsWith('.v8cache')).length, 1);
    assert.deepEqual(loadInChild(file, cacheDir), { cache: 'used', answer: 42 });
  });

  it('compiles without the cache when V8 refuses it, and the bundle works all the same', () => {
    const dir = mkdtempSync(join(root, 'dist-'));
    const cacheDir = join(root, 'cache-c');
    const file = writeBundle(dir, 7);
    loadBundle(file, cacheDir).saveCache();
    const [cacheFile] = readdirSync(cacheDir);
    writeFileSync(join(cacheDir, cacheFile!), 'not a code cache');

    assert.deepEqual(loadInChild(file, cacheDir), { cache: 'rejected', answer: 7 });
    // The refused cache is written again, and the next load uses it.
    const saver = `const { loadBundle } = require(${JSON.stringify(require.resolve('../../src/bundleCache'))});
      loadBundle(${JSON.stringify(file)}, ${JSON.stringify(cacheDir)}).saveCache();`;
    assert.equal(spawnSync(process.execPath, ['-e', saver]).status, 0);
    assert.deepEqual(loadInChild(file, cacheDir), { cache: 'used', answer: 7 });
  });

  it('loads the Brotli-packed bundles of a production build (bundles.br, no plain files) with and without a cache', async () => {
    const dir = mkdtempSync(join(root, 'dist-'));
    const cacheDir = join(root, 'cache-d');
    const file = writeBundle(dir, 99);
    const second = join(dir, 'documents.js');
    writeFileSync(second, "'use strict';\nexports.twice = () => require('./features.js').answer() * 2;\n");
    await pack(dir, ['features.js', 'documents.js']);
    rmSync(file);
    rmSync(second);

    const first = loadBundle(file, cacheDir);
    const exports = first.exports as Exports;
    assert.equal(first.cache, 'none');
    assert.equal(exports.answer(), 99);
    // VS Code's extension host looks at the file of a module that requires `vscode`: it must exist.
    assert.ok(existsSync(require.cache[file]!.filename), 'the module names a file that does not exist');
    assert.equal(exports.here(), `${dir.split(/[\\/]/).pop()}/features.js`);
    assert.match(exports.line(), /features\.js:7:/);
    first.saveCache();
    assert.deepEqual(loadInChild(file, cacheDir), { cache: 'used', answer: 99 });

    const uncached = loadBundle(file, undefined);
    assert.equal(uncached.cache, 'off');
    assert.equal((uncached.exports as Exports).answer(), 99);

    // The second bundle of the stream, built on the first one, which its require is handed.
    const documents = loadBundle(second, cacheDir, { './features.js': exports });
    assert.equal((documents.exports as { twice(): number }).twice(), 198);
  });

  it('hands a bundle the modules it is given for its require, and loads everything else as require would', () => {
    const dir = mkdtempSync(join(root, 'dist-'));
    const file = join(dir, 'documents.js');
    writeFileSync(
      file,
      [
        "'use strict';",
        "const shared = require('./features.js');",
        'exports.read = () => shared.sharedModules.answer;',
        "exports.base = require('node:path').basename(__filename);",
        '',
      ].join('\n'),
    );
    const features = { sharedModules: { answer: 42 } };
    for (const cacheDir of [undefined, join(root, 'cache-f')]) {
      delete require.cache[file];
      const loaded = loadBundle(file, cacheDir, { './features.js': features });
      const exports = loaded.exports as { read(): number; base: string };
      assert.equal(exports.read(), 42);
      assert.equal(exports.base, 'documents.js');
    }
    // Without it, the bundle's require looks for the file, which is not there.
    delete require.cache[file];
    assert.throws(() => loadBundle(file, undefined), /Cannot find module '\.\/features\.js'/);
  });

  it('does not fail when the cache cannot be written, and is a plain require without a cache folder', () => {
    const dir = mkdtempSync(join(root, 'dist-'));
    const file = writeBundle(dir, 3);
    const blocked = join(root, 'blocked');
    writeFileSync(blocked, 'a file where the cache folder would be');
    const loaded = loadBundle(file, join(blocked, 'cache'));
    assert.doesNotThrow(() => loaded.saveCache());
    assert.equal((loaded.exports as Exports).answer(), 3);

    const plain = loadBundle(file, undefined);
    assert.equal(plain.cache, 'off');
    assert.equal((plain.exports as Exports).answer(), 3);
    chmodSync(blocked, 0o644);
  });
});
