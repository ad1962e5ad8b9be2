import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/manager';
import { dedupeIssues, semanticIssues, type DocumentIssue, type LiveFacts } from '../jsonDocuments/checks';
import { DocumentChecks, issueDiagnostics, syntaxDiagnostics } from '../jsonDocuments/diagnostics';
import type { LiveData } from '../resources/live';
import type { Alert } from '../schema';
import {
  bodyOf,
  checkAlertFile,
  fileValueOf,
  knownFilePart,
  serverKindOf,
  targetOf,
  unknownFileKeyIssues,
} from './format';
import { followServer } from '../schema/serverRules';
import { parseAlertFile } from './text';
import { connectionFor } from '../connections/fileTarget';
import { isAlertFileUri } from './workspace';
import { issuesAtNames, resolveNames, type NameLists } from './names';

function namesOf(facts: LiveFacts | undefined): NameLists | undefined {
  if (!facts) return undefined;
  return {
    serviceLabel: facts.serviceLabel,
    ...(facts.webhooks ? { webhooks: facts.webhooks } : {}),
    ...(facts.savedSearches ? { savedSearches: facts.savedSearches } : {}),
  };
}

/**
 * Diagnostics of alert files. While typing: the checks a JSON Schema cannot express (empty strings, range thresholds)
 * and, in a trusted workspace with a connection to the file's organization, the references to the service (dashboard,
 * tile, webhook, saved search, the managed alert). Schema errors while typing come from VS Code's JSON support;
 * `validate` adds them (with the cross-field rules) on request and before anything is sent.
 */
export class AlertFileChecks implements vscode.Disposable {
  private readonly checks: DocumentChecks;

  constructor(
    private readonly connections: ConnectionManager,
    private readonly live: LiveData,
  ) {
    this.checks = new DocumentChecks({
      collection: 'observability-alert-files',
      accepts: isAlertFileUri,
      parse: parseAlertFile,
      issues: (_doc, value) => this.liveIssues(value),
      initial: 'visible',
      recheckOn: [vscode.workspace.onDidGrantWorkspaceTrust, connections.onDidChange],
    });
  }

  get collection(): vscode.DiagnosticCollection {
    return this.checks.collection;
  }

  dispose(): void {
    this.checks.dispose();
  }

  /** Publishes problems found outside the checks made while typing; they stay until the next edit. */
  publish(doc: vscode.TextDocument, diagnostics: readonly vscode.Diagnostic[]): void {
    this.checks.publish(doc, diagnostics);
  }

  /** Checks the alert files shown in editors again (after a change of connections or trust). */
  recheckAll(): void {
    this.checks.recheckAll();
  }

  /** What is known about the file's service; undefined without trust or connection, or when it cannot be read. */
  async factsFor(
    value: unknown,
  ): Promise<(LiveFacts & { alertIds?: readonly string[]; liveAlert?: Alert }) | undefined> {
    if (!vscode.workspace.isTrusted) return undefined;
    const target = targetOf(value);
    const connection = connectionFor(this.connections, target.organizationId, target.serviceId, target.baseUrl);
    if (!connection || !target.serviceId) return undefined;
    try {
      const [facts, alerts] = await Promise.all([
        this.live.facts(connection.connectionId, target.serviceId, 'alert'),
        target.id ? this.live.alerts(connection.connectionId, target.serviceId) : Promise.resolve(undefined),
      ]);
      const liveAlert =
        target.id && alerts?.some((a) => a.id === target.id)
          ? await this.live.alert(connection.connectionId, target.serviceId, target.id)
          : undefined;
      return {
        ...facts,
        serviceLabel: connection.serviceLabel,
        ...(alerts ? { alertIds: alerts.map((a) => a.id) } : {}),
        ...(liveAlert ? { liveAlert } : {}),
      };
    } catch {
      return undefined;
    }
  }

