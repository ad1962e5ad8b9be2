/**
 * Runs the integration suites in a desktop VS Code through `@vscode/test-electron`, for machines that have one (or
 * can download one). The test entry is the same as under code-server.
 *
 * CLI: `node out/test/host/runInElectron.js [--tests out/test/integration/index.js] [--workspace <dir>]
 *   [--grep <pattern>] [--results <file>]`
 * Environment: VSCODE_EXECUTABLE (a desktop VS Code binary; otherwise test-electron downloads the version given by
 * VSCODE_VERSION, default the one matching `engines.vscode`), OBS_TEST_GREP, OBS_TEST_RESULTS.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests, TestRunFailedError } from '@vscode/test-electron';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const DEFAULT_VERSION = '1.100.3';

interface CliArgs {
  tests: string;
  workspace?: string;
  grep?: string;
  results?: string;
}

function parseArgs(argv: readonly string[]): CliArgs {
  const out: CliArgs = { tests: path.join(REPO_ROOT, 'out', 'test', 'integration', 'index.js') };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    switch (arg) {
      case '--tests':
        out.tests = value();
        break;
      case '--workspace':
        out.workspace = value();
        break;
      case '--grep':
        out.grep = value();
        break;
      case '--results':
        out.results = value();
        break;
      default:
        throw new Error(`Unknown argument: ${arg}`);
    }
  }
  return out;
}

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  const args = parseArgs(argv);
  const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'obs-electron-'));
  const workspace = path.resolve(args.workspace ?? path.join(tempRoot, 'workspace'));
  fs.mkdirSync(workspace, { recursive: true });
  const extensionTestsEnv: Record<string, string | undefined> = {};
  const grep = args.grep ?? process.env.OBS_TEST_GREP;
  if (grep) extensionTestsEnv.OBS_TEST_GREP = grep;
  const results = args.results ?? process.env.OBS_TEST_RESULTS;
  if (results) extensionTestsEnv.OBS_TEST_RESULTS = path.resolve(results);
  const executable = process.env.VSCODE_EXECUTABLE;
  try {
    return await runTests({
      ...(executable
        ? { vscodeExecutablePath: executable }
        : { version: process.env.VSCODE_VERSION ?? DEFAULT_VERSION }),
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath: path.resolve(args.tests),
      extensionTestsEnv,
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        '--user-data-dir',
        path.join(tempRoot, 'user-data'),
        '--extensions-dir',
        path.join(tempRoot, 'extensions'),
      ],
    });
  } catch (err) {
    if (err instanceof TestRunFailedError) return err.code ?? 1;
    throw err;
  } finally {
    fs.rmSync(tempRoot, { recursive: true, force: true, maxRetries: 3 });
  }
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
