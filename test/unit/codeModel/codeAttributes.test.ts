/**
 * Code attributes of both generations read from span attributes: the function, what holds it and its qualified
 * name in each runtime's notation, the file and line; the stable keys win; empty and oversized values are absent.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readCodeAttributes, MAX_VALUE_CHARS, type CodeLocation } from '../../../src/codeModel/codeAttributes';

const CASES: { name: string; attrs: Record<string, string>; want: CodeLocation | undefined }[] = [
  {
    name: 'stable, Java fully qualified',
    attrs: { 'code.function.name': 'com.example.MyHttpService.serveRequest', 'code.line.number': '42' },
    want: {
      function: 'serveRequest',
      namespace: 'com.example.MyHttpService',
      container: 'MyHttpService',
      qualified: 'com.example.MyHttpService.serveRequest',
      line: 42,
      anonymous: false,
      generation: 'stable',
    },
  },
  {
    name: 'stable, PHP',
    attrs: {
      'code.function.name': 'GuzzleHttp\\Client::transfer',
      'code.file.path': '/var/www/vendor/guzzle/src/Client.php',
    },
    want: {
      function: 'transfer',
      namespace: 'GuzzleHttp\\Client',
      container: 'Client',
      qualified: 'GuzzleHttp\\Client::transfer',
      file: '/var/www/vendor/guzzle/src/Client.php',
      anonymous: false,
      generation: 'stable',
    },
  },
  {
    name: 'stable, a C function without namespace',
    attrs: { 'code.function.name': 'fopen' },
    want: { function: 'fopen', qualified: 'fopen', anonymous: false, generation: 'stable' },
  },
  {
    name: 'stable, Go method with pointer receiver',
    attrs: {
      'code.function.name': 'github.com/example/shop/pay.(*Server).Charge',
      'code.file.path': '/build/pay/server.go',
      'code.line.number': '87',
      'code.column.number': '3',
    },
    want: {
      function: 'Charge',
      namespace: 'github.com/example/shop/pay.(*Server)',
      container: 'Server',
      qualified: 'github.com/example/shop/pay.(*Server).Charge',
      file: '/build/pay/server.go',
      line: 87,
      column: 3,
      anonymous: false,
      generation: 'stable',
    },
  },
  {
    name: 'deprecated, Java: code.namespace + code.function match Class.method, no file',
    attrs: { 'code.namespace': 'com.example.pay.ChargeService', 'code.function': 'charge' },
    want: {
      function: 'charge',
      namespace: 'com.example.pay.ChargeService',
      container: 'ChargeService',
      qualified: 'com.example.pay.ChargeService.charge',
      anonymous: false,
      generation: 'deprecated',
    },
  },
  {
    name: 'deprecated, .NET with an argument list',
    attrs: { 'code.namespace': 'Shop.Payments.ChargeService', 'code.function': 'ChargeAsync(Decimal, String)' },
    want: {
      function: 'ChargeAsync',
      namespace: 'Shop.Payments.ChargeService',
      container: 'ChargeService',
      qualified: 'Shop.Payments.ChargeService.ChargeAsync',
      anonymous: false,
      generation: 'deprecated',
    },
  },
  {
    name: 'deprecated, Python (decorated: the line is the decorator)',
    attrs: {
      'code.namespace': 'app.pay.views',
      'code.function': 'charge',
      'code.filepath': '/app/pay/views.py',
      'code.lineno': '12',
    },
    want: {
      function: 'charge',
      namespace: 'app.pay.views',
      container: 'views',
      qualified: 'app.pay.views.charge',
      file: '/app/pay/views.py',
      line: 12,
      anonymous: false,
      generation: 'deprecated',
    },
  },
  {
    name: 'deprecated, Ruby',
    attrs: {
      'code.namespace': 'Payments::Charge',
      'code.function': 'call',
      'code.filepath': '/app/app/payments/charge.rb',
    },
    want: {
      function: 'call',
      namespace: 'Payments::Charge',
      container: 'Charge',
      qualified: 'Payments::Charge.call',
      file: '/app/app/payments/charge.rb',
      anonymous: false,
      generation: 'deprecated',
    },
  },
  {
    name: 'deprecated, Node: the class in code.function, anonymous arrow functions',
    attrs: { 'code.function': 'ChargeService.charge', 'code.filepath': '/app/src/pay/charge.js', 'code.lineno': '10' },
    want: {
      function: 'charge',
      namespace: 'ChargeService',
      container: 'ChargeService',
      qualified: 'ChargeService.charge',
      file: '/app/src/pay/charge.js',
      line: 10,
      anonymous: false,
      generation: 'deprecated',
    },
  },
  {
    name: 'deprecated, Node anonymous function: matched by file and line only',
    attrs: { 'code.function': '(anonymous)', 'code.filepath': '/app/src/routes.js', 'code.lineno': '31' },
    want: { file: '/app/src/routes.js', line: 31, anonymous: true, generation: 'deprecated' },
  },
  {
    name: 'code.namespace repeated in code.function is not doubled',
    attrs: { 'code.namespace': 'app.pay', 'code.function': 'app.pay.Charge.run' },
    want: {
      function: 'run',
      namespace: 'app.pay.Charge',
      container: 'Charge',
      qualified: 'app.pay.Charge.run',
      anonymous: false,
      generation: 'deprecated',
    },
  },
  {
    name: 'both generations: the stable keys win',
    attrs: {
      'code.function.name': 'pay.Charge.run',
      'code.function': 'old',
      'code.namespace': 'legacy',
      'code.file.path': '/new/x.py',
      'code.filepath': '/old/x.py',
      'code.line.number': '5',
      'code.lineno': '9',
    },
    want: {
      function: 'run',
      namespace: 'pay.Charge',
      container: 'Charge',
      qualified: 'pay.Charge.run',
      file: '/new/x.py',
      line: 5,
      anonymous: false,
      generation: 'both',
    },
  },
  {
    name: 'empty, oversized and malformed values are absent',
    attrs: {
      'code.function.name': '',
      'code.function': 'x'.repeat(MAX_VALUE_CHARS + 1),
      'code.filepath': '  /app/a.ts  ',
      'code.lineno': '-4',
      'code.line.number': '1e9',
      'code.column': '0',
    },
    want: { file: '/app/a.ts', anonymous: false, generation: 'deprecated' },
  },
  { name: 'no code attributes', attrs: { 'http.route': '/pay', 'code.other': 'x' }, want: undefined },
];

describe('Code attributes', () => {
  for (const c of CASES) {
    it(c.name, () => {
      assert.deepEqual(readCodeAttributes(c.attrs), c.want);
    });
  }

  it('reads a Map the same as an object', () => {
    const attrs = { 'code.namespace': 'com.example.pay.ChargeService', 'code.function': 'charge', 'code.lineno': '7' };
    assert.deepEqual(readCodeAttributes(new Map(Object.entries(attrs))), readCodeAttributes(attrs));
  });
});
