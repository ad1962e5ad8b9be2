// Builds the extension into dist/:
//   extension.js       the thin entry VS Code evaluates at activation (src/extension.ts: the view, the commands and
//                      the stand-ins that load the rest; no zod, no undici, no schemas)
//   features.js        everything else, wired by src/features.ts; the entry `require`s it on first use (and the
//                      features read the few modules both use from the entry: SHARED_WITH_ENTRY)
//   llhttp_simd.wasm   undici's HTTP parser, read from this file when the first connection opens
//   queryResults.js, preview.js, preview.css, search.js   the webviews' scripts and style sheet, loaded by their pages
//   schemas/*.json     JSON Schemas of the write bodies, generated from the zod schemas (editor checks, hover docs)
// The host bundles are CommonJS for Node (`vscode` external); the webview scripts are browser IIFEs. After building,
// esbuild's metafile is checked for what each bundle must not contain, so a build that cannot work fails here.
//
//   node esbuild.mjs [--production] [--watch]    (--production minifies and drops source maps)
import * as esbuild from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { writeJsonSchemas } from './scripts/jsonSchemas.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const require = createRequire(import.meta.url);

/**
 * undici's HTTP parser is WebAssembly, shipped by undici as base64 inside a module. The SIMD build is copied to
 * dist/llhttp_simd.wasm and read from there; the plain build, loaded only when SIMD is missing (never on Node 20 for
 * x64 or arm64), is left out with a module that says so.
 */
const WASM = 'llhttp_simd.wasm';
const llhttpParser = {
  name: 'llhttp-parser',
  setup(build) {
    build.onResolve({ filter: /llhttp\/llhttp(_simd)?-wasm\.js$/ }, (args) => ({
      path: join(args.resolveDir, args.path),
      namespace: 'llhttp',
    }));
    build.onLoad({ filter: /.*/, namespace: 'llhttp' }, (args) => {
      if (!args.path.endsWith('_simd-wasm.js')) {
        const message = 'This Node.js runtime lacks WebAssembly SIMD, which the HTTP parser needs.';
        return { contents: `throw new Error(${JSON.stringify(message)});`, loader: 'js' };
      }
      mkdirSync('dist', { recursive: true });
      writeFileSync(join('dist', WASM), require(args.path));
      const read = `require('node:fs').readFileSync(require('node:path').join(__dirname, ${JSON.stringify(WASM)}))`;
      return { contents: `module.exports = ${read};`, loader: 'js' };
    });
  },
};

/**
 * Parts of undici and zod the extension never reaches, replaced by modules that fail with a clear message if they ever
 * are: HTTP/2 (`allowH2` is never set), SOCKS proxies (refused before undici sees them), FormData bodies (the client
 * sends strings), the stream/pipeline/upgrade request styles (the client uses `request`), and zod's JSON Schema
 * generation (done at build time, below). The checks at the end keep them out.
 */
const UNUSED = [
  /undici[\\/]lib[\\/]dispatcher[\\/](client-h2|socks5-proxy-agent)\.js$/,
  /undici[\\/]lib[\\/]web[\\/]fetch[\\/]body\.js$/,
  /undici[\\/]lib[\\/]api[\\/]api-(stream|pipeline|upgrade)\.js$/,
];
const ZOD_JSON_SCHEMA = /zod[\\/]v4[\\/]core[\\/](to-json-schema|json-schema-processors|json-schema-generator)\.js$/;
const unusedParts = {
  name: 'unused-parts',
  setup(build) {
    const fail = "function unavailable() { throw new Error('Not part of this build of the extension.'); }";
    build.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData === 'unused-parts' || !/node_modules[\\/](undici|zod)[\\/]/.test(args.resolveDir)) return;
      const { kind, resolveDir, importer } = args;
      const { path, errors } = await build.resolve(args.path, {
        kind,
        resolveDir,
        importer,
        pluginData: 'unused-parts',
      });
      if (errors.length > 0) return;
      if (UNUSED.some((re) => re.test(path))) return { path, namespace: 'unused' };
      if (ZOD_JSON_SCHEMA.test(path)) return { path, namespace: 'unused-esm' };
    });
    build.onLoad({ filter: /.*/, namespace: 'unused' }, () => ({
      contents: `${fail}\nmodule.exports = unavailable;\nmodule.exports.extractBody = unavailable;`,
      loader: 'js',
    }));
    // The same export names; the create* helpers run when a schema is built and must hand back the failing function.
    build.onLoad({ filter: /.*/, namespace: 'unused-esm' }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const names = new Set([...source.matchAll(/^export (?:const|function|class) (\w+)/gm)].map((m) => m[1]));
      const value = (name) =>
        name.startsWith('create') ? '() => unavailable' : name === 'allProcessors' ? '{}' : 'unavailable';
      const lines = [fail, ...[...names].map((name) => `export const ${name} = ${value(name)};`)];
      if (/export \{ processSchema as process \}/.test(source)) lines.push('export { processSchema as process };');
      return { contents: lines.join('\n'), loader: 'js' };
    });
  },
};

