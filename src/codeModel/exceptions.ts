/**
 * An exception as OpenTelemetry records it — on a span event named `exception` and as log attributes — with the
 * same keys: `exception.type`, `exception.message`, `exception.stacktrace` (a trace in the runtime's own format,
 * read into frames), and `code.stacktrace` where an agent sends that instead. Values are bounded like the rest of
 * the code model: type and message cut to MAX_EXCEPTION_TEXT characters, the trace read by `parseStackTrace`.
 */
import { parseStackTrace, type ParsedTrace } from './stackTrace';

export interface RecordedException {
  type?: string;
  message?: string;
  /** The frames of `exception.stacktrace` (or `code.stacktrace`). */
  trace?: ParsedTrace;
}

export const MAX_EXCEPTION_TEXT = 2000;

type Attributes = Readonly<Record<string, unknown>> | ReadonlyMap<string, unknown>;

function get(attrs: Attributes, key: string): string | undefined {
  const v = attrs instanceof Map ? attrs.get(key) : (attrs as Record<string, unknown>)[key];
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

/** The exception an event's or a log record's attributes describe, undefined when they describe none. */
export function readException(attrs: Attributes): RecordedException | undefined {
  const type = get(attrs, 'exception.type');
  const message = get(attrs, 'exception.message');
  const stack = get(attrs, 'exception.stacktrace') ?? get(attrs, 'code.stacktrace');
  if (type === undefined && message === undefined && stack === undefined) return undefined;
  const out: RecordedException = {};
  if (type !== undefined) out.type = type.trim().slice(0, MAX_EXCEPTION_TEXT);
  if (message !== undefined) out.message = message.slice(0, MAX_EXCEPTION_TEXT);
  if (stack !== undefined) out.trace = parseStackTrace(stack);
  return out;
}

/** The exceptions of a span's events (parallel arrays `Events.Name` and `Events.Attributes`, as ClickStack stores them). */
export function spanExceptions(names: readonly unknown[], attributes: readonly unknown[]): RecordedException[] {
  const out: RecordedException[] = [];
  names.forEach((name, i) => {
    const attrs = attributes[i];
    if (name !== 'exception' || typeof attrs !== 'object' || attrs === null) return;
    const e = readException(attrs as Attributes);
    if (e) out.push(e);
  });
  return out;
}
