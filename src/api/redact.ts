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
 * Short secrets (fewer than `MIN_ANYWHERE` characters, e.g. a ClickHouse password "ab" the server accepts) are
 * masked too, but only where they stand as a whole token: exactly (same case), and with no letter, digit or `_` just
 * before or after (see `maskShortSecrets`). Masking every occurrence would hide every "a" of a message for a password
 * "a", and refusing short passwords is stricter than ClickHouse itself, which accepts them; a whole-token match is
 * the form a server echoes a password in (`password 'ab'`, `(ab)`, `=ab`), and it never shows the secret on its own.
 *
 * Linear and bounded: text longer than `MAX_REDACT_INPUT` is cut first (any trailing part of a secret left at the
 * cut is removed too), and every pattern has bounded repetition, so no input can take long or overflow the stack.
 */

/** Secrets at least this long are masked wherever they occur, in any case; shorter ones as whole tokens only. */
export const MIN_ANYWHERE = 4;

/** Characters of text redaction looks at; longer text is cut (with "…") before it is redacted. */
export const MAX_REDACT_INPUT = 256 * 1024;

export function redact(text: string, secrets: readonly string[] = []): string {
  let out = typeof text === 'string' ? text : String(text);
  const usable = secrets.filter((s) => typeof s === 'string' && s.length >= MIN_ANYWHERE);
  const short = secrets.filter((s) => typeof s === 'string' && s.length > 0 && s.length < MIN_ANYWHERE);
  const forms = formsOf(usable, secrets);
  if (out.length > MAX_REDACT_INPUT) out = cutSafely(out, MAX_REDACT_INPUT, forms);
  if (short.length > 0) out = maskShortSecrets(out, short);
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

/** Letters, digits and `_`: a short secret next to one of these is part of a longer word and is left alone. */
const WORD = '[\\p{L}\\p{N}_]';

/**
 * Masks whole-token occurrences of short secrets: the secret exactly (its case), and its URL- and form-encoded forms
 * (hex in either case), each with no letter, digit or `_` right before or after it.
 */
export function maskShortSecrets(text: string, secrets: readonly string[]): string {
  const exact = new Set<string>();
  const encoded = new Set<string>();
  for (const secret of secrets) {
    exact.add(secret);
    let forms: string[];
    try {
      forms = [
        encodeURIComponent(secret),
        strictPercentEncode(secret),
        encodeURIComponent(secret).replace(/%20/g, '+'),
      ];
    } catch {
      forms = []; // a lone surrogate has no encoded form
    }
    for (const form of forms) if (form !== secret) encoded.add(form);
  }
  const bounded = (forms: Set<string>): string =>
    `(?<!${WORD})(?:${[...forms]
      .sort((a, b) => b.length - a.length)
      .map((f) => f.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
      .join('|')})(?!${WORD})`;
  let out = text.replace(new RegExp(bounded(exact), 'gu'), '***');
  if (encoded.size > 0) out = out.replace(new RegExp(bounded(encoded), 'giu'), '***');
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
