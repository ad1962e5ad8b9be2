/**
 * Writes the demo helper extension (test/demo/connection.ts) as an extension folder, for `npm run demo` and the UI
 * tests: pass the folder to the workbench's installed extensions (test/host/runInCodeServer.ts does when its
 * environment has `$OBS_DEMO_CONNECTION`). The folder's `main` requires the compiled helper in out/.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const DEMO_EXTENSION = { publisher: 'obs-tools-test', name: 'demo-connection', version: '0.0.1' };

/** Writes the helper extension into `dir` (created) and returns it. */
export function writeDemoExtension(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const manifest = {
    ...DEMO_EXTENSION,
    engines: { vscode: '^1.100.0' },
    activationEvents: ['onStartupFinished'],
    // Runs in Restricted Mode too, as the extension under test does there (an extension that does not say so is
    // disabled in an untrusted workspace, and the untrusted-workspace UI test needs its connection).
    capabilities: { untrustedWorkspaces: { supported: true } },
    main: './extension.js',
  };
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const helper = path.join(__dirname, 'connection.js');
  fs.writeFileSync(path.join(dir, 'extension.js'), `module.exports = require(${JSON.stringify(helper)});\n`);
  return dir;
}

/** The variable that carries the demo connection (the helper reads it in the extension host). */
export const DEMO_CONNECTION_ENV = 'OBS_DEMO_CONNECTION';
