import * as vscode from 'vscode';
import type { ObservabilityApi } from '../api';
import type { ConnectionManager } from '../connections/manager';
import { connectionFor } from '../connections/fileTarget';
import { errorMessage } from '../errors';
import type { Logger } from '../log';
import type { ResourceRefresher } from '../resources/model';
import { ReadonlyDocuments } from '../jsonDocuments/serverDocuments';
import { withProgress } from '../jsonDocuments/writes';
import { applyFolderPlan, summarize, type ApplyReport } from './apply';
import { fileText, pulledFiles, type Snapshot } from './files';
import { FOLDER_KINDS, kindOfFile, LAYOUT, TARGET_FILE } from './layout';
import { merge3 } from './merge';
import { planFolder, type FolderFile, type FolderPlan, type PlanOptions } from './plan';
import { readSnapshot, writeClientOf } from './remote';
import { renderPlan, renderReport } from './render';
import { applyConfirmation, revertConfirmation } from './confirm';
import { chooseConnections } from './chooseConnections';
import { revertsOf, shortValue, takeServiceValues, type Revert } from './reverts';
import { parseTarget, sameTarget, targetFileValue, type FolderTarget } from './schema';
import { parseFileText, withIdText } from './text';

/** Read-only documents of this feature: plans. */
export const PLAN_SCHEME = 'observability-service-folder';

/** A connection and one of its services. */
export interface ServiceRef {
  readonly connectionId: string;
  readonly serviceId: string;
}

export interface PullResult {
  readonly folder: string;
  /** Files written (new or changed), paths inside the folder. */
  readonly written: readonly string[];
  /** Files where both the file and the service changed the same field (the file's value was kept). */
  readonly conflicts: readonly { path: string; fields: readonly string[] }[];
  /** Files of the folder whose resource is no longer on the service. */
  readonly gone: readonly string[];
}

export interface PlanResult {
  readonly plan: FolderPlan;
  readonly files: readonly FolderFile[];
  readonly live: Snapshot;
  readonly options: PlanOptions;
  readonly target: ServiceRef;
  readonly folder: vscode.Uri;
}

/** A pull or apply of a folder, and (pull) the service's lists it read. */
export interface FolderChange {
  readonly folder: vscode.Uri;
  readonly live?: Snapshot;
}

export interface ApplyResult {
  readonly outcome: 'applied' | 'partial' | 'nothing' | 'refused' | 'cancelled';
  readonly plan: FolderPlan;
  readonly report?: ApplyReport;
  readonly message: string;
  /** What was applied, what failed and what was not sent (`create source "Logs"`, with the reason). */
  readonly applied?: readonly string[];
  readonly failed?: readonly string[];
  readonly notApplied?: readonly string[];
  /** The question asked (or, without prompts, that would have been asked) before sending. */
  readonly confirmation?: { readonly message: string; readonly detail: string };
  /** Fields changed on the service since the last pull that the apply put back (`path: field: service → file`). */
  readonly reverted?: readonly string[];
  /** Files that took the service's values instead (then the folder was applied again). */
  readonly tookFromService?: readonly string[];
}

/** What Apply does with fields changed on the service since the last pull (the answer of its confirmation). */
export type ServiceChangesChoice = 'apply' | 'takeService' | 'cancel';

export interface ApplyOptions {
  /** Another service (promote). */
  readonly other?: ServiceRef;
  readonly noPrompt?: boolean;
  /** Connection ID of the folder's own service → connection ID of the service promoted to. */
  readonly connectionMap?: Readonly<Record<string, string>>;
  /** Without prompts: what to do with fields changed on the service since the last pull (default `apply`). */
  readonly serviceChanges?: ServiceChangesChoice;
}

interface Deps {
  readonly connections: ConnectionManager;
  readonly refresh: ResourceRefresher;
  readonly log: Logger;
  readonly state: vscode.Memento;
}

const BASE_KEY = 'serviceFolders.base';
const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** Pull, plan, apply and promote of service folders (the vscode side; the logic is in the pure modules). */
export class ServiceFolderService implements vscode.Disposable {
  readonly plans = new ReadonlyDocuments(PLAN_SCHEME);
  private readonly changed = new vscode.EventEmitter<FolderChange>();
  /**
   * Fires with the folder after a pull (with the lists it read: the service as the files now are) or an apply (the
   * service changed: decorations and the changes list read it again).
   */
  readonly onDidChange = this.changed.event;
  private readonly planned = new vscode.EventEmitter<PlanResult>();
  /** Fires with each plan made by Plan, Apply or Promote (the changes list takes its own service's lists from it). */
  readonly onDidPlan = this.planned.event;

