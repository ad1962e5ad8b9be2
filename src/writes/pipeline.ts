import * as vscode from 'vscode';
import type { Node as JsonNode } from 'jsonc-parser/lib/esm/main';
import { ApiError, sanitizeServerText, type ObservabilityApi as ObservabilityClient } from '../api';
import { KINDS } from '../resources/kinds';
import type { DocumentKind, ResourceKind, ResourceRefresher } from '../resources/model';
import { WRITE_REQUESTS } from '../resources/requests';
import { errorMessage } from '../errors';
import type { Logger } from '../log';
import { reportFailure, withProgress } from '../jsonDocuments/writes';

/**
 * The one way a resource is created or updated on the service, for every kind and every feature that writes (resource
 * documents, alert files): read the current version (updates), let the feature check and confirm, send under a
 * progress notification, let the feature keep the result, refresh the explorer, say what happened with the request ID;
 * on failure, say which operation failed with the HTTP status, the service's message and the request ID (sanitised),
 * and leave what the user typed as it is. What differs between kinds and features comes in as hooks.
 */

export type WriteAction = 'create' | 'update';

/** What is written where. */
export interface WriteTarget {
  readonly kind: DocumentKind;
  readonly connectionId: string;
  readonly serviceId: string;
  /** The resource to update; none: a create (a singleton kind is read first and created or replaced). */
  readonly id?: string;
  /** Where the body comes from, named in progress titles (an alert file's path); none for resource documents. */
  readonly from?: string;
}

/** A server object as the pipeline sees it. */
export interface WrittenResource {
  readonly id: string;
  readonly name?: string | null;
}

/** Go on with this body, or stop with the feature's own result. */
export type WriteGate<S> = { readonly body: unknown } | { readonly stop: S };

export interface WriteHooks<S> {
  /** A failed read of the current version: the feature's result instead of a reported failure (e.g. deleted). */
  readonly readFailed?: (error: unknown) => S | undefined;
  /**
   * Before the request: checks and confirmations. `current` is the service's version (undefined for a create, null
   * for a singleton that does not exist). Returns the body to send or a result that stops the write.
   */
  readonly before?: (current: unknown, body: unknown, action: WriteAction) => Promise<WriteGate<S>>;
  /** After the service answered: the feature keeps the result (a document saved, a draft replaced, an ID written). */
  readonly written?: (data: WrittenResource, action: WriteAction) => Promise<void>;
  /** The notification text afterwards (the request ID is added to it). */
  readonly message: (data: WrittenResource, action: WriteAction) => string;
  /** Explorer folders refreshed besides the kind's own. */
  readonly alsoRefresh?: readonly ResourceKind[];
  /** The document a failure's fields are marked in. */
  readonly document?: {
    readonly doc: vscode.TextDocument;
    readonly root: JsonNode | undefined;
    publish(doc: vscode.TextDocument, diagnostics: readonly vscode.Diagnostic[]): void;
  };
  /** Takes secrets out of a failure before it is shown or logged. */
  readonly redact?: (error: unknown) => unknown;
}

export type WriteOutcome<S> =
  | {
      readonly status: 'written';
      readonly action: WriteAction;
      readonly data: WrittenResource;
      readonly requestId?: string;
    }
  | { readonly status: 'stopped'; readonly result: S }
  | { readonly status: 'failed'; readonly error: string; readonly requestId?: string };

export interface WritePipelineDeps {
  readonly clientFor: (connectionId: string) => ObservabilityClient;
  readonly tree: ResourceRefresher;
  readonly log: Logger;
}

/** Kinds whose updates run one after another per resource: the service has no concurrency control on them. */
const SERIALIZED: ReadonlySet<DocumentKind> = new Set(['dashboard']);

