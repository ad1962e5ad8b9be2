/**
 * Spans onto definitions: a span's code attributes (either generation) read, its file's definitions scanned, and the
 * definition found by name, by class or module, and by line where names repeat.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readCodeAttributes } from '../../../src/codeModel/codeAttributes';
import { scanDefinitions } from '../../../src/codeModel/definitions';
import { matchDefinition } from '../../../src/codeModel/match';

const TS = `export class ChargeService {
  charge(order) {
    return 1;
  }
}
export class RefundService {
  charge(order) {
    return 2;
  }
}
export function charge(order) {
  return [1, 2].map((x) => {
    return x;
  });
}`;
const JAVA = `package com.example.pay;
public class ChargeService {
    public ChargeService(Client c) {
    }
    public Receipt charge(Order o) {
        return null;
    }
    public Receipt charge(Order o, Currency c) {
        return null;
    }
}`;
const PY = `class Views:
    def charge(self):
        pass

@route("/pay")
def charge(request):
    return 1
`;

const CASES: {
  name: string;
  attrs: Record<string, string>;
  text: string;
  language: 'typescript' | 'java' | 'python';
  want: string;
}[] = [
  {
    name: 'class and method (stable, fully qualified)',
    attrs: { 'code.function.name': 'RefundService.charge' },
    text: TS,
    language: 'typescript',
    want: 'matched container RefundService 7-9',
  },
  {
    name: 'module-level function among methods of the same name',
    attrs: { 'code.function.name': 'pay.charge' },
    text: TS,
    language: 'typescript',
    want: 'matched container - 11-15',
  },
  {
    name: 'name alone is ambiguous',
    attrs: { 'code.function': 'charge' },
    text: TS,
    language: 'typescript',
    want: 'ambiguous 3',
  },
  {
    name: 'name and line settle it',
    attrs: { 'code.function': 'charge', 'code.lineno': '8' },
    text: TS,
    language: 'typescript',
    want: 'matched line RefundService 7-9',
  },
  {
    name: 'anonymous function: the innermost definition holding the line',
    attrs: { 'code.function': '(anonymous)', 'code.lineno': '13' },
    text: TS,
    language: 'typescript',
    want: 'matched line - 11-15',
  },
  {
    name: 'Java code.namespace + code.function, overloads by line',
    attrs: { 'code.namespace': 'com.example.pay.ChargeService', 'code.function': 'charge', 'code.lineno': '9' },
    text: JAVA,
    language: 'java',
    want: 'matched line ChargeService 8-10',
  },
  {
    name: 'Java constructor <init>',
    attrs: { 'code.namespace': 'com.example.pay.ChargeService', 'code.function': '<init>' },
    text: JAVA,
    language: 'java',
    want: 'matched name ChargeService 3-4',
  },
  {
    name: 'Python module function with a decorator line',
    attrs: { 'code.namespace': 'app.pay.views', 'code.function': 'charge', 'code.lineno': '5' },
    text: PY,
    language: 'python',
    want: 'matched container - 5-7',
  },
  {
    name: 'unknown name',
    attrs: { 'code.function.name': 'Nope.nothing' },
    text: TS,
    language: 'typescript',
    want: 'none',
  },
];

describe('Spans onto definitions', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const loc = readCodeAttributes(c.attrs);
      assert.ok(loc);
      const m = matchDefinition(loc, scanDefinitions(c.text, c.language).definitions);
      const shown =
        m.kind === 'matched'
          ? `matched ${m.by} ${m.definition.container ?? '-'} ${m.definition.start}-${m.definition.end}`
          : m.kind === 'ambiguous'
            ? `ambiguous ${m.definitions.length}`
            : 'none';
      assert.equal(shown, c.want);
    });
  }
});
