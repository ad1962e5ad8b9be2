/**
 * Mocha entry for the integration suites; VS Code loads it in the extension host (`extensionTestsPath`) and awaits
 * `run()`. The same file serves code-server (test/host/runInCodeServer.ts) and desktop VS Code
 * (test/host/runInElectron.ts).
 *
 * Environment (reaches the extension host from the launcher):
 * - OBS_TEST_GREP     only run tests whose full title matches this pattern (a regular expression).
 * - OBS_TEST_RESULTS  write a JSON summary {passed, failed, pending, failures:[{title, error}]} to this file.
 * The summary is also printed as one line `INTEGRATION RESULT {json}` so a launcher can read it from the log.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

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
    runner.on('pass', () => {
      summary.passed++;
    });
    runner.on('pending', () => {
      summary.pending++;
    });
    runner.on('fail', (test: Mocha.Runnable, err: unknown) => {
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
