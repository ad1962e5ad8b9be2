import * as vscode from 'vscode';
import { ApiError, sanitizeServerText, type ObservabilityApi as ObservabilityClient } from '../api';
import type { ConnectionManager } from '../connections/manager';
import { dedupeIssues, type DocumentIssue } from '../jsonDocuments/checks';
import { fileLabel } from '../jsonDocuments/uris';
import type { Alert } from '../schema';
import type { ResourceRefresher } from '../resources/model';
import type { AlertFileChecks } from './checks';
import { checkAlertFile, fileTextOf, fileValueOf, sameConfiguration, targetOf } from './format';
import {
  buildPlan,
  renderPlan,
  serviceKey,
  type AlertPlan,
  type PlanEntry,
  type PlanFileInput,
  type ServiceInput,
} from './plan';
import { ALERT_FILE_SUFFIX } from './schema';
import {
  kindsNeeded,
  planReference,
  presentLikeFile,
  resolveNames,
  type NamedKind,
  type NameLists,
  type ResolvedReference,
} from './names';
import { issueDiagnostics } from '../jsonDocuments/diagnostics';
import { parseAlertFile, withId } from './text';
import { connectionFor } from '../connections/fileTarget';
import { isAlertFileUri, readText, relativeLabel, writeText, type PreviewDocuments } from './workspace';
import { errorMessage } from '../errors';
import type { Logger } from '../log';
import { withProgress } from '../jsonDocuments/writes';
import type { WritePipeline } from '../writes/pipeline';

/**
 * Alert files against the service: create or update one file's alert, compare it with the live alert, plan the whole
 * workspace and apply the plan, export a live alert to a file. Nothing is sent in an untrusted workspace.
 */

export interface FileResult {
  readonly outcome:
    | 'created'
    | 'updated'
    | 'unchanged'
    | 'invalid'
    | 'noConnection'
    | 'missing'
    | 'cancelled'
    | 'failed'
    | 'untrusted'
    | 'busy';
  readonly id?: string;
  readonly problems?: readonly string[];
  readonly error?: string;
  /** The request ID of a failed request, when the service gave one. */
  readonly requestId?: string;
}

export interface PlanOptions {
  /** Only files below this folder (default: the whole workspace). */
  readonly folder?: vscode.Uri;
}

export interface ApplyPlanResult {
  readonly outcome: 'applied' | 'partial' | 'nothingToDo' | 'cancelled' | 'untrusted' | 'busy';
  readonly done: readonly { readonly label: string; readonly action: 'create' | 'update'; readonly id: string }[];
  readonly failed: readonly { readonly label: string; readonly error: string }[];
  readonly notAttempted: readonly string[];
  readonly plan?: AlertPlan;
}

export interface AlertFileDeps {
  readonly connections: ConnectionManager;
  readonly tree: ResourceRefresher;
  readonly checks: AlertFileChecks;
  readonly previews: PreviewDocuments;
  readonly log: Logger;
  /** Creates and updates alerts on the service (src/writes). */
  readonly writes: WritePipeline;
}

const EXCLUDE = '{**/node_modules/**,**/.git/**}';

export function refuseUntrusted(): boolean {
  if (vscode.workspace.isTrusted) return false;
  void vscode.window.showWarningMessage(
    vscode.l10n.t(
      'This workspace is not trusted: alert files get schema help only, and nothing is sent to the service. Trust the workspace to apply them.',
    ),
  );
  return true;
}

