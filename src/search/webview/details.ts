/** A row's details beside the rows: every field, with copy, add to search, exclude, show column and open trace. */
import type { FromPage, ToPage } from '../protocol';

export function button(label: string, title: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'secondary';
  b.textContent = label;
  b.title = title;
  b.addEventListener('click', onClick);
  return b;
}

/** A value's lines as text, its stack-trace frames that open a workspace file as buttons (text, never markup). */
function stackLines(
  box: HTMLElement,
  text: string,
  links: readonly { index: number; id: number; title: string }[],
  post: (m: FromPage) => void,
): void {
  const byIndex = new Map(links.map((l) => [l.index, l]));
  text.split(/\r?\n/).forEach((line, i) => {
    if (i > 0) box.append('\n');
    const link = byIndex.get(i);
    if (!link) return box.append(line);
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'frame';
    b.textContent = line;
    b.title = link.title;
    b.addEventListener('click', () => post({ type: 'openFrame', id: link.id }));
    box.append(b);
  });
}

export function drawDetails(
  details: HTMLElement,
  m: Extract<ToPage, { type: 'details' }>,
  post: (m: FromPage) => void,
  close: () => void,
): void {
  const items: HTMLElement[] = [button('Close', 'Close the details', close)];
  m.fields.forEach((f, field) => {
    const box = document.createElement('div');
    box.className = 'field';
    const name = document.createElement('div');
    name.className = 'name';
    name.textContent = f.name;
    box.append(name);
    if (f.more !== undefined) {
      box.append(
        Object.assign(document.createElement('div'), {
          textContent: `… ${f.more.toLocaleString()} more keys not shown`,
        }),
      );
    } else {
      const value = document.createElement('div');
      value.className = 'value';
      if (f.links?.length) stackLines(value, f.value, f.links, post);
      else value.textContent = f.value;
      const index = m.index;
      box.append(
        value,
        button('Copy', 'Copy the value', () => post({ type: 'copy', index, field })),
        button('Add to search', 'Only events with this value', () =>
          post({ type: 'addToSearch', index, field, negate: false }),
        ),
        button('Exclude', 'Only events without this value', () =>
          post({ type: 'addToSearch', index, field, negate: true }),
        ),
        button('Show column', 'Show this field as a column', () => post({ type: 'showColumn', index, field })),
      );
      if (f.trace) box.append(button('Open trace', 'Open this trace', () => post({ type: 'openTrace', index, field })));
      if (f.span) {
        box.append(button('Open span', 'Open this span in its trace', () => post({ type: 'openTrace', index, field })));
      }
    }
    items.push(box);
  });
  details.replaceChildren(...items);
}
