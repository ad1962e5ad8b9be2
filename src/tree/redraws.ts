/**
 * Redraws of a tree's rows, held back while VS Code waits for children under them.
 *
 * When a row is redrawn, VS Code forgets the children it registered under that row and drops the answer of any
 * `getChildren` still running below it (its view then reuses that dropped answer: a folder's list or a dashboard's
 * tiles being read at that moment would show empty). So a redraw of a row waits until no `getChildren` under it is
 * running, and then goes out on a later turn, once VS Code has registered the rows it was given.
 *
 * No `vscode` here: the rows are whatever the provider calls nodes; `groupOf` names the group (a folder) whose
 * children a `getChildren` reads, `groupsUnder` the groups below a row being redrawn.
 */
export class SettledRedraws<N, G> {
  private readonly running = new Map<G, number>();
  /** Rows waiting to be redrawn, each with the check that it is still needed when its turn comes (none: always). */
  private readonly waiting = new Map<N, (() => boolean) | undefined>();
  private disposed = false;

  constructor(
    private readonly fire: (node: N) => void,
    private readonly groupOf: (node: N) => G | undefined,
    private readonly groupsUnder: (node: N) => Iterable<G>,
  ) {}

  /**
   * Runs a `getChildren` of `node`. Its group counts as busy until the turn after it settles: VS Code registers the
   * rows it was given on the same turn, and a redraw then would drop them.
   */
  async track<T>(node: N, work: () => Promise<T>): Promise<T> {
    const group = this.groupOf(node);
    if (group === undefined) return work();
    this.running.set(group, (this.running.get(group) ?? 0) + 1);
    try {
      return await work();
    } finally {
      setTimeout(() => this.settled(group), 0);
    }
  }

  /**
   * Redraws `node` now when nothing runs under it, else once everything under it has settled (on a later turn).
   * `stillNeeded` is asked at that moment: a redraw that became pointless is dropped.
   */
  redraw(node: N, stillNeeded?: () => boolean): void {
    if (this.waiting.has(node)) {
      // One unconditional request is enough to redraw it whatever the conditions.
      if (this.waiting.get(node) && !stillNeeded) this.waiting.set(node, undefined);
      return;
    }
    if (!this.busy(node)) {
      if (!stillNeeded || stillNeeded()) this.fire(node);
      return;
    }
    this.waiting.set(node, stillNeeded);
  }

  /** Whether a `getChildren` under `node` is running. */
  busy(node: N): boolean {
    for (const group of this.groupsUnder(node)) if (this.running.has(group)) return true;
    return false;
  }

  dispose(): void {
    this.disposed = true;
    this.waiting.clear();
  }

  private settled(group: G): void {
    const left = (this.running.get(group) ?? 1) - 1;
    if (left > 0) this.running.set(group, left);
    else this.running.delete(group);
    if (this.disposed) return;
    for (const [node, stillNeeded] of [...this.waiting]) {
      if (this.busy(node)) continue;
      this.waiting.delete(node);
      if (!stillNeeded || stillNeeded()) this.fire(node);
    }
  }
}
