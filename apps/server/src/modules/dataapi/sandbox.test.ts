import { afterAll, describe, expect, it } from 'vitest';
import { dataApiMessages, DEFAULT_API_JS_FUNCTION } from '@shutu/contracts';
import { AppError } from '../../platform/http/errors.ts';
import { checkHandlerSyntax, runHandler, SandboxPool } from './sandbox.ts';

/** The handler sandbox (docs/dataapi.md "The handler sandbox"). */
describe('data-API handler sandbox', () => {
  const pool = new SandboxPool(2);
  afterAll(() => pool.close());

  const failure = async (promise: Promise<unknown>): Promise<AppError> => {
    try {
      await promise;
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      return error as AppError;
    }
    throw new Error('expected a failure');
  };

  it('runs the default handler and a reshaping one on the JSON it is given', async () => {
    expect(await runHandler(DEFAULT_API_JS_FUNCTION, { a: [1, 2] }, {}, pool)).toEqual({ a: [1, 2] });
    const reshape = 'function (data, params) { return data.items.map(function (x) { return { name: x.n, v: x.v * params.k }; }); }';
    expect(await runHandler(reshape, { items: [{ n: 'a', v: 2 }] }, { k: 3 }, pool)).toEqual([{ name: 'a', v: 6 }]);
    expect(await runHandler('function () {}', 1, {}, pool)).toBeNull();
  });

  it('has no network, no modules and no host objects', async () => {
    const probe = `function () { return [typeof fetch, typeof require, typeof process, typeof XMLHttpRequest, typeof globalThis.std, typeof globalThis.os]; }`;
    expect(await runHandler(probe, null, {}, pool)).toEqual(['undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined']);
    // A static import does not even compile; a dynamic one yields a promise that never loads anything.
    expect((await failure(checkHandlerSyntax('function () { import os from "os"; return os; }', pool))).message).toBe(dataApiMessages.checkSyntax);
    expect(await runHandler('function () { return import("os"); }', null, {}, pool)).toEqual({});
  });

  it('refuses a syntax error at save with 请检查语法, and what is not a function', async () => {
    await expect(checkHandlerSyntax(DEFAULT_API_JS_FUNCTION, pool)).resolves.toBeUndefined();
    const broken = await failure(checkHandlerSyntax('function (data) { return data', pool));
    expect(broken.message).toBe(dataApiMessages.checkSyntax);
    const notFunction = await failure(checkHandlerSyntax('42', pool));
    expect(notFunction.message).toBe(dataApiMessages.checkSyntax);
  });

  it('kills an infinite loop and a memory bomb within 1.5 s each, while other calls keep being served', async () => {
    const started = Date.now();
    const loop = failure(runHandler('function () { while (true) {} }', null, {}, pool)).then((e) => ({ e, ms: Date.now() - started }));
    const bomb = failure(runHandler('function () { var a = []; for (;;) { a.push(new Array(1e6).join("x")); } }', null, {}, pool)).then((e) => ({
      e,
      ms: Date.now() - started,
    }));
    // Both workers are busy with a runaway handler; a third call waits for one, then is served.
    const served = runHandler('function (d) { return d + 1; }', 41, {}, pool);
    const [l, b] = await Promise.all([loop, bomb]);
    expect([dataApiMessages.handlerTimeout, dataApiMessages.handlerKilled]).toContain(l.e.message);
    expect([dataApiMessages.handlerMemory, dataApiMessages.handlerKilled, dataApiMessages.handlerTimeout]).toContain(b.e.message);
    expect(l.ms).toBeLessThan(1_500);
    expect(b.ms).toBeLessThan(1_500);
    expect(await served).toBe(42);
  });
});
