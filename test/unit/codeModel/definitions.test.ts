/**
 * The plain definition scan: functions, methods and classes with their container and line range, per language.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  languageOf,
  MAX_DEFINITIONS,
  MAX_SCAN_LINES,
  scanDefinitions,
  type Language,
} from '../../../src/codeModel/definitions';

/** [name, container, start, end] per definition. */
type Row = [string, string | undefined, number, number];

function scan(language: Language, text: string): Row[] {
  return scanDefinitions(text, language).definitions.map((d) => [d.name, d.container, d.start, d.end]);
}

const CASES: { language: Language; text: string; want: Row[] }[] = [
  {
    language: 'typescript',
    text: `import { x } from './x';
// function commented(a) {
export async function charge(order: Order): Promise<void> {
  const s = "not { a brace";
  if (order.total > 0) {
    await send(order);
  }
}

export const refund = async (id: string) => {
  return id;
};
const double = (n: number) => n * 2;

export class ChargeService {
  private readonly client = new Client();
  constructor(private readonly db: Db) {}
  async charge(order: Order): Promise<void> {
    for (const item of order.items) {
      this.db.save(item);
    }
  }
  get total(): number {
    return 1;
  }
  handle = async (e: Event) => {
    return e;
  };
}
function* ids() {
  yield 1;
}`,
    want: [
      ['charge', undefined, 3, 8],
      ['refund', undefined, 10, 12],
      ['double', undefined, 13, 13],
      ['ChargeService', undefined, 15, 29],
      ['constructor', 'ChargeService', 17, 17],
      ['charge', 'ChargeService', 18, 22],
      ['total', 'ChargeService', 23, 25],
      ['handle', 'ChargeService', 26, 28],
      ['ids', undefined, 30, 32],
    ],
  },
  {
    language: 'python',
    text: `import logging

class ChargeService:
    """Charges cards.

    def not_a_method(self):
    """

    @retry(times=3)
    @traced
    def charge(self, order):
        if order.total > 0:
            send(order)

        return True

    async def refund(self, order_id):
        return order_id

def handler(event, context):
    # a comment
    return ChargeService().charge(event)
`,
    want: [
      ['ChargeService', undefined, 3, 18],
      ['charge', 'ChargeService', 9, 15],
      ['refund', 'ChargeService', 17, 18],
      ['handler', undefined, 20, 22],
    ],
  },
  {
    language: 'java',
    text: `package com.example.pay;

@Service
public class ChargeService {
    private final Client client;

    public ChargeService(Client client) {
        this.client = client;
    }

    @Transactional
    public Receipt charge(Order order) throws PaymentException {
        if (order.isEmpty()) {
            throw new PaymentException("empty");
        }
        return client.send(order);
    }

    private static <T> List<T> copy(List<T> items) { return new ArrayList<>(items); }

    abstract void hook();

    static class Retry {
        void run() {
        }
    }
}`,
    want: [
      ['ChargeService', undefined, 4, 27],
      ['ChargeService', 'ChargeService', 7, 9],
      ['charge', 'ChargeService', 12, 17],
      ['copy', 'ChargeService', 19, 19],
      ['hook', 'ChargeService', 21, 21],
      ['Retry', undefined, 23, 26],
      ['run', 'Retry', 24, 25],
    ],
  },
  {
    language: 'csharp',
    text: `namespace Shop.Payments
{
    public sealed class ChargeService : IChargeService
    {
        public async Task<Receipt> ChargeAsync(decimal amount, string currency)
        {
            var s = "}";
            return await _client.SendAsync(amount);
        }

        public override string ToString() => "ChargeService";
    }
}`,
    want: [
      ['ChargeService', undefined, 3, 12],
      ['ChargeAsync', 'ChargeService', 5, 9],
      ['ToString', 'ChargeService', 11, 11],
    ],
  },
  {
    language: 'go',
    text: `package pay

type Server struct {
	client *Client
}

func (s *Server) Charge(ctx context.Context, o Order) error {
	if o.Total == 0 {
		return errors.New("empty }")
	}
	return s.client.Send(ctx, o)
}

func validate(o Order) bool { return o.Total > 0 }

func Map[T any](xs []T) []T {
	return xs
}`,
    want: [
      ['Charge', 'Server', 7, 12],
      ['validate', undefined, 14, 14],
      ['Map', undefined, 16, 18],
    ],
  },
  {
    language: 'ruby',
    text: `module Payments
  class Charge
    def call(order)
      order.items.each do |item|
        save(item)
      end
    end

    def self.build = new

    def valid?; true; end
  end
end

def helper
  1
end`,
    want: [
      ['Payments', undefined, 1, 13],
      ['Charge', undefined, 2, 12],
      ['call', 'Charge', 3, 7],
      ['build', 'Charge', 9, 9],
      ['valid?', 'Charge', 11, 11],
      ['helper', undefined, 15, 17],
    ],
  },
  {
    language: 'kotlin',
    text: `package com.example.cart

class CartService(private val repo: CartRepository) {
    suspend fun total(id: String): Long {
        return repo.load(id).sum()
    }

    fun isEmpty(id: String) = repo.load(id).isEmpty()
}

fun main() {
    println("hi")
}`,
    want: [
      ['CartService', undefined, 3, 9],
      ['total', 'CartService', 4, 6],
      ['isEmpty', 'CartService', 8, 8],
      ['main', undefined, 11, 13],
    ],
  },
];

describe('Definition scan', () => {
  for (const c of CASES) {
    it(c.language, () => {
      assert.deepEqual(scan(c.language, c.text), c.want);
    });
  }

  it('names the language by file extension', () => {
    assert.equal(languageOf('src/pay/charge.ts'), 'typescript');
    assert.equal(languageOf('a/b.PY'), 'python');
    assert.equal(languageOf('Charge.cs'), 'csharp');
    assert.equal(languageOf('README.md'), undefined);
    assert.equal(languageOf('Makefile'), undefined);
  });

  it('is bounded: lines, definitions, overlong lines', () => {
    const many = Array.from({ length: MAX_DEFINITIONS + 10 }, (_, i) => `function f${i}() {}`).join('\n');
    const r = scanDefinitions(many, 'javascript');
    assert.equal(r.definitions.length, MAX_DEFINITIONS);
    assert.equal(r.truncated, true);
    const long = scanDefinitions('\n'.repeat(MAX_SCAN_LINES + 5) + 'function late() {}', 'javascript');
    assert.deepEqual(long.definitions, []);
    assert.equal(long.truncated, true);
    const minified = scanDefinitions(`function a(){${'x;'.repeat(5000)}}`, 'javascript');
    assert.deepEqual(minified.definitions, []);
    assert.equal(minified.truncated, true);
  });

  it('an unclosed definition runs to the end of the file', () => {
    assert.deepEqual(scan('go', 'package x\nfunc broken() {\n\tif x {\n'), [['broken', undefined, 2, 4]]);
  });
});
