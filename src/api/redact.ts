/**
 * Removes secrets from text before it is logged or shown. Replaces every given
 * secret (and its Basic-auth / URL-encoded forms) and any `Authorization`
 * header value or `user:password@` URL credentials.
 */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) {
      out = out.split(form).join('***');
    }
  }
  out = out.replace(/(authorization["']?\s*[:=]\s*["']?)(basic|bearer)\s+[A-Za-z0-9+/=._~-]+/gi, '$1$2 ***');
  out = out.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi, '$1***:***@');
  return out;
}
