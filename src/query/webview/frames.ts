/**
 * Stack-trace frames in result cells: the extension sends, per result (`seq`), the cells holding a stack trace with
 * the lines whose frame opens a workspace file (an opaque id each). Such a cell is drawn line by line with those lines
 * as links; a click sends the id back (`openFrame`) and the extension opens the file. The text stays text.
 */

export interface FrameLink {
  index: number;
  id: number;
  title: string;
}

export interface FramesMessage {
  type: 'frames';
  seq: number;
  cells: { row: number; col: number; links: FrameLink[] }[];
}

let framesSeq = -1;
const byCell = new Map<string, FrameLink[]>();

/** Keeps the frame links of result `m.seq` (those of any earlier result are dropped). */
export function setFrames(m: FramesMessage): void {
  framesSeq = m.seq;
  byCell.clear();
  for (const c of m.cells) byCell.set(`${c.row}:${c.col}`, c.links);
}

/** Draws a cell of result `seq` with its frame links, when it has any; true when it did. */
export function drawFrameCell(cell: HTMLElement, seq: number, row: number, col: number, text: string): boolean {
  const links = seq === framesSeq ? byCell.get(`${row}:${col}`) : undefined;
  if (!links) return false;
  const at = new Map(links.map((l) => [l.index, l]));
  const parts: (string | HTMLElement)[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (i > 0) parts.push('\n');
    const link = at.get(i);
    if (!link) return parts.push(line);
    const a = document.createElement('a');
    a.href = '#';
    a.className = 'frame';
    a.dataset.frame = String(link.id);
    a.title = link.title;
    a.textContent = line;
    parts.push(a);
  });
  cell.replaceChildren(...parts);
  cell.title = text;
  return true;
}

/** A click on a frame link: sends its id to the extension; true when the click was one. */
export function onFrameClick(e: MouseEvent, post: (m: unknown) => void): boolean {
  const link = (e.target as HTMLElement).closest('a.frame') as HTMLElement | null;
  if (!link) return false;
  e.preventDefault();
  post({ type: 'openFrame', id: Number(link.dataset.frame) });
  return true;
}