export class AlertFileService implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after files were applied (CodeLens titles may change). */
  readonly onDidChange = this.changed.event;
  private lastPlan: { plan: AlertPlan; options: PlanOptions } | undefined;
  /** Files being applied, and whether a plan is being applied: a second click must not create a duplicate. */
  private readonly running = new Set<string>();
  private applyingPlan = false;
  /** The lists the last plan looked names up in, per service (Apply Plan resolves the files with the same lists). */
  private planLists = new Map<string, NameLists>();
  /** The plan document last shown, and its lines with updates (for "Compare" lenses). */
  planUri: vscode.Uri | undefined;
  planLines: readonly { readonly line: number; readonly uri: string }[] = [];

  constructor(private readonly deps: AlertFileDeps) {}

  dispose(): void {
    this.changed.dispose();
  }

  get latestPlan(): AlertPlan | undefined {
    return this.lastPlan?.plan;
  }

  private clientOf(connectionId: string): ObservabilityClient {
    return this.deps.connections.clientFor(connectionId);
  }

  // ---- one file ----

  /** Validates a file now; returns the problems as "line: message". */
  async validate(uri: vscode.Uri, quiet = false): Promise<readonly string[]> {
    const doc = await vscode.workspace.openTextDocument(uri);
    const diagnostics = await this.deps.checks.validate(doc, await this.namesNow(parseAlertFile(doc.getText()).value));
    const problems = diagnostics.map((d) => `${d.range.start.line + 1}: ${d.message}`);
    if (!quiet) {
      const errors = diagnostics.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length;
      if (errors === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('{0}: no problems found.', relativeLabel(uri)));
      } else void this.showProblems(vscode.l10n.t('{0}: {1} problem(s) found.', relativeLabel(uri), errors));
    }
    return problems;
  }

  private async showProblems(text: string): Promise<void> {
    const show = vscode.l10n.t('Show Problems');
    if ((await vscode.window.showErrorMessage(text, show)) === show) {
      await vscode.commands.executeCommand('workbench.actions.view.problems');
    }
  }

  /** Creates (no `id`) or updates (with `id`) the file's alert. `confirm` skips the update confirmation. */
  async apply(uri: vscode.Uri, options: { confirm?: boolean } = {}): Promise<FileResult> {
    if (refuseUntrusted()) return { outcome: 'untrusted' };
    const key = uri.toString();
    if (this.running.has(key) || this.applyingPlan) {
      void vscode.window.showInformationMessage(vscode.l10n.t('{0} is being applied already.', relativeLabel(uri)));
      return { outcome: 'busy' };
    }
    this.running.add(key);
    try {
      return await this.applyFile(uri, options);
    } finally {
      this.running.delete(key);
    }
  }

  private async applyFile(uri: vscode.Uri, options: { confirm?: boolean }): Promise<FileResult> {
    const doc = await vscode.workspace.openTextDocument(uri);
    const parsed = parseAlertFile(await readText(uri));
    const fileTarget = targetOf(parsed.value);
    const connection = connectionFor(
      this.deps.connections,
      fileTarget.organizationId,
      fileTarget.serviceId,
      fileTarget.baseUrl,
    );
    // Names of webhooks and saved searches are looked up in the service's lists as they are now.
    const lists = await this.namesNow(parsed.value);
    const diagnostics = await this.deps.checks.validate(doc, lists);
    const errors = diagnostics.filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
    const notSent = (problems: readonly string[]): FileResult => {
      void this.showProblems(
        vscode.l10n.t('Not sent: fix {0} problem(s) first ({1}).', problems.length, problems[0] ?? ''),
      );
      return { outcome: 'invalid', problems };
    };
    if (errors.length > 0) return notSent(errors.map((d) => `${d.range.start.line + 1}: ${d.message}`));
    const checked = checkAlertFile(parsed.value, lists);
    if (!checked.ok) {
      const blocking = checked.issues.filter((i) => i.severity === 'error');
      if (!connection && blocking.length === 0) {
        void this.offerConnection(fileTarget.organizationId, fileTarget.baseUrl);
        return { outcome: 'noConnection' };
      }
      const found = issueDiagnostics(doc, parsed.root, blocking);
      this.deps.checks.publish(doc, [...diagnostics, ...found]);
      return notSent(found.map((d) => `${d.range.start.line + 1}: ${d.message}`));
    }
    const { target, body } = checked;
    if (!connection) {
      void this.offerConnection(target.organizationId, target.baseUrl);
      return { outcome: 'noConnection' };
    }
    const label = relativeLabel(uri);
    const id = target.id;
    const write = {
      kind: 'alert' as const,
      connectionId: connection.connectionId,
      serviceId: target.serviceId,
      ...(id ? { id } : {}),
      from: label,
    };
    const outcome = await this.deps.writes.write<FileResult>(write, body, {
      document: {
        doc,
        root: parseAlertFile(doc.getText()).root,
        publish: (d, found) => this.deps.checks.publish(d, found),
      },
      readFailed: (error) => {
        if (!ApiError.is(error) || error.kind !== 'notFound' || !id) return undefined;
        void vscode.window.showErrorMessage(
          vscode.l10n.t(
            'Alert "{0}" does not exist on {1} (deleted?). Remove "id" from {2} to create it again.',
            id,
            connection.serviceLabel,
            label,
          ),
        );
        return { outcome: 'missing', error: errorMessage(error) };
      },
      before: async (live, sent, action) => {
        if (action === 'create' || !id) return { body: sent };
        const current = live as Alert;
        if (sameConfiguration(body, current)) {
          void vscode.window.showInformationMessage(
            vscode.l10n.t(
              'Nothing to apply: alert "{0}" on {1} is the same as {2}.',
              sanitizeServerText(current.name ?? id),
              connection.serviceLabel,
              label,
            ),
          );
          return { stop: { outcome: 'unchanged', id } };
        }
        if (!options.confirm) {
          await this.showDiff(uri, current, target.organizationId, target.serviceId, target.baseUrl, {
            value: parsed.value,
            ...(lists ? { lists } : {}),
            references: checked.references,
          });
          const update = vscode.l10n.t('Update');
          const answer = await vscode.window.showWarningMessage(
            vscode.l10n.t(
              'Update alert "{0}" on {1} from {2}?',
              sanitizeServerText(current.name ?? id),
              connection.serviceLabel,
              label,
            ),
            {
              modal: true,
              detail: vscode.l10n.t(
                "The diff shows the service's version (left) and the file (right). Fields the file sets replace the service's; optional fields the file leaves out keep their current value on the service (set one to null to clear it).",
              ),
            },
            update,
          );
          if (answer !== update) return { stop: { outcome: 'cancelled', id } };
        }
        return { body: sent };
      },
      written: async (data, action) => {
        // Written at once: the file names its alert from now on (a second Apply updates instead of creating).
        if (action === 'create') await writeText(uri, withId(await readText(uri), data.id));
        else if (doc.isDirty) await doc.save();
        this.changed.fire();
      },
      message: (data, action) =>
        action === 'create'
          ? vscode.l10n.t(
              'Alert "{0}" created on {1} (ID {2}); the ID was written to {3}.',
              data.name ?? data.id,
              connection.serviceLabel,
              data.id,
              label,
            )
          : vscode.l10n.t('Alert "{0}" on {1} updated from {2}.', data.name ?? data.id, connection.serviceLabel, label),
    });
    if (outcome.status === 'stopped') return outcome.result;
    if (outcome.status === 'failed') {
      return {
        outcome: 'failed',
        error: outcome.error,
        ...(outcome.requestId ? { requestId: outcome.requestId } : {}),
      };
    }
    return { outcome: outcome.action === 'create' ? 'created' : 'updated', id: outcome.data.id };
  }

  /** Shows the live alert (as a file) against the file. */
  async compare(uri: vscode.Uri): Promise<boolean> {
    if (refuseUntrusted()) return false;
    const value = parseAlertFile(await readText(uri)).value;
    const target = targetOf(value);
    if (!target.id || !target.organizationId || !target.serviceId) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('{0} has no "id": it manages no live alert yet.', relativeLabel(uri)),
      );
      return false;
    }
    const connection = connectionFor(this.deps.connections, target.organizationId, target.serviceId, target.baseUrl);
    if (!connection) {
      void this.offerConnection(target.organizationId, target.baseUrl);
      return false;
    }
    try {
      const id = target.id;
      const serviceId = target.serviceId;
      const current = (
        await this.progress(vscode.l10n.t('Reading the alert from the service…'), () =>
          this.clientOf(connection.connectionId).getAlert(serviceId, id),
        )
      ).data;
      const kinds = kindsNeeded(value);
      const lists =
        kinds.size > 0
          ? await this.freshNames(connection.connectionId, serviceId, connection.serviceLabel, kinds)
          : undefined;
      const references = lists ? resolveNames(value, lists).resolved : [];
      await this.showDiff(uri, current, target.organizationId, serviceId, target.baseUrl, {
        value,
        ...(lists ? { lists } : {}),
        references,
      });
      return true;
    } catch (error) {
      void vscode.window.showErrorMessage(errorMessage(error));
      return false;
    }
  }

  private async showDiff(
    uri: vscode.Uri,
    current: Alert,
    organizationId: string,
    serviceId: string,
    baseUrl?: string,
    names?: { readonly value: unknown; readonly lists?: NameLists; readonly references?: readonly ResolvedReference[] },
  ): Promise<void> {
    const name = current.name ?? current.id;
    // Where the file names a webhook or saved search by name, the service's side shows the name too.
    const live = presentLikeFile(fileValueOf(current, organizationId, serviceId, baseUrl), names?.value, names?.lists);
    const left = this.deps.previews.create(
      `${fileLabel(name, 'Alert')} (service)${ALERT_FILE_SUFFIX}`,
      `${JSON.stringify(live, null, 2)}\n`,
    );
    const resolved = (names?.references ?? []).map((r) => `${r.name} = ${r.id}`).join(', ');
    await vscode.commands.executeCommand(
      'vscode.diff',
      left,
      uri,
      resolved
        ? vscode.l10n.t('{0}: service ↔ {1} (names: {2})', name, relativeLabel(uri), resolved)
        : vscode.l10n.t('{0}: service ↔ {1}', name, relativeLabel(uri)),
      { preview: true },
    );
  }

  // ---- the plan ----

  /** Reads every alert file (of `folder`) and the live alerts of their services, and classifies them. */
  async plan(options: PlanOptions = {}, token?: vscode.CancellationToken): Promise<AlertPlan> {
    const include = options.folder
      ? new vscode.RelativePattern(options.folder, `**/*${ALERT_FILE_SUFFIX}`)
      : `**/*${ALERT_FILE_SUFFIX}`;
    const uris = (await vscode.workspace.findFiles(include, EXCLUDE, undefined, token))
      .filter(isAlertFileUri)
      .sort((a, b) => a.toString().localeCompare(b.toString()));
    // First the files' targets, then each service once (its live alerts, and the lists its files' names need),
    // then each file checked against its service.
    const read: {
      uri: vscode.Uri;
      label: string;
      target: PlanFileInput['target'];
      value?: unknown;
      problem?: string;
    }[] = [];
    for (const uri of uris) {
      const label = relativeLabel(uri);
      let text: string;
      try {
        text = await readText(uri);
      } catch (error) {
        read.push({ uri, label, target: {}, problem: errorMessage(error) });
        continue;
      }
      const parsed = parseAlertFile(text);
      const target = targetOf(parsed.value);
      if (parsed.syntaxErrors.length > 0) {
        read.push({ uri, label, target, problem: vscode.l10n.t('JSON syntax error') });
      } else read.push({ uri, label, target, value: parsed.value });
    }
    const services: ServiceInput[] = [];
    const lists = new Map<string, NameLists>();
    const seen = new Set<string>();
    for (const file of read) {
      const { organizationId, serviceId, baseUrl } = file.target;
      if (!organizationId || !serviceId || seen.has(serviceKey(organizationId, serviceId, baseUrl))) continue;
      const key = serviceKey(organizationId, serviceId, baseUrl);
      seen.add(key);
      const where = baseUrl !== undefined ? { baseUrl } : {};
      const connection = connectionFor(this.deps.connections, organizationId, serviceId, baseUrl);
      if (!connection) {
        services.push({ organizationId, serviceId, ...where, serviceLabel: baseUrl ?? serviceId });
        continue;
      }
      const kinds = new Set<NamedKind>();
      for (const other of read) {
        const t = other.target;
        if (t.organizationId && t.serviceId && serviceKey(t.organizationId, t.serviceId, t.baseUrl) === key) {
          for (const kind of kindsNeeded(other.value)) kinds.add(kind);
        }
      }
      if (kinds.size > 0) {
        lists.set(key, await this.freshNames(connection.connectionId, serviceId, connection.serviceLabel, kinds));
      }
      try {
        const alerts = (await this.clientOf(connection.connectionId).listAlerts(serviceId)).data;
        services.push({
          organizationId,
          serviceId,
          ...where,
          serviceLabel: connection.serviceLabel,
          connectionId: connection.connectionId,
          alerts,
        });
      } catch (error) {
        services.push({
          organizationId,
          serviceId,
          ...where,
          serviceLabel: connection.serviceLabel,
          connectionId: connection.connectionId,
          error: errorMessage(error),
        });
      }
    }
    const files: PlanFileInput[] = [];
    for (const { uri, label, target, value, problem } of read) {
      if (problem !== undefined) {
        files.push({ uri: uri.toString(), label, target, problems: [problem] });
        continue;
      }
      const key =
        target.organizationId && target.serviceId
          ? serviceKey(target.organizationId, target.serviceId, target.baseUrl)
          : undefined;
      const names = key ? lists.get(key) : undefined;
      const checked = checkAlertFile(value, names);
      const semantic = (await this.deps.checks.liveIssues(value, names)).filter((i) => i.severity === 'error');
      const issues: DocumentIssue[] = dedupeIssues([
        ...(checked.ok ? [] : checked.issues.filter((i) => names || i.severity === 'error')),
        ...semantic,
      ]);
      if (!checked.ok || issues.length > 0) {
        files.push({
          uri: uri.toString(),
          label,
          target,
          problems: issues.length > 0 ? issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`) : [],
        });
      } else {
        files.push({
          uri: uri.toString(),
          label,
          target,
          body: checked.body,
          ...(checked.references.length > 0 ? { references: checked.references.map(planReference) } : {}),
          ...(checked.warnings.length > 0
            ? { warnings: checked.warnings.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`) }
            : {}),
        });
      }
    }
    this.planLists = lists;
    const plan = buildPlan(files, services);
    this.lastPlan = { plan, options };
    return plan;
  }

  /** Plans and shows the plan as a read-only Markdown document. */
  async showPlan(options: PlanOptions = {}, show = true): Promise<AlertPlan | undefined> {
    if (refuseUntrusted()) return undefined;
    const plan = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Planning alert files…'),
        cancellable: true,
      },
      (_progress, token) => this.plan(options, token),
    );
    if (show) {
      const rendered = renderPlan(plan, new Date());
      const uri = this.deps.previews.create('Alert plan.md', rendered.text);
      this.planUri = uri;
      this.planLines = rendered.updateLines;
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
      await vscode.window.showTextDocument(doc, { preview: false });
    }
    return plan;
  }

  /** After Apply Plan: a plan document still on screen shows the new state. */
  private async refreshShownPlan(): Promise<void> {
    const uri = this.planUri;
    if (!uri || !vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === uri.toString())) return;
    try {
      const rendered = renderPlan(await this.plan(this.lastPlan?.options ?? {}), new Date());
      this.planLines = rendered.updateLines;
      this.deps.previews.update(uri, rendered.text);
      this.changed.fire();
    } catch (error) {
      this.deps.log.warn(`Could not refresh the alert plan: ${errorMessage(error)}`);
    }
  }

  /**
   * Plans again (the files may have changed) and carries out the creates and updates one request at a time, within
   * the rate limit, with progress and cancellation. Each create writes its ID back at once, so a run that stopped
   * half-way finishes the rest when run again. Nothing is deleted.
   */
  async applyPlan(options: PlanOptions & { confirm?: boolean } = {}): Promise<ApplyPlanResult> {
    const empty = { done: [], failed: [], notAttempted: [] };
    if (refuseUntrusted()) return { outcome: 'untrusted', ...empty };
    if (this.applyingPlan || this.running.size > 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Alert files are being applied already.'));
      return { outcome: 'busy', ...empty };
    }
    this.applyingPlan = true;
    try {
      return await this.applyPlanNow(options);
    } finally {
      this.applyingPlan = false;
    }
  }

  private async applyPlanNow(options: PlanOptions & { confirm?: boolean }): Promise<ApplyPlanResult> {
    const empty = { done: [], failed: [], notAttempted: [] };
    const plan = await this.plan(options.folder ? { folder: options.folder } : (this.lastPlan?.options ?? {}));
    const work = plan.services.flatMap((s) =>
      s.entries.filter((e) => e.action === 'create' || e.action === 'update').map((e) => ({ service: s, entry: e })),
    );
    if (work.length === 0) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Nothing to apply: every alert file is unchanged or cannot be applied (see Plan Alert Files).'),
      );
      return { outcome: 'nothingToDo', ...empty, plan };
    }
    if (!options.confirm) {
      const go = vscode.l10n.t('Apply');
      const services = new Set(work.map((w) => w.service.serviceLabel));
      const answer = await vscode.window.showWarningMessage(
        vscode.l10n.t('Apply {0} alert change(s) to {1}?', work.length, [...services].join(', ')),
        {
          modal: true,
          detail: vscode.l10n.t(
            '{0} to create, {1} to update. Live alerts without a file are left as they are.',
            plan.counts.create,
            plan.counts.update,
          ),
        },
        go,
      );
      if (answer !== go) return { outcome: 'cancelled', ...empty, plan };
    }

    const done: { label: string; action: 'create' | 'update'; id: string }[] = [];
    const failed: { label: string; error: string }[] = [];
    const notAttempted: string[] = [];
    const touched = new Map<string, { connectionId: string; serviceId: string }>();
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Applying alert files'),
        cancellable: true,
      },
      async (progress, token) => {
        const abort = new AbortController();
        const subscription = token.onCancellationRequested(() => abort.abort());
        try {
          for (const [index, { service, entry }] of work.entries()) {
            if (token.isCancellationRequested) {
              notAttempted.push(entry.label);
              continue;
            }
            progress.report({ message: `${index + 1}/${work.length} ${entry.label}`, increment: 100 / work.length });
            try {
              const id = await this.applyEntry(service.connectionId as string, service.serviceId, entry, abort.signal);
              done.push({ label: entry.label, action: entry.action as 'create' | 'update', id });
              touched.set(serviceKey(service.organizationId, service.serviceId, service.baseUrl), {
                connectionId: service.connectionId as string,
                serviceId: service.serviceId,
              });
            } catch (error) {
              if (token.isCancellationRequested) notAttempted.push(entry.label);
              else failed.push({ label: entry.label, error: errorMessage(error) });
            }
          }
        } finally {
          subscription.dispose();
        }
      },
    );
    for (const t of touched.values()) this.afterChange(t.connectionId, t.serviceId);
    for (const d of done) this.deps.log.info(`Alert plan: ${d.action} ${d.label} -> alert ${d.id}`);
    for (const f of failed) this.deps.log.warn(`Alert plan: ${f.label} failed: ${f.error}`);
    for (const label of notAttempted) this.deps.log.info(`Alert plan: ${label} not attempted (cancelled)`);
    await this.refreshShownPlan();
    if (failed.length === 0 && notAttempted.length === 0) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Alert plan applied: {0} created, {1} updated.',
          done.filter((d) => d.action === 'create').length,
          done.filter((d) => d.action === 'update').length,
        ),
      );
      return { outcome: 'applied', done, failed, notAttempted, plan };
    }
    const summary = vscode.l10n.t(
      'Alert plan partly applied: {0} done, {1} failed, {2} not attempted. Run Apply Plan again to finish the rest.',
      done.length,
      failed.length,
      notAttempted.length,
    );
    const firstFailure = failed[0]
      ? ` ${vscode.l10n.t('First failure: {0}: {1}', failed[0].label, failed[0].error)}`
      : '';
    void vscode.window.showWarningMessage(`${summary}${firstFailure}`, vscode.l10n.t('Show Log')).then((choice) => {
      if (choice) void vscode.commands.executeCommand('observability.showLog');
    });
    return { outcome: partialOutcome(failed, notAttempted), done, failed, notAttempted, plan };
  }

  /** One create or update of the plan, from the file as it is now. Returns the alert ID. */
  private async applyEntry(
    connectionId: string,
    serviceId: string,
    entry: PlanEntry,
    signal: AbortSignal,
  ): Promise<string> {
    const uri = vscode.Uri.parse(entry.uri);
    const text = await readText(uri);
    const value = parseAlertFile(text).value;
    const t = targetOf(value);
    const lists =
      t.organizationId && t.serviceId
        ? this.planLists.get(serviceKey(t.organizationId, t.serviceId, t.baseUrl))
        : undefined;
    const checked = checkAlertFile(value, lists);
    if (!checked.ok) {
      throw new Error(vscode.l10n.t('the file changed and is no longer valid: {0}', checked.issues[0]?.message ?? ''));
    }
    if (checked.target.serviceId !== serviceId) {
      throw new Error(vscode.l10n.t('the file now targets another service; plan again'));
    }
    const id = checked.target.id;
    const written = await this.deps.writes.send(
      { kind: 'alert', connectionId, serviceId, ...(id ? { id } : {}) },
      checked.body,
      signal,
    );
    if (!id) {
      // Written at once: a later failure or cancellation must not lead to a duplicate on the next run.
      await writeText(uri, withId(await readText(uri), written.id));
      return written.id;
    }
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (doc?.isDirty) await doc.save();
    return id;
  }

  // ---- export ----

  /** Writes a live alert as an alert file (with its `id`) and opens it. */
  async exportAlert(
    connectionId: string,
    serviceId: string,
    alertId: string,
    target?: vscode.Uri,
  ): Promise<vscode.Uri | undefined> {
    if (refuseUntrusted()) return undefined;
    const connection = this.deps.connections.get(connectionId);
    if (!connection) return undefined;
    let alert: Alert;
    try {
      alert = (
        await this.progress(vscode.l10n.t('Reading the alert from the service…'), () =>
          this.clientOf(connectionId).getAlert(serviceId, alertId),
        )
      ).data;
    } catch (error) {
      void vscode.window.showErrorMessage(errorMessage(error));
      return undefined;
    }
    let uri = target;
    if (!uri) {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const service = connection.services.find((s) => s.id === serviceId)?.name ?? serviceId;
      const name = `${fileLabel(alert.name, `Alert ${alert.id}`)}${ALERT_FILE_SUFFIX}`;
      const defaultUri = folder
        ? vscode.Uri.joinPath(folder, 'alerts', fileLabel(service, 'service'), name)
        : undefined;
      uri = await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Export Alert to File'),
        saveLabel: vscode.l10n.t('Export'),
        filters: { [vscode.l10n.t('Alert files')]: ['alert.json', 'json'] },
        ...(defaultUri ? { defaultUri } : {}),
      });
      if (!uri) return undefined;
    }
    if (!uri.path.endsWith(ALERT_FILE_SUFFIX)) {
      uri = uri.with({ path: `${uri.path.replace(/\.json$/, '')}${ALERT_FILE_SUFFIX}` });
    }
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, '..'));
    await vscode.workspace.fs.writeFile(
      uri,
      new TextEncoder().encode(
        fileTextOf(
          alert,
          connection.organizationId,
          serviceId,
          connection.kind === 'selfHosted' ? connection.baseUrl : undefined,
        ),
      ),
    );
    await vscode.window.showTextDocument(uri, { preview: false });
    this.deps.log.info(`Exported alert ${alert.id} to ${uri.toString()}`);
    return uri;
  }

  // ---- shared ----

  /** For a file that names webhooks or saved searches by name: its service's lists as they are now. */
  private async namesNow(value: unknown): Promise<NameLists | undefined> {
    const kinds = kindsNeeded(value);
    if (kinds.size === 0 || !vscode.workspace.isTrusted) return undefined;
    const target = targetOf(value);
    const connection = connectionFor(this.deps.connections, target.organizationId, target.serviceId, target.baseUrl);
    if (!connection || !target.serviceId) return undefined;
    const serviceId = target.serviceId;
    return this.progress(vscode.l10n.t('Looking up names on the service…'), () =>
      this.freshNames(connection.connectionId, serviceId, connection.serviceLabel, kinds),
    );
  }

  /** The service's webhooks and saved searches as they are now (only the kinds asked for), for names in files. */
  private async freshNames(
    connectionId: string,
    serviceId: string,
    serviceLabel: string,
    kinds: ReadonlySet<NamedKind>,
  ): Promise<NameLists> {
    const client = this.clientOf(connectionId);
    const errors: string[] = [];
    const read = async <T>(load: () => Promise<{ data: readonly T[] }>): Promise<readonly T[] | undefined> => {
      try {
        return (await load()).data;
      } catch (error) {
        errors.push(errorMessage(error));
        return undefined;
      }
    };
    const webhooks = kinds.has('webhook') ? await read(() => client.listWebhooks(serviceId)) : undefined;
    const savedSearches = kinds.has('savedSearch') ? await read(() => client.listSavedSearches(serviceId)) : undefined;
    return {
      serviceLabel,
      ...(webhooks ? { webhooks } : {}),
      ...(savedSearches ? { savedSearches } : {}),
      ...(errors.length > 0 ? { error: errors.join('; ') } : {}),
    };
  }

  private async offerConnection(organizationId: string | undefined, baseUrl?: string): Promise<void> {
    const add = vscode.l10n.t('Add Connection');
    const answer = await vscode.window.showWarningMessage(
      baseUrl !== undefined
        ? vscode.l10n.t(
            'No self-hosted connection to {0}. A file only applies through a connection you added to exactly this address.',
            sanitizeServerText(baseUrl, 200),
          )
        : vscode.l10n.t(
            'No connection to organization {0}. Add one (any API key of the organization works) to apply this file.',
            organizationId ?? '?',
          ),
      add,
    );
    if (answer === add) await vscode.commands.executeCommand('observability.addConnection');
  }

  private afterChange(connectionId: string, serviceId: string): void {
    this.deps.tree.refreshKinds(connectionId, serviceId, ['alerts']);
    this.changed.fire();
  }

  private progress<T>(title: string, task: () => Promise<T>): Promise<T> {
    return withProgress(title, task);
  }
}

function partialOutcome(failed: readonly unknown[], notAttempted: readonly unknown[]): ApplyPlanResult['outcome'] {
  return failed.length === 0 && notAttempted.length > 0 ? 'cancelled' : 'partial';
}
