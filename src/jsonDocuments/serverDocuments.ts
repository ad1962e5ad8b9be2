import * as vscode from 'vscode';

/** Read-only documents with a server version of a resource, the left side of "what will change" diffs. */

export const SERVER_SCHEME = 'observability-server';

/**
 * Read-only text documents held in memory under one URI scheme: `create` gives each text a new address titled after
 * its label, `update` replaces the text of an open one. Only the last 20 are kept.
 */
export class ReadonlyDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private counter = 0;

  /** `versioned` adds a time stamp to each address, so VS Code never shows an older text from its cache. */
  constructor(
    private readonly scheme: string,
    private readonly versioned = false,
  ) {}

  dispose(): void {
    this.changed.dispose();
  }

  /** A new read-only address holding `text`, titled after `label`. */
  create(label: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({
      scheme: this.scheme,
      path: `/${++this.counter}/${label}`,
      ...(this.versioned ? { query: `v=${Date.now()}` } : {}),
    });
    this.texts.set(uri.toString(), text);
    if (this.texts.size > 20) this.texts.delete(this.texts.keys().next().value as string);
    return uri;
  }

  /** Replaces the text of a document created here (an open editor shows the new text). */
  update(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}

/** The server's version of a resource, the left side of "what will change" diffs. */
export class ServerDocuments extends ReadonlyDocuments {
  constructor() {
    super(SERVER_SCHEME, true);
  }
}
