// Bundles the extension (cjs, node, `vscode` external) into three files: dist/extension.js, the thin entry VS Code
// evaluates at activation (view, commands, triggers; no zod, no undici); dist/features.js, the explorer behind them
// (connections, API clients, schemas, tree, status item), which the entry loads on first use (src/bundleCache.ts: as
// require would, with a V8 code cache); and dist/documents.js, the editor features (resource documents, alert files,
// SQL, previews), loaded on top of the features bundle when first needed. (VS Code 1.100 cannot load an ESM `main`, so
// no esbuild code splitting: the documents bundle reaches the modules the features bundle holds through it, see
// `fromFeatures`.) `--production` minifies, drops source maps and ships both bundles Brotli-packed (*.js.br); `--watch`
// rebuilds on change.
import * as esbuild from 'esbuild';
import { Buffer } from 'node:buffer';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, createBrotliCompress, constants as zlibConstants } from 'node:zlib';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

/**
 * undici carries two builds of its HTTP parser: a WebAssembly SIMD one, and a plain one that is
 * only loaded when SIMD is unavailable. Node 20 on x64 and arm64 always has SIMD, so the plain copy
 * (70 KB) is replaced by a module that explains the failure instead of shipping it.
 */
const dropPlainHttpParser = {
  name: 'drop-plain-llhttp',
  setup(build) {
    build.onResolve({ filter: /llhttp\/llhttp-wasm\.js$/ }, (args) => ({ path: args.path, namespace: 'llhttp-stub' }));
    build.onLoad({ filter: /.*/, namespace: 'llhttp-stub' }, () => ({
      contents:
        "throw new Error('This Node.js runtime lacks WebAssembly SIMD, which the HTTP parser needs. Use a VS Code build whose Node.js supports it.');",
      loader: 'js',
    }));
  },
};

/**
 * undici's WebAssembly HTTP parser (SIMD build) ships as a Brotli-compressed binary beside the bundle,
 * dist/llhttp_simd.wasm.br (15 KB), instead of as a base64 string inside it (71 KB, 24 KB in the VSIX's zip). It is
 * read and decompressed (under 1 ms) when the first request creates a connection.
 */
const LLHTTP_WASM = 'llhttp_simd.wasm.br';
const llhttpWasmAsFile = {
  name: 'llhttp-wasm-file',
  setup(build) {
    build.onResolve({ filter: /llhttp\/llhttp_simd-wasm\.js$/ }, (args) => ({
      path: join(args.resolveDir, args.path),
      namespace: 'llhttp-wasm-file',
    }));
    build.onLoad({ filter: /.*/, namespace: 'llhttp-wasm-file' }, (args) => {
      const bytes = createRequire(import.meta.url)(args.path);
      mkdirSync(build.initialOptions.outdir, { recursive: true });
      const brotli = brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } });
      writeFileSync(join(build.initialOptions.outdir, LLHTTP_WASM), brotli);
      return {
        contents: `module.exports = require('node:zlib').brotliDecompressSync(require('node:fs').readFileSync(require('node:path').join(__dirname, ${JSON.stringify(LLHTTP_WASM)})));`,
        loader: 'js',
      };
    });
  },
};

/**
 * undici's HTTP/1.1 client reads only the ERROR and TYPE tables of the HTTP parser's constants; the module also builds
 * character and method tables for the parser's generator (10 KB minified). The bundle carries the two tables.
 */
const llhttpConstantsTrimmed = {
  name: 'llhttp-constants',
  setup(build) {
    build.onResolve({ filter: /llhttp\/constants(\.js)?$/ }, (args) => ({
      path: join(args.resolveDir, args.path),
      namespace: 'llhttp-constants',
    }));
    build.onLoad({ filter: /.*/, namespace: 'llhttp-constants' }, (args) => {
      const { ERROR, TYPE } = createRequire(import.meta.url)(args.path);
      return { contents: `module.exports = ${JSON.stringify({ ERROR, TYPE })};`, loader: 'js' };
    });
  },
};

/**
 * Parts of undici and zod the extension never reaches, replaced by modules that fail with a clear message if they
 * ever are: HTTP/2 (the connector offers only http/1.1 in ALPN, as `allowH2` is never set), SOCKS proxies (proxy
 * URLs other than http:// and https:// are refused before undici sees them), fetch's body extraction (only used for
 * FormData request bodies; the client sends strings), the stream/pipeline/upgrade request styles (the client uses
 * `request`, ProxyAgent `connect`), and zod's JSON Schema generation (the schemas are generated at build time into
 * dist/schemas/). The bundle build checks below that none of them slips back in.
 */
