// Bundles the extension (cjs, node, `vscode` external) into two files: dist/extension.js, the thin entry VS Code
// evaluates at activation (view, commands, triggers; no zod, no undici), and dist/features.js, everything behind them,
// which the entry require()s on first use. (VS Code 1.100 cannot load an ESM `main`, so no esbuild code splitting.)
// `--production` minifies and drops source maps; `--watch` rebuilds on change.
import * as esbuild from 'esbuild';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

/** The entry's `require('./features')` stays a run-time require of the sibling bundle dist/features.js. */
const featuresBundleExternal = {
  name: 'features-external',
  setup(build) {
    build.onResolve({ filter: /^\.\/features$/ }, (args) =>
      (args.importer.endsWith(join('src', 'extension.ts')) ? { path: './features.js', external: true } : undefined));
  },
};

/** @type {import('esbuild').BuildOptions} */
const options = {
  plugins: [dropPlainHttpParser, featuresBundleExternal],
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
const SCHEMA_GENERATORS = ['src/schema/jsonSchemas.ts', 'src/alertFiles/jsonSchema.ts'];

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
    mkdirSync('dist/schemas', { recursive: true });
    for (const [name, schema] of Object.entries(schemas)) {
      writeFileSync(join('dist/schemas', `${name}.schema.json`), `${production ? JSON.stringify(schema) : JSON.stringify(schema, null, 2)}\n`);
    }
    console.log(`dist/schemas: ${Object.keys(schemas).length} JSON schemas`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await writeJsonSchemas();

if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
  await (await esbuild.context(webviewOptions)).watch();
  await (await esbuild.context(previewWebviewOptions)).watch();
  console.log('[watch] esbuild is watching src/');
} else {
  const result = await esbuild.build(options);
  await esbuild.build(webviewOptions);
  await esbuild.build(previewWebviewOptions);
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    if (file.endsWith('.js')) console.log(`${file}: ${(output.bytes / 1024).toFixed(1)} KB${production ? ' (production)' : ''}`);
  }
  // The entry must not pull in what it exists to defer.
  const entry = result.metafile.outputs['dist/extension.js'];
  const heavy = Object.keys(entry?.inputs ?? {}).filter((f) => /node_modules[\\/](zod|undici)[\\/]/.test(f) || /src[\\/](api|schema)[\\/](?!redact)/.test(f));
  if (heavy.length > 0) throw new Error(`dist/extension.js must stay thin but includes ${heavy.slice(0, 5).join(', ')}`);
  // Neither host bundle carries the chart library or the preview webview's code.
  for (const bundle of ['dist/extension.js', 'dist/features.js']) {
    const charts = Object.keys(result.metafile.outputs[bundle]?.inputs ?? {}).filter((f) => /node_modules[\\/]uplot[\\/]/.test(f) || /src[\\/]preview[\\/]webview[\\/]/.test(f));
    if (charts.length > 0) throw new Error(`${bundle} must not include the chart webview but includes ${charts.join(', ')}`);
  }
}
