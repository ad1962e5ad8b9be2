import * as vscode from 'vscode';
import { errorMessage } from '../errors';
import { parseDocument } from '../jsonDocuments/diagnostics';
import { editableText, sameJson, toText } from '../jsonDocuments/documents';
import { SERVER_SCHEME, type ServerDocuments } from '../jsonDocuments/serverDocuments';
import { fileLabel, type ResourceRef } from '../jsonDocuments/uris';
import { KINDS } from '../resources/kinds';
import type { Logger } from '../log';

/** How long Apply waits for the "what will change" diff editor to open before it goes on. */
const DIFF_OPEN_WAIT_MS = 5000;

/**
 * The diff editors of Apply and Compare: the service's version against the document (or against what the service will
 * hold after the update), closed when the apply that showed them ends.
 */
export class ApplyDiffs {
  /** Per document, the "after apply" text its last diff showed (closed with the diff). */
  private readonly afterDiffs = new Map<string, string>();

  constructor(private readonly deps: { readonly server: ServerDocuments; readonly log: Logger }) {}

  /**
   * The diff of the service's version (left) against the document, or against `after` (what the service will hold
   * after the update, when that differs from the text: an alert update keeps the optional fields it leaves out).
   */
  async show(
    doc: vscode.TextDocument,
    ref: ResourceRef,
    name: string,
    current: unknown,
    changedOnServer: boolean,
    after?: Record<string, unknown>,
  ): Promise<void> {
    const label = fileLabel(name, KINDS[ref.kind].label);
    const left = this.deps.server.create(`${label} (service).json`, editableText(ref.kind, current));
    const parsed = parseDocument(doc.getText()).value;
    const right =
      after && !sameJson(after, parsed)
        ? this.deps.server.create(`${label} (after apply).json`, toText(after))
        : doc.uri;
    if (right !== doc.uri) this.afterDiffs.set(doc.uri.toString(), right.toString());
    const title = changedOnServer
      ? vscode.l10n.t('{0}: changed on the service ↔ yours', name)
      : ref.kind === 'webhook' && right !== doc.uri
        ? vscode.l10n.t('{0}: service ↔ yours (secrets masked)', name)
        : right !== doc.uri
          ? vscode.l10n.t('{0}: service ↔ after apply (fields left out are kept)', name)
          : vscode.l10n.t('{0}: service ↔ yours', name);
    const shown = Promise.resolve(
      vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true, preserveFocus: false }),
    ).then(
      () => true,
      (error: unknown) => {
        this.deps.log.warn(`Could not show the diff: ${errorMessage(error)}`);
        return true;
      },
    );
    // The diff informs; it must never hold up Apply (the workbench can leave an editor open pending while other
    // editors open at the same moment).
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), DIFF_OPEN_WAIT_MS);
    });
    const opened = await Promise.race([shown, late]);
    clearTimeout(timer);
    if (!opened) {
      this.deps.log.warn(`The diff editor did not open within ${DIFF_OPEN_WAIT_MS / 1000} s; going on without it.`);
    }
  }

  /** Closes the diffs shown for a document. */
  async close(uri: vscode.Uri): Promise<void> {
    const target = uri.toString();
    const after = this.afterDiffs.get(target);
    this.afterDiffs.delete(target);
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter(
        (t) =>
          t.input instanceof vscode.TabInputTextDiff &&
          t.input.original.scheme === SERVER_SCHEME &&
          (t.input.modified.toString() === target || t.input.modified.toString() === after),
      );
    if (tabs.length === 0) return;
    try {
      await vscode.window.tabGroups.close(tabs, true);
    } catch {
      // Already closed by the user.
    }
  }
}
