// The data-API handler sandbox's worker thread (docs/dataapi.md "The handler sandbox"). Plain
// JavaScript so that it starts without a TypeScript loader. Each job gets a fresh QuickJS
// runtime and context: no network, no modules, no host functions at all — the handler sees only
// the JSON it is given. Memory is limited to 32 MB and the interpreter is interrupted after
// 200 ms; the parent terminates this whole thread at 1 s wall clock whatever happens in here.
import { parentPort } from 'node:worker_threads';
import { getQuickJS } from 'quickjs-emscripten';

const MEMORY_LIMIT = 32 * 1024 * 1024;
const INTERRUPT_MS = 200;

const quickjs = await getQuickJS();

function classify(dumped) {
  const message = typeof dumped === 'object' && dumped !== null ? `${dumped.name ?? 'Error'}: ${dumped.message ?? ''}` : String(dumped);
  if (/interrupted/i.test(message)) return { kind: 'interrupt', message };
  if (/out of memory|string too long|invalid array length|allocation/i.test(message)) return { kind: 'memory', message };
  if (/SyntaxError/.test(message)) return { kind: 'syntax', message };
  return { kind: 'error', message: message.slice(0, 500) };
}

function withContext(fn) {
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(MEMORY_LIMIT);
  runtime.setMaxStackSize(512 * 1024);
  const deadline = Date.now() + INTERRUPT_MS;
  runtime.setInterruptHandler(() => Date.now() > deadline);
  const vm = runtime.newContext();
  try {
    return fn(vm);
  } finally {
    vm.dispose();
    runtime.dispose();
  }
}

function evaluate(vm, code) {
  const result = vm.evalCode(code, 'handler.js');
  if (result.error) {
    const dumped = vm.dump(result.error);
    result.error.dispose();
    return { ok: false, error: classify(dumped) };
  }
  const value = vm.dump(result.value);
  result.value.dispose();
  return { ok: true, value };
}

function run(job) {
  if (job.kind === 'check') {
    return withContext((vm) => {
      const out = evaluate(vm, `typeof (\n${job.source}\n)`);
      if (!out.ok) return out;
      return out.value === 'function' ? { ok: true, value: null } : { ok: false, error: { kind: 'notFunction', message: String(out.value) } };
    });
  }
  return withContext((vm) => {
    const input = vm.newString(job.input);
    vm.setProp(vm.global, '__input', input);
    input.dispose();
    const out = evaluate(
      vm,
      `'use strict';\nconst __in = JSON.parse(__input);\nconst __out = (\n${job.source}\n)(__in.data, __in.params);\nJSON.stringify(__out === undefined ? null : __out)`,
    );
    if (!out.ok) return out;
    return { ok: true, value: typeof out.value === 'string' ? out.value : 'null' };
  });
}

parentPort.on('message', (job) => {
  let reply;
  try {
    reply = run(job);
  } catch (error) {
    // QuickJS itself failing (its heap exhausted while setting up) is the handler's memory fault.
    reply = { ok: false, error: classify(error instanceof Error ? { name: error.name, message: error.message } : error) };
  }
  parentPort.postMessage({ id: job.id, ...reply });
});
parentPort.postMessage({ ready: true });
