/**
 * An alert's condition in words, the one wording of every place that shows it: the tree, tooltips, Show Firing
 * Alerts, notifications, backtests (their rule, legend and transitions) and the agent's tools. The words are those of
 * HyperDX's alert editor ("is at least (≥)", "falls below (<)", "is above (>)", "is at most (≤)", "equals (=)", "does
 * not equal (≠)", "is between (≤ x ≤)", "is outside (< or >)"), short enough for a tree row: `at least 5`.
 *
 * No imports (the preview's webview bundles it too). Callers pass the numbers as they show them (formatted or not)
 * and sanitise server text themselves.
 */
export function conditionWords(thresholdType: string | null | undefined, threshold: string, max: string): string {
  switch (thresholdType) {
    case 'above':
      return `at least ${threshold}`;
    case 'above_exclusive':
      return `above ${threshold}`;
    case 'below':
      return `below ${threshold}`;
    case 'below_or_equal':
      return `at most ${threshold}`;
    case 'equal':
      return `equal to ${threshold}`;
    case 'not_equal':
      return `not equal to ${threshold}`;
    case 'between':
      return `between ${threshold} and ${max}`;
    case 'not_between':
      return `outside ${threshold} to ${max}`;
    default:
      return thresholdType ? `${thresholdType} ${threshold}` : threshold;
  }
}

/** The same words from an alert's fields (`?` for a missing number). */
export function conditionOf(alert: {
  readonly thresholdType?: string | null;
  readonly threshold?: number | string | null;
  readonly thresholdMax?: number | string | null;
}): string {
  return conditionWords(alert.thresholdType, String(alert.threshold ?? '?'), String(alert.thresholdMax ?? '?'));
}
