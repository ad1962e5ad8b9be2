/**
 * A document's function and method definitions: from the language's own symbol provider
 * (`vscode.executeDocumentSymbolProvider`), else (no provider answers with any) the plain scan of definitions for the
 * common languages, which says so (`plain: true`).
 */
import * as vscode from 'vscode';
import { languageOf, scanDefinitions, type Definition } from '../codeModel';

export interface Definitions {
  definitions: Definition[];
  plain: boolean;
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

export async function definitionsOf(doc: vscode.TextDocument): Promise<Definitions> {
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
  const language = languageOf(doc.uri.path);
  if (!language) return { definitions: [], plain: true };
  return { definitions: scanDefinitions(doc.getText(), language).definitions, plain: true };
}