  constructor(private readonly deps: Deps) {}

  dispose(): void {
    this.plans.dispose();
    this.changed.dispose();
    this.planned.dispose();
  }

  private client(connectionId: string): ObservabilityApi {
    return this.deps.connections.clientFor(connectionId);
  }

  /** The target of a connection's service, as the target file names it. */
  targetOf(ref: ServiceRef): FolderTarget {
    const connection = this.deps.connections.get(ref.connectionId);
    if (!connection) throw new Error(vscode.l10n.t('No connection {0}.', ref.connectionId));
    const serviceLabel = connection.services.find((s) => s.id === ref.serviceId)?.name ?? connection.label;
    if (connection.kind === 'selfHosted') {
      return parseTargetOrThrow({ connection: connection.label, service: serviceLabel, baseUrl: connection.baseUrl });
    }
    return parseTargetOrThrow({
      connection: connection.label,
      service: serviceLabel,
      organizationId: connection.organizationId,
      serviceId: ref.serviceId,
    });
  }

  /** The connection that serves a folder's target (one the user added for that organization or address). */
  serviceOf(target: FolderTarget): (ServiceRef & { label: string }) | undefined {
    const found = connectionFor(this.deps.connections, target.organizationId, target.serviceId, target.baseUrl);
    return found
      ? { connectionId: found.connectionId, serviceId: target.serviceId, label: found.serviceLabel }
      : undefined;
  }

  async readTarget(folder: vscode.Uri): Promise<FolderTarget> {
    const uri = vscode.Uri.joinPath(folder, TARGET_FILE);
    let text: string;
    try {
      text = decoder.decode(await vscode.workspace.fs.readFile(uri));
    } catch {
      throw new Error(vscode.l10n.t('{0} has no {1}: pull a service into it first.', folder.fsPath, TARGET_FILE));
    }
    const parsed = parseFileText(text);
    if ('error' in parsed) throw new Error(`${TARGET_FILE}: ${parsed.error}`);
    const target = parseTarget(parsed.value);
    if (!target.ok) throw new Error(`${TARGET_FILE}: ${target.message}`);
    return target.target;
  }

  /** Every resource file of a folder (unsaved editor text counts), in dependency order. */
  async readFiles(folder: vscode.Uri): Promise<FolderFile[]> {
    const files: FolderFile[] = [];
    for (const kind of FOLDER_KINDS) {
      const dir = vscode.Uri.joinPath(folder, LAYOUT[kind].folder);
      let entries: [string, vscode.FileType][] = [];
      try {
        entries = await vscode.workspace.fs.readDirectory(dir);
      } catch {
        continue;
      }
      for (const [name, type] of entries.sort(([a], [b]) => a.localeCompare(b))) {
        if (type !== vscode.FileType.File || kindOfFile(name) !== kind) continue;
        const uri = vscode.Uri.joinPath(dir, name);
        const parsed = parseFileText(await this.textOf(uri));
        files.push({ path: `${LAYOUT[kind].folder}/${name}`, kind, ...parsed });
      }
    }
    return files;
  }

