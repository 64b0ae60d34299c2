import { randomBytes } from 'node:crypto';
import {
  ATTRIBUTE_LABELS,
  type CasSelfTestStepKey,
  OidcSelfTestMessage,
  SELF_TEST_STEP_TITLES,
  type SelfTestResult,
  type SelfTestStep,
  type SelfTestStepStatus,
  SelfTestMessage,
  parseRedirectUrl,
} from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import { chinaTime } from '../../platform/lib/china-time.js';
import type { OutboundGuard } from '../../platform/lib/outbound.js';
import { loopbackOrigin } from '../../platform/lib/loopback-origin.js';
import { logoutRequestXml } from '../cas/cas-responses.js';
import { type RegisteredService, matches } from '../cas/cas-services.js';
import { newServiceTicketId } from '../cas/cas-tickets.js';
import { parseCasXml } from '../portal-auth/cas-client.js';
import { exchange, redirectTarget, statusOf } from './self-test-http.js';
import type { ServiceApplication } from '../cas/cas-services.js';
import type { SsoApplication } from './sso-app-repository.js';

/** Who runs the check: the signed-in administrator, through the SSO session behind their portal session. */
export interface SelfTestAccount {
  id: number;
  username: string;
  /** The service ticket that opened the portal session: its TGT is the administrator's SSO session. */
  serviceTicket: string;
}

const step = (key: CasSelfTestStepKey, status: SelfTestStepStatus, detail: string): SelfTestStep => ({
  key,
  title: SELF_TEST_STEP_TITLES[key],
  status,
  detail,
});

type Validation = { step: SelfTestStep; attributes: Record<string, string[]> | undefined };

/**
 * 接入自检 (tool 03): checks one application's integration the way it will be used. Its
 * service address must be registered to it (CAS 3.0 §2.1.1), answer a GET and a single-logout POST
 * (§2.3.3); then the administrator's own SSO session gets a real service ticket for that service,
 * exactly as when they open the application, validated over HTTP at `/p3/serviceValidate` of the
 * configured CAS (§2.6) and its released attributes compared with the application's 返回属性.
 * Nothing but registered addresses is contacted, no redirect is followed and no answer of the
 * application is quoted beyond its status and a redirect's host and path.
 */
export async function runSelfTest(
  app: FastifyInstance,
  application: SsoApplication,
  requestedService: string | undefined,
  account: SelfTestAccount,
): Promise<SelfTestResult> {
  // The portal's own configured address, never a request's Host: PUBLIC_URL, else where it listens.
  const portalBase = app.config.publicUrl ?? loopbackOrigin(app);
  const { auth } = app.config;
  const casBase = auth.casEmbedded ? `${portalBase}/cas` : auth.casServerUrl;
  const service = requestedService?.trim() || application.servicePrefixes[0] || '';

  const registration = await checkRegistered(app, application, service, portalBase, account.id);
  const result = (steps: SelfTestStep[], attributes: Record<string, string[]> = {}): SelfTestResult => ({
    applicationId: application.id,
    protocol: 'cas3',
    service,
    username: account.username,
    passed: steps.every((s) => s.status !== 'failed'),
    steps,
    attributes,
    ranAt: chinaTime(new Date()),
  });
  const signInSkipped = await signInSkipReason(app, application, account.id, account.username);
  if (!registration.registered) {
    const skipped = (key: CasSelfTestStepKey) => step(key, 'skipped', SelfTestMessage.skippedUnregistered);
    return result([
      registration.step,
      skipped('reachable'),
      skipped('logout'),
      skipped('signIn'),
      skipped('validate'),
      skipped('attributes'),
    ]);
  }
  const { registered, target } = registration;

  async function signInAndValidate(): Promise<[SelfTestStep, Validation]> {
    if (signInSkipped) {
      return [step('signIn', 'skipped', signInSkipped), { step: step('validate', 'skipped', signInSkipped), attributes: undefined }];
    }
    const signIn = await issueTicket(app, account, service, target);
    if (!signIn.ticket) return [signIn.step, { step: step('validate', 'skipped', SelfTestMessage.skippedNoTicket), attributes: undefined }];
    return [signIn.step, await validate(`${portalBase}/cas`, service, signIn.ticket, account.username)];
  }

  const [reachable, logout, [signIn, validation]] = await Promise.all([
    checkReachable(registered.application ? app.outbound : undefined, registered.url, casBase),
    checkLogout(app, registered, portalBase),
    signInAndValidate(),
  ]);
  return result(
    [
      registration.step,
      reachable,
      logout,
      signIn,
      validation.step,
      validation.attributes
        ? checkAttributes(application, validation.attributes, account.username)
        : step(
            'attributes',
            'skipped',
            validation.step.status === 'skipped' ? validation.step.detail : SelfTestMessage.skippedNotValidated,
          ),
    ],
    validation.attributes,
  );
}

