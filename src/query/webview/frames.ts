/**
 * Stack-trace frames in result cells: the extension sends, per result (`seq`), the cells holding a stack trace with
 * the lines whose frame opens a workspace file (an opaque id each). Such a cell starts with those frames' files and
 * lines as links, then its text with those lines linked too; a click sends the id back (`openFrame`) and the extension
 * opens the file. The text stays text.
 */

export interface FrameLink {
  index: number;
  id: number;
  title: string;
  label?: string;
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
  const anchor = (link: FrameLink, content: string): HTMLElement => {
    const a = document.createElement('a');
    a.href = '#';
    a.className = 'frame';
    a.dataset.frame = String(link.id);
    a.title = link.title;
    a.textContent = content;
    return a;
  };
  // The frames that open the source come first (a cell shows one line), then the whole text with those lines linked.
  const parts: (string | HTMLElement)[] = [];
  for (const link of links) parts.push(anchor(link, link.label ?? link.title), ' ');
  parts.push('│ ');
  const at = new Map(links.map((l) => [l.index, l]));
  text.split(/\r?\n/).forEach((line, i) => {
    if (i > 0) parts.push('\n');
    const link = at.get(i);
    parts.push(link ? anchor(link, line) : line);
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