export class WritePipeline {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: WritePipelineDeps) {}

  /** Reads the service's current version of a resource (with progress). */
  async read(target: WriteTarget): Promise<unknown> {
    const label = KINDS[target.kind].label;
    const client = this.deps.clientFor(target.connectionId);
    return (
      await withProgress(vscode.l10n.t('Reading the {0} from the service…', label), () =>
        WRITE_REQUESTS[target.kind].get(client, target.serviceId, target.id),
      )
    ).data;
  }

  /** Creates or updates one resource, with the feature's hooks. Never throws for a failed request. */
  write<S>(target: WriteTarget, body: unknown, hooks: WriteHooks<S>): Promise<WriteOutcome<S>> {
    if (target.id !== undefined && SERIALIZED.has(target.kind)) {
      return this.serialized(`${target.connectionId}/${target.serviceId}/${target.kind}/${target.id}`, () =>
        this.run(target, body, hooks),
      );
    }
    return this.run(target, body, hooks);
  }

  /**
   * Sends one create or update without asking or showing anything (a step of a larger run that has its own progress
   * and summary). Returns the written resource.
   */
  async send(target: WriteTarget, body: unknown, signal?: AbortSignal): Promise<WrittenResource> {
    const client = this.deps.clientFor(target.connectionId);
    const requests = WRITE_REQUESTS[target.kind];
    const options = signal ? { signal } : undefined;
    const response =
      target.id === undefined
        ? await requests.create(client, target.serviceId, body, options)
        : await requests.update(client, target.serviceId, target.id, body, options);
    return response.data as WrittenResource;
  }

  private async run<S>(target: WriteTarget, typed: unknown, hooks: WriteHooks<S>): Promise<WriteOutcome<S>> {
    const spec = KINDS[target.kind];
    const requests = WRITE_REQUESTS[target.kind];
    let action: WriteAction = target.id === undefined ? 'create' : 'update';
    const operation = (a: WriteAction): string => `${a === 'create' ? 'Create' : 'Update'} ${spec.label}`;
    try {
      let current: unknown;
      if (action === 'update' || spec.singleton) {
        try {
          current = await this.read(target);
        } catch (error) {
          const instead = hooks.readFailed?.(error);
          if (instead !== undefined) return { status: 'stopped', result: instead };
          throw error;
        }
        if (spec.singleton) action = current === null ? 'create' : 'update';
      }
      let body = typed;
      if (hooks.before) {
        const gate = await hooks.before(current, body, action);
        if ('stop' in gate) return { status: 'stopped', result: gate.stop };
        body = gate.body;
      }
      const client = this.deps.clientFor(target.connectionId);
      const response = await withProgress(progressTitle(spec.label, action, target.from), () =>
        action === 'create' && !spec.singleton
          ? requests.create(client, target.serviceId, body)
          : requests.update(client, target.serviceId, target.id, body),
      );
      const data = response.data as WrittenResource;
      await hooks.written?.(data, action);
      this.deps.tree.refreshKinds(target.connectionId, target.serviceId, [spec.treeKind, ...(hooks.alsoRefresh ?? [])]);
      notifyWritten(this.deps.log, hooks.message(data, action), response.requestId);
      return { status: 'written', action, data, ...(response.requestId ? { requestId: response.requestId } : {}) };
    } catch (error) {
      return this.failed(operation(action), hooks, error);
    }
  }

  private failed<S>(operation: string, hooks: WriteHooks<S>, thrown: unknown): WriteOutcome<S> {
    const error = failureOf(operation, hooks.redact ? hooks.redact(thrown) : thrown);
    if (hooks.document) {
      const { doc, root, publish } = hooks.document;
      const { message, requestId } = reportFailure(doc, root, error, this.deps.log, publish);
      return { status: 'failed', error: message, ...(requestId ? { requestId } : {}) };
    }
    const message = errorMessage(error);
    this.deps.log.error(message);
    void vscode.window.showErrorMessage(message);
    const requestId = ApiError.is(error) ? error.requestId : undefined;
    return { status: 'failed', error: message, ...(requestId ? { requestId } : {}) };
  }

  private serialized<T>(key: string, run: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const next = previous.then(run, run);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(key, settled);
    void settled.then(() => {
      if (this.queues.get(key) === settled) this.queues.delete(key);
    });
    return next;
  }
}

function progressTitle(label: string, action: WriteAction, from: string | undefined): string {
  if (action === 'create') {
    return from ? vscode.l10n.t('Creating {0} from {1}…', label, from) : vscode.l10n.t('Creating {0}…', label);
  }
  return from ? vscode.l10n.t('Updating {0} from {1}…', label, from) : vscode.l10n.t('Updating {0}…', label);
}

/**
 * A failure as it is shown: an API error already names the operation, HTTP status, the service's message and the
 * request ID (sanitised when it was made); anything else gets the operation in front, in the same words.
 */
export function failureOf(operation: string, error: unknown): unknown {
  if (ApiError.is(error)) return error;
  const text = sanitizeServerText(errorMessage(error), 1000);
  return new Error(`${operation} failed: ${/[.!?]$/.test(text) ? text : `${text}.`}`);
}

/** Says that a write succeeded, with its request ID (logged and shown; sanitised). */
export function notifyWritten(log: Logger, message: string, requestId: string | undefined): void {
  log.info(`${message}${requestId ? ` (requestId ${requestId})` : ''}`);
  void vscode.window.showInformationMessage(
    sanitizeServerText(requestId ? `${message} ${vscode.l10n.t('Request ID: {0}', requestId)}` : message, 1000),
  );
}
