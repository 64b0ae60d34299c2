import { X509Certificate } from 'node:crypto';
import { type AuthSourceTestStep, type SamlIdpMetadata, certificateBase64, SAML_NAME_ID } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import {
  SamlSpRefusal,
  authnRequest,
  certificatePem,
  checkLoginResponse,
  fetchIdpMetadata,
  readIdpMetadata,
} from '../auth-sources/saml/saml-sp.js';
import { type ExternalIdentity, type FederatedSource, FederationError, type FederationKind } from './federation-kind.js';

type SamlFederatedSource = FederatedSource & { type: 'saml' };

const samlOf = (source: FederatedSource): SamlFederatedSource => {
  if (source.type !== 'saml') throw new FederationError('认证源类型不符', 'not-saml');
  return source as SamlFederatedSource;
};

/**
 * SAML 2.0 as a federated kind: the portal is the enterprise IdP's service provider (@node-saml/node-saml,
 * saml-sp.ts). `start` signs an AuthnRequest with the portal's SAML key and carries the framework's state as
 * RelayState; the request's ID is kept with the pending sign-in (so InResponseTo is bound to this browser's
 * request, once). `finish` checks the HTTP-POST response and refuses an assertion seen before (replay).
 * The person's subject is the NameID; every attribute is a claim, and `NameID` names the subject itself.
 */
export function samlKind(app: FastifyInstance): FederationKind {
  const login = () => app.samlSourceLoginService;
  return {
    type: 'saml',
    callbackMethod: 'POST',

    async start(source, redirectUri, state, options) {
      const saml = samlOf(source);
      const { key } = await login().signingKey();
      const sp = login().endpoints(saml.id, new URL(redirectUri).origin);
      const request = await authnRequest(saml.config, sp, key, state, options?.renew ?? false);
      if (request.post) {
        // HTTP-POST binding: our own page posts the request (the framework redirects to a URL).
        return { url: login().postRequestUrl(saml, request.post, new URL(redirectUri).origin), pending: { requestId: request.requestId } };
      }
      return { url: request.redirect ?? saml.config.ssoUrl, pending: { requestId: request.requestId } };
    },

    async finish(source, answer): Promise<ExternalIdentity> {
      const saml = samlOf(source);
      const encoded = answer.params.SAMLResponse;
      if (!encoded) throw new FederationError('身份提供方没有返回 SAML 响应', 'no-saml-response');
      const { key } = await login().signingKey();
      const sp = login().endpoints(saml.id, answer.currentUrl.origin);
      let person;
      try {
        person = await checkLoginResponse(saml.config, sp, key, encoded, answer.pending.requestId);
      } catch (err) {
        if (err instanceof SamlSpRefusal) throw new FederationError(err.reason, `saml: ${err.reason}`);
        throw err;
      }
      if (!(await login().repository.assertionTaken(saml.id, person.assertionId, person.expiresAt))) {
        throw new FederationError('该断言已使用过（重放）', 'saml: replayed assertion');
      }
      if (person.nameId.length > 200) throw new FederationError('NameID 过长', 'saml: NameID too long');
      const claims: Record<string, unknown> = { [SAML_NAME_ID]: person.nameId };
      for (const [name, values] of Object.entries(person.attributes)) claims[name] = values.length === 1 ? values[0] : values;
      return {
        subject: person.nameId,
        claims,
        // The enterprise's own IdP speaks for the addresses of the domains the enterprise claimed for it
        // (the framework links by email only within those).
        emailVerified: true,
        ...(person.sessionIndex ? { sessionId: person.sessionIndex } : {}),
        ...(person.nameIdFormat ? { subjectFormat: person.nameIdFormat } : {}),
      };
    },

    async test(source): Promise<AuthSourceTestStep[]> {
      const c = samlOf(source).config;
      const steps: AuthSourceTestStep[] = [];
      const fail = (name: string, detail: string) => [...steps, { name, ok: false, detail }];
      if (c.metadataUrl) {
        let document: string;
        try {
          document = await fetchIdpMetadata(app.outbound, c.metadataUrl);
        } catch (err) {
          if (!(err instanceof SamlSpRefusal)) throw err;
          return fail('获取元数据', err.reason);
        }
        steps.push({ name: '获取元数据', ok: true, detail: c.metadataUrl });
        let meta: SamlIdpMetadata;
        try {
          meta = readIdpMetadata(document);
        } catch (err) {
          if (!(err instanceof SamlSpRefusal)) throw err;
          return fail('解析元数据', err.reason);
        }
        steps.push({ name: '解析元数据', ok: true, detail: `实体 ID ${meta.idpEntityId}` });
        if (meta.idpEntityId !== c.idpEntityId)
          return fail('核对设置', `元数据中的实体 ID 为 ${meta.idpEntityId}，与设置不符，请重新读取元数据`);
        const known = new Set(c.certificates.map(certificateBase64));
        if (!meta.certificates.some((cert) => known.has(certificateBase64(cert)))) {
          return fail('核对设置', 'IdP 的签名证书已更换，请重新读取元数据后保存');
        }
        steps.push({ name: '核对设置', ok: true, detail: '实体 ID 与签名证书与元数据一致' });
      } else {
        steps.push({ name: '元数据', ok: true, detail: '使用粘贴或上传的元数据（未设置元数据地址）' });
      }
      const certificates = c.certificates.map((pem) => new X509Certificate(certificatePem(pem)));
      const expired = certificates.filter((cert) => Date.parse(cert.validTo) < Date.now()).length;
      steps.push({
        name: '签名证书',
        ok: true,
        detail: `${certificates.length} 个${expired ? `（${expired} 个已过期：SAML 只校验密钥，不影响登录）` : ''}`,
      });
      steps.push({ name: '单点登录地址', ok: true, detail: `${c.ssoUrl}（${c.ssoBinding === 'post' ? 'HTTP-POST' : 'HTTP-Redirect'}）` });
      steps.push({ name: '单点登出', ok: true, detail: c.sloUrl || '未提供：退出时只结束本平台的会话' });
      return steps;
    },

    async remember(source, identity, accountId) {
      const saml = samlOf(source);
      const person = { nameId: identity.subject, nameIdFormat: identity.subjectFormat ?? '', sessionIndex: identity.sessionId ?? '' };
      return login().remember(saml, person, accountId);
    },
  };
}
