/**
 * Removes secrets from text before it is logged or shown. Replaces every given
 * secret in every form it can take in a URL, a form body, a header or a host name,
 * and any `Authorization` header value or `user:password@` URL credentials.
 *
 * Forms of a secret, matched without regard to case (a secret can come back lower-cased, e.g. as a host label in a
 * `Location` header, and percent-encoding may use either case of hex digits): the secret itself, its
 * percent-encoding (`encodeURIComponent` and the full RFC 3986 form), its form encoding (`+` for space), and the
 * base64 / base64url of `<a>:<b>` for every pair of entries. Basic-auth forms: any base64 token that decodes to
 * text containing a secret is replaced too, whether or not the key ID is known.
 *
 * Linear and bounded: text longer than `MAX_REDACT_INPUT` is cut first (any trailing part of a secret left at the
 * cut is removed too), and every pattern has bounded repetition, so no input can take long or overflow the stack.
 */

/** Characters of text redaction looks at; longer text is cut (with "…") before it is redacted. */
export const MAX_REDACT_INPUT = 256 * 1024;

export function redact(text: string, secrets: readonly string[] = []): string {
  let out = typeof text === 'string' ? text : String(text);
  const usable = secrets.filter((s) => typeof s === 'string' && s.length >= 4);
  const forms = formsOf(usable, secrets);
  if (out.length > MAX_REDACT_INPUT) out = cutSafely(out, MAX_REDACT_INPUT, forms);
  if (forms.length > 0) {
    // Longest first so a form that contains another is replaced whole.
    const pattern = new RegExp(forms.map(escapeRegExp).join('|'), 'gi');
    out = out.replace(pattern, '***');
    out = out.replace(BASE64_TOKEN, (token) => (decodesToSecret(token, usable) ? '***' : token));
  }
  out = out.replace(
    /(authorization["']?[ \t]{0,16}[:=][ \t]{0,16}["']?)(basic|bearer)[ \t]{1,16}[A-Za-z0-9+/=._~-]{1,4096}/gi,
    '$1$2 ***',
  );
  out = out.replace(/(\b[a-z][a-z0-9+.-]{0,30}:\/\/)[^/\s:@]{1,256}:[^\s@]{1,256}@/gi, '$1***:***@');
  return out;
}

/** Every literal form of the secrets, longest first. */
function formsOf(usable: readonly string[], all: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of usable) {
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    forms.add(strictPercentEncode(secret));
    forms.add(new URLSearchParams({ k: secret }).toString().slice(2));
    forms.add(encodeURIComponent(secret).replace(/%20/g, '+'));
    forms.add(toBase64(secret));
    forms.add(Buffer.from(secret, 'utf8').toString('base64url'));
    for (const other of all) {
      if (other && other !== secret) {
        forms.add(toBase64(`${other}:${secret}`));
        forms.add(Buffer.from(`${other}:${secret}`, 'utf8').toString('base64url'));
      }
    }
  }
  return [...forms].filter((f) => f.length >= 4).sort((a, b) => b.length - a.length);
}

/** Cuts `text` to about `max` characters, dropping a trailing piece that is the start of a secret form. */
function cutSafely(text: string, max: number, forms: readonly string[]): string {
  let cut = text.slice(0, max);
  const tail = cut.slice(-512).toLowerCase();
  let drop = 0;
  for (const form of forms) {
    const f = form.toLowerCase();
    for (let n = Math.min(f.length - 1, tail.length); n > drop; n--) {
      if (tail.endsWith(f.slice(0, n))) {
        drop = n;
        break;
      }
    }
  }
  if (drop > 0) cut = cut.slice(0, cut.length - drop);
  return `${cut}…`;
}

/** Runs of base64 / base64url characters long enough to hold `id:secret` (bounded, so a huge run is many tokens). */
const BASE64_TOKEN = /[A-Za-z0-9+/_-]{8,4096}={0,2}/g;

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

/** Percent-encodes everything but RFC 3986 unreserved characters (`encodeURIComponent` leaves `!'()*` as they are). */
function strictPercentEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

function toBase64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}
