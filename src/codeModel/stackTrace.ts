/**
 * Stack traces as text → frames. Reads the formats of Node/JavaScript (V8 `at fn (file:line:col)`, browsers'
 * `fn@url:line:col`), Python (`File "…", line N, in fn`), Java/Kotlin (`at pkg.Class.method(File.java:N)`),
 * Go (goroutine dumps: the function, then `\tfile:line +0x…`), .NET (`at NS.Class.Method() in C:\…\File.cs:line N`)
 * and Ruby (`file:line:in 'method'`, either quote style). Lines of other shapes (messages, `... N more`) are
 * skipped; the lines that chain exceptions (`Caused by:`, Node's `[cause]:`, .NET's end of an inner exception,
 * Python's "The above exception was the direct cause…") start the next exception's frames (`exception` counts them).
 *
 * Frames keep the order of the text: Python writes the innermost call last, the others first. Bounded: the text is
 * read up to MAX_TRACE_CHARS, lines longer than MAX_LINE_CHARS are skipped, at most MAX_FRAMES frames are kept;
 * `truncated` says when any of these cut something.
 */

export type Runtime = 'javascript' | 'python' | 'java' | 'go' | 'dotnet' | 'ruby';

export interface Frame {
  /**
   * The file as the trace names it (a path, a `file://` URL, `node:internal/…`, `<frozen …>`). Java's frames name a
   * file without folders: the package's folders are put before it (`com/example/pay/Charge.java`).
   */
  file?: string;
  line?: number;
  column?: number;
  /** The function as the runtime writes it, with its class or package (`ChargeService.charge`, `main.(*S).Run`). */
  function?: string;
  runtime: Runtime;
  /**
   * Which exception of a chain the frame belongs to, in the order of the text (0 first). Java and Node write the
   * causes after the exception, .NET its inner exceptions and Python its causes before it.
   */
  exception: number;
}

export interface ParsedTrace {
  frames: Frame[];
  /** Part of the text or of the frames was left out (see the bounds). */
  truncated: boolean;
  /** Frames the trace itself says it left out (Java's `... N more`), summed. */
  omitted: number;
}

export const MAX_TRACE_CHARS = 64 * 1024;
export const MAX_LINE_CHARS = 2000;
export const MAX_FRAMES = 200;