const UNUSED = [
  { filter: /undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/, what: 'HTTP/2' },
  { filter: /undici[\\/]lib[\\/]dispatcher[\\/]socks5-proxy-agent(\.js)?$/, what: 'SOCKS proxies' },
  { filter: /undici[\\/]lib[\\/]web[\\/]fetch[\\/]body\.js$/, what: 'FormData request bodies' },
  { filter: /undici[\\/]lib[\\/]api[\\/]api-(stream|pipeline|upgrade)(\.js)?$/, what: 'streamed request styles' },
];
const ZOD_JSON_SCHEMA = /zod[\\/]v4[\\/]core[\\/](to-json-schema|json-schema-processors|json-schema-generator)\.js$/;
const dropUnusedParts = {
  name: 'drop-unused-parts',
  setup(build) {
    const unavailable = (what) =>
      `function unavailable() { throw new Error(${JSON.stringify(`Not part of this build of the extension: ${what}.`)}); }`;
    build.onResolve({ filter: /./ }, async (args) => {
      if (args.pluginData === 'drop-unused-parts' || args.kind === 'entry-point') return undefined;
      if (!/undici|zod|\.\.?\//.test(args.path) || !/node_modules[\\/](undici|zod)[\\/]/.test(args.resolveDir))
        return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'drop-unused-parts',
      });
      if (resolved.errors.length > 0) return undefined;
      const hit = UNUSED.find((u) => u.filter.test(resolved.path));
      if (hit) return { path: resolved.path, namespace: 'unused', pluginData: hit.what };
      if (ZOD_JSON_SCHEMA.test(resolved.path)) return { path: resolved.path, namespace: 'unused-esm' };
      return undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'unused' }, (args) => ({
      contents: `${unavailable(args.pluginData)}\nmodule.exports = unavailable;\nmodule.exports.extractBody = unavailable;`,
      loader: 'js',
    }));
    // ESM stand-ins with the same export names; the create* helpers are called when a schema is built and must
    // return the (failing) method instead of failing themselves.
    build.onLoad({ filter: /.*/, namespace: 'unused-esm' }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const names = new Set();
      for (const m of source.matchAll(/^export (?:const|function|class) (\w+)/gm)) names.add(m[1]);
      const lines = [unavailable('JSON Schema generation')];
      for (const name of names) {
        lines.push(
          name.startsWith('create')
            ? `export const ${name} = () => unavailable;`
            : name === 'allProcessors'
              ? `export const ${name} = {};`
              : `export const ${name} = unavailable;`,
        );
      }
      if (/export \{ processSchema as process \}/.test(source)) lines.push('export { processSchema as process };');
      return { contents: lines.join('\n'), loader: 'js' };
    });
  },
};

/**
 * The `.describe('…')` texts of the zod schemas feed only the JSON Schemas generated at build time (hover docs in the
 * editor, dist/schemas/); nothing in the extension reads them at run time. The host bundle leaves out the calls whose
 * argument is a plain string literal (the texts stay in dist/schemas/ and in the schema generator's own build).
 */
const DESCRIBE_CALL = /\.describe\(\s*('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\$]|\\.)*`)\s*,?\s*\)/g;
const schemaTextsDropped = {
  name: 'schema-texts-dropped',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/](schema|alertFiles)[\\/][^\\/]+\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      return { contents: source.replace(DESCRIBE_CALL, ''), loader: 'ts' };
    });
  },
};

/** The entry's `require('./features')` (or `./documents`) stays a run-time require of the sibling bundle. */
const featuresBundleExternal = {
  name: 'features-external',
  setup(build) {
    build.onResolve({ filter: /^\.\/(features|documents)$/ }, (args) =>
      args.importer.endsWith(join('src', 'extension.ts')) ? { path: `${args.path}.js`, external: true } : undefined,
    );
  },
};

/**
 * `import * as vscode from 'vscode'` of an external CommonJS module compiles to `__toESM(require('vscode'))` in every
 * importing module: a fresh object with a getter per property of the API (about 200), rebuilt in each of the ~90
 * modules, which cost about 12 ms of the features bundle's first load. Instead every import of `vscode` resolves to one
 * module that reads the API once and exports each of its top-level names (those @types/vscode declares), so the
 * importers refer to them directly.
 */
