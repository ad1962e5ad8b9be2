import * as vscode from 'vscode';
import { RESOURCE_SCHEME, isNew, parseUri, refKey, type ResourceRef } from '../jsonDocuments/uris';
import { errorMessage } from '../errors';

/**
 * The extension's file system for editable resource documents (scheme `observability`).
 *
 * It holds, per resource, the text last written (a local draft) and the server version the text was based on. Writing
 * a file — Save, Save All, autosave — never sends a request: it only keeps the draft. Sending is the explicit Apply
 * command. Reading a resource that is not held yet loads it from the service through `load`.
 */

export interface Loaded {
  /** Editable text (the write body of the resource, pretty-printed). */
  readonly text: string;
  /** Server version the text was made from; undefined for a resource that does not exist yet. */
  readonly base: unknown;
  /** Whether the resource exists on the service (false: template of a query endpoint that is not configured). */
  readonly exists: boolean;
}

export interface HeldDocument {
  readonly ref: ResourceRef;
  content: Uint8Array;
  base: unknown;
  exists: boolean;
  ctime: number;
  mtime: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeText(text: string): Uint8Array {
  return encoder.encode(text);
}

export function decodeText(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

export class ResourceFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly held = new Map<string, HeldDocument>();
  private readonly loading = new Map<string, Promise<HeldDocument>>();
  /** Why the last load of a resource failed (VS Code wraps the error of a file system in its own message). */
  private readonly failures = new Map<string, Error>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  constructor(private readonly load: (ref: ResourceRef) => Promise<Loaded>) {}

  dispose(): void {
    this.changed.dispose();
  }

  /** The held document of a resource, if it was opened in this window. */
  get(ref: ResourceRef): HeldDocument | undefined {
    return this.held.get(refKey(ref));
  }

  /** Registers (or replaces) the held text and server version of a resource, e.g. a new draft or an applied result. */
  set(ref: ResourceRef, loaded: Loaded): HeldDocument {
    const now = Date.now();
    const previous = this.held.get(refKey(ref));
    const doc: HeldDocument = {
      ref,
      content: encodeText(loaded.text),
      base: loaded.base,
      exists: loaded.exists,
      ctime: previous?.ctime ?? now,
      mtime: Math.max(now, (previous?.mtime ?? 0) + 1),
    };
    this.held.set(refKey(ref), doc);
    this.failures.delete(refKey(ref));
    return doc;
  }

  /**
   * Records the server version a held text is now based on (after an apply), keeping the text and its timestamp: the
   * editor then saves the applied text itself, without a "file is newer" conflict.
   */
  rebase(ref: ResourceRef, base: unknown, exists = true): void {
    const doc = this.held.get(refKey(ref));
    if (!doc) return;
    doc.base = base;
    doc.exists = exists;
  }

  /** The error of the last failed load of a resource, if its last load failed. */
  loadFailure(ref: ResourceRef): Error | undefined {
    return this.failures.get(refKey(ref));
  }

  /** Forgets a resource (after deletion), so a later open loads it again. */
  forget(ref: ResourceRef): void {
    this.held.delete(refKey(ref));
  }

  private refOf(uri: vscode.Uri): ResourceRef {
    const ref = parseUri(uri);
    if (!ref) throw vscode.FileSystemError.FileNotFound(uri);
    return ref;
  }

  private async ensure(uri: vscode.Uri): Promise<HeldDocument> {
    const ref = this.refOf(uri);
    const key = refKey(ref);
    const existing = this.held.get(key);
    if (existing) return existing;
    // Drafts of new resources exist only once created by a command.
    if (isNew(ref)) throw vscode.FileSystemError.FileNotFound(uri);
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.load(ref).then((loaded) => this.held.get(key) ?? this.set(ref, loaded));
      this.loading.set(key, pending);
      void pending.then(
        () => this.loading.delete(key),
        () => this.loading.delete(key),
      );
    }
    try {
      const doc = await pending;
      this.failures.delete(key);
      return doc;
    } catch (error) {
      this.failures.set(key, error instanceof Error ? error : new Error(String(error)));
      throw vscode.FileSystemError.Unavailable(errorMessage(error));
    }
  }

  // ---- FileSystemProvider ----

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    if (!parseUri(uri)) {
      // Folders along the path (`/<connection>/<service>/alerts/...`) exist so that breadcrumbs and dialogs work.
      const depth = uri.path.split('/').filter((p) => p !== '').length;
      if (depth <= 4 && !/\.json$/i.test(uri.path)) {
        return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
      }
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    const doc = await this.ensure(uri);
    return { type: vscode.FileType.File, ctime: doc.ctime, mtime: doc.mtime, size: doc.content.byteLength };
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return (await this.ensure(uri)).content;
  }

  /** Keeps the written text as a local draft. Never sends anything to the service. */
  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const ref = this.refOf(uri);
    const doc = this.held.get(refKey(ref));
    if (!doc) throw vscode.FileSystemError.FileNotFound(uri);
    doc.content = content;
    doc.mtime = Math.max(Date.now(), doc.mtime + 1);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(oldUri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(oldUri);
  }
}

export { RESOURCE_SCHEME };
