#!/usr/bin/env node
// The README the VSIX carries (`npm run package` passes it to vsce with --readme-path): README.md with its pictures
// (media/readme-*.jpg) written into it as data: URLs. VS Code's extension details page draws the README in a webview
// whose policy allows pictures from https: and data: only, so a relative path would show a broken picture there;
// the repository's README.md keeps the relative paths. Writes out/vsix/README.md.
//   node scripts/vsix-readme.mjs
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TYPES = { '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png' };
let inlined = 0;
const readme = fs
  .readFileSync(path.join(ROOT, 'README.md'), 'utf8')
  .replace(/!\[([^\]]*)\]\((media\/[\w.-]+\.(?:jpe?g|png))\)/g, (_all, alt, file) => {
    const type = TYPES[path.extname(file).toLowerCase()];
    const data = fs.readFileSync(path.join(ROOT, file)).toString('base64');
    inlined++;
    return `![${alt}](data:${type};base64,${data})`;
  });
const out = path.join(ROOT, 'out', 'vsix', 'README.md');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, readme);
console.log(`out/vsix/README.md: ${inlined} pictures inlined, ${(fs.statSync(out).size / 1024).toFixed(1)} KB`);
