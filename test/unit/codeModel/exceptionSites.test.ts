/**
 * Where production exceptions are marked: the top in-workspace frame of the exception thrown, for real stack traces of
 * each runtime (library frames above it skipped, causes and Python's order read), and groups landing on one line
 * summed. Deployed paths map onto the sample workspace; a path outside it marks nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExceptionGroup } from '../../../src/codeModel/exceptionAggregate';
import { exceptionSites, topWorkspaceFrame } from '../../../src/codeModel/exceptionSites';
import { indexWorkspace, mapPath } from '../../../src/codeModel/pathMapping';
import { parseStackTrace } from '../../../src/codeModel/stackTrace';

const WORKSPACE = indexWorkspace([
  'src/checkout/cart.ts',
  'app/payments/charge.py',
  'src/main/java/com/shop/inventory/StockService.java',
  'cmd/server/main.go',
  'Orders/OrderService.cs',
  'app/models/order.rb',
]);

const toWorkspace = (file: string): string | undefined => {
  const m = mapPath(file, WORKSPACE);
  return m.kind === 'mapped' ? m.path : undefined;
};

const CASES: [string, string, string | undefined, number | undefined][] = [
  [
    'Node: the first frame in the workspace, below a built-in one',
    `TypeError: Cannot read properties of undefined (reading 'sku')
    at Array.findIndex (<anonymous>)
    at CartService.removeItem (/app/src/checkout/cart.ts:17:28)
    at Layer.handle [as handle_request] (/app/node_modules/express/lib/router/layer.js:95:5)`,
    'src/checkout/cart.ts',
    17,
  ],
  [
    'Node: the thrown error, not its cause',
    `Error: checkout failed
    at placeOrder (/app/src/checkout/cart.ts:44:12)
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5) {
  [cause]: Error: unknown coupon TEN5
      at applyCoupon (/app/src/checkout/cart.ts:36:9)
}`,
    'src/checkout/cart.ts',
    44,
  ],
  [
    'Python: the innermost call is written last',
    `Traceback (most recent call last):
  File "/usr/local/lib/python3.12/site-packages/flask/app.py", line 880, in full_dispatch_request
    rv = self.dispatch_request()
  File "/usr/src/app/app/payments/charge.py", line 9, in charge
    validate_amount(amount)
  File "/usr/src/app/app/payments/charge.py", line 19, in validate_amount
    raise ValueError(f"amount must be positive, got {amount}")
ValueError: amount must be positive, got -3`,
    'app/payments/charge.py',
    19,
  ],
  [
    'Python: the innermost workspace frame, above a library frame; the last exception of a chain is the one thrown',
    `Traceback (most recent call last):
  File "/usr/src/app/app/payments/charge.py", line 19, in validate_amount
    raise ValueError("x")
ValueError: x

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/usr/src/app/app/payments/charge.py", line 14, in refund
    return self.provider.refund(order_id, amount)
  File "/usr/local/lib/python3.12/site-packages/stripe/_refund.py", line 212, in create
    return cls._static_request("post", url, params=params)
stripe._error.InvalidRequestError: Charge has already been refunded.`,
    'app/payments/charge.py',
    14,
  ],
  [
    'Java: below the JDK frame, the package names the folders',
    `java.lang.NullPointerException: stock of sku-3 is not tracked
\tat java.base/java.util.Objects.requireNonNull(Objects.java:259)
\tat com.shop.inventory.StockService.reserve(StockService.java:10)
\tat com.shop.api.StockController.reserve(StockController.java:31)
Caused by: java.lang.IllegalStateException: gone
\tat com.shop.inventory.StockService.release(StockService.java:19)
\t... 3 more`,
    'src/main/java/com/shop/inventory/StockService.java',
    10,
  ],
  [
    'Go: the panicking frame after the runtime',
    `panic: runtime error: index out of range [3] with length 3

goroutine 1 [running]:
main.(*Server).handle(0xc000010000, {0x1, 0x2})
\t/go/src/shop/cmd/server/main.go:42 +0x1d
main.main()
\t/go/src/shop/cmd/server/main.go:17 +0x25`,
    'cmd/server/main.go',
    42,
  ],
  [
    '.NET: a Windows build path',
    `System.InvalidOperationException: Order 7 is closed
   at Shop.Orders.OrderService.Close(Int32 id) in C:\\build\\Shop\\Orders\\OrderService.cs:line 57
   at Shop.Api.OrdersController.Post(Int32 id) in C:\\build\\Shop\\Api\\OrdersController.cs:line 21`,
    'Orders/OrderService.cs',
    57,
  ],
  [
    'Ruby',
    `/srv/app/app/models/order.rb:12:in 'close': order closed (RuntimeError)
\tfrom /usr/local/bundle/gems/activerecord-7.1.3/lib/active_record/transactions.rb:209:in 'transaction'`,
    'app/models/order.rb',
    12,
  ],
  [
    'no frame in the workspace; a path climbing out of its root maps to nothing',
    `Error: boom
    at run (/app/../../etc/cart.ts:1:1)
    at node:internal/main/run_main_module:28:49`,
    undefined,
    undefined,
  ],
];

describe('The top in-workspace frame of an exception', () => {
  for (const [name, trace, path, line] of CASES) {
    it(name, () => {
      const top = topWorkspaceFrame(parseStackTrace(trace), toWorkspace);
      assert.deepEqual(top && { path: top.path, line: top.line }, path === undefined ? undefined : { path, line });
    });
  }
});

function group(origin: 'span' | 'log', stacktrace: string, count: number, first: number, last: number): ExceptionGroup {
  return { origin, type: 'ValueError', message: 'm', stacktrace, count, first, last, traceId: '' };
}

describe('Exception sites', () => {
  it('sums the groups landing on one line, by origin, with the first and last seen; drops those outside', () => {
    const py = CASES[2]![1];
    const node = CASES[0]![1];
    const outside = CASES[8]![1];
    const sites = exceptionSites(
      [
        group('span', py, 14, 1000, 9000),
        group('log', py.replace('-3', '-9'), 30, 500, 8000),
        group('span', node, 3, 2000, 3000),
        group('span', outside, 99, 1, 2),
      ],
      toWorkspace,
    );
    assert.deepEqual([...sites.keys()].sort(), ['app/payments/charge.py', 'src/checkout/cart.ts']);
    const [site] = sites.get('app/payments/charge.py')!;
    assert.equal(site?.line, 19);
    assert.equal(site?.count, 44);
    assert.equal(site?.spanCount, 14);
    assert.equal(site?.logCount, 30);
    assert.equal(site?.first, 500);
    assert.equal(site?.last, 9000);
    assert.deepEqual(
      site?.groups.map((g) => g.count),
      [30, 14],
      'most occurrences first',
    );
    assert.equal(sites.get('src/checkout/cart.ts')?.[0]?.line, 17);
  });
});
