/**
 * Stack-trace frames in the query results that open the source: once a result is painted, its cells holding a stack
 * trace (cellStacks.ts) are mapped onto the workspace by the panels' frame links (the path mapping of the trace and
 * search details), and the page gets, per cell, the lines that open a workspace file: `{ type: 'frames' }`. The page
 * sends back a link's opaque id (`openFrame`); nothing outside the workspace folder is ever opened.
 */
import type * as vscode from 'vscode';
import type { StackLink } from '../codeModel';
import { FrameLinks } from '../panels/frameLinks';
import { stackCells } from './cellStacks';

export interface CellLinks {
  row: number;
  col: number;
  links: StackLink[];
}

export class CellFrames {
  private readonly frames = new FrameLinks();

  /** The cells of `rows` with frames that open a workspace file. */
  async of(rows: readonly (readonly unknown[] | undefined)[]): Promise<CellLinks[]> {
    const out: CellLinks[] = [];
    for (const cell of stackCells(rows)) {
      const links = await this.frames.links(cell.text).catch(() => []);
      if (links.length > 0) out.push({ row: cell.row, col: cell.col, links });
    }
    return out;
  }

  /** Sends the frame links of result `seq` to the page (nothing when no cell has any). */
  async send(seq: number, rows: readonly (readonly unknown[] | undefined)[], post: (m: unknown) => void) {
    const cells = await this.of(rows);
    if (cells.length > 0) post({ type: 'frames', seq, cells });
    return cells;
  }

  open(id: unknown, beside: vscode.ViewColumn | undefined): Promise<void> {
    return this.frames.open(id, beside);
  }
}
