import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/manager';
import { dedupeIssues, semanticIssues, type DocumentIssue, type LiveFacts } from '../shared/checks';
import { issueDiagnostics, syntaxDiagnostics } from '../shared/diagnostics';
import type { LiveData } from '../resources/live';
import type { Alert } from '../schema';
import { checkAlertFile, fileValueOf, knownFilePart, targetOf, unknownFileKeyIssues } from './format';
import { parseAlertFile } from './text';
import { connectionFor, isAlertFileUri } from './workspace';

/**
 * Diagnostics of alert files. While typing: the checks a JSON Schema cannot express (empty strings, range thresholds)
 * and, in a trusted workspace with a connection to the file's organization, the references to the service (dashboard,
 * tile, webhook, saved search, the managed alert). Schema errors while typing come from VS Code's JSON support;
 * `validate` adds them (with the cross-field rules) on request and before anything is sent.
 */
export class AlertFileChecks implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('observability-alert-files');
  private readonly disposables: vscode.Disposable[] = [this.collection];
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly generations = new Map<string, number>();

  constructor(private readonly connections: ConnectionManager, private readonly live: LiveData) {
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.schedule(e.document, 300);
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (!isAlertFileUri(d.uri)) return;
        this.collection.delete(d.uri);
        clearTimeout(this.timers.get(d.uri.toString()));
        this.timers.delete(d.uri.toString());
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.recheckAll()),
      connections.onDidChange(() => this.recheckAll()),
    );
    this.recheckAll();
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    for (const d of this.disposables) d.dispose();
  }

  /** Checks the alert files shown in editors again (after a change of connections or trust). */
  recheckAll(): void {
    for (const d of new Set(vscode.window.visibleTextEditors.map((e) => e.document))) this.schedule(d, 0);
  }

  private schedule(doc: vscode.TextDocument, delayMs: number): void {
    if (!isAlertFileUri(doc.uri)) return;
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(key, setTimeout(() => {
      this.timers.delete(key);
      if (!doc.isClosed) void this.check(doc);
    }, delayMs));
  }

  /** What is known about the file's service; undefined without trust or connection, or when it cannot be read. */
  async factsFor(value: unknown): Promise<(LiveFacts & { alertIds?: readonly string[]; liveAlert?: Alert }) | undefined> {
    if (!vscode.workspace.isTrusted) return undefined;
    const target = targetOf(value);
    const connection = connectionFor(this.connections, target.organizationId, target.serviceId);
    if (!connection || !target.serviceId) return undefined;
    try {
      const [facts, alerts] = await Promise.all([
        this.live.facts(connection.connectionId, target.serviceId, 'alert'),
        target.id ? this.live.alerts(connection.connectionId, target.serviceId) : Promise.resolve(undefined),
      ]);
      const liveAlert = target.id && alerts?.some((a) => a.id === target.id)
        ? await this.live.alert(connection.connectionId, target.serviceId, target.id) : undefined;
      return { ...facts, serviceLabel: connection.serviceLabel, ...(alerts ? { alertIds: alerts.map((a) => a.id) } : {}), ...(liveAlert ? { liveAlert } : {}) };
    } catch {
      return undefined;
    }
  }

  /** Checks that need no schema: empty strings, cross-field hints and the live references. */
  async liveIssues(value: unknown): Promise<DocumentIssue[]> {
    const facts = await this.factsFor(value);
    const issues = semanticIssues('alert', knownFilePart(value), facts);
    const target = targetOf(value);
    // Keys the service sent are never reported; for a file that manages an alert, that needs the live alert.
    if (!target.id) issues.push(...unknownFileKeyIssues(value, undefined));
    else if (facts?.liveAlert) issues.push(...unknownFileKeyIssues(value, fileValueOf(facts.liveAlert, target.organizationId ?? '', target.serviceId ?? '')));
    if (target.id && facts?.alertIds && !facts.alertIds.includes(target.id)) {
      issues.push({
        path: ['id'], severity: 'warning',
        message: vscode.l10n.t('Alert "{0}" does not exist on service {1} (deleted?). Remove "id" to create the alert again.', target.id, facts.serviceLabel),
      });
    }
    return issues;
  }

  /** Runs the checks made while typing and publishes them. */
  async check(doc: vscode.TextDocument): Promise<readonly vscode.Diagnostic[]> {
    const key = doc.uri.toString();
    const generation = (this.generations.get(key) ?? 0) + 1;
    this.generations.set(key, generation);
    const version = doc.version;
    const parsed = parseAlertFile(doc.getText());
    if (parsed.syntaxErrors.length > 0) {
      this.collection.set(doc.uri, []);
      return [];
    }
    const issues = await this.liveIssues(parsed.value);
    if (this.generations.get(key) !== generation || doc.isClosed || doc.version !== version) return this.collection.get(doc.uri) ?? [];
    const diagnostics = issueDiagnostics(doc, parsed.root, issues);
    this.collection.set(doc.uri, diagnostics);
    return diagnostics;
  }

  /**
   * Every check (syntax, file schema with the cross-field rules, live references), published on the document.
   * Returns the diagnostics; errors block sending.
   */
  async validate(doc: vscode.TextDocument): Promise<readonly vscode.Diagnostic[]> {
    const key = doc.uri.toString();
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
    const parsed = parseAlertFile(doc.getText());
    if (parsed.syntaxErrors.length > 0) {
      const diagnostics = syntaxDiagnostics(doc, parsed.syntaxErrors);
      this.collection.set(doc.uri, diagnostics);
      return diagnostics;
    }
    const schema = checkAlertFile(parsed.value);
    const issues = dedupeIssues([...(schema.ok ? [] : schema.issues), ...await this.liveIssues(parsed.value)]);
    const diagnostics = issueDiagnostics(doc, parsed.root, issues);
    this.collection.set(doc.uri, diagnostics);
    return diagnostics;
  }
}
