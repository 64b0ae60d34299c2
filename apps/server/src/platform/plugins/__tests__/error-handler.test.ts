import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError } from '../../lib/errors.js';
import { createTestApp, type TestApp, testDialects } from '../../../testing/test-app.js';

describe.each(testDialects())('bad input on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { BODY_LIMIT: '1024' });
    // Routes that exercise the one error handler the way feature routes do.
    t.app.post(
      '/web-api/test/v1/echo/:id',
      {
        schema: {
          params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
          querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) }),
          body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 10 }), count: Type.Integer() }),
        },
      },
      async (request) => ({ code: 20200, msg: 'ok', data: [{ id: request.params.id, ...request.body }] }),
    );
    t.app.get('/web-api/test/v1/boom', async () => {
      throw new Error('secret database detail');
    });
    t.app.get('/web-api/test/v1/conflict', async () => {
      throw new ConflictError('用户名已被占用');
    });
    await t.app.ready();
  });
  afterAll(() => t.close());

  const post = (url: string, payload: string, type = 'application/json') =>
    t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': type, 'x-requested-with': 'XMLHttpRequest' } });

  it('accepts a valid request', async () => {
    const res = await post('/web-api/test/v1/echo/7?limit=5', JSON.stringify({ name: '张三', count: 2 }));
    expect(res.statusCode).toBe(200);
    expect(res.json().data[0]).toEqual({ id: 7, name: '张三', count: 2 });
  });

  it.each([
    ['malformed JSON', '/web-api/test/v1/echo/1', '{"name":', 400, '请求体不是有效的 JSON'],
    ['a missing field', '/web-api/test/v1/echo/1', '{"name":"a"}', 400, '缺少必填请求体 count'],
    ['a wrong type', '/web-api/test/v1/echo/1', '{"name":"a","count":"many"}', 400, '请求体 count 类型不正确'],
    ['a too long string', '/web-api/test/v1/echo/1', '{"name":"01234567890","count":1}', 400, '请求体 name 长度不正确'],
    ['a bad path parameter', '/web-api/test/v1/echo/abc', '{"name":"a","count":1}', 400, '路径参数 id 类型不正确'],
    ['an out-of-range query', '/web-api/test/v1/echo/1?limit=500', '{"name":"a","count":1}', 400, '查询参数 limit 超出允许范围'],
  ])('answers code 1 with a Chinese message for %s', async (_name, url, payload, status, msg) => {
    const res = await post(url, payload);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ code: 1, msg });
  });

  it('refuses an oversized body with 413', async () => {
    const res = await post('/web-api/test/v1/echo/1', JSON.stringify({ name: 'a', count: 1, pad: 'x'.repeat(4096) }));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ code: 1, msg: '请求体过大' });
  });

  it('refuses an unsupported content type with 415', async () => {
    const res = await post('/web-api/test/v1/echo/1', 'name=a', 'application/x-www-form-urlencoded');
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ code: 1, msg: '不支持的请求内容类型' });
  });

  it('answers an unknown API route with 404 and code 1', async () => {
    const res = await t.app.inject({ url: '/web-api/nothing/here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 1, msg: '请求的接口不存在' });
  });

  it('passes business errors through with their status and message', async () => {
    const res = await t.app.inject({ url: '/web-api/test/v1/conflict' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 1, msg: '用户名已被占用' });
  });

  it('hides the details of an unexpected error (5xx)', async () => {
    const res = await t.app.inject({ url: '/web-api/test/v1/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 1, msg: '服务器内部错误，请稍后重试' });
    expect(res.body).not.toContain('secret');
  });
});
