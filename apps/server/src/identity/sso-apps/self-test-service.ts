import { type SelfTestBody, type SelfTestPrecheck, type SelfTestResult, SsoMessage } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../platform/lib/errors.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import type { Caller } from '../portal-auth/auth.js';
import { runOidcSelfTest } from './oidc-self-test.js';
import { runSamlSelfTest } from './saml-self-test.js';
import { runSelfTest, signInSkipReason } from './self-test.js';
import type { SsoApplication } from './sso-app-repository.js';

/**
 * 接入自检 as the console asks for it: the caller (an administrator with a live session) is the test
 * account; an application of another enterprise answers 404.
 */
async function applicationOf(app: FastifyInstance, caller: Caller, id: number): Promise<SsoApplication> {
  const application = await app.ssoAppRepository.byId(callerEnterprise(caller), id);
  if (!application) throw new NotFoundError(SsoMessage.notFound);
  return application;
}

/** Before a run: whether the sign-in step will be skipped, and why. Reads only, contacts nothing. */
export async function selfTestPrecheck(app: FastifyInstance, caller: Caller, id: number): Promise<SelfTestPrecheck> {
  const application = await applicationOf(app, caller, id);
  const { username } = caller.profile;
  const skipped = await signInSkipReason(app, application, caller.accountId, username);
  return { applicationId: application.id, username, signInSkipped: skipped ?? '' };
}

/**
 * Runs the check of the application's protocol: of `service` for a CAS application, of `redirectUri`
 * for an OpenID Connect one (each the first registered when absent), and audits what failed. A
 * confidential client's secret is used for the run's token exchange only.
 */
export async function selfTestRun(app: FastifyInstance, caller: Caller, id: number, body: SelfTestBody): Promise<SelfTestResult> {
  const application = await applicationOf(app, caller, id);
  const account = { id: caller.accountId, username: caller.username, serviceTicket: caller.serviceTicket };
  const result =
    application.protocol === 'saml2'
      ? await runSamlSelfTest(app, application, account)
      : application.oidc
        ? await runOidcSelfTest(
            app,
            application,
            application.oidc,
            { redirectUri: body.redirectUri, clientSecret: body.clientSecret },
            account,
          )
        : await runSelfTest(app, application, body.service, account);
  const failed = result.steps.filter((s) => s.status === 'failed').map((s) => s.title);
  const detail = `${result.service}：${failed.length ? `未通过 ${failed.join('、')}` : '全部通过'}`;
  await app.auditRepository.recordBy(caller, 'sso-app.self-test', application.name, 'success', detail);
  return result;
}
