import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';

// out/test/unit/structure → the repository root.
const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'check-structure.mjs');

/** Runs the structure check on a tree of files (path → text) and returns its exit code and output. */
function checkTree(files: Record<string, string>): { code: number | null; output: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obs-structure-'));
  made.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  const r = spawnSync(process.execPath, [SCRIPT, dir], { encoding: 'utf8' });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

const made: string[] = [];
after(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

/** A small tree that follows the rules: the entry wires two features that use service layers. */
const good: Record<string, string> = {
  'src/extension.ts': "import * as vscode from 'vscode';\nimport type { TreeHandle } from './tree';\n",
  'src/features.ts':
    "import { registerTree } from './tree';\nimport { registerEditors } from './editors';\nimport { ResourceCache } from './resources/cache';\n",
  'src/tree/index.ts':
    "import * as vscode from 'vscode';\nimport { ResourceCache } from '../resources/cache';\nimport { alertLabel } from '../labels/format';\nexport function registerTree() {}\n",
  'src/editors/index.ts':
    "import { LiveData } from '../resources/live';\nimport { errorMessage } from '../errors';\nexport function registerEditors() {}\n",
  'src/resources/cache.ts': "import type { Alert } from '../schema';\nexport class ResourceCache {}\n",
  'src/resources/live.ts': 'export class LiveData {}\n',
  'src/labels/format.ts': "import * as vscode from 'vscode';\nexport const alertLabel = 1;\n",
  'src/schema/index.ts': "import * as z from 'zod';\nexport type Alert = unknown;\n",
  'src/errors.ts': 'export const errorMessage = 1;\n',
};

describe('structure check', () => {
  it('passes the repository itself', () => {
    const r = spawnSync(process.execPath, [SCRIPT, ROOT], { encoding: 'utf8' });
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  });

  it('names as service layers exactly the folders of src/ that hold them, and src/ has no catch-all folder', async () => {
    const { LAYERS } = (await import(SCRIPT)) as { LAYERS: ReadonlySet<string> };
    const folders = fs
      .readdirSync(path.join(ROOT, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    for (const layer of LAYERS) assert.ok(folders.includes(layer), `src/${layer} exists`);
    for (const vague of ['shared', 'common', 'utils', 'misc']) assert.ok(!folders.includes(vague), `no src/${vague}`);
  });

  it('passes a tree that follows the rules', () => {
    const r = checkTree(good);
    assert.equal(r.code, 0, r.output);
  });

  it('fails when a feature folder imports another feature folder, naming both', () => {
    const r = checkTree({
      ...good,
      'src/editors/index.ts': "import type { TreeHandle } from '../tree';\nexport function registerEditors() {}\n",
    });
    assert.equal(r.code, 1);
    assert.match(
      r.output,
      /src\/editors\/index\.ts imports '\.\.\/tree': feature folder src\/editors must not import feature folder src\/tree/,
    );
  });

  it('counts a new feature folder without being told about it', () => {
    const r = checkTree({ ...good, 'src/webhooks/index.ts': "import { registerTree } from '../tree/index';\n" });
    assert.equal(r.code, 1);
    assert.match(r.output, /feature folder src\/webhooks must not import feature folder src\/tree/);
  });

  it('fails when a service layer or a top-level helper imports a feature folder', () => {
    const r = checkTree({
      ...good,
      'src/labels/format.ts': "import { ObservabilityTreeProvider } from '../tree/provider';\n",
      'src/helper.ts': "export { registerQuery } from './query';\n",
      'src/query/index.ts': 'export function registerQuery() {}\n',
    });
    assert.equal(r.code, 1);
    assert.match(
      r.output,
      /src\/labels\/format\.ts imports '\.\.\/tree\/provider': only src\/extension\.ts, src\/features\.ts may import feature folder src\/tree/,
    );
    assert.match(
      r.output,
      /src\/helper\.ts imports '\.\/query': only src\/extension\.ts, src\/features\.ts may import feature folder src\/query/,
    );
  });

  it('fails when the thin entry loads code of a feature folder; naming its types is fine', () => {
    const r = checkTree({
      ...good,
      'src/extension.ts': "import type { TreeHandle } from './tree';\nimport { registerEditors } from './editors';\n",
    });
    assert.equal(r.code, 1);
    assert.match(
      r.output,
      /src\/extension\.ts imports '\.\/editors' \(code, not only types\): the thin entry loads feature folder src\/editors through src\/features\.ts/,
    );
    assert.doesNotMatch(r.output, /imports '\.\/tree'/);
    assert.match(r.output, /Structure check failed \(1 problem\(s\)\)/);
  });

  it('fails when src/api, src/schema or src/resources import vscode', () => {
    const r = checkTree({
      ...good,
      'src/resources/cache.ts': "import * as vscode from 'vscode';\n",
      'src/api/client.ts': "import type { Uri } from 'vscode';\n",
      'src/schema/index.ts': "const v = require('vscode');\n",
    });
    assert.equal(r.code, 1);
    for (const file of ['src/resources/cache.ts', 'src/api/client.ts', 'src/schema/index.ts']) {
      assert.match(r.output, new RegExp(`${file.replace(/[./]/g, '\\$&')} imports 'vscode'`));
    }
    assert.match(r.output, /Structure check failed \(3 problem\(s\)\)/);
  });

  it('ignores imports written in comments', () => {
    const r = checkTree({
      ...good,
      'src/editors/index.ts':
        "// import { x } from '../tree';\n/* import '../query'; */\nexport function registerEditors() {}\n",
    });
    assert.equal(r.code, 0, r.output);
  });
});
