/**
 * Where a span was made, from its attributes: both generations of OpenTelemetry's code attributes.
 *
 *   stable (semantic conventions 1.30+)   deprecated (still sent by many agents)
 *   code.function.name (fully qualified)  code.function (bare) + code.namespace (class or module)
 *   code.file.path                        code.filepath
 *   code.line.number                      code.lineno
 *   code.column.number                    code.column
 *
 * The stable key wins when both are sent. Names are split into the function and what holds it, whatever the
 * runtime's notation: `com.example.Svc.serve`, `GuzzleHttp\Client::transfer`, `Foo::Bar#baz`,
 * `github.com/x/pay.(*Server).Charge`. Empty and oversized values are read as absent.
 */

export const ATTR = {
  functionName: 'code.function.name',
  filePath: 'code.file.path',
  lineNumber: 'code.line.number',
  columnNumber: 'code.column.number',
  function: 'code.function',
  namespace: 'code.namespace',
  filepath: 'code.filepath',
  lineno: 'code.lineno',
  column: 'code.column',
} as const;

/** Longest name or path read (longer values are treated as absent). */
export const MAX_VALUE_CHARS = 4096;
const MAX_LINE = 10_000_000;

export interface CodeLocation {
  /** The bare function or method name (`serveRequest`), absent for anonymous functions. */
  function?: string;
  /** What holds it, as the runtime writes it (`com.example.MyHttpService`, `GuzzleHttp\Client`, `app.pay`). */
  namespace?: string;
  /** The last part of the namespace: the class, receiver type or module (`MyHttpService`, `Client`, `Server`). */
  container?: string;
  /** Namespace and function together (`com.example.MyHttpService.serveRequest`). */
  qualified?: string;
  /** The deployed file path, as sent. */
  file?: string;
  line?: number;
  column?: number;
  /** The agent named an anonymous function (`(anonymous)`, `<anonymous>`, `<lambda>`). */
  anonymous: boolean;
  /** Which generation of keys the location was read from. */
  generation: 'stable' | 'deprecated' | 'both';
}

type Attributes = Readonly<Record<string, unknown>> | ReadonlyMap<string, unknown>;

function get(attrs: Attributes, key: string): string | undefined {
  const v = attrs instanceof Map ? attrs.get(key) : (attrs as Record<string, unknown>)[key];
  const text = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : undefined;
  return text && text.length <= MAX_VALUE_CHARS ? text : undefined;
}

function positive(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n > 0 && n <= MAX_LINE ? n : undefined;
}

const ANONYMOUS = /^(?:\(anonymous\)|<anonymous>|<lambda>|anonymous|\{closure\}|<anon>)$/;

/** Without a trailing argument list (`Charge(Decimal amount)` → `Charge`); Go's `(*T)` receivers are kept. */
function withoutArgs(name: string): string {
  const m = /^(.*[^.(\s])\([^()]*\)$/.exec(name);
  return m ? (m[1] as string) : name;
}

/** A qualified name split at its last separator (`::`, `#`, `->`, `\`, `.`, `/`). */
export function splitQualified(raw: string): { namespace?: string; name: string } {
  const name = withoutArgs(raw.trim());
  let at = -1;
  let width = 0;
  for (const sep of ['::', '#', '->', '\\', '.']) {
    const i = name.lastIndexOf(sep);
    // A separator at the very start or end separates nothing (`.ctor` stays whole).
    if (i > 0 && i + sep.length < name.length && i > at) {
      at = i;
      width = sep.length;
    }
  }
  if (at < 0) return { name };
  return { namespace: name.slice(0, at), name: name.slice(at + width) };
}

/** The class-like last part of a namespace (`com.x.Svc` → `Svc`, `pay.(*Server)` → `Server`, `A\B` → `B`). */
export function containerOf(namespace: string): string | undefined {
  const last = namespace.split(/::|#|->|\\|\.|\//).pop() ?? '';
  const clean = last.replace(/^\(\*?|\)$/g, '').trim();
  return clean || undefined;
}

/** The code location of a span or log record, or undefined when it carries no code attribute. */
export function readCodeAttributes(attrs: Attributes): CodeLocation | undefined {
  const stableFn = get(attrs, ATTR.functionName);
  const stableFile = get(attrs, ATTR.filePath);
  const stableLine = positive(get(attrs, ATTR.lineNumber));
  const oldFn = get(attrs, ATTR.function);
  const oldNs = get(attrs, ATTR.namespace);
  const oldFile = get(attrs, ATTR.filepath);
  const oldLine = positive(get(attrs, ATTR.lineno));
  const hasStable = stableFn !== undefined || stableFile !== undefined || stableLine !== undefined;
  const hasOld = oldFn !== undefined || oldNs !== undefined || oldFile !== undefined || oldLine !== undefined;
  if (!hasStable && !hasOld) return undefined;
  const loc: CodeLocation = {
    anonymous: false,
    generation: hasStable && hasOld ? 'both' : hasStable ? 'stable' : 'deprecated',
  };
  let namespace: string | undefined;
  let fn: string | undefined;
  if (stableFn !== undefined) {
    ({ namespace, name: fn } = splitQualified(stableFn));
  } else if (oldFn !== undefined) {
    const split = splitQualified(oldFn);
    fn = split.name;
    // The "bare" name may still carry its class (`ChargeService.charge`): it goes after code.namespace, once.
    if (!split.namespace) namespace = oldNs;
    else if (!oldNs || split.namespace === oldNs || split.namespace.startsWith(`${oldNs}.`)) {
      namespace = split.namespace;
    } else namespace = `${oldNs}.${split.namespace}`;
  } else namespace = oldNs;
  if (fn !== undefined && ANONYMOUS.test(fn)) {
    loc.anonymous = true;
    fn = undefined;
  }
  if (fn !== undefined) loc.function = fn;
  if (namespace !== undefined) {
    loc.namespace = namespace;
    const container = containerOf(namespace);
    if (container !== undefined) loc.container = container;
  }
  if (fn !== undefined) loc.qualified = namespace !== undefined ? `${namespace}${joiner(namespace)}${fn}` : fn;
  const file = stableFile ?? oldFile;
  if (file !== undefined) loc.file = file;
  const line = stableLine ?? oldLine;
  if (line !== undefined) loc.line = line;
  const column = positive(get(attrs, ATTR.columnNumber)) ?? positive(get(attrs, ATTR.column));
  if (column !== undefined) loc.column = column;
  return loc;
}

/** How a runtime joins a namespace and a function: PHP `\A\B::f`, everything else `.`. */
function joiner(namespace: string): string {
  return namespace.includes('\\') ? '::' : '.';
}