const VSCODE_API_NAMES = [
  ...readFileSync(new URL('./node_modules/@types/vscode/index.d.ts', import.meta.url), 'utf8').matchAll(
    /^\texport (?:class|namespace|enum|function|const|let|var) (\w+)/gm,
  ),
].map((m) => m[1]);
const vscodeApiOnce = {
  name: 'vscode-api-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-api'
        ? { path: 'vscode', external: true }
        : { path: 'vscode', namespace: 'vscode-api' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-api' }, () => ({
      contents: [
        "const api = require('vscode');",
        'const read = (name) => api[name];',
        // Marked pure, so the names nothing uses are left out.
        ...[...new Set(VSCODE_API_NAMES)].map((name) => `export const ${name} = /* @__PURE__ */ read('${name}');`),
      ].join('\n'),
      loader: 'js',
    }));
  },
};

/**
 * The documents bundle is built on top of the features bundle: every module it imports that has code in the features
 * bundle (API clients, schemas, connections, resources, zod, …) is not bundled again but read from the features
 * bundle's `sharedModules` (added to it by `sharedRegistry`), so both use one instance of each module — one zod, one
 * connection manager class, one error class for `instanceof`. The entry hands the loaded features bundle to the
 * documents bundle's `require('./features.js')` (src/bundleCache.ts).
 *
 * `featureInputs` maps each such module (a path relative to this folder) to its format, and `exportsOf` an ES
 * module to its export names. An ES module is replaced by one that exports each name as a pure read of the registry,
 * so the documents bundle keeps (and `usedExports` lists) only the names it uses, and the registry only holds those;
 * a read happens when the documents bundle loads, after the features bundle has run. A CommonJS module (undici) is
 * handed over whole, when first required.
 */
const FROM_FEATURES = 'from-features';
const READ_SHARED = 'from-features-read';
function fromFeatures(featureInputs, exportsOf) {
  return {
    name: FROM_FEATURES,
    setup(build) {
      build.onResolve({ filter: /^\.\/features\.js$/ }, (args) =>
        args.namespace === FROM_FEATURES || args.namespace === READ_SHARED
          ? { path: './features.js', external: true }
          : undefined,
      );
      build.onResolve({ filter: new RegExp(`^${READ_SHARED}$`) }, () => ({
        path: READ_SHARED,
        namespace: READ_SHARED,
      }));
      build.onLoad({ filter: /.*/, namespace: READ_SHARED }, () => ({
        contents:
          "const shared = require('./features.js').sharedModules;\n" +
          'export function readShared(key, name) {\n' +
          '  const module = shared[key];\n' +
          '  if (!module || !(name in module)) throw new Error(`dist/features.js does not hand over ${name} of ${key}`);\n' +
          '  return module[name];\n' +
          '}',
        loader: 'js',
      }));
      build.onResolve({ filter: /./ }, async (args) => {
        // Other plugins' own look-ups pass through.
        if (args.pluginData !== undefined || args.kind === 'entry-point' || args.namespace !== 'file') return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: FROM_FEATURES,
        });
        if (resolved.errors.length > 0 || resolved.external || resolved.namespace !== 'file') return undefined;
        const key = relative(process.cwd(), resolved.path).split(sep).join('/');
        return featureInputs.has(key) ? { path: key, namespace: FROM_FEATURES } : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: FROM_FEATURES }, (args) => {
        const key = args.path;
        if (featureInputs.get(key) !== 'esm') {
          return {
            contents: `module.exports = require('./features.js').sharedModules[${JSON.stringify(key)}];`,
            loader: 'js',
          };
        }
        const names = exportsOf.get(key) ?? [];
        const lines = [`import { readShared } from '${READ_SHARED}';`];
        names.forEach((name, i) =>
          lines.push(`const e${i} = /* @__PURE__ */ readShared(${JSON.stringify(key)}, ${JSON.stringify(name)});`),
        );
        if (names.length > 0)
          lines.push(`export { ${names.map((name, i) => `e${i} as ${JSON.stringify(name)}`).join(', ')} };`);
        return { contents: lines.join('\n'), loader: 'js' };
      });
    },
  };
}