  /**
   * Checks that need no schema: empty strings, cross-field hints, the live references and the names of webhooks and
   * saved searches. `lists` (fresh lists of the target service) replaces the cached ones for the names.
   */
  async liveIssues(value: unknown, lists?: NameLists): Promise<DocumentIssue[]> {
    const cached = await this.factsFor(value);
    // Fresh lists also replace the cached ones for the reference checks: an ID a name resolved to is checked against
    // the same list.
    const facts =
      cached && lists
        ? {
            ...cached,
            ...(lists.webhooks ? { webhooks: lists.webhooks as LiveFacts['webhooks'] } : {}),
            ...(lists.savedSearches ? { savedSearches: lists.savedSearches as LiveFacts['savedSearches'] } : {}),
          }
        : cached;
    const names = resolveNames(value, lists ?? namesOf(facts));
    // Without a connection (or trust) names are not looked up: nothing to say while typing.
    const nameIssues = lists || facts ? names.issues : names.issues.filter((i) => i.severity === 'error');
    const resolved = names.value;
    const issues = semanticIssues('alert', knownFilePart(resolved), facts);
    // What only some server versions accept, as you type: an error in a Cloud file, a warning in a self-hosted one.
    if (resolved !== null && typeof resolved === 'object' && !Array.isArray(resolved)) {
      issues.push(...followServer('alert', bodyOf(resolved as Record<string, unknown>), [], serverKindOf(value)));
    }
    const target = targetOf(value);
    // Keys the service sent are never reported; for a file that manages an alert, that needs the live alert.
    if (!target.id) issues.push(...unknownFileKeyIssues(resolved, undefined));
    else if (facts?.liveAlert) {
      issues.push(
        ...unknownFileKeyIssues(
          resolved,
          fileValueOf(facts.liveAlert, target.organizationId ?? '', target.serviceId ?? '', target.baseUrl),
        ),
      );
    }
    if (target.id && facts?.alertIds && !facts.alertIds.includes(target.id)) {
      issues.push({
        path: ['id'],
        severity: 'warning',
        message: vscode.l10n.t(
          'Alert "{0}" does not exist on service {1} (deleted?). Remove "id" to create the alert again.',
          target.id,
          facts.serviceLabel,
        ),
      });
    }
    return [...nameIssues, ...issuesAtNames(issues, names.references)];
  }

  /** The lists names are looked up in, from what the checks know (cached); undefined without a connection. */
  async namesFor(value: unknown): Promise<NameLists | undefined> {
    return namesOf(await this.factsFor(value));
  }

  /** Runs the checks made while typing and publishes them. */
  check(doc: vscode.TextDocument): Promise<readonly vscode.Diagnostic[]> {
    return this.checks.check(doc);
  }

  /**
   * Every check (syntax, file schema with the cross-field rules, live references), published on the document.
   * Returns the diagnostics; errors block sending. `fresh`: the service's lists as they are now, for the names.
   */
  async validate(doc: vscode.TextDocument, fresh?: NameLists): Promise<readonly vscode.Diagnostic[]> {
    // Whatever the checks made while typing find later does not replace these.
    this.checks.publish(doc, this.collection.get(doc.uri) ?? []);
    const parsed = parseAlertFile(doc.getText());
    if (parsed.syntaxErrors.length > 0) {
      const diagnostics = syntaxDiagnostics(doc, parsed.syntaxErrors);
      this.checks.publish(doc, diagnostics);
      return diagnostics;
    }
    const lists = fresh ?? (await this.namesFor(parsed.value));
    const schema = checkAlertFile(parsed.value, lists);
    const issues = dedupeIssues([
      ...(schema.ok ? schema.warnings : schema.issues.filter((i) => lists || i.severity === 'error')),
      ...(await this.liveIssues(parsed.value, fresh)),
    ]);
    const diagnostics = issueDiagnostics(doc, parsed.root, issues);
    this.checks.publish(doc, diagnostics);
    return diagnostics;
  }
}
