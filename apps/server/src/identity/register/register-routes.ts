import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  EMAIL_PATTERN,
  EmptyAnswerSchema,
  RegisterBodySchema,
  RegisteredSchema,
  RegisterSmsQuerySchema,
  SmsOutboxEntrySchema,
  PASSWORD_MAX,
  PASSWORD_MIN,
  REGISTER_PHONE_PATTERN,
  RegisterMessage,
  SMS_PHONE_PATTERN,
  USERNAME_PATTERN,
} from '@portal/shared';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, NotFoundError } from '../../platform/lib/errors.js';
import { LogSmsSender } from '../../platform/sms/log-sms-sender.js';

/** Mainland mobile numbers: spaces, dashes and a leading +86 / 0086 are stripped (protocols.md). */
export function normalisePhone(raw: string): string {
  return raw.replace(/[\s-]/g, '').replace(/^(\+86|0086)/, '');
}

export interface RegisterInput {
  username: string;
  email: string;
  enterpriseName: string;
  password: string;
  phone: string;
  smsCode: string;
}

/** Spec section 5, "Registration": the same rules and messages as the dialog, in the same order. */
export function validateRegistration(body: Partial<Record<keyof RegisterInput, string | undefined>>): RegisterInput {
  const username = (body.username ?? '').trim();
  const email = (body.email ?? '').trim();
  const enterpriseName = (body.enterpriseName ?? '').trim();
  const password = body.password ?? '';
  const phone = normalisePhone(body.phone ?? '');
  const smsCode = (body.smsCode ?? '').trim();
  if (!username) throw new BadRequestError(RegisterMessage.usernameRequired);
  if (!USERNAME_PATTERN.test(username)) throw new BadRequestError('用户名为 3-32 位字母、数字或下划线，以字母开头');
  if (email && (!EMAIL_PATTERN.test(email) || email.length > 100)) throw new BadRequestError(RegisterMessage.emailInvalid);
  if (enterpriseName.length > 100) throw new BadRequestError('企业名称最多100个字符');
  if (!password) throw new BadRequestError(RegisterMessage.passwordRequired);
  if ([...password].length < PASSWORD_MIN) throw new BadRequestError(RegisterMessage.passwordTooShort);
  if ([...password].length > PASSWORD_MAX) throw new BadRequestError(RegisterMessage.passwordTooLong);
  if (!phone) throw new BadRequestError(RegisterMessage.phoneRequired);
  if (!REGISTER_PHONE_PATTERN.test(phone)) throw new BadRequestError(RegisterMessage.phoneInvalid);
  if (!smsCode) throw new BadRequestError(RegisterMessage.smsCodeRequired);
  if (!/^\d{6}$/.test(smsCode)) throw new BadRequestError('验证码为 6 位数字');
  return { username, email, enterpriseName, password, phone, smsCode };
}

/** Registration by mobile phone and SMS code (spec sections 2, 4, 5, 7), joining an enterprise. */
const registerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const sender = app.smsSender;

  app.post(
    `${ApiPrefix.register}/sms`,
    {
      schema: {
        tags: ['register'],
        summary: '发送注册短信验证码',
        querystring: RegisterSmsQuerySchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const phone = normalisePhone(request.query.phone ?? '');
      if (!phone) throw new BadRequestError(RegisterMessage.phoneRequired);
      if (!SMS_PHONE_PATTERN.test(phone)) throw new BadRequestError(RegisterMessage.phoneInvalid);
      await app.registerService.sendCode(phone, request.ip, request.log);
      return ok([], '验证码已发送，请注意查收');
    },
  );

  app.post(
    `${ApiPrefix.register}/user`,
    {
      schema: {
        tags: ['register'],
        summary: '注册账号（手机号 + 短信验证码）',
        body: RegisterBodySchema,
        response: { 200: Envelope(RegisteredSchema), ...errorResponses },
      },
    },
    async (request) => {
      const input = validateRegistration(request.body);
      const registered = await app.registerService.register(input, { ip: request.ip, log: request.log });
      if (registered === 'requested') return ok({ username: input.username }, '注册成功，已向该企业提交加入申请，请等待企业管理员审批');
      if (registered === 'invited') return ok({ username: input.username }, '注册成功，已加入该企业，请使用账号和密码登录');
      return ok({ username: input.username }, '注册成功，请使用账号和密码登录');
    },
  );

  // The development outbox: only a development or test server with the log sender exposes it.
  if (app.config.auth.smsOutbox && sender instanceof LogSmsSender) {
    app.get(
      '/dev/sms-outbox',
      {
        schema: {
          tags: ['register'],
          summary: '开发环境短信发件箱（仅开发/测试服务器）',
          querystring: RegisterSmsQuerySchema,
          response: { 200: Envelope(SmsOutboxEntrySchema), ...errorResponses },
        },
      },
      async (request) => {
        const entries = sender.outbox(request.query.phone ? normalisePhone(request.query.phone) : undefined);
        if (!entries.length && request.query.phone) throw new NotFoundError('没有发往该手机号的短信');
        return ok(entries);
      },
    );
  }
};

export default registerRoutes;
