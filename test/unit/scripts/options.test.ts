/**
 * The scripts' command lines (scripts/shared.mjs parseOptions): `--help` prints the options and exits without doing
 * anything (the bench does not run and leaves its results alone), and an unknown option is refused before anything
 * runs.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

// out/test/unit/scripts → the repository root.
const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const script = (name: string, ...args: string[]) =>
  spawnSync(process.execPath, [path.join(ROOT, 'scripts', name), ...args], { cwd: ROOT, encoding: 'utf8' });

describe('script options', () => {
  it('bench --help prints its options and leaves bench/results.json as it was', () => {
    const results = path.join(ROOT, 'bench', 'results.json');
    const before = fs.existsSync(results) ? fs.statSync(results).mtimeMs : undefined;
    const r = script('bench.mjs', '--help');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /Usage: node scripts\/bench\.mjs/);
    for (const option of ['--runs <n>', '--activation-samples <n>', '--second-window-samples <n>', '--no-package']) {
      assert.ok(r.stdout.includes(option), `no ${option} in:\n${r.stdout}`);
    }
    assert.doesNotMatch(`${r.stdout}${r.stderr}`, /^\$ node|^extension host \d/m);
    assert.equal(fs.existsSync(results) ? fs.statSync(results).mtimeMs : undefined, before);
  });

  it('refuses an unknown option or a missing value with the usage, exit code 2', () => {
    for (const [name, args] of [
      ['bench.mjs', ['--run', '3']],
      ['bench.mjs', ['--runs']],
      ['demo.mjs', ['--flavour', 'oss']],
      ['test.mjs', ['--unit']],
      ['check-structure.mjs', ['--strict']],
    ] as const) {
      const r = script(name, ...args);
      assert.equal(r.status, 2, `${name} ${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, /Usage: node scripts\//, `${name} ${args.join(' ')}`);
    }
  });

  it('refuses a count that is not a positive whole number', () => {
    const r = script('bench.mjs', '--runs', 'many');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--runs needs a positive whole number, not "many"/);
  });

  it('demo --help names its options without building or starting anything', () => {
    const r = script('demo.mjs', '--help');
    assert.equal(r.status, 0, r.stderr);
    for (const option of ['--flavor <cloud|oss>', '--port <n>', '--no-build', '--no-open', '--browser']) {
      assert.ok(r.stdout.includes(option), `no ${option} in:\n${r.stdout}`);
    }
    assert.doesNotMatch(r.stdout, /Building|Emulator/);
  });
});
