/**
 * A stack trace's lines that open the source: each line that is a frame with a file and a line number (any runtime
 * `parseStackTrace` reads), by its index in the text. Which of them map into the workspace is decided by the caller
 * (`mapPath` over the workspace's files), so nothing here opens or names anything outside the workspace.
 */
import { MAX_LINE_CHARS, MAX_TRACE_CHARS, frameOf } from './stackTrace';

/** Most frame lines read from one text. */
export const MAX_FRAME_LINES = 200;

export interface FrameLine {
  /** The line's index in the text (split at line ends). */
  index: number;
  /** The file as the trace names it. */
  file: string;
  line: number;
  column?: number | undefined;
}

/** A frame line the extension can open, as the page receives it: the line's index, an opaque id and where it leads. */
export interface StackLink {
  index: number;
  id: number;
  /** The workspace file and line (`src/pay/charge.ts:42`), shown as the link's tooltip. */
  title: string;
  /** The workspace file and line alone (`src/pay/charge.ts:42`), where a page shows the link apart from its line. */
  label?: string;
}

/** The frame lines of a stack trace that carry a file and a line, in the order of the text (bounded). */
export function frameLines(text: string): FrameLine[] {
  const lines = text.slice(0, MAX_TRACE_CHARS).split(/\r?\n/);
  const out: FrameLine[] = [];
  let previous: string | undefined;
  for (let index = 0; index < lines.length && out.length < MAX_FRAME_LINES; index++) {
    const line = lines[index] as string;
    if (line.length > MAX_LINE_CHARS) {
      previous = undefined;
      continue;
    }
    const frame = frameOf(line, previous, 0);
    if (frame?.file && frame.line) out.push({ index, file: frame.file, line: frame.line, column: frame.column });
    previous = line;
  }
  return out;
}
