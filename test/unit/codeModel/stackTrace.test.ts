/**
 * Stack traces of each runtime, as the runtimes print them, read into frames: file, line, column, function, the
 * exception of a chain each frame belongs to, and the bounds.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_FRAMES, MAX_TRACE_CHARS, parseStackTrace, type Frame } from '../../../src/codeModel/stackTrace';

type Row = [file: string | undefined, line: number | undefined, fn: string | undefined, exception?: number];

function rows(frames: Frame[]): Row[] {
  return frames.map((f) => [f.file, f.line, f.function, f.exception]);
}

const CASES: { name: string; runtime: Frame['runtime']; text: string; frames: Row[]; omitted?: number }[] = [
  {
    name: 'Node (V8): named, method, constructor, anonymous, async, file URL, internal, [cause]',
    runtime: 'javascript',
    text: `TypeError: Cannot read properties of undefined (reading 'amount')
    at chargeCard (/app/src/pay/charge.ts:42:17)
    at PaymentService.charge (/app/src/pay/service.ts:88:12)
    at new Checkout (/app/src/checkout.ts:10:5)
    at /app/src/routes/pay.ts:7:3
    at Object.<anonymous> (/app/dist/index.js:3:1)
    at async Promise.all (index 0)
    at async handler (file:///srv/app/src/handler.mjs:15:9)
    at Array.forEach (<anonymous>)
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5) {
  [cause]: Error: upstream timeout
      at request (/app/src/http/client.ts:120:11)
}`,
    frames: [
      ['/app/src/pay/charge.ts', 42, 'chargeCard', 0],
      ['/app/src/pay/service.ts', 88, 'PaymentService.charge', 0],
      ['/app/src/checkout.ts', 10, 'Checkout', 0],
      ['/app/src/routes/pay.ts', 7, undefined, 0],
      ['/app/dist/index.js', 3, 'Object.<anonymous>', 0],
      ['file:///srv/app/src/handler.mjs', 15, 'handler', 0],
      ['node:internal/process/task_queues', 95, 'process.processTicksAndRejections', 0],
      ['/app/src/http/client.ts', 120, 'request', 1],
    ],
  },
  {
    name: 'Node on Windows and a browser (Firefox/Safari)',
    runtime: 'javascript',
    text: `Error: boom
    at main (C:\\work\\app\\src\\main.js:5:11)
render@https://shop.example.com/static/js/main.4f2a.js:1:2203
@https://shop.example.com/static/js/vendor.js:2:15`,
    frames: [
      ['C:\\work\\app\\src\\main.js', 5, 'main', 0],
      ['https://shop.example.com/static/js/main.4f2a.js', 1, 'render', 0],
      ['https://shop.example.com/static/js/vendor.js', 2, undefined, 0],
    ],
  },
  {
    name: 'Python: traceback, chained exceptions, frozen modules, 3.11 carets',
    runtime: 'python',
    text: `Traceback (most recent call last):
  File "/app/pay/provider.py", line 31, in request
    resp = session.post(url, json=body, timeout=3)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "<frozen importlib._bootstrap>", line 1176, in _find_and_load
TimeoutError: provider did not answer

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/usr/local/lib/python3.12/site-packages/flask/app.py", line 1473, in wsgi_app
    response = self.full_dispatch_request()
  File "/app/pay/charge.py", line 58, in charge
    return provider.request(order)
PaymentError: charge failed`,
    frames: [
      ['/app/pay/provider.py', 31, 'request', 0],
      ['<frozen importlib._bootstrap>', 1176, '_find_and_load', 0],
      ['/usr/local/lib/python3.12/site-packages/flask/app.py', 1473, 'wsgi_app', 1],
      ['/app/pay/charge.py', 58, 'charge', 1],
    ],
  },
  {
    name: 'Java: packages become folders, Caused by, ... N more, native and unknown sources, modules',
    runtime: 'java',
    text: `java.lang.IllegalStateException: payment declined
	at com.example.pay.ChargeService.charge(ChargeService.java:57)
	at com.example.pay.ChargeService$Retry.lambda$run$0(ChargeService.java:112)
	at com.example.web.PayController.<init>(PayController.java:21)
	at java.base/java.lang.Thread.run(Thread.java:1583)
	at jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)
	at com.example.Generated.call(Unknown Source)
Caused by: java.net.SocketTimeoutException: Read timed out
	at java.base/sun.nio.ch.NioSocketImpl.timedRead(NioSocketImpl.java:288)
	at com.example.pay.ProviderClient.send(ProviderClient.java:44)
	... 12 more`,
    frames: [
      ['com/example/pay/ChargeService.java', 57, 'com.example.pay.ChargeService.charge', 0],
      ['com/example/pay/ChargeService.java', 112, 'com.example.pay.ChargeService$Retry.lambda$run$0', 0],
      ['com/example/web/PayController.java', 21, 'com.example.web.PayController.<init>', 0],
      ['java/lang/Thread.java', 1583, 'java.lang.Thread.run', 0],
      [undefined, undefined, 'jdk.internal.reflect.NativeMethodAccessorImpl.invoke0', 0],
      [undefined, undefined, 'com.example.Generated.call', 0],
      ['sun/nio/ch/NioSocketImpl.java', 288, 'sun.nio.ch.NioSocketImpl.timedRead', 1],
      ['com/example/pay/ProviderClient.java', 44, 'com.example.pay.ProviderClient.send', 1],
    ],
    omitted: 12,
  },
  {
    name: 'Kotlin (coroutines)',
    runtime: 'java',
    text: `kotlin.KotlinNullPointerException
	at com.example.cart.CartRepositoryKt.load(CartRepository.kt:19)
	at com.example.cart.CartService$total$1.invokeSuspend(CartService.kt:33)
	at kotlinx.coroutines.DispatchedTask.run(DispatchedTask.kt:108)`,
    frames: [
      ['com/example/cart/CartRepository.kt', 19, 'com.example.cart.CartRepositoryKt.load', 0],
      ['com/example/cart/CartService.kt', 33, 'com.example.cart.CartService$total$1.invokeSuspend', 0],
      ['kotlinx/coroutines/DispatchedTask.kt', 108, 'kotlinx.coroutines.DispatchedTask.run', 0],
    ],
  },
  {
    name: 'Go: panic with goroutine dump, receivers, created by',
    runtime: 'go',
    text: `panic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x6b2f4a]

goroutine 42 [running]:
github.com/example/shop/pay.(*Server).Charge(0xc0001a2000, {0x8a1f40, 0xc0002b4060}, 0xc0003c8000)
	/build/pay/server.go:87 +0x2a
github.com/example/shop/pay.validate(...)
	/build/pay/validate.go:12
net/http.HandlerFunc.ServeHTTP(0xc000010000?, {0x8a1f40?, 0xc0002b4060?}, 0x0?)
	/usr/local/go/src/net/http/server.go:2171 +0x29
created by net/http.(*Server).Serve in goroutine 1
	/usr/local/go/src/net/http/server.go:3285 +0x4b4
exit status 2`,
    frames: [
      ['/build/pay/server.go', 87, 'github.com/example/shop/pay.(*Server).Charge', 0],
      ['/build/pay/validate.go', 12, 'github.com/example/shop/pay.validate', 0],
      ['/usr/local/go/src/net/http/server.go', 2171, 'net/http.HandlerFunc.ServeHTTP', 0],
      ['/usr/local/go/src/net/http/server.go', 3285, 'net/http.(*Server).Serve', 0],
    ],
  },
  {
    name: '.NET: Windows and Linux paths, async state machines, frames without files, inner exception',
    runtime: 'dotnet',
    text: `System.InvalidOperationException: Charge failed
 ---> System.Net.Http.HttpRequestException: Connection refused (provider:443)
   at System.Net.Http.HttpConnectionPool.ConnectAsync(HttpRequestMessage request, Boolean async, CancellationToken cancellationToken)
   at Shop.Payments.ProviderClient.SendAsync(ChargeRequest req) in /src/Shop.Payments/ProviderClient.cs:line 64
   --- End of inner exception stack trace ---
   at Shop.Payments.ChargeService.ChargeAsync(Decimal amount, String currency) in C:\\build\\Shop.Payments\\ChargeService.cs:line 42
   at Shop.Api.Controllers.PayController.<Post>d__4.MoveNext() in C:\\build\\Shop.Api\\Controllers\\PayController.cs:Zeile 27
--- End of stack trace from previous location ---
   at Microsoft.AspNetCore.Mvc.Infrastructure.ActionMethodExecutor.TaskOfIActionResultExecutor.Execute()`,
    frames: [
      [undefined, undefined, 'System.Net.Http.HttpConnectionPool.ConnectAsync', 0],
      ['/src/Shop.Payments/ProviderClient.cs', 64, 'Shop.Payments.ProviderClient.SendAsync', 0],
      ['C:\\build\\Shop.Payments\\ChargeService.cs', 42, 'Shop.Payments.ChargeService.ChargeAsync', 1],
      [
        'C:\\build\\Shop.Api\\Controllers\\PayController.cs',
        27,
        'Shop.Api.Controllers.PayController.<Post>d__4.MoveNext',
        1,
      ],
      [
        undefined,
        undefined,
        'Microsoft.AspNetCore.Mvc.Infrastructure.ActionMethodExecutor.TaskOfIActionResultExecutor.Execute',
        1,
      ],
    ],
  },
  {
    name: 'Ruby: backtick and single-quote styles (3.3 and 3.4), blocks, irb "from" lines',
    runtime: 'ruby',
    text: `/app/app/models/order.rb:42:in \`charge!': card declined (Payments::Declined)
	from /app/app/models/order.rb:17:in \`block in checkout'
	from /app/app/services/checkout.rb:8:in 'Checkout#call'
	from /usr/local/bundle/gems/activesupport-7.1.3/lib/active_support/callbacks.rb:121:in 'block in ActiveSupport::Callbacks#run_callbacks'`,
    frames: [
      ['/app/app/models/order.rb', 42, 'charge!', 0],
      ['/app/app/models/order.rb', 17, 'block in checkout', 0],
      ['/app/app/services/checkout.rb', 8, 'Checkout#call', 0],
      [
        '/usr/local/bundle/gems/activesupport-7.1.3/lib/active_support/callbacks.rb',
        121,
        'block in ActiveSupport::Callbacks#run_callbacks',
        0,
      ],
    ],
  },
];

describe('Stack traces', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const parsed = parseStackTrace(c.text);
      assert.deepEqual(rows(parsed.frames), c.frames);
      assert.ok(parsed.frames.every((f) => f.runtime === c.runtime));
      assert.equal(parsed.omitted, c.omitted ?? 0);
      assert.equal(parsed.truncated, false);
    });
  }

  it('reads columns of JavaScript frames', () => {
    const [frame] = parseStackTrace('    at chargeCard (/app/src/pay/charge.ts:42:17)').frames;
    assert.deepEqual(frame, {
      file: '/app/src/pay/charge.ts',
      line: 42,
      column: 17,
      function: 'chargeCard',
      runtime: 'javascript',
      exception: 0,
    });
  });

  it('reads Windows line endings', () => {
    const text = 'Traceback (most recent call last):\r\n  File "/app/x.py", line 3, in <module>\r\nValueError: x\r\n';
    assert.deepEqual(rows(parseStackTrace(text).frames), [['/app/x.py', 3, '<module>', 0]]);
  });

  it('finds no frames in text that is no stack trace', () => {
    for (const text of ['', 'payment declined for order 42', 'GET /api/cart 200 in 12 ms', 'a:1', '   ', 'user@host']) {
      assert.deepEqual(parseStackTrace(text).frames, [], text);
    }
  });

  it('keeps at most MAX_FRAMES frames and says it cut', () => {
    const text = Array.from({ length: MAX_FRAMES + 50 }, (_, i) => `    at f${i} (/app/a.js:${i + 1}:1)`).join('\n');
    const parsed = parseStackTrace(text);
    assert.equal(parsed.frames.length, MAX_FRAMES);
    assert.equal(parsed.truncated, true);
  });

  it('reads at most MAX_TRACE_CHARS characters and skips overlong lines', () => {
    const frame = '    at f (/app/a.js:1:1)\n';
    const huge = frame + 'x'.repeat(MAX_TRACE_CHARS) + '\n' + frame;
    const parsed = parseStackTrace(huge);
    assert.equal(parsed.frames.length, 1);
    assert.equal(parsed.truncated, true);
    const long = parseStackTrace(`    at f (/app/${'a/'.repeat(5000)}x.js:1:1)\n${frame}`);
    assert.equal(long.frames.length, 1);
    assert.equal(long.truncated, true);
  });

  it('does not take long on hostile lines (no catastrophic backtracking)', () => {
    // Lines just under the length bound, shaped to make backtracking regular expressions slow.
    const hostile = [
      `    at ${'a ('.repeat(600)}`,
      `  File "${'"'.repeat(1900)}`,
      `${':1'.repeat(990)}:in x`,
      `\t${'a.go:'.repeat(390)}`,
    ].join('\n');
    const parsed = parseStackTrace(hostile.repeat(30));
    assert.ok(parsed.frames.length <= MAX_FRAMES);
  });
});
