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

test('leaves unrelated text and short secrets alone', () => {
  const text = 'List alerts failed: HTTP 400 — Tile not found (requestId 5f0c1d2e-aaaa-4bbb-8ccc-123456789abc).';
  assert.equal(redact(text, [SECRET]), text);
  assert.equal(redact('abc abc', ['abc']), 'abc abc');
  assert.equal(redact(text), text);
});
