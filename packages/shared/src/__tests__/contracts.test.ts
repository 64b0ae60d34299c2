import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { ApiPrefix } from '../api-paths.js';
import { Authority } from '../auth.js';
import { CONSOLE_MENUS } from '../console-menu.js';
import { ArticleQuerySchema } from '../contracts/content.js';
import { CertificationSubmitBodySchema } from '../contracts/certification.js';
import { literals } from '../contracts/envelope.js';
import { IdentifierImportQuerySchema } from '../contracts/identifiers.js';
import { SsoApplicationBodySchema } from '../contracts/sso.js';
import { AccountCreateBodySchema } from '../contracts/tenant.js';
import { DEFAULT_ARTICLE_SORT_ORDER } from '../content.js';

const json = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema));

describe('contracts', () => {
  it('writes a list of literals as the union of its values, as the API reference documents it', () => {
    expect(json(literals(['on', 'off'], { description: 'on 开，off 关' }))).toEqual(
      json(Type.Union([Type.Literal('on'), Type.Literal('off')], { description: 'on 开，off 关' })),
    );
    expect(json(literals(['on', 'off']))).toEqual(json(Type.Union([Type.Literal('on'), Type.Literal('off')])));
  });

  it('bounds and requires the fields of a request body', () => {
    const body = { username: 'zhangsan', name: '张三', phone: '13800000000', groupIds: [], roleIds: [1], passwordMode: 'sms' };
    expect(Value.Check(AccountCreateBodySchema, body)).toBe(true);
    expect(Value.Check(AccountCreateBodySchema, { ...body, username: 'a'.repeat(65) })).toBe(false);
    expect(Value.Check(AccountCreateBodySchema, { ...body, passwordMode: 'email' })).toBe(false);
    expect(Value.Check(AccountCreateBodySchema, { ...body, roleIds: [0] })).toBe(false);
    const { phone: _phone, ...withoutPhone } = body;
    expect(Value.Check(AccountCreateBodySchema, withoutPhone)).toBe(false);
  });

  it('takes what the server accepts, not only what the console sends', () => {
    const submit = {
      enterpriseName: '徐州恒岳重工机械有限公司',
      creditCode: '91320300MA1XXXXXX0',
      legalRepresentative: '张伟',
      applicantRole: 'legal',
      licenceFileId: null,
      declaration: true,
    };
    expect(Value.Check(CertificationSubmitBodySchema, submit)).toBe(true);
    const app = {
      name: '质量追溯',
      protocol: 'cas3',
      servicePrefixes: ['https://qa.example.com/'],
      attributes: ['name'],
      status: 'enabled',
    };
    expect(Value.Check(SsoApplicationBodySchema, app)).toBe(true);
    expect(Value.Check(SsoApplicationBodySchema, { ...app, protocol: 'wsfed' })).toBe(false);
  });

  it('fills in the defaults a caller may leave out', () => {
    expect(Value.Default(ArticleQuerySchema, { offset: 0, limit: 10 })).toMatchObject({ sortOrder: DEFAULT_ARTICLE_SORT_ORDER });
    expect(Value.Default(IdentifierImportQuerySchema, { templateId: 3 })).toEqual({ templateId: 3, mode: 'create', toLatest: false });
  });
});

describe('console menus', () => {
  const all = CONSOLE_MENUS.flatMap((menu) => [menu, ...(menu.children ?? [])]);
  const codes = new Set<string>(Object.values(Authority));

  it('open each menu with a known authority, under a unique name and path', () => {
    for (const menu of all) expect(codes.has(menu.authCode), menu.name).toBe(true);
    expect(new Set(all.map((m) => m.name)).size).toBe(all.length);
    expect(new Set(all.map((m) => m.path)).size).toBe(all.length);
  });

  it('place a child under its parent path', () => {
    for (const menu of CONSOLE_MENUS) for (const child of menu.children ?? []) expect(child.path.startsWith(`${menu.path}/`)).toBe(true);
  });
});

describe('API prefixes', () => {
  it('are absolute paths a route appends to', () => {
    for (const prefix of Object.values(ApiPrefix)) expect(prefix).toMatch(/^\/[a-z-]+(\/[A-Za-z0-9-]+)*$/);
  });
});
