import * as vscode from 'vscode';
import {
  findNodeAtLocation,
  parseTree,
  printParseErrorCode,
  type Node as JsonNode,
  type ParseError,
} from 'jsonc-parser/lib/esm/main';
import {
  knownPart,
  leftOutIssues,
  semanticIssues,
  unknownKeyIssues,
  type DocumentIssue,
  type IssuePath,
} from './checks';
import type { LiveData } from '../resources/live';
import { isNew, parseUri, RESOURCE_SCHEME, type ResourceRef } from './uris';

/**
 * The extension's own diagnostics on resource documents: live checks while typing (references to things on the
 * service, cross-field rules, empty strings) and, after an Apply was refused, the schema problems and the field the
 * service named. Syntax errors and plain schema errors while typing come from VS Code's JSON support.
 */

export const DIAGNOSTIC_SOURCE = 'Observability';

export interface ParsedDocument {
  readonly root: JsonNode | undefined;
  readonly value: unknown;
  readonly syntaxErrors: readonly ParseError[];
}

export function parseDocument(text: string): ParsedDocument {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  let value: unknown;
  try {
    value = errors.length === 0 ? JSON.parse(text) : undefined;
  } catch {
    value = undefined;
  }
  return { root, value, syntaxErrors: errors };
}

/** The range a JSON path points at: the value, or the property name for unknown keys; the closest parent otherwise. */
export function rangeOf(
  doc: vscode.TextDocument,
  root: JsonNode | undefined,
  path: IssuePath,
  atKey = false,
): vscode.Range {
  if (!root) return new vscode.Range(0, 0, 0, 0);
  for (let n = path.length; n >= 0; n--) {
    const node = findNodeAtLocation(root, [...path.slice(0, n)]);
    if (!node) continue;
    let target = node;
    if (
      (atKey || n < path.length || node.type === 'object' || node.type === 'array') &&
      node.parent?.type === 'property' &&
      node.parent.children?.[0]
    ) {
      target = node.parent.children[0];
    }
    if (n === 0 && target.type === 'object') {
      // The whole document: point at its first line.
      const start = doc.positionAt(target.offset);
      return new vscode.Range(start, start.translate(0, 1));
    }
    return new vscode.Range(doc.positionAt(target.offset), doc.positionAt(target.offset + target.length));
  }
  return new vscode.Range(0, 0, 0, 0);
}

export function syntaxDiagnostics(doc: vscode.TextDocument, errors: readonly ParseError[]): vscode.Diagnostic[] {
  return errors.map((e) => {
    const d = new vscode.Diagnostic(
      new vscode.Range(doc.positionAt(e.offset), doc.positionAt(e.offset + Math.max(e.length, 1))),
      vscode.l10n.t('JSON syntax error: {0}', printParseErrorCode(e.error)),
      vscode.DiagnosticSeverity.Error,
    );
    d.source = DIAGNOSTIC_SOURCE;
    return d;
  });
}

export function issueDiagnostics(
  doc: vscode.TextDocument,
  root: JsonNode | undefined,
  issues: readonly DocumentIssue[],
): vscode.Diagnostic[] {
  return issues.map((i) => {
    const field = i.path.length > 0 ? i.path.join('.') : undefined;
    const message =
      field && !i.message.includes(`"${i.path[i.path.length - 1]}"`) ? `${field}: ${i.message}` : i.message;
    const d = new vscode.Diagnostic(
      rangeOf(doc, root, i.path, i.atKey),
      message,
      i.severity === 'error'
        ? vscode.DiagnosticSeverity.Error
        : i.severity === 'info'
          ? vscode.DiagnosticSeverity.Information
          : vscode.DiagnosticSeverity.Warning,
    );
    d.source = DIAGNOSTIC_SOURCE;
    return d;
  });
}

/** What one kind of checked document needs: which documents, how to read them, and their checks while typing. */
export interface CheckedDocuments {
  /** Name of the diagnostic collection. */
  readonly collection: string;
  /** Whether a document is of this kind. */
  accepts(uri: vscode.Uri): boolean;
  parse(text: string): ParsedDocument;
  /** The checks made while typing, on a document without syntax errors. */
  issues(doc: vscode.TextDocument, value: unknown): Promise<readonly DocumentIssue[]>;
  /** Which documents to check at start: all open ones, or those shown in editors. */
  readonly initial: 'open' | 'visible';
  /** Events after which the documents shown in editors are checked again (trust granted, connections changed). */
  readonly recheckOn?: readonly vscode.Event<unknown>[];
}