  private async textOf(uri: vscode.Uri): Promise<string> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open?.isDirty) return open.getText();
    return decoder.decode(await vscode.workspace.fs.readFile(uri));
  }

  private async write(uri: vscode.Uri, text: string): Promise<void> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open && !open.isClosed) {
      if (open.getText() !== text) {
        const edit = new vscode.WorkspaceEdit();
        edit.replace(uri, new vscode.Range(open.positionAt(0), open.positionAt(open.getText().length)), text);
        await vscode.workspace.applyEdit(edit);
      }
      if (open.isDirty) await open.save();
      return;
    }
    await vscode.workspace.fs.writeFile(uri, encoder.encode(text));
  }

  private baseOf(folder: vscode.Uri): Record<string, unknown> {
    const all = this.deps.state.get<Record<string, Record<string, unknown>>>(BASE_KEY) ?? {};
    return all[folder.toString()] ?? {};
  }

  private async setBase(folder: vscode.Uri, base: Record<string, unknown>): Promise<void> {
    const all = this.deps.state.get<Record<string, Record<string, unknown>>>(BASE_KEY) ?? {};
    await this.deps.state.update(BASE_KEY, { ...all, [folder.toString()]: base });
  }

  /**
   * Pulls a service into a folder: one file per resource and the target file. A folder pulled before is merged: a
   * file nobody edited takes the service's version, a file edited only locally stays, and where both changed the same
   * field the file's value stays and the field is reported (with a diff of both sides unless `quiet`).
   */
  async pull(ref: ServiceRef, folder: vscode.Uri, quiet = false): Promise<PullResult> {
    const target = this.targetOf(ref);
    const targetUri = vscode.Uri.joinPath(folder, TARGET_FILE);
    let existingTarget: FolderTarget | undefined;
    try {
      existingTarget = await this.readTarget(folder);
    } catch {
      existingTarget = undefined;
    }
    if (existingTarget && !sameTarget(existingTarget, target)) {
      throw new Error(
        vscode.l10n.t(
          '{0} belongs to another service ({1}): pull into another folder, or use Promote to apply it to this service.',
          folder.fsPath,
          existingTarget.serviceLabel ?? existingTarget.baseUrl ?? existingTarget.serviceId,
        ),
      );
    }
    const snapshot = await withProgress(vscode.l10n.t('Reading the service…'), () =>
      readSnapshot(this.client(ref.connectionId), ref.serviceId),
    );
    const current = existingTarget ? await this.readFiles(folder) : [];
    const byId = new Map<string, FolderFile>();
    for (const file of current) {
      const id = isRecord(file.value) && typeof file.value.id === 'string' ? file.value.id : undefined;
      if (id) byId.set(`${file.kind}:${id}`, file);
    }
    const pulled = pulledFiles(snapshot, new Map([...byId].map(([k, f]) => [k, f.path])));
    const base = this.baseOf(folder);
    const nextBase: Record<string, unknown> = {};
    const written: string[] = [];
    const conflicts: { path: string; fields: string[] }[] = [];
    if (!existingTarget) {
      await vscode.workspace.fs.createDirectory(folder);
      await this.write(targetUri, fileText(targetFileValue({ ...target, prune: false })));
      written.push(TARGET_FILE);
    }
    for (const file of pulled) {
      const key = `${file.kind}:${file.id}`;
      nextBase[key] = file.value;
      const uri = vscode.Uri.joinPath(folder, ...file.path.split('/'));
      const mine = byId.get(key);
      let value: unknown = file.value;
      if (mine && mine.value !== undefined) {
        const merged = merge3(base[key], mine.value, file.value);
        value = merged.value;
        if (merged.conflicts.length > 0) {
          conflicts.push({ path: file.path, fields: [...merged.conflicts] });
          if (!quiet) {
            const server = this.plans.create(`${file.path} (service)`, fileText(file.value));
            void vscode.commands.executeCommand(
              'vscode.diff',
              server,
              uri,
              vscode.l10n.t('{0}: service ↔ folder (both changed)', file.path),
            );
          }
        }
        if (JSON.stringify(value) === JSON.stringify(mine.value)) continue;
      } else {
        await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder, file.path.split('/')[0]!));
      }
      await this.write(uri, fileText(value));
      written.push(file.path);
    }
    await this.setBase(folder, nextBase);
    const gone = current
      .filter((f) => isRecord(f.value) && typeof f.value.id === 'string' && !(`${f.kind}:${f.value.id}` in nextBase))
      .map((f) => f.path);
    this.deps.log.info(
      `Pulled ${pulled.length} resources into ${folder.fsPath}: ${written.length} file(s) written, ${conflicts.length} conflict(s), ${gone.length} no longer on the service`,
    );
    this.changed.fire({ folder, live: snapshot });
    return { folder: folder.toString(), written, conflicts, gone };
  }

  /**
   * Plans a folder against its own service, or against `other` (promote: files are matched by name there, masked
   * webhook URLs are taken from the folder's own service when it can be reached).
   */
  async plan(
    folder: vscode.Uri,
    other?: ServiceRef,
    connectionMap?: Readonly<Record<string, string>>,
  ): Promise<PlanResult> {
    const result = await this.planQuietly(folder, other, undefined, connectionMap);
    this.planned.fire(result);
    return result;
  }

  /**
   * The plan of `plan`, announced to nobody. `live`: the lists of the service read before (then nothing is requested;
   * used when only the files changed).
   */
  async planQuietly(
    folder: vscode.Uri,
    other?: ServiceRef,
    known?: Snapshot,
    connectionMap?: Readonly<Record<string, string>>,
  ): Promise<PlanResult> {
    const own = await this.readTarget(folder);
    const files = await this.readFiles(folder);
    const home = this.serviceOf(own);
    const target = other ?? home;
    if (!target) {
      throw new Error(
        vscode.l10n.t(
          "No connection serves the folder's service ({0}): add a connection to it first.",
          own.serviceLabel ?? own.baseUrl ?? own.serviceId,
        ),
      );
    }
    const ownTarget = !other || (home !== undefined && sameTarget(own, this.targetOf(other)));
    const client = this.client(target.connectionId);
    const live =
      known ??
      (await withProgress(vscode.l10n.t('Reading the service…'), () => readSnapshot(client, target.serviceId)));
    let webhookUrl: PlanOptions['webhookUrl'];
    if (!ownTarget && home && files.some((f) => f.kind === 'webhook')) {
      try {
        const webhooks = (await this.client(home.connectionId).listWebhooks(home.serviceId)).data;
        webhookUrl = (name) => {
          const same = webhooks.filter((w) => w.name === name);
          return same.length === 1 ? (same[0]!.url ?? undefined) : undefined;
        };
      } catch (error) {
        this.deps.log.warn(`Could not read the webhooks of the folder's own service: ${errorMessage(error)}`);
      }
    }
    const serviceLabel = this.targetOf(target).serviceLabel ?? target.serviceId;
    const options: PlanOptions = {
      server: this.deps.connections.get(target.connectionId)?.kind === 'selfHosted' ? 'selfHosted' : 'cloud',
      ownTarget,
      prune: own.prune && ownTarget,
      serviceLabel,
      ...(webhookUrl ? { webhookUrl } : {}),
      ...(connectionMap ? { connectionMap } : {}),
    };
    const plan = planFolder(files, live, options);
    return { plan, files, live, options, target, folder };
  }

  /**
   * Plans every service folder of the workspace against its own service (read-only: the services are read, nothing is
   * sent). A folder that cannot be planned (no connection serves it, an unreadable target file, a failed read) gives
   * its reason instead of a plan.
   */
  async planWorkspace(
    limit = 50,
  ): Promise<{ readonly folder: string; readonly plan?: FolderPlan; readonly error?: string }[]> {
    const found = await vscode.workspace.findFiles(`**/${TARGET_FILE}`, '**/node_modules/**', limit);
    const folders = found.map((f) => vscode.Uri.joinPath(f, '..')).sort((a, b) => a.path.localeCompare(b.path));
    const plans: { folder: string; plan?: FolderPlan; error?: string }[] = [];
    for (const folder of folders) {
      const label = vscode.workspace.asRelativePath(folder);
      try {
        plans.push({ folder: label, plan: (await this.plan(folder)).plan });
      } catch (error) {
        plans.push({ folder: label, error: errorMessage(error) });
      }
    }
    return plans;
  }

  /** The five lists of a folder's own service (no progress shown: the caller shows its own). */
  async readOwnService(folder: vscode.Uri): Promise<Snapshot> {
    const own = await this.readTarget(folder);
    const home = this.serviceOf(own);
    if (!home) {
      throw new Error(
        vscode.l10n.t(
          "No connection serves the folder's service ({0}): add a connection to it first.",
          own.serviceLabel ?? own.baseUrl ?? own.serviceId,
        ),
      );
    }
    return readSnapshot(this.client(home.connectionId), home.serviceId);
  }

  /** Opens the plan as a read-only Markdown document. */
  async showPlan(result: PlanResult): Promise<void> {
    const uri = this.plans.create(
      `Plan ${vscode.workspace.asRelativePath(result.folder)}.md`,
      renderPlan(result.plan, vscode.workspace.asRelativePath(result.folder)),
    );
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    await vscode.window.showTextDocument(doc, { preview: false });
  }

  /**
   * Plans, confirms (naming what is deleted, with what a deletion takes along) and applies. A created resource's `id`
   * is written into its file when the folder belongs to the service written to.
   */
  async apply(folder: vscode.Uri, options: ApplyOptions = {}): Promise<ApplyResult> {
    let planned = await this.plan(folder, options.other, options.connectionMap);
    const choices = planned.plan.connectionChoices ?? [];
    if (choices.length > 0 && options.other && !options.noPrompt) {
      const chosen = await chooseConnections(choices, planned.plan.serviceLabel);
      if (!chosen) {
        return { outcome: 'cancelled', plan: planned.plan, message: vscode.l10n.t('Cancelled: nothing was sent.') };
      }
      planned = await this.plan(folder, options.other, { ...options.connectionMap, ...chosen });
    }
    const { plan } = planned;
    if (plan.problems.length > 0) {
      const message = vscode.l10n.t(
        'Nothing was sent: the plan has {0} problem(s). First: {1}',
        plan.problems.length,
        `${plan.problems[0]!.path ? `${plan.problems[0]!.path}: ` : ''}${plan.problems[0]!.message}`,
      );
      if (!options.noPrompt) {
        void vscode.window.showErrorMessage(message);
        await this.showPlan(planned);
      }
      return { outcome: 'refused', plan, message };
    }
    const changing = plan.steps.filter((s) => s.action !== 'unchanged');
    if (changing.length === 0) {
      const message = vscode.l10n.t('Nothing to apply: the folder matches {0}.', plan.serviceLabel);
      if (!options.noPrompt) void vscode.window.showInformationMessage(message);
      return { outcome: 'nothing', plan, message };
    }
    const base = planned.options.ownTarget ? this.baseOf(folder) : {};
    const reverts = revertsOf(plan, base);
    const confirmation = reverts.some((r) => !r.bothChanged)
      ? revertConfirmation(plan, reverts)
      : applyConfirmation(plan);
    let choice: ServiceChangesChoice = 'apply';
    if (reverts.some((r) => !r.bothChanged)) {
      choice = options.noPrompt ? (options.serviceChanges ?? 'apply') : await this.askAboutReverts(confirmation);
    } else if (!options.noPrompt) {
      const go = vscode.l10n.t('Apply');
      const answer = await vscode.window.showWarningMessage(
        confirmation.message,
        { modal: true, detail: confirmation.detail },
        go,
      );
      if (answer !== go) choice = 'cancel';
    }
    if (choice === 'cancel') {
      return { outcome: 'cancelled', plan, message: vscode.l10n.t('Cancelled: nothing was sent.'), confirmation };
    }
    if (choice === 'takeService') {
      const taken = await this.takeServiceValues(folder, planned, reverts, base);
      const again = await this.apply(folder, { ...options, serviceChanges: 'cancel' });
      return { ...again, confirmation, tookFromService: taken };
    }
    const result = await this.send(folder, planned, changing.length, options.noPrompt === true, reverts);
    return { ...result, confirmation };
  }

  /** The modal about fields changed on the service since the last pull: apply anyway, take them, or cancel. */
  private async askAboutReverts(confirmation: { message: string; detail: string }): Promise<ServiceChangesChoice> {
    const anyway = vscode.l10n.t('Apply Anyway');
    const take = vscode.l10n.t("Take the Service's Values into the Files");
    const answer = await vscode.window.showWarningMessage(
      confirmation.message,
      { modal: true, detail: confirmation.detail },
      anyway,
      take,
    );
    return answer === anyway ? 'apply' : answer === take ? 'takeService' : 'cancel';
  }

  /** Writes the service's values into the files whose fields the service changed since the last pull. */
  private async takeServiceValues(
    folder: vscode.Uri,
    planned: PlanResult,
    reverts: readonly Revert[],
    base: Record<string, unknown>,
  ): Promise<string[]> {
    const taken = takeServiceValues(planned.plan, reverts, base, planned.live);
    const nextBase = { ...this.baseOf(folder) };
    for (const file of taken) {
      await this.write(vscode.Uri.joinPath(folder, ...file.path.split('/')), fileText(file.value));
      nextBase[file.key] = file.service;
    }
    // The file now holds what the service holds: the base of the next merge, as after a pull.
    await this.setBase(folder, nextBase);
    this.deps.log.info(
      `Service folder ${folder.fsPath}: took the service's values into ${taken.map((f) => f.path).join(', ')}`,
    );
    return taken.map((f) => f.path);
  }

  /** Sends a confirmed plan and says exactly what was applied, what failed and what was not sent. */
  private async send(
    folder: vscode.Uri,
    planned: PlanResult,
    total: number,
    noPrompt: boolean,
    reverts: readonly Revert[],
  ): Promise<ApplyResult> {
    const { plan } = planned;
    const writeClient = writeClientOf(this.client(planned.target.connectionId), planned.target.serviceId);
    const report = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Applying to {0}', plan.serviceLabel),
        cancellable: true,
      },
      (progress, token) =>
        applyFolderPlan(plan, planned.files, planned.live, planned.options, writeClient, {
          cancelled: () => token.isCancellationRequested,
          progress: (step, done, total) =>
            progress.report({
              message: `${done + 1}/${total} ${step.action} ${LAYOUT[step.kind].label} ${step.name}`,
              increment: 100 / total,
            }),
          created: async (step, server) => {
            if (!planned.options.ownTarget || !step.path) return;
            const uri = vscode.Uri.joinPath(folder, ...step.path.split('/'));
            await this.write(uri, withIdText(await this.textOf(uri), server.id));
          },
        }),
    );
    for (const line of renderReport(report)) this.deps.log.info(`Service folder ${folder.fsPath}: ${line}`);
    if (planned.options.ownTarget) {
      // What was applied is what the service holds now: the base of the next pull's merge.
      const base = { ...this.baseOf(folder) };
      for (const o of report.outcomes) {
        if (o.outcome !== 'applied' || !o.id) continue;
        if (o.step.action === 'delete') delete base[`${o.step.kind}:${o.id}`];
        else if (o.step.file) base[`${o.step.kind}:${o.id}`] = { ...o.step.file, id: o.id };
      }
      await this.setBase(folder, base);
    }
    this.deps.refresh.refreshKinds(planned.target.connectionId, planned.target.serviceId, [
      'sources',
      'savedSearches',
      'webhooks',
      'dashboards',
      'alerts',
    ]);
    const s = summarize(report);
    const done = vscode.l10n.t(
      '{0} of {1} change(s) applied to {2} ({3} request(s)).',
      s.applied,
      total,
      plan.serviceLabel,
      report.requests,
    );
    const outcome = s.failed.length === 0 && s.skipped.length === 0 ? 'applied' : 'partial';
    const appliedKeys = new Set(report.outcomes.filter((o) => o.outcome === 'applied').map((o) => o.step.path));
    const reverted = reverts
      .filter((r) => !r.bothChanged && appliedKeys.has(r.path))
      .map((r) => `${r.path}: ${r.field}: ${shortValue(r.service)} → ${shortValue(r.file)}`);
    const message = [
      done,
      ...(outcome === 'partial' ? s.appliedSteps.map((f) => `${vscode.l10n.t('Applied')}: ${f}`) : []),
      ...s.failed.map((f) => `${vscode.l10n.t('Failed')}: ${f}`),
      ...s.skipped.map((f) => `${vscode.l10n.t('Not applied')}: ${f}`),
      ...reverted.map((f) => `${vscode.l10n.t("Put back over the service's newer value")}: ${f}`),
      ...s.notKept.map((f) => `${vscode.l10n.t('Not kept by the service')}: ${f}`),
      ...(outcome === 'partial'
        ? [vscode.l10n.t('Apply again to send the rest: what was applied is found by name and not sent twice.')]
        : []),
    ].join('\n');
    if (!noPrompt) {
      if (outcome === 'applied') void vscode.window.showInformationMessage(message);
      else void vscode.window.showErrorMessage(message);
    }
    if (outcome === 'partial') this.deps.log.error(message);
    this.changed.fire({ folder });
    return {
      outcome,
      plan,
      report,
      message,
      applied: s.appliedSteps,
      failed: s.failed,
      notApplied: s.skipped,
      ...(reverted.length > 0 ? { reverted } : {}),
    };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseTargetOrThrow(value: unknown): FolderTarget {
  const parsed = parseTarget(value);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.target;
}
