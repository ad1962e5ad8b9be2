import * as vscode from 'vscode';
import type { Node as JsonNode } from 'jsonc-parser/lib/esm/main';
import { ApiError } from '../api';
import { errorMessage } from '../errors';
import type { Logger } from '../log';
import { fieldOfServerMessage, type DocumentIssue, type IssuePath } from './checks';
import { issueDiagnostics } from './diagnostics';

/** Runs a request under a notification that names it. */
export function withProgress<T>(title: string, task: () => Promise<T>): Promise<T> {
  return Promise.resolve(vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, task));
}

/**
 * Reports a failed request about a document: logs it, shows it, and puts the fields the service named (its issues, or
 * the field its message points at) on the document as diagnostics. The document's text is left as it is.
 */
export function reportFailure(
  doc: vscode.TextDocument,
  root: JsonNode | undefined,
  error: unknown,
  log: Logger,
  publish: (doc: vscode.TextDocument, diagnostics: readonly vscode.Diagnostic[]) => void,
): { message: string; requestId?: string } {
  const message = errorMessage(error);
  log.error(message);
  void vscode.window.showErrorMessage(message);
  if (!ApiError.is(error)) return { message };
  const issues: DocumentIssue[] = (error.issues ?? []).map((issue) => {
    const path: IssuePath =
      issue.path === '' ? [] : issue.path.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    return { path, message: issue.message, severity: 'error' as const };
  });
  const field = fieldOfServerMessage(error.serverMessage);
  if (issues.length === 0 && field && error.serverMessage) {
    issues.push({
      path: field,
      message: vscode.l10n.t('The service says: {0}', error.serverMessage),
      severity: 'error',
    });
  }
  if (issues.length > 0) publish(doc, issueDiagnostics(doc, root, issues));
  return { message, ...(error.requestId ? { requestId: error.requestId } : {}) };
}
