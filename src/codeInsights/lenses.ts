/**
 * The CodeLens on every function or method of a workspace file that production spans name. Answers from the kept
 * aggregate and its per-folder file index; a folder without a pick gets no lens and causes no request. A document's
 * lenses are made when it is opened or shown (its folder's aggregate kept) and kept per version, so the editor's ask
 * gets them made.
 */
import * as vscode from 'vscode';
import type { AggregateEntry, Aggregates } from './aggregates';
import { LensCalls, type LensCall } from './lensCalls';
import { makeLenses } from './lensMaking';
import type { Picks } from './picks';
import { definitionsSoon, type Definitions } from './symbols';

export { SHOW_FIGURES, type FiguresArg } from './lensMaking';

/** How long the lenses wait for the symbol provider before drawing from the plain scan (replaced when it answers). */
const SYMBOL_WAIT_MS = 50;

/** The lenses made for a document, and what they were made from: the same inputs give the same lenses. */
interface Made {
  version: number;
  entry: AggregateEntry;
  pick: string;
  found: Definitions;
  lenses: vscode.CodeLens[];
}

export class CodeInsightLenses implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Symbol answers awaited for lenses drawn from the plain scan meanwhile. */
  private readonly awaited = new Set<Promise<unknown>>();
  private readonly made = new WeakMap<vscode.TextDocument, Made>();
  /** The provider's recent calls, timed (the benchmark reads them). */
  readonly calls = new LensCalls();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(
    private readonly picks: Picks,
    private readonly aggregates: Aggregates,
  ) {}

  /** The aggregates or picks changed: the lenses are made again (the picked folders' files indexed first). */
  refresh(): void {
    this.warm();
    this.changed.fire();
  }

  /** Makes a document's lenses when it is opened or shown (listeners to dispose). */
  prepareOnOpen(): vscode.Disposable[] {
    return [
      vscode.workspace.onDidOpenTextDocument((doc) => this.prepare(doc)),
      vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((e) => this.prepare(e.document))),
    ];
  }

  /**
   * Makes a document's lenses as soon as it is opened or shown, when its folder's aggregate is kept (nothing is
   * fetched for it), so the editor's ask, which comes later, gets them made.
   */
  prepare(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== 'file') return;
    void this.timed(doc, true).catch(() => undefined);
  }

  /** Indexes each picked folder's files for its kept aggregate and makes the shown documents' lenses. */
  private warm(): void {
    for (const { folder, pick } of this.picks.entries()) {
      const entry = this.aggregates.peek(pick);
      if (entry?.state === 'done') void this.aggregates.filesOf(entry, folder).catch(() => undefined);
    }
    for (const editor of vscode.window.visibleTextEditors) this.prepare(editor.document);
  }

  provideCodeLenses(doc: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    return this.timed(doc, false);
  }

  private async timed(doc: vscode.TextDocument, ahead: boolean): Promise<vscode.CodeLens[]> {
    const call = this.calls.begin(doc.uri.toString(), doc.version, ahead);
    try {
      return await this.lensesOf(doc, call, ahead);
    } finally {
      this.calls.end(call);
    }
  }

  /**
   * The document's lenses: made again only when the aggregate, the pick, the version or the definitions changed. Made
   * ahead, nothing is fetched and the symbols are not waited for (the plain scan stands in at once; the editor's ask,
   * later, gets the symbols if they came meanwhile).
   */
  private async lensesOf(doc: vscode.TextDocument, call: LensCall, ahead: boolean) {
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
    if (!folder || doc.uri.scheme !== 'file') return [];
    const pick = this.picks.of(folder);
    if (!pick) return [];
    const entry = ahead ? this.aggregates.peek(pick) : this.aggregates.ensure(pick);
    if (entry?.state !== 'done') return [];
    const files = await this.aggregates.filesOf(entry, folder);
    const rows = files.get(vscode.workspace.asRelativePath(doc.uri, false));
    call.indexed = performance.now();
    if (!rows || rows.length === 0) return [];
    const found = await definitionsSoon(doc, ahead ? 0 : SYMBOL_WAIT_MS);
    call.symbols = performance.now();
    call.fromScan = found.interim === true;
    this.replaceWhenKnown(found.later);
    const key = JSON.stringify(pick);
    const kept = this.made.get(doc);
    if (kept?.version === doc.version && kept.entry === entry && kept.found === found && kept.pick === key) {
      call.kept = true;
      call.lenses = kept.lenses.length;
      return kept.lenses;
    }
    const lenses = makeLenses(doc, rows, found, entry, pick);
    this.made.set(doc, { version: doc.version, entry, pick: key, found, lenses });
    call.matched = performance.now();
    call.lenses = lenses.length;
    return lenses;
  }

  /** Asks for the lenses again when the symbol provider answers (they were drawn from the plain scan meanwhile). */
  private replaceWhenKnown(later: Promise<unknown> | undefined): void {
    if (!later || this.awaited.has(later)) return;
    this.awaited.add(later);
    void later.then(() => {
      this.awaited.delete(later);
      this.changed.fire();
    });
  }

  dispose(): void {
    this.changed.dispose();
  }
}