/** The (module, export name) pairs the documents bundle reads from the features bundle, found in its text. */
function usedExports(documentsText) {
  const used = new Map();
  for (const m of documentsText.matchAll(/\("((?:src|node_modules)\/[^"]+)",\s*"([^"]+)"\)/g)) {
    if (!used.has(m[1])) used.set(m[1], new Set());
    used.get(m[1]).add(m[2]);
  }
  for (const m of documentsText.matchAll(/sharedModules\["((?:src|node_modules)\/[^"]+)"\]/g)) used.set(m[1], 'module');
  return used;
}

/**
 * Adds `sharedModules` to the features bundle's exports: for each module the documents bundle reads (`usedExports`),
 * by its path, the names it reads (an ES module) or the whole module behind a getter (a CommonJS module, so that one
 * loaded on first use, such as undici, still is).
 */
function sharedRegistry(used) {
  const REGISTRY = 'features-shared-modules';
  return {
    name: 'shared-registry',
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/]features\.ts$/ }, (args) => ({
        contents: `${readFileSync(args.path, 'utf8')}\nexport { sharedModules } from '${REGISTRY}';\n`,
        loader: 'ts',
      }));
      build.onResolve({ filter: new RegExp(`^${REGISTRY}$`) }, () => ({ path: REGISTRY, namespace: REGISTRY }));
      build.onLoad({ filter: /.*/, namespace: REGISTRY }, () => {
        const entries = [...used].sort(([a], [b]) => a.localeCompare(b));
        const imports = [];
        const fields = [];
        entries.forEach(([key, names], i) => {
          const from = JSON.stringify(`./${key}`);
          if (names === 'module') {
            fields.push(`  get ${JSON.stringify(key)}() { return require(${from}); },`);
            return;
          }
          const list = [...names].sort();
          imports.push(
            `import { ${list.map((name, j) => `${JSON.stringify(name)} as m${i}_${j}`).join(', ')} } from ${from};`,
          );
          fields.push(
            `  ${JSON.stringify(key)}: { ${list.map((name, j) => `${JSON.stringify(name)}: m${i}_${j}`).join(', ')} },`,
          );
        });
        return {
          contents: [...imports, 'export const sharedModules = {', ...fields, '};'].join('\n'),
          loader: 'js',
          resolveDir: process.cwd(),
        };
      });
    },
  };
}