const V8_CALL = /^\s*at\s+(?:async\s+)?(?:new\s+)?(.*?)\s+\((.+?):(\d+)(?::(\d+))?\)\s*\{?\s*$/;
const V8_BARE = /^\s*at\s+(?:async\s+)?(\S.*?):(\d+)(?::(\d+))?\s*$/;
const BROWSER = /^\s*([^@\s]*)@(\S+?):(\d+)(?::(\d+))?\s*$/;
const PYTHON = /^\s*File "(.+)", line (\d+)(?:, in (.+?))?\s*$/;
const JAVA_OR_DOTNET = /^\s*at\s+([^\s(]+)\((.*)\)\s*$/;
/** `in <file>:line N` (the word is localised: `Zeile`, `ligne`, …). */
const DOTNET_IN = /^\s*at\s+(.+?)\s+in\s+(.+?):\p{L}+\s+(\d+)\s*$/u;
const JAVA_PLACE = /^(?:(Native Method)|(Unknown Source)(?::\d+)?|([^\s():]+\.[A-Za-z]\w*)(?::(\d+))?)$/;
const GO_PLACE = /^\s+(\S.*?\.go):(\d+)(?:\s+\+0x[0-9a-f]+)?\s*$/;
const GO_FUNCTION = /^(?:created by\s+)?([^\s].*?)(?:\s+in goroutine \d+)?\s*$/;
/** Ruby's first line carries the message after the frame (`…:in 'm': card declined (Declined)`). */
const RUBY = /^\s*(?:from\s+)?(.+?):(\d+):in [`'](.+?)'(?::\s.*)?\s*$/;
const MORE = /^\s*\.\.\.\s*(\d+)\s+more\s*$/;
/** Lines that end one exception's frames and start the next one's (in the order of the text). */
const NEXT_EXCEPTION =
  /^\s*(?:Caused by:|Suppressed:|\[cause\]:|-+\s*End of inner exception stack trace|The above exception was the direct cause|During handling of the above exception)/;

function num(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** `pkg.Class.method` + `File.java` → `pkg/File.java` (module prefixes such as `java.base/` dropped). */
function javaPath(qualified: string, fileName: string): string {
  const name = qualified.includes('/') ? qualified.slice(qualified.lastIndexOf('/') + 1) : qualified;
  const parts = name.split('.');
  // The last part is the method, the one before the class; lower-case parts before it are the package.
  const pkg = parts.slice(0, -2).filter((p) => /^[a-z_][\w]*$/.test(p));
  return pkg.length === parts.length - 2 && pkg.length > 0 ? `${pkg.join('/')}/${fileName}` : fileName;
}

function javaFrame(fn: string, inside: string, exception: number): Frame | undefined {
  const place = JAVA_PLACE.exec(inside.trim());
  if (!place) return undefined;
  const function_ = fn.replace(/^[\w.$-]*\//, '').replace(/^\//, '');
  if (place[1] || place[2]) return { function: function_, runtime: 'java', exception };
  const file = javaPath(fn, place[3] as string);
  return { file, line: num(place[4]), function: function_, runtime: 'java', exception };
}

/** Without the trailing argument list of a Go function line (`main.(*S).run(0xc000, {0x1, 0x2})` → `main.(*S).run`). */
function goFunction(text: string): string {
  const m = GO_FUNCTION.exec(text);
  let fn = (m?.[1] ?? text).trim();
  if (fn.endsWith(')')) {
    let depth = 0;
    for (let i = fn.length - 1; i >= 0; i--) {
      if (fn[i] === ')') depth++;
      else if (fn[i] === '(' && --depth === 0) {
        fn = fn.slice(0, i);
        break;
      }
    }
  }
  return fn;
}

/** One line (and, for Go, the line before it) as a frame, or undefined when it is not one. */
export function frameOf(line: string, previous: string | undefined, exception: number): Frame | undefined {
  let m = DOTNET_IN.exec(line);
  if (m) return { file: m[2], line: num(m[3]), function: stripArgs(m[1] as string), runtime: 'dotnet', exception };
  m = JAVA_OR_DOTNET.exec(line);
  if (m) {
    const java = javaFrame(m[1] as string, m[2] as string, exception);
    if (java) return java;
    if (!/:\d+:\d+$/.test(m[2] as string)) return { function: m[1], runtime: 'dotnet', exception };
  }
  m = V8_CALL.exec(line);
  if (m) {
    const fn = m[1] === '<anonymous>' ? undefined : m[1];
    return { file: m[2], line: num(m[3]), column: num(m[4]), function: fn, runtime: 'javascript', exception };
  }
  m = V8_BARE.exec(line);
  if (m) return { file: m[1], line: num(m[2]), column: num(m[3]), runtime: 'javascript', exception };
  m = PYTHON.exec(line);
  if (m) return { file: m[1], line: num(m[2]), function: m[3], runtime: 'python', exception };
  m = GO_PLACE.exec(line);
  if (m && previous !== undefined && !/^\s/.test(previous) && previous.trim() !== '') {
    return { file: m[1], line: num(m[2]), function: goFunction(previous), runtime: 'go', exception };
  }
  m = RUBY.exec(line);
  if (m) return { file: m[1], line: num(m[2]), function: m[3], runtime: 'ruby', exception };
  m = BROWSER.exec(line);
  if (m && /[/\\.]/.test(m[2] as string)) {
    return {
      file: m[2],
      line: num(m[3]),
      column: num(m[4]),
      function: m[1] || undefined,
      runtime: 'javascript',
      exception,
    };
  }
  return undefined;
}

/** `NS.Class.Method(String id, Int32 n)` → `NS.Class.Method`. */
function stripArgs(fn: string): string {
  const open = fn.indexOf('(');
  return (open >= 0 ? fn.slice(0, open) : fn).trim();
}

/** The frames of a stack trace (any of the runtimes above; several traces in one text are read in turn). */
export function parseStackTrace(text: string): ParsedTrace {
  let truncated = text.length > MAX_TRACE_CHARS;
  const lines = text.slice(0, MAX_TRACE_CHARS).split(/\r?\n/);
  const frames: Frame[] = [];
  let omitted = 0;
  let exception = 0;
  let previous: string | undefined;
  for (const line of lines) {
    if (line.length > MAX_LINE_CHARS) {
      truncated = true;
      previous = undefined;
      continue;
    }
    const more = MORE.exec(line);
    if (more) omitted += Number(more[1]);
    else if (NEXT_EXCEPTION.test(line) && frames.length > 0) exception++;
    else {
      const frame = frameOf(line, previous, exception);
      if (frame) {
        if (frames.length >= MAX_FRAMES) {
          truncated = true;
          break;
        }
        frames.push(frame);
      }
    }
    previous = line;
  }
  return { frames, truncated, omitted };
}
