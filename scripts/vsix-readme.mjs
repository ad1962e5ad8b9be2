#!/usr/bin/env node
// The README the VSIX carries (`npm run package` passes it to vsce with --readme-path), written to out/vsix/README.md.
// VS Code's extension details page draws an installed VSIX's README in a webview whose policy allows pictures from
// https: and data: only, and newer versions' Markdown sanitizer also drops every picture whose address is not http: or
// https: (VS Code 1.117 removes a relative path or a data: URL; 1.100 kept data: URLs). So the pictures
// (media/readme-*.jpg) are given as https addresses under `$OBS_README_IMAGES_URL` (where the release publishes its
// media/ folder; what vsce's --baseImagesUrl does for a repository). Without it the pictures are left out of the
// VSIX's README (an empty frame helps no one, and data: URLs would take the VSIX over its 400 KB cap); a notice says
// so. The repository's README.md keeps the relative paths.
//   OBS_README_IMAGES_URL=https://…/ node scripts/vsix-readme.mjs
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The https base the pictures are published under, or undefined. */
function imagesBase() {
  const given = process.env.OBS_README_IMAGES_URL?.trim();
  if (!given) return undefined;
  let url;
  try {
    url = new URL(given.endsWith('/') ? given : `${given}/`);
  } catch {
    url = undefined;
  }
  if (!url || url.protocol !== 'https:' || url.username || url.password || url.search || url.hash) {
    console.error(`OBS_README_IMAGES_URL must be a plain https: address (got ${JSON.stringify(given)})`);
    process.exit(2);
  }
  return url;
}

const base = imagesBase();
let count = 0;
const readme = fs
  .readFileSync(path.join(ROOT, 'README.md'), 'utf8')
  .replace(/!\[([^\]]*)\]\((media\/[\w.-]+\.(?:jpe?g|png))\)\n*/g, (_all, alt, file) => {
    count++;
    return base ? `![${alt}](${new URL(file, base).href})\n\n` : '';
  });
// The details page is for users who have the extension: the development part (set-up, tests, performance,
// architecture) and the install steps stay in the repository's README, and the command and setting tables are the
// details page's own Feature Contributions tab.
const LEFT_TO_REPOSITORY = ['Development', 'Install', 'Commands', 'Settings'];
let userReadme = readme;
for (const name of LEFT_TO_REPOSITORY) {
  const section = new RegExp(`\\n## ${name}\\n[\\s\\S]*?(?=\\n## |$)`);
  if (!section.test(userReadme)) {
    console.error(`README.md has no "## ${name}" section`);
    process.exit(2);
  }
  userReadme = userReadme.replace(section, '');
}
userReadme +=
  '\nEvery command and setting: the Feature Contributions tab. Installing and developing: README.md in the repository.\n';
const out = path.join(ROOT, 'out', 'vsix', 'README.md');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, userReadme);
const size = `${(fs.statSync(out).size / 1024).toFixed(1)} KB`;
if (base) {
  console.log(`out/vsix/README.md: ${count} pictures at ${base.href}media/, ${size}`);
} else {
  console.log(`out/vsix/README.md: ${size}, without its ${count} pictures`);
  console.log(
    "Notice: VS Code shows only https: pictures in an installed VSIX's README; set OBS_README_IMAGES_URL to where media/ is published to include them.",
  );
}