/** @type {import('esbuild').BuildOptions} */
const options = {
  plugins: [
    dropPlainHttpParser,
    llhttpWasmAsFile,
    llhttpConstantsTrimmed,
    dropUnusedParts,
    schemaTextsDropped,
    featuresBundleExternal,
    vscodeApiOnce,
  ],
  entryPoints: { extension: 'src/extension.ts', features: 'src/features.ts' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outdir: 'dist',
  external: ['vscode'],
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  legalComments: production ? 'none' : 'inline',
  metafile: true,
  logLevel: 'warning',
  define: {
    EXTENSION_VERSION: JSON.stringify(pkg.version),
    EXTENSION_NAME: JSON.stringify(pkg.name),
  },
};

/** The query results webview's script: its own browser bundle, loaded only when the results panel opens. */
const webviewOptions = {
  entryPoints: ['src/query/webview/main.ts'],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  outfile: 'dist/queryResults.js',
  minify: production,
  sourcemap: false,
  logLevel: 'warning',
};

/**
 * The tile preview and alert backtest webviews' script (with uPlot) and style sheet: dist/preview.js and
 * dist/preview.css, loaded only when one of those panels opens; the extension host never imports them.
 */
const previewWebviewOptions = {
  entryPoints: { preview: 'src/preview/webview/main.ts' },
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  outdir: 'dist',
  minify: production,
  sourcemap: false,
  legalComments: production ? 'none' : 'inline',
  logLevel: 'warning',
};

// JSON Schemas of the write bodies (editor validation and hover docs) are generated from the
// zod schemas at build time into dist/schemas/, so the extension never loads the generator.
// Each generator module exports `buildJsonSchemas(): Record<name, schema>`.
const SCHEMA_GENERATORS = [
  'src/schema/jsonSchemas.ts',
  'src/alertFiles/jsonSchema.ts',
  'src/serviceFolders/jsonSchema.ts',
];

/**
 * Schemas that only add to another one (the dashboard update body is the create body with a required filter `id`)
 * ship as that addition: `allOf` a relative `$ref` to the other file (which VS Code's JSON support resolves beside it),
 * plus the added keywords.
 */
const SCHEMA_EXTENDS = { 'dashboard-update': 'dashboard' };
const OWN_KEYWORDS = new Set(['$schema', 'title', 'description']);

/** What `derived` adds to `base`: new keys and `required` entries. Anything else (a change or a removal) throws. */
function addedTo(base, derived, at) {
  const out = {};
  for (const [key, value] of Object.entries(derived)) {
    const was = base[key];
    if (JSON.stringify(was) === JSON.stringify(value)) continue;
    if (was === undefined) out[key] = value;
    else if (key === 'required' && Array.isArray(was) && Array.isArray(value) && was.every((k) => value.includes(k)))
      out[key] = value.filter((k) => !was.includes(k));
    else if (isObject(was) && isObject(value)) out[key] = addedTo(was, value, `${at}/${key}`);
    else throw new Error(`${at}/${key} differs from the schema it extends; it cannot ship as an extension`);
  }
  for (const key of Object.keys(base))
    if (!(key in derived)) throw new Error(`${at}/${key} is missing from the schema that extends it`);
  return out;
}
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

function asExtension(derived, baseName, schemas) {
  const base = schemas[baseName];
  const strip = (s) => Object.fromEntries(Object.entries(s).filter(([k]) => !OWN_KEYWORDS.has(k)));
  const own = Object.fromEntries(Object.entries(derived).filter(([k]) => OWN_KEYWORDS.has(k)));
  return { ...own, allOf: [{ $ref: `./${baseName}.schema.json` }], ...addedTo(strip(base), strip(derived), '') };
}

async function writeJsonSchemas() {
  const dir = mkdtempSync(join(tmpdir(), 'obs-schemas-'));
  try {
    const schemas = {};
    for (const [index, entry] of SCHEMA_GENERATORS.entries()) {
      const file = join(dir, `jsonSchemas${index}.cjs`);
      await esbuild.build({
        entryPoints: [entry],
        bundle: true,
        format: 'cjs',
        platform: 'node',
        target: 'node20',
        outfile: file,
        logLevel: 'warning',
      });
      Object.assign(schemas, createRequire(import.meta.url)(file).buildJsonSchemas());
    }
    for (const [name, base] of Object.entries(SCHEMA_EXTENDS))
      schemas[name] = asExtension(schemas[name], base, schemas);
    mkdirSync('dist/schemas', { recursive: true });
    for (const [name, schema] of Object.entries(schemas)) {
      writeFileSync(
        join('dist/schemas', `${name}.schema.json`),
        `${production ? JSON.stringify(schema) : JSON.stringify(schema, null, 2)}\n`,
      );
    }
    console.log(`dist/schemas: ${Object.keys(schemas).length} JSON schemas`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await writeJsonSchemas();

/**
 * The production build ships the features and documents bundles Brotli-packed in one stream, dist/bundles.br, with a
 * flush after each bundle, and dist/bundles.json saying where each one is (format in src/bundleCache.ts, which reads
 * it): the features bundle decompresses from the stream's first bytes alone, and the documents bundle is compressed
 * with the features bundle as its history (about 4 KB smaller than packed on its own). Other builds write the plain
 * files and remove a pack, which would otherwise be loaded in their place.
 */
const PACKED_BUNDLES = ['features.js', 'documents.js'];
async function packBundles() {
  // Bundles packed one by one by earlier builds (features.js.br) would only mislead.
  for (const name of PACKED_BUNDLES) rmSync(join('dist', `${name}.br`), { force: true });
  if (!production) {
    for (const file of ['dist/bundles.br', 'dist/bundles.json']) rmSync(file, { force: true });
    return;
  }
  const texts = PACKED_BUNDLES.map((name) => readFileSync(join('dist', name)));
  const compressor = createBrotliCompress({
    params: {
      [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
      [zlibConstants.BROTLI_PARAM_LGWIN]: 24,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: texts.reduce((n, t) => n + t.length, 0),
    },
  });
  const chunks = [];
  compressor.on('data', (chunk) => chunks.push(chunk));
  const ended = new Promise((resolve, reject) => compressor.on('end', resolve).on('error', reject));
  const index = {};
  let start = 0;
  for (const [i, name] of PACKED_BUNDLES.entries()) {
    compressor.write(texts[i]);
    await new Promise((resolve) => compressor.flush(zlibConstants.BROTLI_OPERATION_FLUSH, resolve));
    index[name] = { start, end: start + texts[i].length, packedEnd: chunks.reduce((n, c) => n + c.length, 0) };
    start += texts[i].length;
  }
  compressor.end();
  await ended;
  const packed = Buffer.concat(chunks);
  // Each bundle comes back whole from its part of the stream.
  for (const [i, name] of PACKED_BUNDLES.entries()) {
    const { start: from, end, packedEnd } = index[name];
    const back = brotliDecompressSync(packed.subarray(0, packedEnd), {
      finishFlush: zlibConstants.BROTLI_OPERATION_FLUSH,
    }).subarray(from, end);
    if (!back.equals(texts[i])) throw new Error(`dist/bundles.br does not give back ${name}`);
  }
  writeFileSync('dist/bundles.br', packed);
  writeFileSync('dist/bundles.json', `${JSON.stringify(index)}\n`);
  for (const name of PACKED_BUNDLES) rmSync(join('dist', name), { force: true });
  console.log(`dist/bundles.br: ${(packed.length / 1024).toFixed(1)} KB (Brotli: ${PACKED_BUNDLES.join(', ')})`);
}

/** The documents bundle's entry. */
const DOCUMENTS_ENTRY = 'src/documents.ts';

/** The export names of ES modules (paths relative to this folder), star re-exports included. */
async function exportNames(keys) {
  if (keys.length === 0) return new Map();
  const probe = await esbuild.build({
    ...options,
    entryPoints: keys,
    outdir: 'dist',
    format: 'esm',
    splitting: true,
    minify: false,
    write: false,
  });
  const names = new Map();
  for (const output of Object.values(probe.metafile.outputs)) {
    if (output.entryPoint) names.set(output.entryPoint, output.exports);
  }
  return names;
}

/**
 * The three host bundles: the features bundle is built once to learn which modules have code in it, then the
 * documents bundle on top of it (`fromFeatures`), then the entry and the features bundle for good, with the registry
 * of what the documents bundle reads (`sharedRegistry`). Returns the outputs of the last two builds' metafiles.
 */
async function buildHostBundles() {
  const withCode = (metafile) =>
    new Map(
      Object.entries(metafile.outputs['dist/features.js'].inputs)
        .filter(
          ([key, input]) =>
            input.bytesInOutput > 0 && !key.startsWith('features-shared-modules:') && !/^[\w-]+:/.test(key),
        )
        .map(([key]) => [key, metafile.inputs[key]?.format ?? 'esm']),
    );
  let featureInputs = withCode((await esbuild.build({ ...options, write: false })).metafile);
  // The registry may bring code of the modules it names into the features bundle that was not there: the documents
  // bundle must then read that too. A few rounds settle it.
  for (let round = 1; ; round++) {
    const exportsOf = await exportNames([...featureInputs].filter(([, f]) => f === 'esm').map(([key]) => key));
    const documents = await esbuild.build({
      ...options,
      entryPoints: { documents: DOCUMENTS_ENTRY },
      plugins: [fromFeatures(featureInputs, exportsOf), ...options.plugins],
    });
    const used = usedExports(readFileSync('dist/documents.js', 'utf8'));
    const result = await esbuild.build({ ...options, plugins: [sharedRegistry(used), ...options.plugins] });
    const holds = withCode(result.metafile);
    if ([...holds.keys()].some((key) => !featureInputs.has(key))) {
      if (round === 5) throw new Error('the modules shared by dist/features.js and dist/documents.js do not settle');
      featureInputs = holds;
      continue;
    }
    // Nothing is in both bundles: the documents bundle holds only what the features bundle does not.
    const twice = Object.entries(documents.metafile.outputs['dist/documents.js'].inputs)
      .filter(([key, input]) => input.bytesInOutput > 0 && featureInputs.has(key))
      .map(([key]) => key);
    if (twice.length > 0) throw new Error(`dist/documents.js repeats modules of dist/features.js: ${twice.join(', ')}`);
    const documentSide = Object.keys(result.metafile.outputs['dist/features.js'].inputs).filter((key) =>
      /^src\/(editors|alertFiles|query|preview)\//.test(key),
    );
    if (documentSide.length > 0) {
      throw new Error(
        `dist/features.js must leave the editor features to dist/documents.js: ${documentSide.join(', ')}`,
      );
    }
    return { ...result.metafile.outputs, ...documents.metafile.outputs };
  }
}

/**
 * The production build ships the webviews' scripts and style sheet together Brotli-packed (dist/webviews.br: a JSON
 * object of file name to text; 32 KB instead of 37 KB for the three files in the VSIX's zip). The extension host writes
 * them inline into each page under its nonce (src/shared/webviewAssets.ts), so they must not hold text that would end
 * or confuse an inline <script> or <style> element; the build fails if they do. Other builds keep the plain files and
 * remove a packed one.
 */
const WEBVIEW_ASSETS = ['dist/preview.js', 'dist/preview.css', 'dist/queryResults.js'];
const PACKED_WEBVIEWS = 'dist/webviews.br';
function packWebviews() {
  for (const file of WEBVIEW_ASSETS) {
    const bad = /<\/script|<script|<!--|<\/style/i.exec(readFileSync(file, 'utf8'));
    if (bad) throw new Error(`${file} holds "${bad[0]}", which cannot be written inline into a webview page`);
  }
  if (!production) {
    rmSync(PACKED_WEBVIEWS, { force: true });
    return;
  }
  const text = JSON.stringify(
    Object.fromEntries(WEBVIEW_ASSETS.map((file) => [file.slice('dist/'.length), readFileSync(file, 'utf8')])),
  );
  const bytes = Buffer.from(text, 'utf8');
  const packed = brotliCompressSync(bytes, {
    params: {
      [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
      [zlibConstants.BROTLI_PARAM_LGWIN]: 24,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  writeFileSync(PACKED_WEBVIEWS, packed);
  for (const file of WEBVIEW_ASSETS) rmSync(file, { force: true });
  console.log(`${PACKED_WEBVIEWS}: ${(packed.length / 1024).toFixed(1)} KB (Brotli)`);
}

if (watch) {
  // esbuild watches every source file of the host bundles; each change builds the three of them again.
  const ctx = await esbuild.context({
    ...options,
    entryPoints: { ...options.entryPoints, documents: DOCUMENTS_ENTRY },
    write: false,
    plugins: [
      ...options.plugins,
      {
        name: 'host-bundles',
        setup(build) {
          build.onEnd(async () => {
            try {
              await buildHostBundles();
              await packBundles();
            } catch (error) {
              console.error(`[watch] ${error instanceof Error ? error.message : String(error)}`);
            }
          });
        },
      },
    ],
  });
  await ctx.watch();
  await (await esbuild.context(webviewOptions)).watch();
  await (await esbuild.context(previewWebviewOptions)).watch();
  console.log('[watch] esbuild is watching src/');
} else {
  const outputs = await buildHostBundles();
  await packBundles();
  await esbuild.build(webviewOptions);
  await esbuild.build(previewWebviewOptions);
  packWebviews();
  for (const [file, output] of Object.entries(outputs)) {
    if (file.endsWith('.js'))
      console.log(`${file}: ${(output.bytes / 1024).toFixed(1)} KB${production ? ' (production)' : ''}`);
  }
  // The entry must not pull in what it exists to defer.
  const entry = outputs['dist/extension.js'];
  const heavy = Object.keys(entry?.inputs ?? {}).filter(
    (f) => /node_modules[\\/](zod|undici)[\\/]/.test(f) || /src[\\/](api|schema)[\\/](?!redact)/.test(f),
  );
  if (heavy.length > 0)
    throw new Error(`dist/extension.js must stay thin but includes ${heavy.slice(0, 5).join(', ')}`);
  // What dropUnusedParts replaces stays out, and the HTTP parser is read from its file.
  const features = Object.keys(outputs['dist/features.js']?.inputs ?? {});
  const unused = features.filter(
    (f) =>
      !/^(unused|unused-esm|llhttp-wasm-file):/.test(f) &&
      (UNUSED.some((u) => u.filter.test(f)) || ZOD_JSON_SCHEMA.test(f) || /llhttp_simd-wasm\.js$/.test(f)),
  );
  if (unused.length > 0) throw new Error(`dist/features.js must not include ${unused.join(', ')}`);
  // Neither host bundle carries the chart library or the preview webview's code.
  for (const bundle of ['dist/extension.js', 'dist/features.js', 'dist/documents.js']) {
    const charts = Object.keys(outputs[bundle]?.inputs ?? {}).filter(
      (f) => /node_modules[\\/]uplot[\\/]/.test(f) || /src[\\/]preview[\\/]webview[\\/]/.test(f),
    );
    if (charts.length > 0)
      throw new Error(`${bundle} must not include the chart webview but includes ${charts.join(', ')}`);
  }
}
