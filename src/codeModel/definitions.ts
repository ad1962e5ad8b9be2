/**
 * A plain scan of a file's function, method and class definitions, for when no language server answers:
 * TypeScript/JavaScript, Java, Kotlin, C# and Go by their braces (here), Python and Ruby by their indentation
 * (indentDefinitions.ts). Line-based regular expressions over the code with strings and comments blanked out: it
 * finds the common shapes (declarations, exported arrow functions, class members, Go receivers), not every one.
 * Bounded: at most MAX_SCAN_LINES lines are read, lines longer than MAX_SCAN_LINE_CHARS are not matched, at most
 * MAX_DEFINITIONS definitions are kept; `truncated` says when a bound cut something.
 */
import { CodeText, type Block, type Definition, type Language, type ScanResult } from './definitionTypes';
import { scanIndented } from './indentDefinitions';

export type { Definition, Language, ScanResult } from './definitionTypes';
export { MAX_DEFINITIONS, MAX_SCAN_LINES, MAX_SCAN_LINE_CHARS } from './definitionTypes';

const EXTENSIONS: Record<string, Language> = {
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  java: 'java',
  kt: 'kotlin',
  kts: 'kotlin',
  go: 'go',
  cs: 'csharp',
  rb: 'ruby',
};

/** The language of a file by its extension, undefined for the ones not scanned. */
export function languageOf(path: string): Language | undefined {
  const m = /\.([A-Za-z]+)$/.exec(path);
  return m ? EXTENSIONS[(m[1] as string).toLowerCase()] : undefined;
}

const ID = '[A-Za-z_$][\\w$]*';
const JS_FUNCTION = new RegExp(`^\\s*(?:export\\s+)?(?:default\\s+)?(?:async\\s+)?function\\s*\\*?\\s*(${ID})\\s*[(<]`);
const JS_VARIABLE = new RegExp(
  `^\\s*(?:export\\s+)?(?:const|let|var)\\s+(${ID})\\s*(?::[^=]+)?=\\s*(?:async\\s+)?(?:function\\b|\\(.*=>|\\($|${ID}\\s*=>)`,
);
const JS_CLASS = new RegExp(`^\\s*(?:export\\s+)?(?:default\\s+)?(?:abstract\\s+)?class\\s+(${ID})`);
const JS_MEMBER = new RegExp(
  `^\\s*(?:(?:public|private|protected|static|async|readonly|override|abstract|get|set)\\s+)*\\*?\\s*(#?${ID})\\s*(?:<[^>]*>)?\\s*(?:\\(|(?::[^=]+)?=\\s*(?:async\\s+)?(?:\\(.*=>|\\($|${ID}\\s*=>))`,
);
const TYPE_DECL =
  /^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:[\w]+\s+)*(?:class|interface|enum|record|struct|object)\s+([A-Za-z_]\w*)/;
const MODIFIERS =
  '(?:(?:public|private|protected|internal|static|final|abstract|synchronized|native|override|virtual|async|sealed|partial|extern|unsafe|new|default|strictfp)\\s+)';
const C_METHOD = new RegExp(
  `^\\s*(?:@\\w+(?:\\([^)]*\\))?\\s+)*${MODIFIERS}*(?:<[^>]+>\\s+)?[\\w.?\\[\\],]+(?:<.*>)?[\\[\\]?]*\\s+([A-Za-z_]\\w*)\\s*(?:<[^>]*>)?\\(`,
);
const C_CONSTRUCTOR = new RegExp(`^\\s*${MODIFIERS}+([A-Za-z_]\\w*)\\s*\\(`);
const KOTLIN_FUN = new RegExp(
  `^\\s*${MODIFIERS.replace('public', 'public|open|suspend|inline|operator|infix|tailrec')}*fun\\s+(?:<[^>]+>\\s+)?(?:[\\w.]+\\.)?([A-Za-z_]\\w*)\\s*\\(`,
);
const GO_FUNC = /^func\s+(?:\(\s*\w*\s*\*?\s*([A-Za-z_]\w*)(?:\[[^\]]*\])?\s*\)\s*)?([A-Za-z_]\w*)\s*[[(]/;
const KEYWORDS = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'return',
  'new',
  'throw',
  'else',
  'do',
  'try',
  'using',
  'lock',
  'foreach',
  'await',
  'yield',
  'typeof',
  'super',
  'this',
  'function',
]);

interface Found {
  name: string;
  kind: Definition['kind'];
  /** Go's receiver type, which names the container. */
  receiver?: string;
}

/** A definition the line opens, given the block it is in. */
function found(language: Language, line: string, inClass: Block | undefined): Found | undefined {
  let m: RegExpExecArray | null;
  if (language === 'go') {
    m = GO_FUNC.exec(line);
    return m ? { name: m[2] as string, kind: m[1] ? 'method' : 'function', receiver: m[1] } : undefined;
  }
  if (language === 'typescript' || language === 'javascript') {
    if ((m = JS_CLASS.exec(line))) return { name: m[1] as string, kind: 'class' };
    if ((m = JS_FUNCTION.exec(line) ?? JS_VARIABLE.exec(line))) return { name: m[1] as string, kind: 'function' };
    m = inClass ? JS_MEMBER.exec(line) : null;
    return m && !KEYWORDS.has(m[1] as string) ? { name: m[1] as string, kind: 'method' } : undefined;
  }
  if ((m = TYPE_DECL.exec(line))) return { name: m[1] as string, kind: 'class' };
  if (language === 'kotlin') {
    m = KOTLIN_FUN.exec(line);
    return m ? { name: m[1] as string, kind: 'function' } : undefined;
  }
  if (!inClass) return undefined;
  m = C_METHOD.exec(line) ?? C_CONSTRUCTOR.exec(line);
  return m && !KEYWORDS.has(m[1] as string) ? { name: m[1] as string, kind: 'method' } : undefined;
}

/** The definitions of a file's text in `language`, in the order they start. */
export function scanDefinitions(text: string, language: Language): ScanResult {
  if (language === 'python' || language === 'ruby') return scanIndented(text, language);
  const code = new CodeText(text);
  const out: Definition[] = [];
  const open: Block[] = [];
  let pending: Block | undefined;
  let depth = 0;
  for (const { index, line, long } of code.lines()) {
    const top = open[open.length - 1];
    const inClass = top?.def.kind === 'class' && depth === top.depth + 1 ? top : undefined;
    const f = long ? undefined : found(language, line, inClass);
    if (f && out.length < code.maxDefinitions) {
      const container = f.receiver ?? [...open].reverse().find((b) => b.def.kind === 'class')?.def.name;
      const def: Definition = {
        name: f.name,
        kind: f.kind === 'function' && container ? 'method' : f.kind,
        start: index,
        end: index,
        nameLine: index,
      };
      if (container !== undefined && f.kind !== 'class') def.container = container;
      out.push(def);
      pending = { def, depth };
    } else if (f) code.truncated = true;
    for (const ch of line) {
      if (ch === '{') {
        if (pending && depth === pending.depth) {
          open.push(pending);
          pending = undefined;
        }
        depth++;
      } else if (ch === '}') {
        depth = Math.max(0, depth - 1);
        const last = open[open.length - 1];
        if (last && depth === last.depth) {
          last.def.end = index;
          open.pop();
        }
      } else if (ch === ';' && pending && depth === pending.depth) pending = undefined;
    }
    if (pending && index - pending.def.start >= 8) pending = undefined;
  }
  for (const b of open) b.def.end = code.lastLine;
  return { definitions: out, truncated: code.truncated };
}
