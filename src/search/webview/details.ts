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
      value.textContent = f.value;
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
    }
    items.push(box);
  });
  details.replaceChildren(...items);
}
