import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API } from '@shutu/contracts';
import { fail, mockFetch, ok } from '../test/fetch-mock.ts';
import { ApiError, clearToken, getToken, http, loginPath, request, setToken, setUnauthorizedHandler } from './api.ts';

describe('api client', () => {
  const onUnauthorized = vi.fn();

  beforeEach(() => {
    localStorage.clear();
    onUnauthorized.mockReset();
    setUnauthorizedHandler(onUnauthorized);
    window.history.replaceState(null, '', '/system/dict?tab=1');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('unwraps the envelope and sends the bearer token', async () => {
    setToken('tok-1');
    const calls = mockFetch(() => ok({ systemName: '数图' }));
    await expect(http.get(API.system.config)).resolves.toEqual({ systemName: '数图' });
    expect(calls[0]!.headers.Authorization).toBe('Bearer tok-1');
  });

  it('sends no Authorization header without a token', async () => {
    const calls = mockFetch(() => ok(null));
    await http.get(API.system.config);
    expect(calls[0]!.headers.Authorization).toBeUndefined();
  });

  it('drops empty query values and JSON-encodes bodies', async () => {
    const calls = mockFetch(() => ok(null));
    await http.get(API.dict.parents, { current: 1, size: 5, query: '' });
    await http.post(API.dict.remove, { ids: [3, 4] });
    expect(calls[0]!.url).toBe('/api/dict/parents?current=1&size=5');
    expect(calls[1]).toMatchObject({ method: 'POST', body: { ids: [3, 4] } });
    expect(calls[1]!.headers['Content-Type']).toBe('application/json');
  });

  it('throws ApiError carrying status, server msg and field errors', async () => {
    const fields = [{ field: 'code', message: '请输入字典编号' }];
    mockFetch(() => fail(400, '请输入字典编号', { fields }));
    const error = await http.post(API.dict.dicts, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, message: '请输入字典编号', fields });
  });

  it('treats success:false in a 200 as a failure', async () => {
    mockFetch(() => ({ status: 200, body: { code: 409, success: false, msg: '字典编号已存在', data: null } }));
    await expect(http.post(API.dict.dicts, {})).rejects.toMatchObject({ status: 409, message: '字典编号已存在' });
  });

  it('on 401 clears the token and goes to login remembering the current address', async () => {
    setToken('expired');
    mockFetch(() => fail(401, '登录已失效，请重新登录'));
    await expect(http.get(API.auth.info)).rejects.toMatchObject({ status: 401 });
    expect(getToken()).toBeNull();
    expect(onUnauthorized).toHaveBeenCalledWith('/login?redirect=%2Fsystem%2Fdict%3Ftab%3D1');
  });

  it('does not redirect on the login call: a 401 there is a wrong password', async () => {
    mockFetch(() => fail(401, '账号或密码错误'));
    await expect(request(API.auth.login, { method: 'POST', body: {}, authRedirect: false })).rejects.toMatchObject({
      status: 401,
      message: '账号或密码错误',
    });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('reports a network failure as status 0 with a Chinese message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(http.get(API.system.config)).rejects.toMatchObject({ status: 0, message: '网络异常，请检查网络连接后重试' });
  });

  it('falls back to a Chinese message when the body is not an envelope', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>bad gateway</html>', { status: 502 })),
    );
    await expect(http.get(API.system.config)).rejects.toMatchObject({ status: 502, message: '服务器错误' });
  });

  it('builds login paths without looping back to login', () => {
    expect(loginPath('/')).toBe('/login');
    expect(loginPath('/login?redirect=%2Fx')).toBe('/login');
    expect(loginPath('/info/index')).toBe('/login?redirect=%2Finfo%2Findex');
    clearToken();
  });
});
