import * as vscode from 'vscode';
import { sanitizeServerText } from '../api';
import type { ConnectionManager } from '../connections/manager';
import type { DashboardValidation } from '../schema';
import { schemaCheck } from '../jsonDocuments/checks';
import { DIAGNOSTIC_SOURCE, parseDocument, syntaxDiagnostics, type DocumentChecks } from '../jsonDocuments/diagnostics';
import { toText } from '../jsonDocuments/documents';
import type { ServerDocuments } from '../jsonDocuments/serverDocuments';
import { fileLabel, isNew, parseUri, refKey, type ResourceRef } from '../jsonDocuments/uris';
import { reportFailure, withProgress } from '../jsonDocuments/writes';
import type { LiveData } from '../resources/live';
import type { Logger } from '../log';
import { locateServerProblem } from './serverPaths';

/**
 * Validate with Service: sends a dashboard document's current text (unsaved edits included) to the service's
 * dashboard validation, which checks it with the rules of a create and saves nothing. The service's problems become
 * diagnostics at the fields they name (kept until the next edit or validation); a notification says "valid" or how
 * many problems, and offers the body as the service normalizes it. A failed request is reported like any other and
 * leaves the text alone. The same on Cloud services and self-hosted deployments (the connection's client knows its
 * route); the request waits for the connection's rate budget like every other.
 */

export interface ValidateOptions {
  /** Open the diff with the normalized body at once (automation and tests) instead of offering it. */
  readonly showNormalized?: boolean;
}

export type ValidateOutcome = 'valid' | 'invalid' | 'notDashboard' | 'syntax' | 'stale' | 'busy' | 'failed';

export interface ValidateResult {
  readonly outcome: ValidateOutcome;
  /** What the notification said. */
  readonly message?: string;
  /** The service's problems as "line: message" (lines from 1), in its order. */
  readonly problems?: readonly string[];
  readonly requestId?: string;
  readonly error?: string;
  /** Whether the service sent a normalized body. */
  readonly normalized?: boolean;
  /** The diff's right side, when it was opened. */
  readonly normalizedUri?: string;
}

export interface ValidatorDeps {
  readonly connections: ConnectionManager;
  readonly checks: DocumentChecks;
  readonly live: LiveData;
  readonly server: ServerDocuments;
  readonly log: Logger;
}

