import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { recordAudit } from '../../platform/audit/audit-log.js';
import { AppError, BadRequestError } from '../../platform/lib/errors.js';
import { hashPassword } from '../accounts/passwords.js';
import { newPasswordProblem } from '../security/password-policy.js';
import type { RegisterInput } from './register-routes.js';

/** A registration's outcome: where the account stands (its enterprise's 加入申请, an invitation, or neither). */
export type Registered = 'requested' | 'invited' | 'registered';

/**
 * Registration's rules (spec sections 2, 4, 5, 7; the routes are `register-routes.ts`): the SMS code
 * with its limits, and the account with its enterprise, join request or invitation.
 */
function createRegisterService(app: FastifyInstance) {
  const { smsCodeService: codes, smsSender: sender } = app;

  /** Sends a registration code; a message the provider refuses does not count against the limits (503). */
  async function sendCode(phone: string, ip: string, log: FastifyBaseLogger): Promise<void> {
    // The answer is the same whether or not the phone is registered (protocols.md).
    const issued = await codes.issue('register', phone, ip);
    try {
      await sender.send({ phone, templateKey: 'register', params: { code: issued.code } });
    } catch (err) {
      await codes.withdraw(issued.id);
      log.error({ err: (err as Error).message, provider: sender.name }, 'SMS not sent');
      throw new AppError('短信发送失败，请稍后再试', 503);
    }
  }

  /** Registers a checked form (`validateRegistration`). */
  async function register(input: RegisterInput, client: { ip: string; log: FastifyBaseLogger }): Promise<Registered> {
    // 安全设置: a new account's password meets the platform's policy.
    const rule = newPasswordProblem(input.password, app.securityPolicyRepository.defaults, input.username);
    if (rule) throw new BadRequestError(rule);
    // 邀请成员: the code may be an invitation of this phone to the named enterprise
    // (the form has no other field: spec section 5). Else it is the registration's SMS code, which
    // spends one of its tries, also when the registration is refused below (409).
    const invitation = input.enterpriseName
      ? await app.invitationRepository.check(input.phone, input.enterpriseName, input.smsCode)
      : ({ kind: 'none' } as const);
    let codeId: number | undefined;
    if (invitation.kind !== 'valid') {
      try {
        codeId = await codes.check('register', input.phone, input.smsCode);
      } catch (err) {
        // The code was meant as the invitation's: its own tries tell.
        if (invitation.kind !== 'wrong') throw err;
        throw new BadRequestError(
          invitation.left > 0 ? `验证码错误，还可尝试 ${invitation.left} 次` : '验证码错误次数过多，请联系企业管理员重新邀请',
        );
      }
    }
    const invitedTo = invitation.kind === 'valid' ? invitation.enterpriseId : undefined;
    // The account, its join request and its message, the spent code or invitation and the audit rows commit together.
    const passwordHash = await hashPassword(input.password);
    const registered = await app.accountRepository.register({ ...input, passwordHash, invitedTo }, async (trx, created) => {
      if (codeId !== undefined) await codes.consume(trx, codeId);
      await app.passwordPolicyService.remember(trx, created.accountId, passwordHash);
      if (invitation.kind === 'valid') await app.invitationRepository.consume(trx, invitation.id);
      const entry = { accountId: created.accountId, username: input.username, ip: client.ip, outcome: 'success' } as const;
      await recordAudit(trx, client.log, {
        ...entry,
        enterpriseId: created.enterpriseId,
        action: 'register',
        target: input.enterpriseName,
      });
      if (created.requested) {
        await app.joinRequestRepository.create(trx, created.requested.id, created.accountId);
        await app.accountNoticeService.joinRequested(trx, created.requested.id, {
          username: input.username,
          enterpriseName: created.requested.name,
        });
        await recordAudit(trx, client.log, {
          ...entry,
          enterpriseId: created.requested.id,
          action: 'join.request',
          target: created.requested.name,
        });
      }
    });
    if (registered.requested) return 'requested';
    return invitedTo !== undefined ? 'invited' : 'registered';
  }

  return { sendCode, register };
}

export type RegisterService = ReturnType<typeof createRegisterService>;

declare module 'fastify' {
  interface FastifyInstance {
    registerService: RegisterService;
  }
}

export default fp(
  async (app) => {
    app.decorate('registerService', createRegisterService(app));
  },
  { name: 'register-service', dependencies: ['sms-codes', 'password-policy'] },
);
