/** What the definition scans share: their types, bounds and the code of a file with strings and comments blanked. */

export type Language = 'typescript' | 'javascript' | 'python' | 'java' | 'kotlin' | 'go' | 'csharp' | 'ruby';

export interface Definition {
  name: string;
  kind: 'function' | 'method' | 'class';
  /** The class, struct, module or Go receiver type it is defined in. */
  container?: string;
  /** First line (1-based; a Python decorator's line when it has one), last line, and the line naming it. */
  start: number;
  end: number;
  nameLine: number;
}

export interface ScanResult {
  definitions: Definition[];
  truncated: boolean;
}

export interface Block {
  def: Definition;
  /** Brace depth (or indentation) the definition starts at. */
  depth: number;
}

export const MAX_SCAN_LINES = 50_000;
export const MAX_SCAN_LINE_CHARS = 2000;
export const MAX_DEFINITIONS = 5000;

/** A file's lines with string contents and comments (`//`, `/* … *\/`, or `#` for Python and Ruby) blanked out. */
export class CodeText {
  truncated = false;
  readonly maxDefinitions = MAX_DEFINITIONS;
  readonly lastLine: number;
  private readonly raw: string[];
  private inBlock = false;

  constructor(
    text: string,
    private readonly hashComments = false,
  ) {
    const all = text.split(/\r?\n/);
    if (all.length > MAX_SCAN_LINES) this.truncated = true;
    this.raw = all.slice(0, MAX_SCAN_LINES);
    this.lastLine = this.raw.length;
  }

  *lines(): Generator<{ index: number; line: string; long: boolean }> {
    for (let i = 0; i < this.raw.length; i++) {
      const text = this.raw[i] as string;
      const long = text.length > MAX_SCAN_LINE_CHARS;
      if (long) this.truncated = true;
      yield { index: i + 1, line: this.blank(text), long };
    }
  }

  /** The line with the inside of strings removed (quotes kept) and comments dropped. */
  private blank(text: string): string {
    let out = '';
    let quote: string | undefined;
    for (let i = 0; i < text.length; i++) {
      const c = text[i] as string;
      if (this.inBlock) {
        if (c === '*' && text[i + 1] === '/') {
          this.inBlock = false;
          i++;
        }
      } else if (quote) {
        if (c === '\\') i++;
        else if (c === quote) {
          quote = undefined;
          out += c;
        }
      } else if (c === '"' || c === "'" || c === '`') {
        quote = c;
        out += c;
      } else if (this.hashComments ? c === '#' : c === '/' && text[i + 1] === '/') break;
      else if (!this.hashComments && c === '/' && text[i + 1] === '*') {
        this.inBlock = true;
        i++;
      } else out += c;
    }
    return quote ? `${out}${quote}` : out;
  }
}
