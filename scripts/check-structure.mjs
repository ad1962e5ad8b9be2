#!/usr/bin/env node
// Structure check, run by `npm test` (step "structure"): reads the imports of src/**/*.ts and fails when
//   - a feature folder imports another feature folder,
//   - anything but the wiring files (src/extension.ts, src/features.ts) imports a feature folder,
//   - the thin entry (src/extension.ts) imports more than types from a feature folder (their code is the features
//     bundle, which the entry loads on first use; src/features.ts wires it),
//   - a vscode-free layer (src/api, src/schema, src/resources, src/render, src/codeModel, src/constants.ts) imports
//     `vscode`.
// Feature folders are the folders of src/ that are not service layers (see LAYERS), so a new feature folder is checked
// without being listed. Type-only imports count too: they tie the folders together just the same.
//
//   node scripts/check-structure.mjs [root]      (root defaults to the repository; exit code 1 on violations)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseOptions, ROOT } from './shared.mjs';

/** Folders of src/ that hold services every feature may use; every other folder of src/ is a feature folder. */
export const LAYERS = new Set([
  'api', // HTTP clients of the service (no vscode)
  'schema', // zod schemas, the single source of types (no vscode)
  'resources', // resource kinds, their requests, cache and live data (no vscode)
  'connections', // the connection store: saved connections, SecretStorage, the stored-connection picker
  'jsonDocuments', // the JSON-document kit: checks, diagnostics, completion, inlay hints, URIs, server documents
  'writes', // the write pipeline every create and update goes through
  'labels', // labels, icons, descriptions and tooltips of resources (tree and status bar)
  'panels', // what the webview panels share: their column, chart colours and times
  'render', // the Lucene translation and SQL rendering shared by previews, search and traces (no vscode)
  'codeModel', // production at the code: stack traces, deployed paths, code attributes, definitions, log literals, the aggregate statement (no vscode)
]);
/** Files that wire the features together. */
export const ENTRY_FILES = new Set(['extension.ts', 'features.ts']);
/** The thin entry: it may name the features' types, never load their code. */
export const THIN_ENTRY = 'extension.ts';
/** Parts of src/ that must not import `vscode` (they run in tests, scripts and the build without it). */
export const VSCODE_FREE = ['api', 'schema', 'resources', 'render', 'codeModel', 'constants.ts'];

function tsFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...tsFiles(full));
    else if (entry.isFile() && entry.name.endsWith('.ts')) out.push(full);
  }
  return out.sort();
}

/** Module specifiers of every import, export-from, dynamic import and require in a source text (comments removed). */
export function importsOf(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  const specs = [];
  const patterns = [
    /\bimport\s+(?:type\s+)?(?:[\w*{}\s,$]+\s+from\s+)?['"]([^'"]+)['"]/g,
    /\bexport\s+(?:type\s+)?(?:\*(?:\s+as\s+\w+)?|\{[^}]*\})\s+from\s+['"]([^'"]+)['"]/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) specs.push(m[1]);
  return specs;
}

/** Module specifiers of the imports that load code: those of `importsOf` once `import type … from` is left out. */
export function codeImportsOf(text) {
  return importsOf(text.replace(/\bimport\s+type\s[^;]*?from\s+['"][^'"]+['"]/g, ''));
}

/** The top-level part of src/ a path belongs to: a folder name, or the file name for files directly in src/. */
function partOf(srcDir, file) {
  const rel = path.relative(srcDir, file).split(path.sep);
  return rel.length === 1 ? rel[0] : rel[0];
}

/** Every violation in the tree at `root`, as readable lines. */
export function checkStructure(root) {
  const srcDir = path.join(root, 'src');
  const problems = [];
  const isFolder = (part) =>
    fs.existsSync(path.join(srcDir, part)) && fs.statSync(path.join(srcDir, part)).isDirectory();
  const isFeature = (part) => isFolder(part) && !LAYERS.has(part);
  for (const file of tsFiles(srcDir)) {
    if (file.endsWith('.d.ts')) continue;
    const from = partOf(srcDir, file);
    const shown = path.relative(root, file).split(path.sep).join('/');
    const text = fs.readFileSync(file, 'utf8');
    const loadsCode = new Set(from === THIN_ENTRY ? codeImportsOf(text) : []);
    for (const spec of importsOf(text)) {
      if (spec === 'vscode') {
        if (VSCODE_FREE.includes(from)) {
          problems.push(`${shown} imports 'vscode', but src/${from} must not (it is a vscode-free layer).`);
        }
        continue;
      }
      if (!spec.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), spec);
      const rel = path.relative(srcDir, target);
      if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
      const to = rel.split(path.sep)[0];
      if (to === from || !isFeature(to)) continue;
      if (loadsCode.has(spec)) {
        problems.push(
          `${shown} imports '${spec}' (code, not only types): the thin entry loads feature folder src/${to} through src/features.ts, on first use.`,
        );
      } else if (isFeature(from)) {
        problems.push(
          `${shown} imports '${spec}': feature folder src/${from} must not import feature folder src/${to}; pass what it needs in from src/features.ts.`,
        );
      } else if (!ENTRY_FILES.has(from)) {
        problems.push(
          `${shown} imports '${spec}': only ${[...ENTRY_FILES].map((f) => `src/${f}`).join(', ')} may import feature folder src/${to}.`,
        );
      }
    }
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { positionals } = parseOptions(
    'Usage: node scripts/check-structure.mjs [root]   (root: the repository)',
    {},
    {
      positionals: true,
    },
  );
  if (positionals.length > 1) {
    console.error(`One root at most, not ${positionals.length}.`);
    process.exit(2);
  }
  const root = path.resolve(positionals[0] ?? ROOT);
  const problems = checkStructure(root);
  if (problems.length > 0) {
    console.error(`Structure check failed (${problems.length} problem(s)):`);
    for (const p of problems) console.error(`  ${p}`);
    console.error(
      `Layers: feature folders import service layers (${[...LAYERS].map((l) => `src/${l}`).join(', ')}) and top-level helpers, never each other; src/features.ts wires them, and the thin entry src/extension.ts only names their types.`,
    );
    process.exit(1);
  }
  console.log(`Structure check passed: ${tsFiles(path.join(root, 'src')).length} files.`);
}
