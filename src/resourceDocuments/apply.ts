import * as vscode from 'vscode';
import { sanitizeServerText } from '../api';
import type { Dashboard, DashboardUpdate, QueryEndpoint, QueryEndpointWrite } from '../schema';
import { KINDS, maskedWebhookBody, ordered, unmaskWebhookBody, webhookFieldsClearedByUpdate } from '../resources/kinds';
import {
  dedupeIssues,
  knownPart,
  schemaCheck,
  semanticIssues,
  type DocumentIssue,
  type IssuePath,
} from '../jsonDocuments/checks';
import { issueDiagnostics, parseDocument, syntaxDiagnostics } from '../jsonDocuments/diagnostics';
import { alertAfterUpdate, editableText, editableValue, sameJson } from '../jsonDocuments/documents';
import { isNew, parseUri, refKey, uriFor, type ResourceRef } from '../jsonDocuments/uris';
import { errorMessage } from '../errors';
import type { WriteGate, WriteHooks } from '../writes/pipeline';
import { ApplyDiffs } from './applyDiffs';
import type { ApplyDeps, ApplyOptions, ApplyResult, CreatedResource } from './applyTypes';
import { alertsDeletedBy, confirmLoss, keysLosingAccess, withoutSecrets } from './losses';

/**
 * Apply: send a resource document to the service. Nothing invalid is sent (syntax, schema and live checks first);
 * updates show a diff against the server's current version and ask once; a dashboard update that would make the
 * service delete alerts names them and needs its own confirmation; a resource changed on the service since it was
 * opened is never overwritten silently. On failure the text stays exactly as typed (and unsaved); on success the
 * document becomes the saved resource.
 *
 * Confirmations can be given only by explicit command arguments (automation and tests): `confirm` (the update),
 * `confirmAlertDeletion` (alerts the service deletes), `confirmKeyRemoval` (API keys that lose access to the query
 * endpoint), `confirmSecretRemoval` (a webhook's stored headers and query parameters cleared by a new destination),
 * `overwrite` (changes made on the service meanwhile).
 */

export const APPLYING_CONTEXT_KEY = 'observability.applying';

export type { ApplyDeps, ApplyOptions, ApplyOutcome, ApplyResult, CreatedResource } from './applyTypes';

