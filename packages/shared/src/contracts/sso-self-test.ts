import { Type } from 'typebox';
import { OIDC_SELF_TEST_STEPS, SAML_SELF_TEST_STEPS, SELF_TEST_STEPS } from '../sso-self-test.js';
import { APP_URL_MAX } from '../sso.js';
import { literals } from './envelope.js';
import { SsoProtocolSchema } from './sso.js';

/** The bodies of 接入自检 (应用列表): the source of the types in sso-self-test.ts. */

export const SelfTestStepSchema = Type.Object({
  key: literals([...SELF_TEST_STEPS, ...OIDC_SELF_TEST_STEPS, ...SAML_SELF_TEST_STEPS]),
  title: Type.String(),
  status: literals(['passed', 'failed', 'skipped'] as const),
  detail: Type.String({ description: '检查了什么；未通过时的确切原因（地址、HTTP 状态、连接错误）' }),
});

export const SelfTestResultSchema = Type.Object({
  applicationId: Type.Integer(),
  protocol: SsoProtocolSchema,
  service: Type.String({ description: '检查的服务地址（CAS）或回调地址（OpenID Connect）' }),
  username: Type.String({ description: '测试账号：发起自检的管理员本人（通过其当前的统一身份认证会话）' }),
  passed: Type.Boolean({ description: '没有未通过的检查项' }),
  steps: Type.Array(SelfTestStepSchema),
  attributes: Type.Record(Type.String(), Type.Array(Type.String()), {
    description: '票据校验返回的属性（CAS）；用户信息端点返回的声明（OpenID Connect）',
  }),
  ranAt: Type.String(),
});

export const SelfTestPrecheckSchema = Type.Object({
  applicationId: Type.Integer(),
  username: Type.String({ description: '测试账号：将发起自检的管理员本人' }),
  signInSkipped: Type.String({
    description:
      '自检将跳过测试登录（CAS：票据校验；OpenID Connect：令牌交换、ID Token 与用户信息）的原因（未获应用授权、使用外部统一身份认证）；为空表示将测试登录',
  }),
});

export const SelfTestBodySchema = Type.Object({
  service: Type.Optional(
    Type.String({ maxLength: APP_URL_MAX * 4, description: 'CAS 应用：要检查的服务地址（应用的服务地址之一）；缺省为第一个' }),
  ),
  redirectUri: Type.Optional(
    Type.String({ maxLength: APP_URL_MAX * 4, description: 'OpenID Connect 应用：要检查的回调地址（已登记的回调地址之一）；缺省为第一个' }),
  ),
  clientSecret: Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'OpenID Connect 机密客户端：客户端密钥，仅用于本次自检的令牌交换（client_secret_basic），不保存、不记录、不回显',
    }),
  ),
});
