import { describe, expect, it } from 'vitest';
import { redactUrlSecrets } from '../logger.js';

describe('redactUrlSecrets', () => {
  it('masks tickets, tokens, codes and phone numbers in a query string', () => {
    expect(redactUrlSecrets('/cas/validate?ticket=ST-1&service=x&code=123456&phone=13800000000')).toBe(
      '/cas/validate?ticket=***&service=x&code=***&phone=***',
    );
    // 钉钉's sign-in callback names its code authCode; the QR sign-in state is the browser's too.
    expect(redactUrlSecrets('/cas/login/dingtalk/callback?authCode=c0de&state=s1gned')).toBe(
      '/cas/login/dingtalk/callback?authCode=***&state=***',
    );
    // OpenID Connect: an ID token names its holder, a PKCE verifier and a client secret are secrets.
    expect(
      redactUrlSecrets('/oidc/session/end?id_token_hint=eyJ.a.b&post_logout_redirect_uri=https%3A%2F%2Fa&code_verifier=v&client_secret=s'),
    ).toBe('/oidc/session/end?id_token_hint=***&post_logout_redirect_uri=https%3A%2F%2Fa&code_verifier=***&client_secret=***');
  });
});
