/** The one sanitizer for server text, request-ID checks and bounded redaction, on their own. */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cleanRequestId, redact, sanitizeServerText } from '../../../src/api';

test('server text loses links, escapes, controls, bidi and line breaks, and is capped', () => {
  assert.equal(
    sanitizeServerText('[Re-enter your key](https://evil.example)'),
    '[Re-enter your key] (https://evil.example)',
  );
  assert.equal(
    sanitizeServerText('[x] (command:workbench.action.openSettings)'),
    '[x] (command :workbench.action.openSettings)',
  );
  assert.equal(sanitizeServerText('see <https://evil.example>'), 'see ‹https://evil.example>');
  assert.equal(
    sanitizeServerText('\x1b[31mred\x1b[0m and \x1b]8;;https://e.example\x07link\x1b]8;;\x07'),
    'red and link',
  );
  assert.equal(sanitizeServerText('abc\u202Etxt.exe\u202C\u200B\u2066x\u2069'), 'abctxt.exex');
  assert.equal(sanitizeServerText('line one\r\nline two\u2028three\u0000\u0085'), 'line one line two three');
  assert.equal(sanitizeServerText('$(alert) icon'), '$ (alert) icon');
  assert.equal(sanitizeServerText(undefined), '');
  assert.equal(sanitizeServerText(42), '');
  const long = sanitizeServerText('word '.repeat(1000));
  assert.ok(long.length <= 300 && long.endsWith('…'), long);
  assert.equal(
    sanitizeServerText('Tile not found: 5f0c1d2e'),
    'Tile not found: 5f0c1d2e',
    'ordinary text is left alone',
  );
  const started = performance.now();
  sanitizeServerText('\x1b['.repeat(5_000_000));
  assert.ok(performance.now() - started < 200, 'a 10 MB text is cut before any work');
});

test('a request ID is kept only in a sane shape and when it does not carry a secret', () => {
  assert.equal(cleanRequestId('5f0c1d2e-aaaa-4bbb-8ccc-123456789abc'), '5f0c1d2e-aaaa-4bbb-8ccc-123456789abc');
  assert.equal(cleanRequestId('req_01:abc.def'), 'req_01:abc.def');
  for (const bad of ['', ' rid', 'rid\n', 'a'.repeat(129), '[x](y)', 'rid\u202E', 42, null]) {
    assert.equal(cleanRequestId(bad), undefined, String(bad));
  }
  assert.equal(cleanRequestId('prefix-S3cr3tValue-suffix', ['S3cr3tValue']), undefined);
  assert.equal(cleanRequestId('s3cr3tvalue', ['S3cr3tValue']), undefined, 'lower-cased echo');
  assert.equal(cleanRequestId('3cr3tVal', ['S3cr3tValue']), undefined, 'a piece of the secret');
  // A short secret: the ID is hidden when it is the secret or one of its parts, in any case.
  assert.equal(cleanRequestId('ab', ['ab']), undefined);
  assert.equal(cleanRequestId('q-AB-1', ['ab']), undefined);
  assert.equal(cleanRequestId('x:z', ['z']), undefined);
  assert.equal(cleanRequestId('abcd-1', ['ab']), 'abcd-1', 'a longer part is not the secret');
  assert.equal(
    cleanRequestId('5f0c1d2e-aaaa-4bbb-8ccc-123456789abc', ['5f0', 'a', 'abc']),
    '5f0c1d2e-aaaa-4bbb-8ccc-123456789abc',
    'no part of a UUID is that short',
  );
});

test('redaction: every encoding and case of the secret, and a cut never leaves the start of a secret', () => {
  const secret = 'Ab/cd+ef gh!';
  const forms = [
    secret,
    secret.toLowerCase(),
    encodeURIComponent(secret),
    encodeURIComponent(secret).toLowerCase(),
    new URLSearchParams({ k: secret }).toString().slice(2),
    new URLSearchParams({ k: secret }).toString().slice(2).toLowerCase(),
  ];
  for (const f of forms) assert.equal(redact(`x ${f} y`, [secret]), 'x *** y', f);
  const text = `${'a'.repeat(256 * 1024 - 5)}${secret}`;
  const out = redact(text, [secret]);
  assert.ok(!out.includes('Ab/c') && out.endsWith('…'), out.slice(-20));
  assert.equal(redact('proxy http://user:pa/ss@proxy.example:8080'), 'proxy http://***:***@proxy.example:8080');
});

test('server text for Markdown: sanitised, then every punctuation character escaped, so no link or autolink forms', async () => {
  const { escapeMarkdown, markdownCode, markdownText } = await import('../../../src/api');
  assert.equal(
    markdownText('[Re-enter your key](https://evil.example)'),
    '\\[Re\\-enter your key\\] \\(https\\://evil\\.example\\)',
  );
  assert.equal(
    markdownText('[x](command:workbench.action.openSettings)'),
    '\\[x\\] \\(command :workbench\\.action\\.openSettings\\)',
  );
  assert.equal(
    markdownText('<img src=x onerror=alert(1)> &amp; **bold** $(alert)'),
    '\\<img src=x onerror=alert\\(1\\)\\> \\&amp; \\*\\*bold\\*\\* \\$ \\(alert\\)',
  );
  assert.equal(markdownText('a\u202Eb\nc\x1b[31m'), 'ab c', 'bidi, controls and line breaks go first');
  assert.equal(markdownText('www.evil.example mail@evil.example'), 'www\\.evil\\.example mail\\@evil\\.example');
  assert.equal(markdownText(undefined), '');
  assert.equal(escapeMarkdown('plain words 42'), 'plain words 42', 'letters, digits and spaces stay');
  assert.equal(
    escapeMarkdown('Conflict: Cannot GET /nowhere, ok?'),
    'Conflict: Cannot GET /nowhere, ok?',
    'ordinary prose stays readable',
  );
  assert.equal(escapeMarkdown('ftp://x http://y'), 'ftp\\://x http\\://y');
  assert.equal(markdownCode('a`b\u202E'), "`a'b`");
  assert.equal(markdownCode(''), '`?`');
});
