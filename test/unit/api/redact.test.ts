/** The redaction helper removes secrets in every form they can take in a message. */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { redact } from '../../../src/api';

const KEY = 'myKeyId42';
const SECRET = 'p@ss/w0rd+Secret=';

test('removes the secret, its URL-encoded form and its base64', () => {
  const text = `a ${SECRET} b ${encodeURIComponent(SECRET)} c ${Buffer.from(SECRET).toString('base64')}`;
  const out = redact(text, [SECRET]);
  assert.ok(
    !out.includes(SECRET) &&
      !out.includes(encodeURIComponent(SECRET)) &&
      !out.includes(Buffer.from(SECRET).toString('base64')),
    out,
  );
});

test('removes the base64 of keyId:secret even when only the secret is given', () => {
  const token = Buffer.from(`${KEY}:${SECRET}`).toString('base64');
  for (const text of [
    `token=${token}`,
    `"${token}"`,
    `x${token}y`,
    `${token.replace(/=+$/, '')}`,
    Buffer.from(`${KEY}:${SECRET}`).toString('base64url'),
  ]) {
    const out = redact(text, [SECRET]);
    assert.ok(!out.includes(token.replace(/=+$/, '').slice(4)), `${text} -> ${out}`);
  }
  assert.equal(redact(`Basic ${token}`, [SECRET, KEY]).includes(token), false);
});

test('removes Authorization header values and URL credentials without being told the secret', () => {
  assert.equal(redact('Authorization: Basic dXNlcjpwYXNz'), 'Authorization: Basic ***');
  assert.equal(redact('{"authorization":"Bearer abc.def"}'), '{"authorization":"Bearer ***"}');
  assert.equal(redact('see https://user:pw@proxy.example:8080/x'), 'see https://***:***@proxy.example:8080/x');
});

test('leaves unrelated text alone', () => {
  const text = 'List alerts failed: HTTP 400 — Tile not found (requestId 5f0c1d2e-aaaa-4bbb-8ccc-123456789abc).';
  assert.equal(redact(text, [SECRET]), text);
  assert.equal(redact(text, ['abc', 'a']), text, 'a short secret inside a word is not masked');
  assert.equal(redact(text), text);
});

test('masks a short secret (1–3 characters) wherever it stands as a whole token, and nowhere inside a word', () => {
  assert.equal(redact('abc abc', ['abc']), '*** ***');
  assert.equal(
    redact("Authentication failed: password is incorrect ('ab'), user=ab;ab", ['ab']),
    "Authentication failed: password is incorrect ('***'), user=***;***",
  );
  assert.equal(redact('about tab ab_c Ab AB', ['ab']), 'about tab ab_c Ab AB', 'other words and other cases stay');
  assert.equal(redact('a password a: a', ['a']), '*** password ***: ***');
  assert.equal(redact('x!y say ! now', ['!']), 'x!y say *** now');
  assert.equal(redact('p=a%20b and a+b and a b!', ['a b']), 'p=*** and *** and ***!');
  assert.equal(redact('é=%C3%A9 %c3%a9 é', ['é']), '***=*** *** ***');
  assert.equal(redact('q-1 failed', ['q']), '***-1 failed');
  // Never a stall: a long text full of near-matches.
  assert.equal(redact('ab'.repeat(100_000), ['ab']).length, 200_000);
});
