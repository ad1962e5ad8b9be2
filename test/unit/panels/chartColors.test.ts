import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nameHash, SERIES_PALETTE, seriesColors, seriesSlots } from '../../../src/panels/chartColors';

/** CIE L*a*b* of an sRGB hex colour (D65). */
function lab(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  const [r, g, b] = [n >> 16, (n >> 8) & 255, n & 255].map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const f = (t: number): number => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  const x = f((r * 0.4124 + g * 0.3576 + b * 0.1805) / 0.95047);
  const y = f(r * 0.2126 + g * 0.7152 + b * 0.0722);
  const z = f((r * 0.0193 + g * 0.1192 + b * 0.9505) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}
const deltaE = (a: string, b: string): number => {
  const [p, q] = [lab(a), lab(b)];
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
};

const SEVEN = ['frontend', 'checkout', 'payment', 'cart', 'inventory', 'shipping', 'email'];

describe('chart series colours', () => {
  it('every two colours of the palette are clearly apart, and apart from the editor background, in both themes', () => {
    for (const [variant, background] of [
      ['dark', '#1f1f1f'],
      ['light', '#ffffff'],
    ] as const) {
      const colors = SERIES_PALETTE.map((c) => c[variant]);
      for (let i = 0; i < colors.length; i++) {
        assert.ok(deltaE(colors[i]!, background) > 40, `${variant} ${colors[i]} against the background`);
        for (let j = i + 1; j < colors.length; j++) {
          assert.ok(deltaE(colors[i]!, colors[j]!) > 25, `${variant}: ${colors[i]} and ${colors[j]} are too close`);
        }
      }
    }
  });

  it('gives seven series seven different colours, and as many as the palette holds', () => {
    assert.equal(new Set(seriesSlots(SEVEN)).size, 7);
    const many = Array.from({ length: SERIES_PALETTE.length }, (_, i) => `series ${i}`);
    assert.equal(new Set(seriesSlots(many)).size, SERIES_PALETTE.length);
    // More series than colours: every colour is used before any is used twice.
    const more = Array.from({ length: SERIES_PALETTE.length + 3 }, (_, i) => `s${i}`);
    assert.equal(new Set(seriesSlots(more)).size, SERIES_PALETTE.length);
  });

  it('keeps a series colour by its name, whatever order the series come in', () => {
    const a = seriesSlots(SEVEN);
    const reversed = seriesSlots([...SEVEN].reverse());
    SEVEN.forEach((name, i) => assert.equal(reversed[SEVEN.length - 1 - i], a[i], name));
    // A series alone takes its own preferred colour.
    assert.deepEqual(seriesSlots(['checkout']), [nameHash('checkout') % SERIES_PALETTE.length]);
  });

  it('reads the theme colour variables first and falls back to the variant of the theme', () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const slots = seriesSlots(names);
    const themed = seriesColors(names, 'vscode-dark', (v) => (v === '--vscode-charts-blue' ? ' #0000ff ' : ''));
    const light = seriesColors(names, 'vscode-high-contrast-light', () => '');
    slots.forEach((slot, i) => {
      const c = SERIES_PALETTE[slot]!;
      assert.equal(themed[i], c.cssVar === '--vscode-charts-blue' ? '#0000ff' : c.dark);
      assert.equal(light[i], c.light);
    });
  });
});