/**
 * undici modules of which the client reads only a part, bundled as that part (statements copied from the file; the
 * build fails if one cannot be found): llhttp/constants.js holds the parser's enums and character tables (~10 KB
 * minified), of which dispatcher/client-h1.js reads the error codes and the parser types; core/diagnostics.js holds,
 * beside the diagnostics channels undici publishes to, the NODE_DEBUG=undici console tracing, never on in an editor.
 */
const PARTS_KEPT = [
  [/undici[\\/]lib[\\/]llhttp[\\/]constants\.js$/, [/^exports\.ERROR = \{[^}]*\};$/m, /^exports\.TYPE = \{[^}]*\};$/m]],
  [
    /undici[\\/]lib[\\/]core[\\/]diagnostics\.js$/,
    [
      /^const diagnosticsChannel = require\('node:diagnostics_channel'\)$/m,
      /^const channels = \{[^}]*\}$/m,
      /^module\.exports = \{\s*channels\s*\}$/m,
    ],
  ],
];
/** Error classes of undici's core/errors.js that no bundled module nor src names (retry, balanced pool, SOCKS5, WebSocket). */
const UNDICI_ERRORS_UNUSED = [
  'InvalidReturnValueError',
  'BalancedPoolMissingUpstreamError',
  'RequestRetryError',
  'ResponseError',
  'Socks5ProxyError',
  'MessageSizeExceededError',
];
const UNDICI_ERRORS = /undici[\\/]lib[\\/]core[\\/]errors\.js$/;
const partsKept = {
  name: 'parts-kept',
  setup(build) {
    build.onLoad({ filter: UNDICI_ERRORS }, (args) => {
      let source = readFileSync(args.path, 'utf8');
      for (const name of UNDICI_ERRORS_UNUSED) {
        const definition = new RegExp(
          `\\n(const k${name} = Symbol\\.for\\([^)]*\\)\\n)?class ${name} extends \\w+ \\{\\n[\\s\\S]*?\\n\\}\\n`,
        );
        const exported = new RegExp(`^  ${name},?\\n`, 'm');
        if (!definition.test(source) || !exported.test(source))
          throw new Error(`${args.path} has no class ${name}: update UNDICI_ERRORS_UNUSED in esbuild.mjs`);
        source = source.replace(definition, '\n').replace(exported, '');
      }
      return { contents: source.replace(/,(\n\})\s*$/, '$1\n'), loader: 'js' };
    });
    for (const [file, statements] of PARTS_KEPT) {
      build.onLoad({ filter: file }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        const kept = statements.map((re) => {
          const found = re.exec(source);
          if (!found) throw new Error(`${args.path} has no ${re}: update PARTS_KEPT in esbuild.mjs`);
          return found[0];
        });
        return { contents: ["'use strict';", ...kept].join('\n'), loader: 'js' };
      });
    }
  },
};

/**
 * zod's schemas carry a method per string format and per wrapper schema, and each method keeps its schema class (and
 * a format's pattern) in the bundle. The schemas in src use `.email()`, `.datetime()` and the other ISO date and time
 * formats; the string methods of the formats nothing uses, and the schema methods nothing calls, are left out, so
 * their classes and patterns drop out. The build fails if one is not found.
 */
const ZOD_STRING_FORMATS_UNUSED = [
  'url',
  'jwt',
  'emoji',
  'guid',
  'uuid',
  'uuidv4',
  'uuidv6',
  'uuidv7',
  'nanoid',
  'cuid',
  'cuid2',
  'ulid',
  'base64',
  'base64url',
  'xid',
  'ksuid',
  'ipv4',
  'ipv6',
  'cidrv4',
  'cidrv6',
  'e164',
];
/** Schema methods no module of src calls: intersection, prefault, read-only, exact-optional and non-optional. */
const ZOD_TYPE_METHODS_UNUSED = [
  'and',
  'prefault',
  'readonly',
  'exactOptional',
  'nonoptional',
  'exactPartial',
  'required',
];
const zodMethodsUsed = {
  name: 'zod-methods-used',
  setup(build) {
    build.onLoad({ filter: /zod[\\/]v4[\\/]classic[\\/]schemas\.js$/ }, (args) => {
      let source = readFileSync(args.path, 'utf8');
      for (const name of ZOD_STRING_FORMATS_UNUSED) {
        const method = new RegExp(
          `^ {4}${name}\\(params\\) \\{\\n {8}return this\\.check\\(core\\._${name}\\(\\w+, params\\)\\);\\n {4}\\},\\n`,
          'm',
        );
        if (!method.test(source)) throw new Error(`${args.path} has no string method ${name}: update esbuild.mjs`);
        source = source.replace(method, '');
      }
      for (const name of ZOD_TYPE_METHODS_UNUSED) {
        const method = new RegExp(`^ {4}${name}\\([^)]*\\) \\{\\n {8}return [^\\n]*;\\n {4}\\},\\n`, 'm');
        if (!method.test(source)) throw new Error(`${args.path} has no schema method ${name}: update esbuild.mjs`);
        source = source.replace(method, '');
      }
      return { contents: source, loader: 'js' };
    });
  },
};

