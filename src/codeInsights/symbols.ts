/**
 * A document's function and method definitions: from the language's own symbol provider
 * (`vscode.executeDocumentSymbolProvider`), else (no provider answers with any) the plain scan of definitions for the
 * common languages, which says so (`plain: true`). The answer is kept per document version; `definitionsSoon` does not
 * wait long for a language server that has not answered yet (a file just opened): it gives the plain scan meanwhile
 * (`interim: true`) and the answer to come (`later`).
 */
import * as vscode from 'vscode';
import { languageOf, scanDefinitions, type Definition } from '../codeModel';

export interface Definitions {
  definitions: Definition[];
  plain: boolean;
  /** The plain scan standing in until the symbol provider answers for this version (`later`). */
  interim?: boolean;
  later?: Promise<Definitions>;
}

const CALLABLE = new Set([vscode.SymbolKind.Function, vscode.SymbolKind.Method, vscode.SymbolKind.Constructor]);
const HOLDERS = new Set([
  vscode.SymbolKind.Class,
  vscode.SymbolKind.Interface,
  vscode.SymbolKind.Struct,
  vscode.SymbolKind.Module,
  vscode.SymbolKind.Namespace,
  vscode.SymbolKind.Enum,
]);

/** `name(args)` and `name<T>` as some servers give them → `name`. */
function bare(name: string): string {
  return name.replace(/[(<].*$/, '').trim();
}

function fromSymbols(
  symbols: readonly vscode.DocumentSymbol[],
  container?: string,
  out: Definition[] = [],
): Definition[] {
  for (const s of symbols) {
    const name = bare(s.name);
    if (CALLABLE.has(s.kind)) {
      out.push({
        name,
        kind: container ? 'method' : 'function',
        ...(container ? { container } : {}),
        start: s.range.start.line + 1,
        end: s.range.end.line + 1,
        nameLine: s.selectionRange.start.line + 1,
      });
    } else if (HOLDERS.has(s.kind)) {
      out.push({
        name,
        kind: 'class',
        start: s.range.start.line + 1,
        end: s.range.end.line + 1,
        nameLine: s.selectionRange.start.line + 1,
      });
    }
    if (s.children.length > 0) fromSymbols(s.children, HOLDERS.has(s.kind) ? name : container, out);
  }
  return out;
}

async function askSymbols(doc: vscode.TextDocument): Promise<Definitions> {
  let symbols: unknown;
  try {
    symbols = await vscode.commands.executeCommand('vscode.executeDocumentSymbolProvider', doc.uri);
  } catch {
    symbols = undefined;
  }
  if (Array.isArray(symbols) && symbols.length > 0 && 'children' in (symbols[0] as object)) {
    const defs = fromSymbols(symbols as vscode.DocumentSymbol[]);
    if (defs.some((d) => d.kind !== 'class')) return { definitions: defs, plain: false };
  }
  return scanned(doc);
}

function scanned(doc: vscode.TextDocument): Definitions {
  const language = languageOf(doc.uri.path);
  if (!language) return { definitions: [], plain: true };
  return { definitions: scanDefinitions(doc.getText(), language).definitions, plain: true };
}

interface Known {
  version: number;
  answer: Promise<Definitions>;
  value?: Definitions;
  /** When the answer came (ms). */
  at?: number;
  /** Whether the document's previous version had no symbols (its scan needs no wait for them). */
  wasPlain?: boolean;
  /** The plain scan given meanwhile (made once per version). */
  interim?: Definitions;
}

/** The symbol answers asked, per open document (its latest version only; a document opened again is another). */
const known = new WeakMap<vscode.TextDocument, Known>();
/**
 * A plain answer (no provider gave symbols) is asked again after this long: a language server may not have started
 * yet when a file is first opened.
 */
const PLAIN_KEEP_MS = 5000;

function current(k: Known | undefined, doc: vscode.TextDocument): boolean {
  if (!k || k.version !== doc.version) return false;
  return !(k.value?.plain && Date.now() - (k.at ?? 0) > PLAIN_KEEP_MS);
}

function knownFor(doc: vscode.TextDocument): Known {
  const kept = known.get(doc);
  if (kept && current(kept, doc)) return kept;
  const k: Known = { version: doc.version, answer: askSymbols(doc), wasPlain: kept?.value?.plain === true };
  void k.answer.then((v) => {
    k.value = v;
    k.at = Date.now();
  });
  known.set(doc, k);
  return k;
}

/** The definitions once the symbol provider answered (or none answered with any). */
export function definitionsOf(doc: vscode.TextDocument): Promise<Definitions> {
  return knownFor(doc).answer;
}

/**
 * The definitions now: the symbol provider's answer if it is known for this version or comes within `waitMs`, else
 * the plain scan with `later`, the answer to come (`interim` unless the previous version had no symbols either). Once
 * the scan was given for a version, it is given again at once until the answer comes (no second wait).
 */
export async function definitionsSoon(doc: vscode.TextDocument, waitMs: number): Promise<Definitions> {
  const k = knownFor(doc);
  if (k.value) return k.value;
  if (k.interim || waitMs <= 0) return interimOf(k, doc);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs)));
  const first = await Promise.race([k.answer, late]);
  clearTimeout(timer);
  return first ?? interimOf(k, doc);
}

/** The plain scan standing in for this version's symbols (made once). */
function interimOf(k: Known, doc: vscode.TextDocument): Definitions {
  if (!k.interim) {
    const scan = scanned(doc);
    k.interim = { definitions: scan.definitions, plain: scan.plain, interim: !k.wasPlain, later: k.answer };
  }
  return k.interim;
}
