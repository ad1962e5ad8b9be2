/**
 * Removes secrets from text before it is logged or shown. Replaces every given
 * secret (and its Basic-auth / URL-encoded forms) and any `Authorization`
 * header value or `user:password@` URL credentials.
 *
 * Basic-auth forms: the base64 of `<keyId>:<secret>` is removed whether or not
 * the key ID is in `secrets` (any base64 token that decodes to text containing
 * a secret is replaced), and the exact encoding of `<a>:<b>` is removed for
 * every pair of entries.
 */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  const usable = secrets.filter((s) => typeof s === 'string' && s.length >= 4);
  if (usable.length > 0) {
    const forms = new Set<string>();
    for (const secret of usable) {
      forms.add(secret);
      forms.add(encodeURIComponent(secret));
      forms.add(toBase64(secret));
      for (const other of secrets) {
        if (other && other !== secret) {
          forms.add(toBase64(`${other}:${secret}`));
          forms.add(toBase64url(`${other}:${secret}`));
        }
      }
    }
    // Longest first so a form that contains another is replaced whole.
    for (const form of [...forms].sort((a, b) => b.length - a.length)) {
      if (form.length >= 4) out = out.split(form).join('***');
    }
    out = out.replace(BASE64_TOKEN, (token) => (decodesToSecret(token, usable) ? '***' : token));
  }
  out = out.replace(/(authorization["']?\s*[:=]\s*["']?)(basic|bearer)\s+[A-Za-z0-9+/=._~-]+/gi, '$1$2 ***');
  out = out.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi, '$1***:***@');
  return out;
}

/** Runs of base64 / base64url characters long enough to hold `id:secret`. */
const BASE64_TOKEN = /[A-Za-z0-9+/_-]{8,}={0,2}/g;

function decodesToSecret(token: string, secrets: readonly string[]): boolean {
  const body = token.replace(/=+$/, '');
  // A token may carry a prefix that is not part of the encoding; try each alignment.
  for (let shift = 0; shift < 4 && body.length - shift >= 8; shift++) {
    const decoded = Buffer.from(body.slice(shift).replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1');
    for (const secret of secrets) {
      if (decoded.includes(secret) || decoded.includes(Buffer.from(secret, 'utf8').toString('latin1'))) return true;
    }
  }
  return false;
}

function toBase64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

function toBase64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}
