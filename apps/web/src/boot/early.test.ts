import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API, apiPath } from '@shutu/contracts';
import { http, takeEarlyBatch } from '../shared/api.ts';
import { mockFetch, ok } from '../test/fetch-mock.ts';
import { sm } from '../features/share/messages.ts';

/** Runs index.html's first script (plain JavaScript outside the bundle) as the page would. */
function runEarlyScript(at: string) {
  window.history.replaceState(null, '', at);
  new Function(readFileSync(path.join(import.meta.dirname, 'early.js'), 'utf8'))();
}

const menu = (menuId: number, visualId: number | null, children: unknown[] = []) => ({ menuId, visualId, children });
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
/** A frame, then a task: when early.js adds the route's preloads. */
const afterFirstPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

describe('the first script (src/boot/early.js)', () => {
  afterEach(async () => {
    // A run's preloads wait for a frame: let them happen now, not in the next test.
    await afterFirstPaint();
    localStorage.clear();
    delete (globalThis as { __shutuEarly?: unknown }).__shutuEarly;
    vi.unstubAllGlobals();
  });

  it('on /m/app/{id} asks for the app first, then the user, the config, the board its menu opens and its first data, each answer used once by the app', async () => {
    localStorage.setItem('shutu.token', 'tok');
    const calls = mockFetch((call) => {
      if (call.url === API.auth.info) return ok({ id: 1, name: '张三' });
      if (call.url === API.system.config) return ok({ systemName: '数图' });
      if (call.url === apiPath(API.app.mobileApp, { id: 7 })) return ok({ appId: 7, menus: [menu(1, null, [menu(2, null), menu(3, 42)]), menu(4, 43)] });
      if (call.url === apiPath(API.board.board, { id: 42 })) return ok({ id: 42, title: '销售概览' });
      if (call.url === API.board.chartDataBatch) return { body: { index: 0 } };
      return undefined;
    });
    runEarlyScript('/m/app/7');
    await settle();
    expect(calls.map((c) => c.url)).toEqual([
      apiPath(API.app.mobileApp, { id: 7 }),
      API.system.config,
      API.auth.info,
      apiPath(API.board.board, { id: 42 }),
      API.board.chartDataBatch,
    ]);
    expect(calls.find((c) => c.url === API.auth.info)?.headers.Authorization).toBe('Bearer tok');
    // The board's first data: a batch that names no charts (the server picks them), each read alone, streamed.
    const batch = calls.find((c) => c.url === API.board.chartDataBatch)!;
    expect(batch.method).toBe('POST');
    expect(batch.body).toEqual({ boardId: 42, grouped: false });
    expect(batch.headers.Accept).toBe('application/x-ndjson');

    // The app's own requests take the answers instead of asking again…
    expect(await http.get(API.auth.info)).toEqual({ id: 1, name: '张三' });
    expect(await http.get(apiPath(API.board.board, { id: 42 }))).toEqual({ id: 42, title: '销售概览' });
    expect(await (await takeEarlyBatch(42, 'tok'))!.text()).toBe('{"index":0}');
    expect(calls).toHaveLength(5);
    // …once: a later request asks the server.
    await http.get(API.auth.info);
    expect(takeEarlyBatch(42, 'tok')).toBeNull();
    expect(calls).toHaveLength(6);
  });

  it('opens the menu named by ?menu=', async () => {
    localStorage.setItem('shutu.token', 'tok');
    const calls = mockFetch((call) => (call.url === apiPath(API.app.mobileApp, { id: 7 }) ? ok({ menus: [menu(1, 42), menu(4, 43)] }) : ok({})));
    runEarlyScript('/m/app/7?menu=4');
    await settle();
    expect(calls.map((c) => c.url)).toContain(apiPath(API.board.board, { id: 43 }));
    expect(calls.find((c) => c.url === API.board.chartDataBatch)?.body).toEqual({ boardId: 43, grouped: false });
    expect(calls.map((c) => c.url)).not.toContain(apiPath(API.board.board, { id: 42 }));
  });

  it('on /newbi/preview/{id} asks for the board and its first data, each chart alone, and the preview page takes both answers', async () => {
    localStorage.setItem('shutu.token', 'tok');
    const calls = mockFetch((call) => {
      if (call.url === apiPath(API.board.board, { id: 42 })) return ok({ id: 42, title: '销售概览' });
      if (call.url === API.board.chartDataBatch) return { body: { index: 0 } };
      return ok({});
    });
    runEarlyScript('/newbi/preview/42');
    await settle();
    expect(calls.map((c) => c.url).sort()).toEqual([API.auth.info, apiPath(API.board.board, { id: 42 }), API.board.chartDataBatch, API.system.config].sort());
    const batch = calls.find((c) => c.url === API.board.chartDataBatch)!;
    expect(batch.body).toEqual({ boardId: 42, grouped: false });
    expect(batch.headers.Authorization).toBe('Bearer tok');
    expect(await http.get(apiPath(API.board.board, { id: 42 }))).toEqual({ id: 42, title: '销售概览' });
    // Taken once, with the same session only.
    expect(takeEarlyBatch(42, 'other')).toBeNull();
    expect(await (await takeEarlyBatch(42, 'tok'))!.text()).toBe('{"index":0}');
    expect(takeEarlyBatch(42, 'tok')).toBeNull();
    expect(calls).toHaveLength(4);
  });

  it('without a session, and on the login and share pages, asks only for the public config', async () => {
    for (const at of ['/m/app/7', '/login', '/share/abc']) {
      if (at !== '/m/app/7') localStorage.setItem('shutu.token', 'tok');
      const calls = mockFetch(() => ok({}));
      runEarlyScript(at);
      await settle();
      expect(calls.map((c) => c.url)).toEqual([API.system.config]);
      vi.unstubAllGlobals();
    }
  });

  it("preloads the route's chunks from the build's table after the first paint, and nothing for a signed-out visitor who goes to /login", async () => {
    const table = document.createElement('script');
    table.type = 'application/json';
    table.id = 'shutu-routes';
    table.textContent = JSON.stringify([
      { path: '^/(?!login(/|$))', files: ['assets/shell-1.js', 'assets/viewer-libs-1.js'] },
      { path: '^/m/app/\\d+/?$', files: ['assets/viewer-1.js', 'assets/viewer-libs-1.js', 'assets/viewer-1.css'] },
    ]);
    document.body.appendChild(table);
    const preloads = () => [...document.head.querySelectorAll('link')].map((l) => `${l.rel} ${l.getAttribute('href')}`);
    mockFetch(() => ok({}));
    runEarlyScript('/m/app/7');
    await afterFirstPaint();
    expect(preloads()).toEqual([]);
    localStorage.setItem('shutu.token', 'tok');
    runEarlyScript('/m/app/7');
    // Not before the first frame: the shell paints first.
    expect(preloads()).toEqual([]);
    await afterFirstPaint();
    expect(preloads()).toEqual([
      'modulepreload /assets/shell-1.js',
      'modulepreload /assets/viewer-libs-1.js',
      'modulepreload /assets/viewer-1.js',
      'preload /assets/viewer-1.css',
    ]);
    document.head.querySelectorAll('link').forEach((l) => l.remove());
    table.remove();
  });

  it('an answer fetched with another session is not used', async () => {
    localStorage.setItem('shutu.token', 'old');
    const calls = mockFetch(() => ok({ id: 1 }));
    runEarlyScript('/');
    await settle();
    localStorage.setItem('shutu.token', 'new');
    await http.get(API.auth.info);
    expect(calls.filter((c) => c.url === API.auth.info).map((c) => c.headers.Authorization)).toEqual(['Bearer old', 'Bearer new']);
  });

  it("writes a share link's 正在打开分享… under the first paint's logo, and nothing on other pages", () => {
    mockFetch(() => ok({}));
    const shell = document.createElement('div');
    shell.id = 'boot-shell';
    document.body.appendChild(shell);
    runEarlyScript('/login');
    expect(shell.textContent).toBe('');
    runEarlyScript('/share/AbC123');
    // The words the share page's own loading state shows next (a change of one is a change of both),
    // out of the logo's row so that the logo does not move when the app draws its splash.
    expect(shell.textContent).toBe(sm.opening);
    expect((shell.firstElementChild as HTMLElement).style.position).toBe('absolute');
    shell.remove();
  });
});
