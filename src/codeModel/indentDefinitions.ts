/**
 * Definitions of Python and Ruby by indentation: a `def` or `class` runs until the next code line indented no deeper
 * (Python) or until the `end` at its own indentation (Ruby). Python decorators start the definition's range (agents
 * often report the decorator's line).
 */
import { CodeText, type Block, type Definition, type ScanResult } from './definitionTypes';

const PY_DEF = /^(\s*)(?:async\s+)?def\s+([A-Za-z_]\w*)\s*[([]/;
const PY_CLASS = /^(\s*)class\s+([A-Za-z_]\w*)/;
const RB_DEF = /^(\s*)def\s+(?:(self|[A-Z]\w*)\.)?([A-Za-z_]\w*[?!=]?)/;
const RB_CLASS = /^(\s*)(?:class|module)\s+(?:[A-Z]\w*::)*([A-Z]\w*)/;
const RB_END = /^(\s*)end\b/;
/** `def x = 1` (endless) and `def x; 1; end`. */
const RB_ONE_LINE = /^\s*def\s+[\w.]+[?!]?(?:\([^)]*\))?\s*=(?!=)|;\s*end\s*$/;

function width(indent: string): number {
  let n = 0;
  for (const c of indent) n += c === '\t' ? 8 : 1;
  return n;
}

function containerOf(open: readonly Block[]): string | undefined {
  return [...open].reverse().find((b) => b.def.kind === 'class')?.def.name;
}

function add(out: Definition[], code: CodeText, def: Definition): boolean {
  if (out.length >= code.maxDefinitions) {
    code.truncated = true;
    return false;
  }
  out.push(def);
  return true;
}

/** Python or Ruby definitions of a file's text. */
export function scanIndented(text: string, language: 'python' | 'ruby'): ScanResult {
  const code = new CodeText(text, true);
  const out: Definition[] = [];
  const open: Block[] = [];
  let decorator: number | undefined;
  let lastCode = 0;
  let inTriple = false;
  for (const { index, line, long } of code.lines()) {
    if (language === 'python') {
      // Lines inside a triple-quoted string are not code (the blanking reads one line at a time).
      const triples = (line.match(/"""|'''/g) ?? []).length;
      const wasInTriple = inTriple;
      if (triples % 2 === 1) inTriple = !inTriple;
      if (wasInTriple) continue;
    }
    if (line.trim() === '' || long) continue;
    const indent = width(/^\s*/.exec(line)?.[0] ?? '');
    if (language === 'python') {
      while (open.length > 0 && indent <= (open[open.length - 1] as Block).depth) {
        (open.pop() as Block).def.end = lastCode;
      }
      lastCode = index;
      if (/^\s*@/.test(line)) {
        decorator ??= index;
        continue;
      }
      const m = PY_DEF.exec(line) ?? PY_CLASS.exec(line);
      if (m) {
        const isClass = PY_CLASS.test(line) && !PY_DEF.test(line);
        const container = isClass ? undefined : containerOf(open);
        const def: Definition = {
          name: m[2] as string,
          kind: isClass ? 'class' : container ? 'method' : 'function',
          start: decorator ?? index,
          end: index,
          nameLine: index,
        };
        if (container !== undefined) def.container = container;
        if (add(out, code, def)) open.push({ def, depth: indent });
      }
      decorator = undefined;
      continue;
    }
    const end = RB_END.exec(line);
    if (end && open.length > 0 && width(end[1] as string) === (open[open.length - 1] as Block).depth) {
      (open.pop() as Block).def.end = index;
      continue;
    }
    const cls = RB_CLASS.exec(line);
    const def = RB_DEF.exec(line);
    if (cls) {
      const d: Definition = { name: cls[2] as string, kind: 'class', start: index, end: index, nameLine: index };
      if (add(out, code, d) && !/\bend\s*$/.test(line)) open.push({ def: d, depth: indent });
    } else if (def) {
      const container = def[2] && def[2] !== 'self' ? def[2] : containerOf(open);
      const d: Definition = {
        name: def[3] as string,
        kind: container ? 'method' : 'function',
        start: index,
        end: index,
        nameLine: index,
      };
      if (container !== undefined) d.container = container;
      if (add(out, code, d) && !RB_ONE_LINE.test(line)) open.push({ def: d, depth: indent });
    }
  }
  for (const b of open) b.def.end = language === 'python' ? lastCode : code.lastLine;
  return { definitions: out, truncated: code.truncated };
}