/** The zod schemas' `.describe('…')` texts only feed dist/schemas/; the host bundle leaves out the literal ones. */
const DESCRIBE_CALL = /\.describe\(\s*('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\$]|\\.)*`)\s*,?\s*\)/g;
const schemaTextsDropped = {
  name: 'schema-texts-dropped',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/](schema|alertFiles)[\\/][^\\/]+\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replace(DESCRIBE_CALL, ''),
      loader: 'ts',
    }));
  },
};

/** The entry's `require('./features')` stays a run-time require of the features bundle beside it. */
const featuresExternal = {
  name: 'features-external',
  setup(build) {
    build.onResolve({ filter: /^\.\/features$/ }, (args) =>
      args.importer.endsWith(join('src', 'extension.ts')) ? { path: './features.js', external: true } : undefined,
    );
  },
};

/**
 * Modules the entry carries and the features use too (the log's redaction, the plain-HTTP rules of the connections):
 * src/extension.ts exports them, and the features bundle reads them from the loaded entry
 * (`require('./extension.js')`, the module VS Code evaluated at activation) instead of carrying a second copy.
 */
const SHARED_WITH_ENTRY = /[\\/]src[\\/](api[\\/]redact|plainHttpGrant|loopback)\.ts$/;
const sharedFromEntry = {
  name: 'shared-from-entry',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData === 'shared-from-entry' || /node_modules/.test(args.importer)) return;
      const { kind, resolveDir, importer } = args;
      const found = await build.resolve(args.path, { kind, resolveDir, importer, pluginData: 'shared-from-entry' });
      if (found.errors.length === 0 && SHARED_WITH_ENTRY.test(found.path))
        return { path: './extension.js', external: true };
    });
  },
};

/**
 * `import * as vscode from 'vscode'` compiles to `__toESM(require('vscode'))` in every importing module: a fresh object
 * with a getter per API name, rebuilt in each of ~90 modules. Instead every import of `vscode` resolves to one module
 * that reads each top-level name @types/vscode declares once (pure reads, so unused names drop out).
 */
const VSCODE_API_NAMES = new Set(
  [
    ...readFileSync(new URL('./node_modules/@types/vscode/index.d.ts', import.meta.url), 'utf8').matchAll(
      /^\texport (?:class|namespace|enum|function|const|let|var) (\w+)/gm,
    ),
  ].map((m) => m[1]),
);
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
        ...[...VSCODE_API_NAMES].map((name) => `export const ${name} = /* @__PURE__ */ read('${name}');`),
      ].join('\n'),
      loader: 'js',
    }));
  },
};

/** @type {import('esbuild').BuildOptions} */
const hostOptions = {
  entryPoints: { features: 'src/features.ts' },
  plugins: [llhttpParser, partsKept, zodMethodsUsed, unusedParts, schemaTextsDropped, sharedFromEntry, vscodeApiOnce],
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
  define: { EXTENSION_VERSION: JSON.stringify(pkg.version), EXTENSION_NAME: JSON.stringify(pkg.name) },
};

/** The entry: the same options, its own bundle (it carries the modules the features read from it). */
const entryOptions = {
  ...hostOptions,
  entryPoints: { extension: 'src/extension.ts' },
  plugins: [featuresExternal, vscodeApiOnce],
};

/**
 * uPlot attaches every path builder and helper it has to its export, so none drop out of the bundle. The preview draws
 * lines (uPlot's default) and bars (`uPlot.paths.bars`); the stepped and spline builders and `uPlot.join` are left
 * unattached, so the bundler drops them. The build fails if uPlot no longer attaches them this way.
 */
