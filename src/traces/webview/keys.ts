/** What a key does in the waterfall (pure: no DOM), as a tree grid's keys do. */
import type { WaterfallRow } from '../protocol';

export type KeyAction = { select: number } | { collapse: number; value: boolean } | undefined;

/**
 * The action of `key` on the rows shown (`visible`, row indexes in order) with `selected` selected (-1: none):
 * Up/Down, Page Up/Down (`page` rows), Home/End move; Right expands (or goes to the first child), Left collapses (or
 * goes to the parent), Enter and Space toggle. Undefined when the key does nothing here.
 */
export function keyAction(
  key: string,
  rows: readonly WaterfallRow[],
  visible: readonly number[],
  selected: number,
  collapsed: ReadonlySet<number>,
  page: number,
): KeyAction {
  if (visible.length === 0) return undefined;
  const index = Math.max(0, visible.indexOf(selected));
  const row = selected >= 0 ? rows[selected] : undefined;
  const go = (i: number): KeyAction => ({ select: visible[Math.max(0, Math.min(visible.length - 1, i))]! });
  const parentOf = row && row.descendants > 0;
  switch (key) {
    case 'ArrowDown':
      return go(selected < 0 ? 0 : index + 1);
    case 'ArrowUp':
      return go(index - 1);
    case 'PageDown':
      return go(index + page);
    case 'PageUp':
      return go(index - page);
    case 'Home':
      return go(0);
    case 'End':
      return go(visible.length - 1);
    case 'ArrowRight':
      if (!parentOf) return undefined;
      return collapsed.has(selected) ? { collapse: selected, value: false } : { select: selected + 1 };
    case 'ArrowLeft':
      if (parentOf && !collapsed.has(selected)) return { collapse: selected, value: true };
      return row && row.parent >= 0 ? { select: row.parent } : undefined;
    case 'Enter':
    case ' ':
      return parentOf ? { collapse: selected, value: !collapsed.has(selected) } : undefined;
    default:
      return undefined;
  }
}
