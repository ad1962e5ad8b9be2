import * as vscode from 'vscode';

/** Read-only documents with a server version of a resource, the left side of "what will change" diffs. */

export const SERVER_SCHEME = 'observability-server';

export class ServerDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private counter = 0;

  dispose(): void {
    this.changed.dispose();
  }

  /** A new read-only address holding `text`, titled after `label`. */
  create(label: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: SERVER_SCHEME, path: `/${++this.counter}/${label}`, query: `v=${Date.now()}` });
    this.texts.set(uri.toString(), text);
    // Keep the map small: diffs older than the last 20 are no longer shown.
    if (this.texts.size > 20) this.texts.delete(this.texts.keys().next().value as string);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}
