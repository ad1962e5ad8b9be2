#!/usr/bin/env node
// Records the golden values of HyperDX's event patterns (test/unit/preview/patterns-golden.json) with drain3's own
// Python source, independently of the extension's TypeScript miner:
//   npx tsc -p tsconfig.json && node scripts/patterns-golden.mjs <drain3 git dir or checkout>
// drain3 0.9.11 (commit 0fb6d6e, the version HyperDX loads) is read from the given git directory (e.g. a bare clone
// of github.com/logpai/Drain3) or checkout, copied to a temporary folder with two small shims for the imports it needs
// but HyperDX's use never reaches (cachetools: a dict-based LRUCache; jsonpickle: unused without persistence), and
// run with the system `python3` (no pip, no network) by scripts/patterns-golden.py. The input lines are hand-made
// ones (punctuation, numbers, hex, paths, escape sequences, token counts, Unicode spaces and digits) and the
// emulator's seeded log bodies; the seeded tile's rows and totals come from plain SQL (test/unit/preview/patternsSeeded.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const DRAIN3_COMMIT = '0fb6d6e';
const FILES = [
  '__init__.py',
  'drain.py',
  'masking.py',
  'persistence_handler.py',
  'simple_profiler.py',
  'template_miner.py',
  'template_miner_config.py',
];
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { positionals, values } = parseArgs({ allowPositionals: true, options: { help: { type: 'boolean' } } });
if (values.help || positionals.length !== 1) {
  console.log(
    'Usage: node scripts/patterns-golden.mjs <drain3 git dir or checkout>   (after npx tsc -p tsconfig.json)',
  );
  process.exit(values.help ? 0 : 2);
}
const source = positionals[0];

const CACHETOOLS = `
class Cache(dict):
    def __init__(self, maxsize=None):
        super().__init__()
        self.maxsize = maxsize
    def __getitem__(self, key):
        if key in self:
            return dict.__getitem__(self, key)
        return self.__missing__(key)
    def __missing__(self, key):
        raise KeyError(key)

class LRUCache(Cache):
    pass

def cachedmethod(cache, key=None, lock=None):
    def decorator(method):
        return method
    return decorator
`;
const JSONPICKLE = `
def dumps(*args, **kwargs):
    raise NotImplementedError('persistence is not used')

def loads(*args, **kwargs):
    raise NotImplementedError('persistence is not used')
`;

const TRICKY = [
  'User 42 logged in from 10.0.0.1',
  'User 43 logged in from 10.0.0.2',
  'User alice logged in from host-a.example.com',
  'GET /api/v1/users/123?expand=true HTTP/1.1 200',
  'GET /api/v1/users/456?expand=false HTTP/1.1 404',
  'GET /api/v2/orders HTTP/1.1 200',
  'connection from 0x7ffd5a3c9b10 closed',
  'connection from 0xdeadbeef closed',
  'connection from deadbeef closed',
  'trace_id=4bf92f3577b34da6a3ce929d0e0e4736 span_id=00f067aa0ba902b7 sampled',
  'trace_id=5cf92f3577b34da6a3ce929d0e0e4737 span_id=11f067aa0ba902b8 sampled',
  'Wrote /var/log/app/2026-11-26/server.log (12 KiB)',
  'Wrote /var/log/app/2026-11-27/server.log (9 KiB)',
  'C:\\Program Files\\App\\bin\\app.exe exited with code 1',
  '\u001b[31mERROR\u001b[0m disk /dev/sda1 is 91% full',
  '\u001b[31mERROR\u001b[0m disk /dev/sdb2 is 97% full',
  '\u001b[1;32mOK\u001b[0m all checks passed',
  '',
  '   ',
  '!!!',
  '...---...',
  'a',
  'b',
  'a b',
  'a b c',
  'a b c d',
  'a b c d e',
  'x1 b c d e',
  'x2 b c d e',
  'Retry #3 in 250ms (attempt 3/5)',
  'Retry #4 in 500ms (attempt 4/5)',
  'Retry #5 in 1s (attempt 5/5)',
  'key="value" other=\'thing\' {json: [1, 2, 3]}',
  'key="other" other=\'thing\' {json: [4, 5, 6]}',
  'tabs\tand\nnewlines\r\nand  double  spaces',
  'tabs\tand\nnewlines\r\nare  double  spaces',
  'non\u00a0breaking\u2003spaces and \u001cfile separators',
  'caf\u00e9 cr\u00e8me br\u00fbl\u00e9e 3 \u20ac',
  'caf\u00e9 cr\u00e8me br\u00fbl\u00e9e 4 \u20ac',
  'superscript x\u00b2 and circled \u2460 digits',
  'superscript y\u00b2 and circled \u2461 digits',
  'arabic \u0661\u0662\u0663 digits',
  'emoji \ud83d\ude80 launched 3 rockets',
  'emoji \ud83d\ude80 launched 4 rockets',
  'under_score and-dash and.dot',
  'under_score and-dash and.dot',
  'Payment declined by provider: card issuer returned do_not_honor (order 123)',
  'Slow query took 321 ms',
  'Slow query took 2,345 ms',
  '<*> literal parameter <*>',
  '2026-11-26T12:00:00Z start',
  '2026-11-26T12:00:01Z start',
  '2026-11-26T12:00:02Z stop',
];
// More than 100 first words of one token count (a tree node's child limit) and numbers in the first word.
for (let i = 0; i < 110; i++)
  TRICKY.push(
    `word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))} event happened`,
  );
