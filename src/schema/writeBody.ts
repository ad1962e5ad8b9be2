/** A write body from a resource as read: its read-only fields and its null values left out, everything else kept. */
export function withoutReadOnlyAndNulls(
  resource: Record<string, unknown>,
  readOnly: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(resource)) {
    if (readOnly.includes(key) || value === null) continue;
    out[key] = value;
  }
  return out;
}
