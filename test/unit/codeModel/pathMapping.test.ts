/**
 * Deployed paths → workspace files: explicit prefix mappings first, then the longest common path suffix; ties are
 * ambiguous; URLs, Windows paths, `..` and hostile input never lead outside the workspace's listed files.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  indexWorkspace,
  mapPath,
  MAX_PATH_CHARS,
  type PathMatch,
  type PrefixMapping,
} from '../../../src/codeModel/pathMapping';
import { parseStackTrace } from '../../../src/codeModel/stackTrace';

const WORKSPACE = [
  'src/pay/charge.ts',
  'src/pay/index.ts',
  'src/cart/index.ts',
  'services/api/src/pay/charge.ts',
  'lib/util.py',
  'pay/charge.py',
  'src/main/java/com/example/pay/ChargeService.java',
  'Shop.Payments/ChargeService.cs',
  'app/models/order.rb',
  'cmd/server/main.go',
  'pay/server.go',
  'web/src/App.tsx',
  'docs/notes with space.md',
  'packages/a/lib/log.ts',
  'packages/b/lib/log.ts',
];
const index = indexWorkspace(WORKSPACE);

const CASES: { deployed: string; prefixes?: PrefixMapping[]; want: PathMatch }[] = [
  // The issue's example: the longest common suffix.
  {
    deployed: '/app/src/pay/charge.ts',
    want: { kind: 'mapped', path: 'src/pay/charge.ts', via: 'suffix', segments: 3 },
  },
  // A longer suffix wins over a shorter one.
  {
    deployed: '/srv/services/api/src/pay/charge.ts',
    want: { kind: 'mapped', path: 'services/api/src/pay/charge.ts', via: 'suffix', segments: 5 },
  },
  // Equal best suffixes: the workspace path that is wholly the deployed path's end wins (above: src/pay/charge.ts,
  // not services/api/src/pay/charge.ts); otherwise they are reported, not guessed.
  {
    deployed: '/app/lib/log.ts',
    want: { kind: 'ambiguous', candidates: ['packages/a/lib/log.ts', 'packages/b/lib/log.ts'], segments: 2 },
  },
  {
    deployed: '/app/dist/index.ts',
    want: { kind: 'ambiguous', candidates: ['src/cart/index.ts', 'src/pay/index.ts'], segments: 1 },
  },
  // An explicit prefix mapping comes first (and here settles what the suffix alone would also find differently).
  {
    deployed: '/app/src/pay/charge.ts',
    prefixes: [{ from: '/app/', to: 'services/api' }],
    want: { kind: 'mapped', path: 'services/api/src/pay/charge.ts', via: 'prefix', segments: 4 },
  },
  // A prefix mapping whose result is not a workspace file falls back to the suffix.
  {
    deployed: '/app/src/pay/charge.ts',
    prefixes: [{ from: '/app', to: 'elsewhere' }],
    want: { kind: 'mapped', path: 'src/pay/charge.ts', via: 'suffix', segments: 3 },
  },
  // A prefix mapping cannot climb out of the workspace.
  {
    deployed: '/app/pay/charge.py',
    prefixes: [{ from: '/app', to: '../outside' }],
    want: { kind: 'mapped', path: 'pay/charge.py', via: 'suffix', segments: 2 },
  },
  // URLs become paths: file://, webpack://, http(s):// (query and fragment dropped, escapes decoded).
  {
    deployed: 'file:///srv/app/pay/charge.py',
    want: { kind: 'mapped', path: 'pay/charge.py', via: 'suffix', segments: 2 },
  },
  {
    deployed: 'webpack:///./src/App.tsx',
    want: { kind: 'mapped', path: 'web/src/App.tsx', via: 'suffix', segments: 2 },
  },
  {
    deployed: 'webpack://shop/./src/App.tsx?abcd',
    want: { kind: 'mapped', path: 'web/src/App.tsx', via: 'suffix', segments: 2 },
  },
  {
    deployed: 'https://shop.example.com/web/src/App.tsx#L3',
    want: { kind: 'mapped', path: 'web/src/App.tsx', via: 'suffix', segments: 3 },
  },
  {
    deployed: 'file:///srv/docs/notes%20with%20space.md',
    want: { kind: 'mapped', path: 'docs/notes with space.md', via: 'suffix', segments: 2 },
  },
  // Windows paths: drive letters, backslashes, UNC, compared without case.
  {
    deployed: 'C:\\build\\shop.payments\\ChargeService.cs',
    want: { kind: 'mapped', path: 'Shop.Payments/ChargeService.cs', via: 'suffix', segments: 2 },
  },
  {
    deployed: 'file:///C:/build/Shop.Payments/ChargeService.cs',
    want: { kind: 'mapped', path: 'Shop.Payments/ChargeService.cs', via: 'suffix', segments: 2 },
  },
  {
    deployed: '\\\\buildhost\\share\\Shop.Payments\\ChargeService.cs',
    want: { kind: 'mapped', path: 'Shop.Payments/ChargeService.cs', via: 'suffix', segments: 2 },
  },
  {
    deployed: 'D:\\a\\b\\app\\models\\order.rb',
    prefixes: [{ from: 'd:\\A\\B', to: '' }],
    want: { kind: 'mapped', path: 'app/models/order.rb', via: 'prefix', segments: 5 },
  },
  // POSIX paths keep their case.
  { deployed: '/app/SRC/PAY/CHARGE.TS', want: { kind: 'none', reason: 'no workspace file has this name' } },
  // `..` is resolved within the deployed path; climbing above its root maps to nothing.
  {
    deployed: '/app/lib/../src/pay/./charge.ts',
    want: { kind: 'mapped', path: 'src/pay/charge.ts', via: 'suffix', segments: 3 },
  },
  { deployed: '../../etc/passwd', want: { kind: 'none', reason: 'not a file path in the workspace' } },
  { deployed: '/app/../../src/pay/charge.ts', want: { kind: 'none', reason: 'not a file path in the workspace' } },
  // Not file locations.
  { deployed: 'node:internal/process/task_queues', want: { kind: 'none', reason: 'not a file path in the workspace' } },
  { deployed: '<frozen importlib._bootstrap>', want: { kind: 'none', reason: 'not a file path in the workspace' } },
  { deployed: 'https://shop.example.com', want: { kind: 'none', reason: 'not a file path in the workspace' } },
  { deployed: '', want: { kind: 'none', reason: 'not a file path in the workspace' } },
  { deployed: '   ', want: { kind: 'none', reason: 'not a file path in the workspace' } },
  { deployed: '/', want: { kind: 'none', reason: 'not a file path in the workspace' } },
  { deployed: '/app/src\0/pay/charge.ts', want: { kind: 'none', reason: 'not a file path in the workspace' } },
  {
    deployed: `/app/${'a/'.repeat(MAX_PATH_CHARS)}charge.ts`,
    want: { kind: 'none', reason: 'not a file path in the workspace' },
  },
  { deployed: 'file:///app/%E0%A4%A.ts', want: { kind: 'none', reason: 'not a file path in the workspace' } },
  { deployed: '/app/nothing/here.ts', want: { kind: 'none', reason: 'no workspace file has this name' } },
];

describe('Deployed paths onto the workspace', () => {
  for (const c of CASES) {
    it(`${JSON.stringify(c.deployed.slice(0, 80))}${c.prefixes ? ` with ${JSON.stringify(c.prefixes)}` : ''}`, () => {
      assert.deepEqual(mapPath(c.deployed, index, c.prefixes), c.want);
    });
  }

  it('answers only files of the workspace list: the list itself drops escaping and absolute entries', () => {
    const idx = indexWorkspace([
      '../secret/charge.ts',
      '/etc/charge.ts',
      'C:/x/charge.ts',
      './src/./charge.ts',
      'src/charge.ts',
    ]);
    assert.deepEqual([...idx.all], ['src/charge.ts']);
    assert.deepEqual(mapPath('/app/charge.ts', idx), {
      kind: 'mapped',
      path: 'src/charge.ts',
      via: 'suffix',
      segments: 1,
    });
  });

  it('maps the frames of real stack traces (Java packages as folders, Go and Python paths)', () => {
    const text = `java.lang.IllegalStateException: declined
	at com.example.pay.ChargeService.charge(ChargeService.java:57)
	at java.base/java.lang.Thread.run(Thread.java:1583)`;
    const frames = parseStackTrace(text).frames.map((f) => mapPath(f.file ?? '', index));
    assert.deepEqual(frames, [
      { kind: 'mapped', path: 'src/main/java/com/example/pay/ChargeService.java', via: 'suffix', segments: 4 },
      { kind: 'none', reason: 'no workspace file has this name' },
    ]);
    const go = parseStackTrace('main.main()\n\t/build/cmd/server/main.go:17 +0x25').frames[0];
    assert.deepEqual(mapPath(go?.file ?? '', index), {
      kind: 'mapped',
      path: 'cmd/server/main.go',
      via: 'suffix',
      segments: 3,
    });
  });

  it('reports at most ten ambiguous candidates', () => {
    const many = indexWorkspace(Array.from({ length: 50 }, (_, i) => `pkg${i}/index.ts`));
    const m = mapPath('/app/index.ts', many);
    assert.equal(m.kind, 'ambiguous');
    assert.equal(m.kind === 'ambiguous' && m.candidates.length, 10);
  });
});