/** The kind's name in messages. */
function kindName(kind: ResourceRef['kind']): string {
  return KINDS[kind].label;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function nameOfValue(value: unknown): string | undefined {
  const name = (value as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name.trim() !== '' ? name : undefined;
}

export class ResourceApplier {
  private readonly running = new Set<string>();
  private readonly diffs: ApplyDiffs;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** Fires after an apply of a document ended (whatever the outcome). */
  readonly onDidApply = this.changed.event;
  private readonly created = new vscode.EventEmitter<CreatedResource>();
  /** Fires when a draft of a webhook, saved search, source or role became a resource on the service. */
  readonly onDidCreate = this.created.event;

  constructor(private readonly deps: ApplyDeps) {
    this.diffs = new ApplyDiffs(deps);
  }

  dispose(): void {
    this.changed.dispose();
    this.created.dispose();
  }

  /** Shows the diff between the service's current version of a document's resource and the document. */
  async compare(doc: vscode.TextDocument): Promise<boolean> {
    const ref = parseUri(doc.uri);
    if (!ref || isNew(ref)) return false;
    try {
      const current = await this.deps.writes.read({
        kind: ref.kind,
        connectionId: ref.connectionId,
        serviceId: ref.serviceId,
        id: ref.id,
      });
      const held = this.deps.fs.get(ref);
      const changedOnServer =
        held?.base !== undefined &&
        held.exists &&
        !sameJson(editableValue(ref.kind, held.base), editableValue(ref.kind, current));
      await this.diffs.show(doc, ref, nameOfValue(current) ?? kindName(ref.kind), current, changedOnServer);
      return true;
    } catch (error) {
      const message = errorMessage(error);
      void vscode.window.showErrorMessage(message);
      return false;
    }
  }

  isRunning(ref: ResourceRef): boolean {
    return this.running.has(refKey(ref));
  }

  async apply(doc: vscode.TextDocument, options: ApplyOptions = {}): Promise<ApplyResult> {
    const ref = parseUri(doc.uri);
    if (!ref) return { outcome: 'notResource' };
    const key = refKey(ref);
    if (this.running.has(key)) return { outcome: 'busy' };
    this.running.add(key);
    void vscode.commands.executeCommand('setContext', APPLYING_CONTEXT_KEY, true);
    let result: ApplyResult | undefined;
    try {
      result = await this.applyChecked(doc, ref, options);
      return result;
    } finally {
      // The diff served the confirmation; keep it only when it shows a conflict to resolve.
      if (result?.outcome !== 'conflict') await this.diffs.close(doc.uri);
      this.running.delete(key);
      this.changed.fire(doc.uri);
      if (this.running.size === 0) void vscode.commands.executeCommand('setContext', APPLYING_CONTEXT_KEY, false);
    }
  }

  private async applyChecked(doc: vscode.TextDocument, ref: ResourceRef, options: ApplyOptions): Promise<ApplyResult> {
    const { checks, live } = this.deps;
    const text = doc.getText();
    const parsed = parseDocument(text);
    if (parsed.syntaxErrors.length > 0) {
      const diagnostics = syntaxDiagnostics(doc, parsed.syntaxErrors);
      checks.publish(doc, diagnostics);
      return this.refuse(doc, diagnostics);
    }
    // What only some server versions accept is blocked on Cloud and a warning on a self-hosted deployment.
    const server = this.deps.connections.get(ref.connectionId)?.kind ?? 'cloud';
    // What the service itself sent (a newer server's alert displayName and tags) is accepted there: no warning.
    const held = this.deps.fs.get(ref);
    const original = held?.exists && held.base !== undefined ? editableValue(ref.kind, held.base) : undefined;
    const schema = schemaCheck(ref.kind, isNew(ref), parsed.value, server, original);
    let facts;
    try {
      facts = await live.facts(ref.connectionId, ref.serviceId, ref.kind, ref.id);
    } catch {
      facts = undefined;
    }
    const blocking: DocumentIssue[] = [
      ...(schema.ok ? [] : schema.issues),
      ...semanticIssues(ref.kind, knownPart(ref.kind, isNew(ref), parsed.value), facts).filter(
        (i) => i.severity === 'error',
      ),
    ];
    if (blocking.length > 0 || !schema.ok) {
      const diagnostics = issueDiagnostics(doc, parsed.root, dedupeIssues(blocking));
      checks.publish(doc, diagnostics);
      return this.refuse(doc, diagnostics);
    }
    if (schema.warnings.length > 0) {
      checks.publish(doc, issueDiagnostics(doc, parsed.root, schema.warnings));
      for (const w of schema.warnings) this.deps.log.warn(`${ref.kind} ${ref.id ?? '(new)'}: ${w.message}`);
    }
    const body = schema.data;
    const target = { kind: ref.kind, connectionId: ref.connectionId, serviceId: ref.serviceId, id: ref.id };
    const steps = this.stepsOf(doc, ref, parsed.root, parsed.value, options);
    const outcome = await this.deps.writes.write(target, body, steps.hooks);
    if (outcome.status === 'stopped') return outcome.result;
    if (outcome.status === 'failed') {
      return {
        outcome: 'failed',
        error: outcome.error,
        ...(outcome.requestId ? { requestId: outcome.requestId } : {}),
      };
    }
    const { action, data, requestId } = outcome;
    if (action === 'create' && !KINDS[ref.kind].singleton) {
      const uri = steps.createdUri ?? doc.uri.toString();
      this.created.fire({ draft: ref, id: data.id, kind: ref.kind, uri });
      return { outcome: 'applied', uri, id: data.id, requestId };
    }
    return {
      outcome: 'applied',
      uri: doc.uri.toString(),
      id: data.id,
      requestId,
      diffShown: ref.kind === 'queryEndpoint' ? action === 'update' : true,
      ...(steps.alerts ? { alerts: steps.alerts } : {}),
      ...(steps.kept ? { kept: steps.kept } : {}),
    };
  }

  /**
   * What applying a document adds to the write pipeline: the checks and confirmations before the request (per kind),
   * the document becoming the saved resource afterwards, and the words of the notification.
   */
  private stepsOf(
    doc: vscode.TextDocument,
    ref: ResourceRef,
    root: ReturnType<typeof parseDocument>['root'],
    typed: unknown,
    options: ApplyOptions,
  ): { hooks: WriteHooks<ApplyResult>; createdUri?: string; alerts?: string[]; kept?: string[] } {
    const spec = KINDS[ref.kind];
    const what = spec.label;
    const state: { hooks: WriteHooks<ApplyResult>; createdUri?: string; alerts?: string[]; kept?: string[] } = {
      hooks: {
        document: { doc, root, publish: (d, diagnostics) => this.deps.checks.publish(d, diagnostics) },
        redact: (error) => withoutSecrets(this.deps.fs, ref, error, typed),
        alsoRefresh: ref.kind === 'dashboard' && ref.id !== undefined ? ['alerts'] : [],
        before: async (current, body, action) => {
          const gate = await this.before(doc, ref, root, current, body, action, options);
          if ('alerts' in gate && gate.alerts) state.alerts = gate.alerts;
          if ('kept' in gate && gate.kept) state.kept = gate.kept;
          return gate.gate;
        },
        written: async (data, action) => {
          if (action === 'create' && !spec.singleton) {
            const name = nameOfValue(data) ?? nameOfValue(typed);
            const created: ResourceRef = { ...ref, id: data.id };
            const uri = await this.replaceDraft(doc, ref, created, name, editableText(ref.kind, data), data);
            state.createdUri = uri.toString();
          } else {
            await this.becomeSaved(doc, ref, data);
          }
          // Saved searches are kept apart from the tree's cache (for the alert checks): a new one must be known at once.
          if (spec.treeKind === 'savedSearches') this.deps.live.forget(ref.connectionId);
        },
        message: (data, action) => {
          if (ref.kind === 'queryEndpoint') return vscode.l10n.t('Query endpoint saved: id {0}.', data.id);
          if (action === 'create') {
            const name = nameOfValue(data) ?? nameOfValue(typed) ?? data.id;
            return vscode.l10n.t('{0} "{1}" created (ID {2}).', capitalized(what), name, data.id);
          }
          const updated = vscode.l10n.t('{0} "{1}" updated.', capitalized(what), nameOfValue(data) ?? data.id);
          const names = state.alerts ?? [];
          return names.length > 0
            ? `${updated} ${vscode.l10n.t('The service deleted {0} alert(s): {1}.', names.length, names.join(', '))}`
            : updated;
        },
      },
    };
    return state;
  }

  /**
   * The checks and confirmations of one kind before its request: a read-only resource is refused; a webhook's masked
   * URL is put back (a changed mask is refused); an update shows the diff and asks, naming what it takes away (alerts
   * the service deletes, API keys that lose access, a webhook's stored secrets).
   */
  private async before(
    doc: vscode.TextDocument,
    ref: ResourceRef,
    root: ReturnType<typeof parseDocument>['root'],
    current: unknown,
    typed: unknown,
    action: 'create' | 'update',
    options: ApplyOptions,
  ): Promise<{ gate: WriteGate<ApplyResult>; alerts?: string[]; kept?: string[] }> {
    const spec = KINDS[ref.kind];
    const refuse = (path: IssuePath, message: string): { gate: WriteGate<ApplyResult> } => {
      const diagnostics = issueDiagnostics(doc, root, [{ path, message, severity: 'error' }]);
      this.deps.checks.publish(doc, diagnostics);
      return { gate: { stop: this.refuse(doc, diagnostics) } };
    };
    const go = (body: unknown = typed): { gate: WriteGate<ApplyResult> } => ({ gate: { body } });
    if (action === 'update') {
      const readOnly = spec.readOnly?.(current);
      if (readOnly) return refuse([], readOnly);
    }
    switch (ref.kind) {
      case 'webhook': {
        const unmasked = unmaskWebhookBody(
          typed as Record<string, unknown>,
          current as { url?: string | null } | undefined,
        );
        if (!unmasked.ok) return refuse(unmasked.path, unmasked.message);
        if (action === 'create') return go(unmasked.body);
        const body = unmasked.body;
        // The diff shows the masked form of both sides (a webhook's secrets never appear in it).
        const shown = ordered(maskedWebhookBody(body), spec.order);
        const cleared = webhookFieldsClearedByUpdate(current as Record<string, unknown> | undefined, body);
        const gate = await this.confirmUpdate(
          doc,
          ref,
          current,
          body,
          options,
          [],
          [],
          { after: shown, kept: [] },
          cleared,
        );
        return gate ? { gate: { stop: gate } } : go(body);
      }
      case 'alert': {
        if (action === 'create') return go();
        // The service keeps optional fields an update leaves out: compare and show what it will hold afterwards.
        const { after, kept } = alertAfterUpdate(editableValue('alert', current), typed as Record<string, unknown>);
        const gate = await this.confirmUpdate(doc, ref, current, typed, options, [], [], { after, kept });
        if (gate) return { gate: { stop: gate.outcome === 'unchanged' ? { ...gate, kept } : gate }, kept };
        return { ...go(), kept };
      }
      case 'dashboard': {
        if (action === 'create') return go();
        const alerts = await alertsDeletedBy(
          this.deps.connections,
          ref,
          current as Dashboard,
          typed as DashboardUpdate,
        );
        const gate = await this.confirmUpdate(doc, ref, current, typed, options, alerts);
        return gate ? { gate: { stop: gate } } : { ...go(), alerts };
      }
      case 'queryEndpoint': {
        if (current) {
          const keys = await keysLosingAccess(
            this.deps.live,
            ref,
            current as QueryEndpoint,
            typed as QueryEndpointWrite,
          );
          const gate = await this.confirmUpdate(doc, ref, current, typed, options, [], keys);
          return gate ? { gate: { stop: gate } } : go();
        }
        if (this.deps.fs.get(ref)?.exists && !options.overwrite && !options.confirm) {
          // Opened while it existed, deleted on the service meanwhile: saying so is enough, applying recreates it.
          const recreate = vscode.l10n.t('Create It Again');
          const answer = await vscode.window.showWarningMessage(
            vscode.l10n.t('The query endpoint was deleted on the service since you opened it.'),
            { modal: true },
            recreate,
          );
          if (answer !== recreate) return { gate: { stop: { outcome: 'cancelled' } } };
        }
        return go();
      }
      default: {
        if (action === 'create') return go();
        const gate = await this.confirmUpdate(doc, ref, current, typed, options, [], []);
        return gate ? { gate: { stop: gate } } : go();
      }
    }
  }

  // ---- shared steps ----

  /**
   * Before an update: detects changes made on the service since the document was opened, shows the diff against the
   * server's current version and asks once. Returns a result when the update must not go ahead.
   */
  private async confirmUpdate(
    doc: vscode.TextDocument,
    ref: ResourceRef,
    current: unknown,
    body: unknown,
    options: ApplyOptions,
    doomedAlerts: readonly string[],
    keysLosingAccess: readonly string[] = [],
    partial?: { readonly after: Record<string, unknown>; readonly kept: readonly string[] },
    clearedSecrets: readonly ('headers' | 'queryParams')[] = [],
  ): Promise<ApplyResult | undefined> {
    const held = this.deps.fs.get(ref);
    const currentValue = editableValue(ref.kind, current);
    const keptNote =
      partial && partial.kept.length > 0
        ? vscode.l10n.t(
            'Left out of the document, so the service keeps its current value: {0}. To clear one, set it to null.',
            partial.kept.join(', '),
          )
        : undefined;
    const what = kindName(ref.kind);
    const name = nameOfValue(current) ?? nameOfValue(body) ?? what;
    const changedOnServer =
      held?.base !== undefined && held.exists && !sameJson(editableValue(ref.kind, held.base), currentValue);
    if (sameJson(currentValue, partial?.after ?? body)) {
      const basedOnCurrent = held?.base !== undefined && held.exists && !changedOnServer;
      if (!basedOnCurrent) {
        // The service already holds exactly this text, e.g. an earlier Apply whose answer was lost (timeout, reset):
        // not a conflict with someone else's change. The document is now based on that version.
        await this.becomeSaved(doc, ref, current);
        void vscode.window.showInformationMessage(
          vscode.l10n.t('The {0} on the service already has these changes.', what),
        );
        return { outcome: 'unchanged', uri: doc.uri.toString() };
      }
      const same = vscode.l10n.t('Nothing to apply: the {0} on the service is the same.', what);
      void vscode.window.showInformationMessage(keptNote ? `${same} ${keptNote}` : same);
      return { outcome: 'unchanged' };
    }
    await this.diffs.show(doc, ref, name, current, changedOnServer, partial?.after);
    let overwriteChosen = false;
    if (changedOnServer) {
      const message = vscode.l10n.t(
        'The {0} "{1}" changed on the service since you opened it.',
        what,
        sanitizeServerText(name),
      );
      const detail = vscode.l10n.t(
        "The diff shows the service's current version (left) and yours (right). Applying replaces the service's changes.",
      );
      if (!options.overwrite) {
        if (options.confirm) {
          void vscode.window.showWarningMessage(`${message} ${detail}`);
          return { outcome: 'conflict' };
        }
        const overwrite = vscode.l10n.t('Overwrite');
        if ((await vscode.window.showWarningMessage(message, { modal: true, detail }, overwrite)) !== overwrite) {
          return { outcome: 'conflict' };
        }
        // Choosing Overwrite, with the diff open, is the confirmation: no second question (except for deleted alerts).
        overwriteChosen = true;
      }
    }
    if (doomedAlerts.length > 0) {
      const gate = await confirmLoss({
        names: doomedAlerts,
        confirmed: options.confirmAlertDeletion === true,
        automated: options.confirm === true,
        message: vscode.l10n.t('This update deletes {0} alert(s).', doomedAlerts.length),
        intro: vscode.l10n.t(
          'Tiles these alerts watch are removed, get a new ID or can no longer carry an alert, so the service deletes the alerts:',
        ),
        button: vscode.l10n.t('Update and Delete Alerts'),
      });
      return gate ? { outcome: 'alertsWouldBeDeleted', alerts: doomedAlerts } : undefined;
    }
    if (keysLosingAccess.length > 0) {
      const gate = await confirmLoss({
        names: keysLosingAccess,
        confirmed: options.confirmKeyRemoval === true,
        automated: options.confirm === true,
        message: vscode.l10n.t('{0} API key(s) lose access to the query endpoint.', keysLosingAccess.length),
        intro: vscode.l10n.t(
          "The upsert replaces the endpoint's API keys and roles as a whole. These keys are not in the document, so queries made with them stop working:",
        ),
        button: vscode.l10n.t('Apply and Remove Access'),
      });
      return gate ? { outcome: 'keysWouldLoseAccess', keys: keysLosingAccess } : undefined;
    }
    if (clearedSecrets.length > 0) {
      const gate = await confirmLoss({
        names: clearedSecrets.map((f) =>
          f === 'headers' ? vscode.l10n.t('headers') : vscode.l10n.t('query parameters'),
        ),
        confirmed: options.confirmSecretRemoval === true,
        automated: options.confirm === true,
        message: vscode.l10n.t("This update clears the webhook's stored headers and query parameters."),
        intro: vscode.l10n.t(
          'The URL or service changes, so the service clears the write-only fields the document leaves out: it never shows them and never sends a stored secret to a new destination. Type them in the document to keep them. Cleared:',
        ),
        button: vscode.l10n.t('Update and Clear'),
      });
      return gate ? { outcome: 'secretsWouldBeCleared', cleared: clearedSecrets, diffShown: true } : undefined;
    }
    if (options.confirm || overwriteChosen || (changedOnServer && options.overwrite)) return undefined;
    const apply = vscode.l10n.t('Apply');
    const shows = vscode.l10n.t('The diff shows what will change on the service.');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('Apply your changes to the {0} "{1}"?', what, sanitizeServerText(name)),
      { modal: true, detail: keptNote ? `${shows}\n\n${keptNote}` : shows },
      apply,
    );
    return answer === apply ? undefined : { outcome: 'cancelled' };
  }

  /** After an update: the document holds the server's version and is saved (locally; no request). */
  private async becomeSaved(doc: vscode.TextDocument, ref: ResourceRef, server: unknown): Promise<void> {
    const text = editableText(ref.kind, server);
    if (doc.isClosed) {
      // Closed while the request ran: a later open shows the saved resource.
      this.deps.fs.set(ref, { text, base: server, exists: true });
      return;
    }
    this.deps.fs.rebase(ref, server, true);
    if (doc.getText() !== text) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
      await vscode.workspace.applyEdit(edit);
    }
    if (doc.isDirty) await doc.save();
    this.deps.checks.publish(doc, []);
    void this.deps.checks.check(doc);
  }

  /** After a create: opens the resource under its new ID and closes the draft (saved locally first: no prompt). */
  private async replaceDraft(
    draft: vscode.TextDocument,
    draftRef: ResourceRef,
    created: ResourceRef,
    name: string | null | undefined,
    text: string,
    server: unknown,
  ): Promise<vscode.Uri> {
    this.deps.fs.set(created, { text, base: server, exists: true });
    const uri = uriFor(created, name);
    const viewColumn = vscode.window.visibleTextEditors.find((e) => e.document === draft)?.viewColumn;
    // The request succeeded: from here on, trouble with the editors must not turn it into a failure.
    try {
      if (draft.isDirty) await draft.save();
      const opened = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(opened, { preview: false, ...(viewColumn ? { viewColumn } : {}) });
      const target = draft.uri.toString();
      const tabs = vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .filter(
          (t) =>
            (t.input instanceof vscode.TabInputText && t.input.uri.toString() === target) ||
            (t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === target),
        );
      if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
    } catch (error) {
      this.deps.log.warn(`Could not switch to the created resource's editor: ${errorMessage(error)}`);
    }
    this.deps.fs.forget(draftRef);
    this.deps.checks.collection.delete(draft.uri);
    return uri;
  }

  private refuse(doc: vscode.TextDocument, diagnostics: readonly vscode.Diagnostic[]): ApplyResult {
    const first = diagnostics[0];
    const where = first ? vscode.l10n.t('line {0}: {1}', first.range.start.line + 1, first.message) : '';
    const message = vscode.l10n.t('Not sent: fix {0} problem(s) first ({1}).', diagnostics.length, where);
    void vscode.window.showErrorMessage(message, vscode.l10n.t('Show Problems')).then((choice) => {
      if (choice) void vscode.commands.executeCommand('workbench.actions.view.problems');
    });
    if (first) {
      const editor = vscode.window.visibleTextEditors.find((e) => e.document === doc);
      if (editor) editor.selection = new vscode.Selection(first.range.start, first.range.start);
    }
    return { outcome: 'invalid', problems: diagnostics.map((d) => `${d.range.start.line + 1}: ${d.message}`) };
  }
}
