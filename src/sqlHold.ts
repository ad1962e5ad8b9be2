/**
 * Why work the user did not ask for (the "would have fired" lens of alert documents, column reads for completion, the
 * agent's Alert tool) sends no SQL to a service now, and what the user can do about it. The query feature decides
 * (`src/query/background.ts`); the previews and the agent only show it.
 */

/** A command that lifts the hold (Set Query Host, Enable This Key…, or running the backtest by hand). */
export interface HoldCommand {
  readonly title: string;
  readonly command: string;
  readonly arguments?: unknown[];
}

export interface SqlHold {
  /**
   * `noQueryHost`: the connection's base URL is not ClickHouse Cloud's and no query host is set; `keyNotEnabled`: the
   * query endpoint refused the key; `serviceIdle` / `serviceStopped`: running SQL would need the service woken or
   * started, which only the user decides.
   */
  readonly reason: 'noQueryHost' | 'keyNotEnabled' | 'serviceIdle' | 'serviceStopped';
  /** A short sentence for a CodeLens or a tool's answer. */
  readonly message: string;
  /** What lifts it, when a command can. */
  readonly command?: HoldCommand;
}

/** Thrown instead of sending SQL in the background: nothing was sent. */
export class SqlHeld extends Error {
  constructor(readonly hold: SqlHold) {
    super(hold.message);
    this.name = 'SqlHeld';
  }
}
