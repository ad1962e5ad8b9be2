/**
 * Series colours of every chart the extension draws (the query results chart, tile previews, dashboard previews and
 * alert backtests, on both kinds of connection). Pure: no DOM, no `vscode`; each webview resolves the CSS variables.
 *
 * The palette is VS Code's `charts.*` theme colours (blue, orange, green, purple) followed by well-separated extras
 * with a light and a dark variant. Red and yellow are left out: backtests draw the fired windows and transitions in
 * `charts.red` and the threshold in the warning colour, and VS Code's light orange and yellow are too close to tell
 * apart. With the default themes every two colours of the palette are at least ΔE 29 apart (CIE 1976).
 *
 * A series keeps its colour by name across views: each name has a preferred slot (a hash of the name); names are
 * placed in sorted order, and a name whose slot is taken in this chart moves to the next free one. So the same set of
 * series gets the same colours in every view, and up to `SERIES_PALETTE.length` series never share a colour.
 */

export interface PaletteColor {
  /** Theme colour variable the webview reads first (VS Code's charts colours), if any. */
  cssVar?: string;
  /** Used for dark and high-contrast themes, and when the variable is not set. */
  dark: string;
  /** Used for light themes, and when the variable is not set. */
  light: string;
}

export const SERIES_PALETTE: readonly PaletteColor[] = [
  { cssVar: '--vscode-charts-blue', dark: '#3794ff', light: '#1a85ff' },
  { cssVar: '--vscode-charts-orange', dark: '#d18616', light: '#d18616' },
  { cssVar: '--vscode-charts-green', dark: '#89d185', light: '#388a34' },
  { cssVar: '--vscode-charts-purple', dark: '#b180d7', light: '#652d90' },
  { dark: '#2ec4b6', light: '#00838f' },
  { dark: '#f06bb2', light: '#c4187b' },
  { dark: '#a0a0a0', light: '#6e6e6e' },
  { dark: '#a1663a', light: '#7a4a1e' },
  { dark: '#dcdc6e', light: '#9e9d24' },
];

/** FNV-1a hash of a series name (UTF-16 code units), as an unsigned 32-bit integer. */
export function nameHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * The palette slot of each series of one chart, in the order given. Distinct for up to `size` series; beyond that
 * slots are reused, again by the same rule.
 */
export function seriesSlots(names: readonly string[], size = SERIES_PALETTE.length): number[] {
  const unique = [...new Set(names)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const slotOf = new Map<string, number>();
  let used = new Set<number>();
  for (const name of unique) {
    if (used.size >= size) used = new Set();
    let slot = nameHash(name) % size;
    while (used.has(slot)) slot = (slot + 1) % size;
    used.add(slot);
    slotOf.set(name, slot);
  }
  return names.map((n) => slotOf.get(n) as number);
}

/** Whether a body class list (VS Code sets one of vscode-light, vscode-dark, vscode-high-contrast(-light)) is light. */
export function isLightTheme(themeKind: string): boolean {
  return themeKind === 'vscode-light' || themeKind === 'vscode-high-contrast-light';
}

/**
 * The colours of a chart's series: the theme's value of each slot's variable when it has one, else the slot's
 * variant for the theme. `readVar` returns a CSS variable's value ('' when unset).
 */
export function seriesColors(names: readonly string[], themeKind: string, readVar: (name: string) => string): string[] {
  const light = isLightTheme(themeKind);
  return seriesSlots(names).map((slot) => {
    const c = SERIES_PALETTE[slot] as PaletteColor;
    const fromTheme = c.cssVar ? readVar(c.cssVar).trim() : '';
    return fromTheme || (light ? c.light : c.dark);
  });
}
