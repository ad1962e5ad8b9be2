/**
 * The query client's parts, each alone: the line decoder with its caps and bounds (resultDecoder.ts), the error
 * reader (errorText.ts), the transport's requests (transport.ts), and the incremental count of an unfinished line
 * (jsonBounds.ts). Which texts reach `JSON.parse` is watched directly, so a bound is checked without timing anything.
 */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { countJsonContainers, PartialLineScan } from '../../../src/api/jsonBounds';
import { ERROR_SCAN, parseClickHouseError, parseSmallObject } from '../../../src/api/query/errorText';
import { failureFor, QueryError } from '../../../src/api/query/queryError';
import { ResultDecoder } from '../../../src/api/query/resultDecoder';
import { queryRequest } from '../../../src/api/query/transport';

const SECRET = 'S3cr3t-Value-For-Tests_xyz';
const BASE = { operation: 'Run query', method: 'POST', path: '/' };

function decoder(opts: { maxRows?: number; maxBytes?: number; exceptionTag?: string } = {}): ResultDecoder {
  return new ResultDecoder({
    base: BASE,
    fail: failureFor(() => [SECRET]),
    maxRows: opts.maxRows ?? 10_000,
    maxBytes: opts.maxBytes ?? 64 * 1024 * 1024,
    exceptionTag: opts.exceptionTag,
  });
}

/** Runs `fn` and returns the lengths of the texts it gave `JSON.parse`. */
function parsedLengths(fn: () => void): number[] {
  const real = JSON.parse;
  const lengths: number[] = [];
  JSON.parse = ((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    lengths.push(String(text).length);
    return real(text, reviver);
  }) as typeof JSON.parse;
  try {
    fn();
  } finally {
    JSON.parse = real;
  }
  return lengths;
}

function thrown(fn: () => unknown): QueryError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof QueryError, String(e));
    return e;
  }
  assert.fail('expected a QueryError');
}

const RESULT = '["s","n"]\n["String","UInt64"]\n["a [{\\"\\\\",1]\n["}]\\\\",2]\n["\\u005b",3]\n';

describe('query line decoder', () => {
  it('reads the same rows however the body is cut into chunks (strings holding quotes, backslashes and brackets)', () => {
    const bytes = Buffer.from(RESULT);
    for (let cut = 1; cut < bytes.length; cut++) {
      const d = decoder();
      d.push(bytes.subarray(0, cut));
      d.push(bytes.subarray(cut));
      d.end();
      assert.deepEqual(
        d.columns.map((c) => c.name),
        ['s', 'n'],
      );
      assert.deepEqual(d.rows, [
        ['a [{"\\', 1],
        ['}]\\', 2],
        ['[', 3],
      ]);
    }
  });

  it('an unfinished line past the bound per row fails as it arrives, naming the line, before any of it is parsed', () => {
    const d = decoder();
    d.push(Buffer.from('["j"]\n["Array(JSON)"]\n'));
    const piece = Buffer.alloc(256 * 1024, '[');
    const lengths = parsedLengths(() => {
      const err = thrown(() => {
        for (let i = 0; i < 8; i++) d.push(piece);
      });
      assert.equal(err.kind, 'invalidResponse');
      assert.match(
        err.message,
        /line 3 of the result holds more than 1,000,000 objects and arrays \(the bound per row\)/,
      );
    });
    assert.deepEqual(lengths, []);
  });

  it('the byte cap ends the result at its byte, as truncated', () => {
    const d = decoder({ maxBytes: 40 });
    assert.equal(d.push(Buffer.from(RESULT)), true);
    assert.equal(d.stop, 'bytes');
    assert.equal(d.bytes, 40);
  });

  it("a framed error's text is kept to 16 KiB, and the error reader parses none of the rest", () => {
    const d = decoder({ exceptionTag: 'T1' });
    const lengths = parsedLengths(() => {
      d.push(Buffer.from('["n"]\n["UInt64"]\n[1]\n__exception__T1\nCode: 241. DB::Exception: memory\n'));
      for (let i = 0; i < 40; i++) d.push(Buffer.alloc(1024 * 1024, '0,'));
      const err = d.trailingError();
      assert.ok(err instanceof QueryError);
      assert.equal(err.reason, 'sql');
      assert.equal(err.clickHouse?.code, 241);
      assert.equal(err.rowsBeforeError, 1);
    });
    assert.ok(Math.max(...lengths) <= 64 * 1024, `JSON.parse was given ${Math.max(...lengths)} characters`);
  });

  it('a framed error closed by its marker, padded with lines of nested arrays, is reported without parsing them', () => {
    const d = decoder({ exceptionTag: 'T1' });
    const nested = `${'['.repeat(500_000)}${']'.repeat(500_000)}\n`;
    const lengths = parsedLengths(() => {
      d.push(Buffer.from('["n"]\n["UInt64"]\n[1]\n__exception__T1\n'));
      const err = thrown(() => d.push(Buffer.from(`${nested.repeat(3)}99 T1__exception__\n`)));
      assert.equal(err.reason, 'sql');
      assert.equal(err.status, 200);
      assert.ok((err.serverMessage ?? '').length <= 500);
    });
    assert.ok(Math.max(...lengths) < 100, `JSON.parse was given ${Math.max(...lengths)} characters`);
  });

  it('a result cut off after a `Code:` line reports the error it holds, from its first 16 KiB', () => {
    const d = decoder();
    d.push(Buffer.from(`["n"]\n["UInt64"]\n[1]\nCode: 62. DB::Exception: Syntax error ${'x'.repeat(100_000)}`));
    const err = d.trailingError();
    assert.equal(err?.clickHouse?.code, 62);
    assert.ok((err?.clickHouse?.text.length ?? 0) <= 1000);
  });
});