for (let i = 0; i < 5; i++) TRICKY.push(`${i}th event happened`);

const work = mkdtempSync(join(tmpdir(), 'drain3-golden-'));
try {
  mkdirSync(join(work, 'drain3'));
  const bare = existsSync(join(source, 'HEAD')) && !existsSync(join(source, '.git'));
  for (const f of FILES) {
    const text = bare
      ? execFileSync('git', ['--git-dir', source, 'show', `${DRAIN3_COMMIT}:drain3/${f}`], { encoding: 'utf8' })
      : execFileSync('git', ['-C', source, 'show', `${DRAIN3_COMMIT}:drain3/${f}`], { encoding: 'utf8' });
    writeFileSync(join(work, 'drain3', f), text);
  }
  writeFileSync(join(work, 'cachetools.py'), CACHETOOLS);
  writeFileSync(join(work, 'jsonpickle.py'), JSONPICKLE);

  const require = createRequire(import.meta.url);
  const seededMod = require(join(root, 'out/test/unit/preview/patternsSeeded.js'));
  const { query } = require(join(root, 'out/test/unit/preview/golden.js'));
  const bodies = await query(
    `SELECT Body FROM otel_logs WHERE TimestampTime >= fromUnixTimestamp64Milli(${seededMod.NOW - 300_000})
     ORDER BY TimestampTime, Body LIMIT 400`,
    'otel',
    seededMod.NOW,
  );
  const lines = [...TRICKY.slice(0, 60), ...bodies.map((r) => String(r.Body)), ...TRICKY.slice(60)];
  const seeded = [];
  for (const r of seededMod.RANGES) {
    const rows = await seededMod.seededRows(r);
    const total = await seededMod.seededTotal(r, r.countStepMs);
    seeded.push({ name: r.name, from: r.from, to: r.to, total, rows });
  }
  const out = execFileSync('python3', [join(root, 'scripts/patterns-golden.py')], {
    input: JSON.stringify({ lines, seeded }),
    env: { ...process.env, PYTHONPATH: work, PYTHONHASHSEED: '0' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const result = JSON.parse(out);
  const fixture = {
    generatedBy: 'scripts/patterns-golden.mjs',
    drain3: { version: '0.9.11', commit: DRAIN3_COMMIT },
    lines: lines.map((line, i) => ({ line, ...result.lines[i] })),
    seeded: result.seeded,
  };
  const file = join(root, 'test/unit/preview/patterns-golden.json');
  writeFileSync(file, JSON.stringify(fixture, null, 1) + '\n');
  console.log(
    `wrote ${file}: ${lines.length} lines, ${seeded.map((s) => `${s.name} ${s.rows.length} rows`).join(', ')}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(0);