const UPLOT_UNUSED = ['(paths.stepped = stepped);', '(paths.spline  = monotoneCubic);', 'uPlot.join = join;'];
const uplotUnused = {
  name: 'uplot-unused',
  setup(build) {
    build.onLoad({ filter: /uplot[\\/]dist[\\/]uPlot\.esm\.js$/ }, (args) => {
      let source = readFileSync(args.path, 'utf8');
      for (const line of UPLOT_UNUSED) {
        if (!source.includes(line))
          throw new Error(`${args.path} has no "${line}": update UPLOT_UNUSED in esbuild.mjs`);
        source = source.replace(line, '');
      }
      return { contents: source, loader: 'js' };
    });
  },
};

/** The webviews' scripts (and the preview's style sheet), loaded by their pages only when a panel opens. */
const webviewOptions = {
  entryPoints: {
    queryResults: 'src/query/webview/main.ts',
    preview: 'src/preview/webview/main.ts',
    traces: 'src/traces/webview/main.ts',
    search: 'src/search/webview/main.ts',
  },
  plugins: [uplotUnused],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  outdir: 'dist',
  minify: production,
  sourcemap: false,
  legalComments: production ? 'none' : 'inline',
  metafile: true,
  logLevel: 'warning',
};

/** What each bundle must not contain (paths of esbuild's metafile inputs), and why. */
const MUST_NOT_CONTAIN = {
  'dist/extension.js': [
    // Only files directly in src/ (and the log's redaction): zod, undici and the features load with dist/features.js.
    [/node_modules[\\/](zod|undici)[\\/]|^src[\\/](?!api[\\/]redact\.ts$)[^\\/]+[\\/]/, 'the entry must stay thin'],
  ],
  'dist/features.js': [
    [
      /node_modules[\\/]uplot[\\/]|src[\\/](preview|query|traces|search)[\\/]webview[\\/]/,
      'webview code runs in the webview',
    ],
    [/llhttp[\\/]llhttp(_simd)?-wasm\.js$/, `the HTTP parser is read from dist/${WASM}`],
    [SHARED_WITH_ENTRY, 'read from the entry (shared with the entry)'],
    ...UNUSED.concat(ZOD_JSON_SCHEMA).map((re) => [re, 'replaced by a stand-in (unused parts)']),
  ],
};

/** Fails the build when a bundle holds what it must not, or the entry does not leave the features to their bundle. */
function checkBundles(outputs) {
  for (const [bundle, rules] of Object.entries(MUST_NOT_CONTAIN)) {
    const inputs = Object.keys(outputs[bundle]?.inputs ?? {}).filter((f) => !/^[\w-]+:/.test(f));
    if (inputs.length === 0) throw new Error(`${bundle} was not built`);
    for (const [re, why] of rules) {
      const hits = inputs.filter((f) => re.test(f));
      if (hits.length > 0) throw new Error(`${bundle} must not include ${hits.slice(0, 5).join(', ')}: ${why}`);
    }
  }
  const entryImports = outputs['dist/extension.js'].imports.map((i) => i.path);
  if (!entryImports.includes('./features.js')) throw new Error('dist/extension.js does not load ./features.js');
  if (!outputs['dist/features.js'].imports.some((i) => i.path === './extension.js'))
    throw new Error('dist/features.js does not read the modules it shares with the entry from ./extension.js');
  const parser = Object.keys(outputs['dist/features.js'].inputs).some((f) => /^llhttp:.*_simd-wasm\.js$/.test(f));
  if (!parser) throw new Error(`dist/features.js does not read undici's HTTP parser from dist/${WASM}`);
}

/** Files of earlier builds (and earlier layouts) that would otherwise linger in dist/. */
const STALE = ['documents.js', 'documents.js.map', 'bundles.br', 'bundles.json', 'webviews.br', `${WASM}.br`];
if (production) STALE.push('extension.js.map', 'features.js.map');
for (const file of STALE) rmSync(join('dist', file), { force: true });
await writeJsonSchemas({ production });

if (watch) {
  const report = { name: 'report', setup: (b) => b.onEnd((r) => r.errors.length || console.log('[watch] built')) };
  await (await esbuild.context({ ...entryOptions, plugins: [...entryOptions.plugins, report] })).watch();
  await (await esbuild.context({ ...hostOptions, plugins: [...hostOptions.plugins, report] })).watch();
  await (await esbuild.context(webviewOptions)).watch();
  console.log('[watch] esbuild is watching src/');
} else {
  const entry = await esbuild.build(entryOptions);
  const host = await esbuild.build(hostOptions);
  const webviews = await esbuild.build(webviewOptions);
  const outputs = { ...entry.metafile.outputs, ...host.metafile.outputs, ...webviews.metafile.outputs };
  checkBundles(outputs);
  for (const [file, output] of Object.entries(outputs)) {
    if (!file.endsWith('.map')) console.log(`${file}: ${(output.bytes / 1024).toFixed(1)} KB`);
  }
}
