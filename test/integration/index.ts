/**
 * Mocha entry for the integration suites; VS Code loads it in the extension host (`extensionTestsPath`) and awaits
 * `run()`. The same file serves code-server (test/host/runInCodeServer.ts) and desktop VS Code
 * (test/host/runInElectron.ts).
 *
 * Environment (reaches the extension host from the launcher):
 * - OBS_TEST_GREP     only run tests whose full title matches this pattern (a regular expression).
 * - OBS_TEST_RESULTS  write a JSON summary {passed, failed, pending, failures:[{title, error}]} to this file.
 * - OBS_EMULATOR_FUTURE=1 every emulator answers like a newer server (future fields, page cap; see test/emulator).
 * The summary is also printed as one line `INTEGRATION RESULT {json}` so a launcher can read it from the log.
 *
 * Every emulator response is checked against the spec's response schemas; a test during which an emulator sent a
 * response that does not fit fails with the mismatches (see installResponseCheck).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import { describeResponseIssues, takeResponseIssues } from '../emulator/server';

export interface IntegrationSummary {
  passed: number;
  failed: number;
  pending: number;
  durationMs: number;
  failures: { title: string; error: string }[];
}

export const RESULT_PREFIX = 'INTEGRATION RESULT ';

/** Every `*.test.js` below `dir`, sorted for a stable order. */
export function findTestFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && entry.name.endsWith('.test.js')) found.push(full);
    }
  };
  walk(dir);
  return found.sort();
}

function describeError(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

/**
 * Root hooks: after each test (and once after everything), any emulator response recorded as not fitting the spec's
 * response schema fails that test, naming the request and the mismatch. Mismatches from `before` hooks are reported
 * with the first test after them.
 */
export function installResponseCheck(suite: Mocha.Suite): void {
  takeResponseIssues();
  const check = (where: string): Error | undefined => {
    const issues = takeResponseIssues();
    if (issues.length === 0) return undefined;
    return new Error(
      `The emulator sent ${issues.length} response(s) that do not fit the API spec ${where}:\n${describeResponseIssues(issues)}`,
    );
  };
  suite.afterEach('emulator responses fit the spec', function () {
    const err = check('during this test');
    // Fails the test itself (not the hook), so the remaining tests of the suite still run.
    if (err) (this.test as unknown as { error(e: Error): void }).error(err);
  });
  suite.afterAll('emulator responses fit the spec (after hooks)', function () {
    const err = check('in after hooks');
    if (err) throw err;
  });
}

export function run(): Promise<void> {
  const grep = process.env.OBS_TEST_GREP;
  const mocha = new Mocha({
    ui: 'bdd',
    timeout: 60_000,
    color: false,
    reporter: 'spec',
    ...(grep ? { grep: new RegExp(grep) } : {}),
  });
  for (const file of findTestFiles(__dirname)) mocha.addFile(file);
  installResponseCheck(mocha.suite);

  return new Promise<void>((resolve, reject) => {
    const summary: IntegrationSummary = { passed: 0, failed: 0, pending: 0, durationMs: 0, failures: [] };
    const started = Date.now();
    let runner: Mocha.Runner;
    try {
      runner = mocha.run();
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    const passed = new WeakSet<Mocha.Runnable>();
    runner.on('pass', (test: Mocha.Runnable) => {
      summary.passed++;
      passed.add(test);
    });
    runner.on('pending', () => {
      summary.pending++;
    });
    runner.on('fail', (test: Mocha.Runnable, err: unknown) => {
      // A test failed by the response check after it passed counts once, as failed.
      if (passed.has(test)) {
        passed.delete(test);
        summary.passed--;
      }
      summary.failed++;
      summary.failures.push({ title: test.fullTitle(), error: describeError(err) });
    });
    runner.on('end', () => {
      summary.durationMs = Date.now() - started;
      const json = JSON.stringify(summary);
      const target = process.env.OBS_TEST_RESULTS;
      if (target) {
        try {
          fs.mkdirSync(path.dirname(target), { recursive: true });
          fs.writeFileSync(target, `${JSON.stringify(summary, null, 2)}\n`);
        } catch (err) {
          console.error(`Could not write ${target}: ${describeError(err)}`);
        }
      }
      console.log(`${RESULT_PREFIX}${json}`);
      if (summary.failed > 0) reject(new Error(`${summary.failed} integration test(s) failed`));
      else resolve();
    });
  });
}
