// What the scripts of this folder share: the repository's paths, a process runner, a zip reader and strict option
// parsing (node:util parseArgs: an unknown option or a missing value is refused with the usage text).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const NODE = process.execPath;
export const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** A file of an installed package: `bin('typescript/bin/tsc')`. */
export const bin = (rel) => path.join(ROOT, 'node_modules', ...rel.split('/'));

/**
 * Reads the command line against `options` (parseArgs' format; each may have a `description` and a `placeholder`
 * for the usage text). `--help` prints `usage` and the options and exits; anything unknown prints them and exits with
 * code 2. Returns `{ values, positionals }`.
 */
export function parseOptions(usage, options, { positionals = false, argv = process.argv.slice(2) } = {}) {
  const all = { ...options, help: { type: 'boolean', description: 'print this help and exit' } };
  const help = () => {
    const lines = Object.entries(all).map(([name, o]) => {
      const flag = `--${name}${o.type === 'string' ? ` <${o.placeholder ?? 'value'}>` : ''}`;
      return `  ${flag.padEnd(28)} ${o.description ?? ''}`;
    });
    return `${usage}\n\nOptions:\n${lines.join('\n')}`;
  };
  let parsed;
  try {
    const config = Object.fromEntries(
      Object.entries(all).map(([name, o]) => [
        name,
        { type: o.type, ...(o.default !== undefined ? { default: o.default } : {}) },
      ]),
    );
    parsed = parseArgs({ args: argv, options: config, allowPositionals: positionals, strict: true });
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${help()}`);
    process.exit(2);
  }
  if (parsed.values.help) {
    console.log(help());
    process.exit(0);
  }
  return parsed;
}

/** A whole number ≥ 1 from an option's text, or exit 2 naming the option. */
export function positiveInteger(value, name) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} needs a positive whole number, not "${value}"`);
    process.exit(2);
  }
  return n;
}

/**
 * Runs a command in the repository; resolves with its exit code and output (ANSI colours removed). `stream` also
 * writes the output as it comes (stdout to stdout, stderr to stderr); `echo` prints the command line first.
 */
export function run(cmd, args, { env = {}, stream = false, echo = true } = {}) {
  const shown = (a) =>
    path.isAbsolute(a) && !path.relative(ROOT, a).startsWith('..') ? path.relative(ROOT, a) || '.' : a;
  if (echo) console.log(`$ ${[cmd === NODE ? 'node' : cmd, ...args.map(shown)].join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32' && cmd === NPM,
    });
    let output = '';
    const onData = (sink) => (chunk) => {
      if (stream) sink.write(chunk);
      output += chunk.toString('utf8');
    };
    child.stdout.on('data', onData(process.stdout));
    child.stderr.on('data', onData(process.stderr));
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', (error) => {
      output += String(error);
    });
    child.on('close', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      // eslint-disable-next-line no-control-regex
      resolve({ code: code ?? (signal ? 128 : 1), output: output.replace(/\x1b\[[0-9;]*m/g, '') });
    });
  });
}

/** Name, size and compressed size of each file of a zip (read from its central directory); folders left out. */
export function zipEntries(file) {
  const buf = fs.readFileSync(file);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip file`);
  const entries = [];
  let p = buf.readUInt32LE(eocd + 16);
  for (let n = buf.readUInt16LE(eocd + 10); n > 0; n--) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: corrupt central directory`);
    const nameLength = buf.readUInt16LE(p + 28);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLength);
    if (!name.endsWith('/'))
      entries.push({ name, compressed: buf.readUInt32LE(p + 20), size: buf.readUInt32LE(p + 24) });
    p += 46 + nameLength + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  return entries;
}
