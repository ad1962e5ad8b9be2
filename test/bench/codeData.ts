/**
 * Data of the code-insights bench, made at bench time by the launcher (scripts/bench.mjs), which runs the emulator:
 * a TypeScript file with 300 functions (10 classes of 30 methods) in a workspace folder of its own, and spans naming
 * each of them (stable code attributes, a container path that differs from the workspace's) in a database of the
 * emulator's engine that the sample data does not use (`bench_code`; the sample data's cache is left as it is). The
 * bench host then adds a trace source on that table (test/bench/codeInsights.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ClickHouseEngine } from '../emulator/clickhouse/engine';
import { TABLES } from '../emulator/clickhouse/schema';

export const BENCH_CODE_DATABASE = 'bench_code';
/** The file's path in the workspace folder, and where the spans say it was deployed. */
export const BENCH_CODE_FILE = 'src/bench/functions300.ts';
const DEPLOYED = `/app/${BENCH_CODE_FILE}`;
const CLASSES = 10;
const METHODS = 30;
/** Spans per function (over the last 23 hours). */
const SPANS = 40;

interface Method {
  qualified: string;
  line: number;
}

/** The file's text and each method's qualified name and line (1-based, the line of its name). */
export function functionsFile(): { text: string; methods: Method[] } {
  const lines = ['// 300 functions for the code-insights bench (generated).', ''];
  const methods: Method[] = [];
  for (let c = 0; c < CLASSES; c++) {
    const cls = `BenchService${String(c).padStart(2, '0')}`;
    lines.push(`export class ${cls} {`);
    for (let m = 0; m < METHODS; m++) {
      const name = `method${String(m).padStart(2, '0')}`;
      methods.push({ qualified: `${cls}.${name}`, line: lines.length + 1 });
      lines.push(`  ${name}(input: number): number {`, `    return input * ${m + 1} + ${c};`, '  }', '');
    }
    lines.push('}', '');
  }
  return { text: lines.join('\n'), methods };
}

/** Writes the workspace folder (created) with the 300-function file; returns the folder. */
export function writeCodeWorkspace(dir: string): string {
  const file = path.join(dir, BENCH_CODE_FILE);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, functionsFile().text);
  return dir;
}

const q = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** One INSERT … SELECT per class: SPANS spans of each of its methods, every 20th failing. */
function inserts(): string[] {
  const traces = TABLES.find((t) => t.name === 'otel_traces');
  if (!traces) throw new Error('the emulator has no otel_traces table');
  const { methods } = functionsFile();
  const columns = traces.insertColumns.map((c) => `\`${c}\``).join(', ');
  const out: string[] = [];
  for (let c = 0; c < CLASSES; c++) {
    const selects = methods.slice(c * METHODS, (c + 1) * METHODS).map((m, i) => {
      const k = c * METHODS + i;
      const attrs = `map('code.function.name', ${q(m.qualified)}, 'code.file.path', ${q(DEPLOYED)}, 'code.line.number', '${m.line}')`;
      const ns = `toInt64((toUnixTimestamp(now()) - 60 - number * 2000) * 1000000000 + (cityHash64(number, ${k}) % 1000000000))`;
      const failed = `number % 20 = 19`;
      return `SELECT fromUnixTimestamp64Nano(${ns}, 'UTC'), lower(hex(MD5(concat(${q(m.qualified)}, toString(number))))),
  leftPad(lower(hex(cityHash64(number, ${k + 1000}))), 16, '0'), '', '', ${q(m.qualified)}, 'Internal', 'bench-code',
  map('service.name', 'bench-code', 'telemetry.sdk.language', 'nodejs'), 'bench-code/code', '', ${attrs},
  toUInt64(1000000 + (cityHash64(number, ${k + 2000}) % 50000000)),
  if(${failed}, 'Error', 'Unset'), if(${failed}, 'operation failed', ''),
  CAST([], 'Array(DateTime64(9))'), CAST([], 'Array(String)'), CAST([], 'Array(Map(String, String))'),
  CAST([], 'Array(String)'), CAST([], 'Array(String)'), CAST([], 'Array(String)'), CAST([], 'Array(Map(String, String))')
  FROM numbers(${SPANS})`;
    });
    out.push(`INSERT INTO otel_traces (${columns}) ${selects.join('\nUNION ALL\n')}`);
  }
  return out;
}

/** Creates the bench database in the emulator's engine (this process's) and fills its spans table anew. */
export async function seedCodeSpans(): Promise<{ functions: number; spans: number }> {
  const engine = await ClickHouseEngine.shared();
  engine.ensureDatabase(BENCH_CODE_DATABASE);
  const run = (sql: string) =>
    engine.run(
      sql,
      'JSONEachRow',
      BENCH_CODE_DATABASE,
      new AbortController().signal,
      () => undefined,
      async () => true,
    );
  await run('TRUNCATE TABLE otel_traces');
  for (const sql of inserts()) await run(sql);
  return { functions: CLASSES * METHODS, spans: CLASSES * METHODS * SPANS };
}