/**
 * The extension's live diagnostics of one kind of document (resource documents, alert files): checks run 300 ms after
 * typing stops and when a document opens; an answer that arrives after a newer edit or check is dropped; problems
 * published after a refused write stay until the next edit.
 */
export class DocumentChecks implements vscode.Disposable {
  readonly collection: vscode.DiagnosticCollection;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly generations = new Map<string, number>();

  constructor(private readonly kind: CheckedDocuments) {
    this.collection = vscode.languages.createDiagnosticCollection(kind.collection);
    this.disposables.push(
      this.collection,
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.schedule(e.document, 300);
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (!kind.accepts(d.uri)) return;
        this.collection.delete(d.uri);
        const key = d.uri.toString();
        clearTimeout(this.timers.get(key));
        this.timers.delete(key);
      }),
      ...(kind.recheckOn ?? []).map((event) => event(() => this.recheckAll())),
    );
    if (kind.initial === 'open') for (const d of vscode.workspace.textDocuments) this.schedule(d, 0);
    else this.recheckAll();
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    for (const d of this.disposables) d.dispose();
  }

  /** Checks the documents shown in editors again. */
  recheckAll(): void {
    for (const d of new Set(vscode.window.visibleTextEditors.map((e) => e.document))) this.schedule(d, 0);
  }

  private schedule(doc: vscode.TextDocument, delayMs: number): void {
    if (!this.kind.accepts(doc.uri)) return;
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        if (!doc.isClosed) void this.check(doc);
      }, delayMs),
    );
  }

  /** Runs the checks made while typing now and publishes them; returns the diagnostics. */
  async check(doc: vscode.TextDocument): Promise<readonly vscode.Diagnostic[]> {
    if (!this.kind.accepts(doc.uri)) return [];
    const key = doc.uri.toString();
    const generation = (this.generations.get(key) ?? 0) + 1;
    this.generations.set(key, generation);
    const version = doc.version;
    const parsed = this.kind.parse(doc.getText());
    if (parsed.syntaxErrors.length > 0) {
      // VS Code's JSON support underlines syntax errors already.
      this.collection.set(doc.uri, []);
      return [];
    }
    let issues: readonly DocumentIssue[];
    try {
      issues = await this.kind.issues(doc, parsed.value);
    } catch {
      issues = [];
    }
    if (this.generations.get(key) !== generation || doc.isClosed || doc.version !== version) {
      return this.collection.get(doc.uri) ?? [];
    }
    const diagnostics = issueDiagnostics(doc, parsed.root, issues);
    this.collection.set(doc.uri, diagnostics);
    return diagnostics;
  }

  /** Publishes problems found outside the checks made while typing (a refused Apply, Validate); they stay until the next edit. */
  publish(doc: vscode.TextDocument, diagnostics: readonly vscode.Diagnostic[]): void {
    const key = doc.uri.toString();
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
    this.collection.set(doc.uri, [...diagnostics]);
  }
}

/**
 * Resource documents (`observability:` alerts, dashboards, query endpoints). `originalOf` gives the editable value of
 * the service's version a document was opened from (undefined for a resource not created yet), to tell keys the
 * service sent from keys the user typed.
 */
export function resourceDocuments(
  live: LiveData,
  originalOf: (ref: ResourceRef) => unknown = () => undefined,
): CheckedDocuments {
  return {
    collection: 'observability',
    accepts: (uri) => uri.scheme === RESOURCE_SCHEME && parseUri(uri) !== undefined,
    parse: parseDocument,
    initial: 'open',
    issues: async (doc, value) => {
      const ref = parseUri(doc.uri);
      if (!ref) return [];
      let facts;
      try {
        facts = await live.facts(ref.connectionId, ref.serviceId, ref.kind, ref.id);
      } catch {
        facts = undefined;
      }
      const draft = isNew(ref);
      return [
        ...semanticIssues(ref.kind, knownPart(ref.kind, draft, value), facts),
        ...unknownKeyIssues(ref.kind, draft, value, originalOf(ref)),
        ...leftOutIssues(ref.kind, value, originalOf(ref)),
      ];
    },
  };
}
