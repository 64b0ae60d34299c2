import {
  SAML_SELF_TEST_STEP_TITLES,
  type SamlSelfTestStepKey,
  SamlSelfTestMessage,
  type SelfTestResult,
  type SelfTestStep,
  type SelfTestStepStatus,
  SelfTestMessage,
} from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import * as samlify from 'samlify';
import { chinaTime } from '../../platform/lib/china-time.js';
import type { SelfTestAccount } from './self-test.js';
import { signInSkipReason } from './self-test.js';
import { exchange, redirectTarget, statusOf } from './self-test-http.js';
import type { SsoApplication } from './sso-app-repository.js';

const step = (key: SamlSelfTestStepKey, status: SelfTestStepStatus, detail: string): SelfTestStep => ({
  key,
  title: SAML_SELF_TEST_STEP_TITLES[key],
  status,
  detail,
});

/**
 * 接入自检 of a SAML 2.0 application: the IdP metadata reads back as valid metadata with its signing
 * certificates; the ACS answers a GET; a real signed (IdP-initiated) response for the administrator,
 * posted from the server to the ACS, is submitted: a 2xx, or a 3xx that does not send the browser back
 * to this IdP to sign in again, is as much as can be seen from here (worded so, not as "accepted"); the
 * SLO address answers the signed LogoutRequest for that test sign-in, sent as single logout sends it
 * (HTTP-POST from the server). Only registered addresses, through the outbound rules, no redirect
 * followed, no answer quoted beyond its status and redirect target.
 */
export async function runSamlSelfTest(
  app: FastifyInstance,
  application: SsoApplication,
  account: SelfTestAccount,
): Promise<SelfTestResult> {
  const sp = await app.samlRepository.providerOf(application.id);
  const saml = app.config.auth.casEmbedded ? app.samlService : undefined;
  const steps: SelfTestStep[] = [];
  const endpoints = saml?.endpoints();
  if (!sp || !saml || !endpoints) {
    const reason = SelfTestMessage.externalCas(app.config.auth.casServerUrl ?? '');
    for (const key of Object.keys(SAML_SELF_TEST_STEP_TITLES) as SamlSelfTestStepKey[]) steps.push(step(key, 'skipped', reason));
  } else {
    try {
      const metadata = await saml.metadata();
      const idp = samlify.IdentityProvider({ metadata });
      const certificates = idp.entityMeta.getX509Certificate('signing');
      const count = Array.isArray(certificates) ? certificates.length : certificates ? 1 : 0;
      if (idp.entityMeta.getEntityID() !== endpoints.entityId || count === 0) throw new Error('entityID or certificate missing');
      steps.push(step('samlMetadata', 'passed', SamlSelfTestMessage.metadata(endpoints.metadataUrl, count)));
    } catch (err) {
      steps.push(
        step(
          'samlMetadata',
          'failed',
          SamlSelfTestMessage.metadataFailed(endpoints.metadataUrl, err instanceof Error ? err.message : String(err)),
        ),
      );
    }
    const acs = new URL(sp.acsUrl);
    const reachable = await exchange(acs, { method: 'GET' }, app.outbound);
    if (!reachable.ok) steps.push(step('acsReachable', 'failed', SamlSelfTestMessage.acsFailed(acs.href, reachable.reason)));
    else {
      const { status } = await statusOf(reachable.response);
      steps.push(
        step(
          'acsReachable',
          status < 500 ? 'passed' : 'failed',
          status < 500 ? SamlSelfTestMessage.acsReachable(acs.href, status) : SamlSelfTestMessage.acsStatus(acs.href, status),
        ),
      );
    }
    const skipped = await signInSkipReason(app, application, account.id, account.username);
    const signedIn = skipped ? undefined : await saml.testResponse(application.id, account.id);
    const response = signedIn?.response;
    if (!response) steps.push(step('samlResponse', 'skipped', skipped ?? SelfTestMessage.skippedNoTicket));
    else {
      const posted = await exchange(
        acs,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ SAMLResponse: response }),
        },
        app.outbound,
      );
      if (!posted.ok) steps.push(step('samlResponse', 'failed', SamlSelfTestMessage.responseFailed(acs.href, posted.reason)));
      else {
        const { status, location } = await statusOf(posted.response);
        const to = location && status >= 300 && status < 400 ? new URL(location, acs) : undefined;
        // An SP that did not take the response starts a sign-in again: back to this IdP's SSO or login.
        const back = to !== undefined && to.origin === new URL(endpoints.ssoUrl).origin && /^\/(saml|cas)\//.test(to.pathname);
        if (status < 200 || status >= 400) steps.push(step('samlResponse', 'failed', SamlSelfTestMessage.refused(acs.href, status)));
        else if (back)
          steps.push(step('samlResponse', 'failed', SamlSelfTestMessage.bounced(acs.href, status, redirectTarget(to.href, acs))));
        else
          steps.push(
            step(
              'samlResponse',
              'passed',
              SamlSelfTestMessage.accepted(acs.href, status, account.username, to ? redirectTarget(to.href, acs) : undefined),
            ),
          );
      }
    }
    const logout = await saml.testLogoutRequest(application.id, signedIn);
    if (!logout || !sp.sloUrl) steps.push(step('sloReachable', 'skipped', SamlSelfTestMessage.noSlo));
    else {
      const slo = new URL(sp.sloUrl);
      const posted = await exchange(
        slo,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ SAMLRequest: logout }),
        },
        app.outbound,
      );
      if (!posted.ok) steps.push(step('sloReachable', 'failed', SamlSelfTestMessage.sloFailed(slo.href, posted.reason)));
      else {
        const { status } = await statusOf(posted.response);
        steps.push(
          step(
            'sloReachable',
            status < 300 ? 'passed' : 'failed',
            status < 300
              ? SamlSelfTestMessage.sloAnswered(slo.href, status, account.username)
              : SamlSelfTestMessage.sloStatus(slo.href, status),
          ),
        );
      }
    }
  }
  return {
    applicationId: application.id,
    protocol: 'saml2',
    service: sp?.acsUrl ?? '',
    username: account.username,
    passed: steps.every((s) => s.status !== 'failed'),
    steps,
    attributes: {},
    ranAt: chinaTime(new Date()),
  };
}