describe('query error reader', () => {
  it("reads the query host's JSON error and ClickHouse's plain text", () => {
    const json = parseClickHouseError(
      '{"error":{"code":"62","details":"Syntax error (SYNTAX_ERROR) (version 24.8.1.1)"}}',
    );
    assert.deepEqual(json, {
      code: 62,
      name: 'SYNTAX_ERROR',
      text: 'Code: 62. DB::Exception: Syntax error (SYNTAX_ERROR)',
    });
    assert.equal(parseClickHouseError('Code: 60. DB::Exception: Unknown table (UNKNOWN_TABLE)')?.name, 'UNKNOWN_TABLE');
  });

  it('parses JSON only when it is a small object: cut first, structure counted first', () => {
    const padded = `{"error":{"code":62,"details":"x"},"pad":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const lengths = parsedLengths(() => {
      assert.equal(parseSmallObject(padded), undefined);
      assert.equal(parseSmallObject(`{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`), undefined);
      assert.equal(parseSmallObject('[1]'), undefined);
      assert.equal(parseClickHouseError('['.repeat(4 * 1024 * 1024)), undefined);
      assert.equal(parseClickHouseError(`[${'0,'.repeat(2 * 1024 * 1024)}`), undefined);
    });
    assert.deepEqual(lengths, []);
    assert.deepEqual(parseSmallObject(' {"data":"Confirm wake service"} '), { data: 'Confirm wake service' });
  });

  it('looks for `Code:` only in the first 16 KiB', () => {
    assert.equal(parseClickHouseError(`${' '.repeat(ERROR_SCAN)}Code: 62. DB::Exception: late`), undefined);
  });
});

describe('query transport requests', () => {
  it('the query endpoint gets JSON with the format in the URL; the HTTP interface the SQL with default_format', () => {
    const common = { sql: 'SELECT 1', database: 'db', basic: 'YTpi', userAgent: 'ua' };
    const endpoint = queryRequest({ ...common, clickHouseHttp: false, path: '/service/x/run', wakeService: true });
    assert.equal(endpoint.path, '/service/x/run?format=JSONCompactEachRowWithNamesAndTypes');
    assert.deepEqual(JSON.parse(endpoint.body), { sql: 'SELECT 1', database: 'db' });
    assert.equal(endpoint.headers['wake-service'], 'true');
    assert.equal(endpoint.headers.authorization, 'Basic YTpi');
    const http = queryRequest({ ...common, clickHouseHttp: true, path: '/', wakeService: true });
    assert.equal(http.path, '/?default_format=JSONCompactEachRowWithNamesAndTypes&database=db');
    assert.equal(http.body, 'SELECT 1');
    assert.equal(http.headers['wake-service'], undefined);
    assert.match(http.headers['content-type'] ?? '', /^text\/plain/);
  });
});

describe('count of an unfinished line', () => {
  it('counts in pieces what the whole line holds, whatever the cuts (strings and escapes carried over)', () => {
    const line = '[{"a":"[{\\"}"},["\\\\",{}],"x\\\\\\"[",[[]]]';
    const whole = countJsonContainers(line);
    for (let cut = 0; cut <= line.length; cut++) {
      for (let cut2 = cut; cut2 <= line.length; cut2 += 3) {
        const scan = new PartialLineScan();
        scan.add(Buffer.from(line.slice(0, cut)));
        scan.add(Buffer.from(line.slice(cut, cut2)));
        assert.equal(scan.add(Buffer.from(line.slice(cut2))), whole, `cuts at ${cut}, ${cut2}`);
      }
    }
  });
});