/**
 * Why a run would skip 测试账号登录, known before it starts: the portal's CAS is another server, or
 * 应用授权 does not admit the administrator (the check signs in as them only, never as someone else).
 * Undefined when it will sign in.
 */
export async function signInSkipReason(
  app: FastifyInstance,
  application: SsoApplication,
  accountId: number,
  username: string,
): Promise<string | undefined> {
  const { auth } = app.config;
  if (!auth.casEmbedded) return SelfTestMessage.externalCas(auth.casServerUrl ?? '');
  if (!(await app.ssoAppRepository.mayUse(accountId, application.id))) {
    return application.protocol === 'oidc'
      ? OidcSelfTestMessage.notGranted(username, application.name)
      : SelfTestMessage.notGranted(username, application.name);
  }
  return undefined;
}

/** The address is one of the application's service addresses, and the CAS's registry resolves it to this application. */
async function checkRegistered(
  app: FastifyInstance,
  application: SsoApplication,
  service: string,
  portalBase: string,
  accountId: number,
): Promise<
  { registered: RegisteredService; target: ServiceApplication; step: SelfTestStep } | { registered: undefined; step: SelfTestStep }
> {
  const failed = (detail: string) => ({ registered: undefined, step: step('registered', 'failed', detail) });
  if (!service) return failed(SelfTestMessage.noServices(application.name));
  const url = parseRedirectUrl(service);
  if (!url) return failed(SelfTestMessage.serviceInvalid(service));
  if (!application.servicePrefixes.some((prefix) => matches(url, new URL(prefix)))) {
    return failed(SelfTestMessage.serviceNotOwn(service, application.name));
  }
  const registered = await app.casApplicationService.resolve(service, portalBase);
  // A platform application's address resolves to the platform application; the enterprise's copy is what its people sign in to.
  const target = registered?.platformApplication
    ? await app.ssoAppRepository.copyFor(accountId, registered.platformApplication.id)
    : (registered?.application ?? undefined);
  if (!registered || target?.id !== application.id) return failed(SelfTestMessage.serviceElsewhere(service));
  return { registered, target, step: step('registered', 'passed', SelfTestMessage.registered(service, application.name)) };
}

/** GET the service address: 2xx, a redirect (to the CAS login, typically), 401 or 403 show it is served. */
async function checkReachable(guard: OutboundGuard | undefined, url: URL, casBase: string | undefined): Promise<SelfTestStep> {
  const answer = await exchange(url, { method: 'GET' }, guard);
  if (!answer.ok) return step('reachable', 'failed', SelfTestMessage.reachableFailed(url.href, answer.reason));
  const { status, location } = await statusOf(answer.response);
  if (status >= 200 && status < 300) return step('reachable', 'passed', SelfTestMessage.reachable(url.href, status));
  if (status === 401 || status === 403) return step('reachable', 'passed', SelfTestMessage.reachableAuth(url.href, status));
  if (status >= 300 && status < 400) {
    if (!location) return step('reachable', 'failed', SelfTestMessage.redirectWithoutLocation(url.href, status));
    const to = redirectTarget(location, url);
    const casLogin = casBase ? redirectTarget(`${casBase}/login`, url) : undefined;
    return step(
      'reachable',
      'passed',
      to === casLogin
        ? SelfTestMessage.reachableRedirectToCas(url.href, status, to)
        : SelfTestMessage.reachableRedirect(url.href, status, to),
    );
  }
  return step('reachable', 'failed', SelfTestMessage.reachableStatus(url.href, status));
}

/**
 * POST a single-logout message where the CAS sends it (the 注销地址, else the service address). It
 * names a fresh ticket the application never received, so no real session of it ends.
 */
