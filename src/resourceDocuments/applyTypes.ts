import type { ConnectionManager } from '../connections/manager';
import type { ResourceRefresher } from '../resources/model';
import type { LiveData } from '../resources/live';
import type { DocumentChecks } from '../jsonDocuments/diagnostics';
import type { ServerDocuments } from '../jsonDocuments/serverDocuments';
import type { ResourceRef } from '../jsonDocuments/uris';
import type { Logger } from '../log';
import type { WritePipeline } from '../writes/pipeline';
import type { ResourceFileSystem } from './fileSystem';

/** What Apply of a resource document is asked (its confirmations), what it answers and what it is built from. */

export interface ApplyOptions {
  readonly confirm?: boolean;
  readonly confirmAlertDeletion?: boolean;
  /** Confirms that API keys lose access to the query endpoint. */
  readonly confirmKeyRemoval?: boolean;
  /** Confirms that a webhook update to a new URL or service clears its stored headers and query parameters. */
  readonly confirmSecretRemoval?: boolean;
  readonly overwrite?: boolean;
}

export type ApplyOutcome =
  | 'applied'
  | 'busy'
  | 'notResource'
  | 'invalid'
  | 'unchanged'
  | 'cancelled'
  | 'conflict'
  | 'alertsWouldBeDeleted'
  | 'keysWouldLoseAccess'
  | 'secretsWouldBeCleared'
  | 'failed';

export interface ApplyResult {
  readonly outcome: ApplyOutcome;
  /** The document that holds the resource afterwards (a created resource opens under its new ID). */
  readonly uri?: string;
  readonly id?: string;
  readonly requestId?: string;
  readonly error?: string;
  /** Problems that blocked the request. */
  readonly problems?: readonly string[];
  /** Alerts the service deletes with this dashboard update (names). */
  readonly alerts?: readonly string[];
  /** API keys (names) that lose access to the query endpoint with this upsert. */
  readonly keys?: readonly string[];
  /** A webhook's write-only fields (`headers`, `queryParams`) the service clears with this update. */
  readonly cleared?: readonly string[];
  /** Optional alert fields the document leaves out, so the service keeps their current values. */
  readonly kept?: readonly string[];
  /** Whether a diff against the service's version was shown. */
  readonly diffShown?: boolean;
}

export interface ApplyDeps {
  readonly connections: ConnectionManager;
  readonly tree: ResourceRefresher;
  readonly fs: ResourceFileSystem;
  readonly checks: DocumentChecks;
  readonly live: LiveData;
  readonly server: ServerDocuments;
  readonly log: Logger;
  /** The write pipeline every feature creates and updates resources through. */
  readonly writes: WritePipeline;
}

/** A resource created from a draft document. */
export interface CreatedResource {
  readonly draft: ResourceRef;
  readonly kind: ResourceRef['kind'];
  readonly id: string;
  /** The document that now holds it. */
  readonly uri: string;
}