/** The name of a dashboard document's value, for messages. */
function nameOf(value: unknown, fallback: string): string {
  const name = (value as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name.trim() !== '' ? name : fallback;
}

/**
 * The body Validate sends: what Apply would send (the document checked by the local schema, unknown fields kept), or
 * the document as typed when the local schema has objections (the service names its own). Validation uses the rules
 * of a create, whose filters take no `id`: the filter IDs an existing dashboard's document holds are left out.
 */
export function validationBody(ref: ResourceRef, value: Record<string, unknown>): Record<string, unknown> {
  const checked = schemaCheck('dashboard', isNew(ref), value);
  const body = { ...((checked.ok ? checked.data : value) as Record<string, unknown>) };
  if (Array.isArray(body.filters)) {
    body.filters = body.filters.map((f: unknown) => {
      if (!f || typeof f !== 'object' || Array.isArray(f) || !('id' in f)) return f;
      const { id: _id, ...rest } = f as Record<string, unknown>;
      return rest;
    });
  }
  return body;
}

export class DashboardValidator {
  private readonly running = new Set<string>();

  constructor(private readonly deps: ValidatorDeps) {}

  async validate(doc: vscode.TextDocument, options: ValidateOptions = {}): Promise<ValidateResult> {
    const ref = parseUri(doc.uri);
    if (!ref || ref.kind !== 'dashboard') {
      const message = vscode.l10n.t(
        'Validate with Service works on the dashboard documents opened from the Observability explorer.',
      );
      void vscode.window.showInformationMessage(message);
      return { outcome: 'notDashboard', message };
    }
    const key = refKey(ref);
    if (this.running.has(key)) return { outcome: 'busy' };
    this.running.add(key);
    try {
      return await this.run(doc, ref, options);
    } finally {
      this.running.delete(key);
    }
  }

  private async run(doc: vscode.TextDocument, ref: ResourceRef, options: ValidateOptions): Promise<ValidateResult> {
    const { checks, connections, live, log } = this.deps;
    const text = doc.getText();
    const version = doc.version;
    const parsed = parseDocument(text);
    const value = parsed.value;
    if (parsed.syntaxErrors.length > 0 || !value || typeof value !== 'object' || Array.isArray(value)) {
      const diagnostics = syntaxDiagnostics(doc, parsed.syntaxErrors);
      checks.publish(doc, diagnostics);
      const message = vscode.l10n.t('Not sent: the document is not a JSON object. Fix its syntax first.');
      void vscode.window.showErrorMessage(message);
      return {
        outcome: 'syntax',
        message,
        problems: diagnostics.map((d) => `${d.range.start.line + 1}: ${d.message}`),
      };
    }
    const service = live.serviceLabel(ref.connectionId, ref.serviceId);
    const name = nameOf(value, vscode.l10n.t('dashboard'));
    const body = validationBody(ref, value as Record<string, unknown>);
    let answer: { data: DashboardValidation; requestId?: string | undefined };
    try {
      const client = connections.clientFor(ref.connectionId);
      answer = await withProgress(vscode.l10n.t('Validating dashboard "{0}" with {1}…', name, service), () =>
        client.validateDashboard(ref.serviceId, body),
      );
    } catch (error) {
      // The problems of an earlier validation go (this one replaces it, even when it fails).
      const earlier = checks.collection.get(doc.uri) ?? [];
      if (earlier.some((d) => d.code === 'service')) {
        checks.publish(
          doc,
          earlier.filter((d) => d.code !== 'service'),
        );
      }
      // The standard report: operation, status, the service's message, request ID; the text stays as typed.
      const { message, requestId } = reportFailure(doc, parsed.root, error, log, (d, diagnostics) =>
        checks.publish(d, diagnostics),
      );
      return { outcome: 'failed', error: message, ...(requestId ? { requestId } : {}) };
    }
    const { data, requestId } = answer;
    const withId = (m: string) => (requestId ? `${m} ${vscode.l10n.t('Request ID: {0}', requestId)}` : m);
    if (doc.isClosed || doc.version !== version) {
      const message = vscode.l10n.t('The dashboard changed while the service validated it: validate it again.');
      log.info(
        `Validate dashboard "${name}" on ${service}: answered for an older text${requestId ? ` (requestId ${requestId})` : ''}`,
      );
      void vscode.window.showWarningMessage(message);
      return { outcome: 'stale', message, ...(requestId ? { requestId } : {}) };
    }

    const diagnostics = data.errors.map((e) => {
      const located = locateServerProblem(parsed.root, text, e.path, e.message);
      const start = doc.positionAt(located.span.offset);
      const end = doc.positionAt(located.span.offset + Math.max(located.span.length, 1));
      const where = e.path.trim();
      const message = sanitizeServerText(
        vscode.l10n.t('The service says: {0}', where !== '' ? `${where}: ${e.message}` : e.message),
        2000,
      );
      const d = new vscode.Diagnostic(new vscode.Range(start, end), message, vscode.DiagnosticSeverity.Error);
      d.source = DIAGNOSTIC_SOURCE;
      d.code = 'service';
      return d;
    });
    // The live checks' own findings stay next to the service's.
    const local = await checks.check(doc);
    if (doc.isClosed || doc.version !== version) return { outcome: 'stale', ...(requestId ? { requestId } : {}) };
    checks.publish(doc, [...local, ...diagnostics]);
    const problems = diagnostics.map((d) => `${d.range.start.line + 1}: ${d.message}`);
    const normalized = data.valid && data.normalized && typeof data.normalized === 'object' ? data.normalized : null;

    if (data.valid && diagnostics.length === 0) {
      const message = vscode.l10n.t('Dashboard "{0}" is valid on {1}.', name, service);
      log.info(`Validate dashboard "${name}" on ${service}: valid${requestId ? ` (requestId ${requestId})` : ''}`);
      let normalizedUri: string | undefined;
      if (normalized && options.showNormalized) {
        normalizedUri = (await this.showNormalized(text, name, normalized)).toString();
      } else if (normalized) {
        const show = vscode.l10n.t('Show Normalized');
        void vscode.window.showInformationMessage(sanitizeServerText(withId(message), 1000), show).then((choice) => {
          if (choice === show) void this.showNormalized(text, name, normalized);
        });
      } else {
        void vscode.window.showInformationMessage(sanitizeServerText(withId(message), 1000));
      }
      return {
        outcome: 'valid',
        message,
        problems: [],
        normalized: normalized !== null,
        ...(requestId ? { requestId } : {}),
        ...(normalizedUri ? { normalizedUri } : {}),
      };
    }

    const count = Math.max(diagnostics.length, 1);
    const message =
      diagnostics.length === 0
        ? vscode.l10n.t('The service reports dashboard "{0}" as not valid, without naming a problem.', name)
        : count === 1
          ? vscode.l10n.t('The service found 1 problem in dashboard "{0}": {1}', name, problems[0] ?? '')
          : vscode.l10n.t('The service found {0} problems in dashboard "{1}".', count, name);
    log.info(
      `Validate dashboard "${name}" on ${service}: ${count} problem(s)${requestId ? ` (requestId ${requestId})` : ''}`,
    );
    const first = diagnostics[0];
    if (first) {
      const editor = vscode.window.visibleTextEditors.find((e) => e.document === doc);
      if (editor) {
        editor.selection = new vscode.Selection(first.range.start, first.range.start);
        editor.revealRange(first.range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      }
    }
    const showProblems = vscode.l10n.t('Show Problems');
    void vscode.window.showWarningMessage(sanitizeServerText(withId(message), 1000), showProblems).then((choice) => {
      if (choice === showProblems) void vscode.commands.executeCommand('workbench.actions.view.problems');
    });
    return {
      outcome: 'invalid',
      message,
      problems,
      normalized: false,
      ...(requestId ? { requestId } : {}),
    };
  }

  /** A read-only diff: the text as validated ↔ the body as the service normalizes it. */
  private async showNormalized(text: string, name: string, normalized: Record<string, unknown>): Promise<vscode.Uri> {
    const label = fileLabel(name, 'dashboard');
    const left = this.deps.server.create(`${label} (yours).json`, text);
    const right = this.deps.server.create(`${label} (normalized by the service).json`, toText(normalized));
    try {
      await vscode.commands.executeCommand(
        'vscode.diff',
        left,
        right,
        vscode.l10n.t('{0}: yours ↔ normalized by the service', name),
        { preview: true },
      );
    } catch (error) {
      this.deps.log.warn(`Could not show the normalized dashboard "${name}": ${String(error)}`);
    }
    return right;
  }
}