async function checkLogout(app: FastifyInstance, registered: RegisteredService, portalBase: string): Promise<SelfTestStep> {
  const found = await app.casApplicationService.singleLogoutTarget(registered.service, portalBase);
  if (!found) return step('logout', 'failed', SelfTestMessage.serviceElsewhere(registered.service));
  const target = found.url;
  const toService = !(registered.application ?? registered.platformApplication)?.logoutUrl;
  const body = new URLSearchParams({
    logoutRequest: logoutRequestXml(newServiceTicketId(), `LR-${randomBytes(12).toString('hex')}`, new Date()),
  });
  const answer = await exchange(
    target,
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body },
    found.tenant ? app.outbound : undefined,
  );
  if (!answer.ok) return step('logout', 'failed', SelfTestMessage.logoutFailed(target.href, answer.reason));
  const { status, location } = await statusOf(answer.response);
  if (status >= 200 && status < 300) return step('logout', 'passed', SelfTestMessage.logout(target.href, status, toService));
  if (status >= 300 && status < 400 && location) {
    return step('logout', 'failed', SelfTestMessage.logoutRedirect(target.href, status, redirectTarget(location, target)));
  }
  return step('logout', 'failed', SelfTestMessage.logoutStatus(target.href, status));
}

/**
 * A service ticket from the administrator's live SSO session, under the rules the CAS applies when
 * they open the application (CAS 3.0 §2.2.4; 应用授权).
 */
async function issueTicket(
  app: FastifyInstance,
  account: SelfTestAccount,
  service: string,
  target: ServiceApplication,
): Promise<{ step: SelfTestStep; ticket?: string }> {
  const failed = (detail: string) => ({ step: step('signIn', 'failed', detail) });
  const tgtId = await app.casTicketService.tgtOfServiceTicket(account.serviceTicket);
  const tgt = tgtId ? await app.casTicketService.liveTgt(tgtId) : undefined;
  if (!tgt || tgt.accountId !== account.id) return failed(SelfTestMessage.noSsoSession);
  if (target.status !== 'enabled') return failed(SelfTestMessage.appDisabled(target.name));
  if (!(await app.ssoAppRepository.mayUse(account.id, target.id)))
    return failed(SelfTestMessage.notAuthorized(account.username, target.name));
  const ticket = await app.casTicketService.issueServiceTicket(tgt.id, service, false, target.id);
  return { step: step('signIn', 'passed', SelfTestMessage.signIn(account.username)), ticket };
}

/** Validates the ticket as the application would: over HTTP, CAS 3.0 XML (§2.6, appendix A). */
async function validate(casBase: string, service: string, ticket: string, username: string): Promise<Validation> {
  const endpoint = `${casBase}/p3/serviceValidate`;
  const failed = (detail: string): Validation => ({ step: step('validate', 'failed', detail), attributes: undefined });
  const url = new URL(endpoint);
  url.searchParams.set('service', service);
  url.searchParams.set('ticket', ticket);
  const answer = await exchange(url, { method: 'GET', headers: { accept: 'application/xml' } });
  if (!answer.ok) return failed(SelfTestMessage.validationFailed(endpoint, answer.reason));
  if (answer.response.status !== 200) {
    await statusOf(answer.response);
    return failed(SelfTestMessage.validationStatus(endpoint, answer.response.status));
  }
  let text: string;
  try {
    text = await answer.response.text();
  } catch {
    return failed(SelfTestMessage.validationUnreadable(endpoint));
  }
  const parsed = parseCasXml(text);
  if (!parsed) return failed(SelfTestMessage.validationUnreadable(endpoint));
  if (!parsed.ok) return failed(SelfTestMessage.validationRefused(endpoint, parsed.code, parsed.description));
  if (parsed.user !== username) return failed(SelfTestMessage.validationWrongUser(endpoint, parsed.user, username));
  return { step: step('validate', 'passed', SelfTestMessage.validated(endpoint, parsed.user)), attributes: parsed.attributes };
}

/** Every attribute the application is set to receive must come with a value. */
function checkAttributes(application: SsoApplication, released: Record<string, string[]>, username: string): SelfTestStep {
  if (application.attributes.length === 0) return step('attributes', 'passed', SelfTestMessage.noAttributes);
  const missing = application.attributes.filter((a) => !(released[a] ?? []).some((v) => v.trim() !== ''));
  if (missing.length) {
    const each = missing.map((a) => SelfTestMessage.attributeMissing(ATTRIBUTE_LABELS[a], username)).join('；');
    return step('attributes', 'failed', `${each}。${SelfTestMessage.attributesHint}`);
  }
  return step('attributes', 'passed', SelfTestMessage.attributes(application.attributes.map((a) => ATTRIBUTE_LABELS[a]).join('、')));
}
