import {
  OIDC_APP_SCOPES,
  OIDC_LIFETIMES,
  type OidcAppScope,
  OidcAppMessage,
  type OidcLifetime,
  OidcRules,
  type OidcSettingsBody,
  oidcEndpoints,
  RELEASABLE_ATTRIBUTES,
  SAML_NAME_ID_FORMATS,
  SAML_METADATA_MAX_BYTES,
  SAML_METADATA_TIMEOUT_SECONDS,
  SamlAppMessage,
  type SamlSettings,
  type SamlMetadataBody,
  type SamlSettingsBody,
  APP_URL_MAX,
  LOCAL_HOSTS,
  samlEndpoints,
  type ReleasableAttribute,
  type SsoAppGrants,
  type SsoAppGrantsBody,
  type SsoApplicationBody,
  type SsoApplicationRow,
  type SsoApplicationStatus,
  type MyApplication,
  type SsoAppCreated,
  type SsoAppSecret,
  SsoMessage,
  SsoRules,
  normalizeServicePrefix,
  parseRedirectUrl,
  serviceOverlapsOwn,
} from '@portal/shared';
import { randomBytes, X509Certificate } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { auditBy } from '../../platform/audit/audit-log.js';
import { publicSiteUrl } from '../../platform/config.js';
import type { Database } from '../../platform/db/schema.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { checkedImagePath } from '../../platform/lib/checked-urls.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/lib/errors.js';
import { errorCodeOf, OutboundRefusedError, OutboundTooLargeError, outboundGetText } from '../../platform/lib/outbound.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { overlaps } from '../cas/cas-services.js';
import { hashClientSecret, newClientSecret } from '../oidc/client-secret.js';
import { OIDC_PREFIX } from '../oidc/oidc-provider.js';
import type { Caller } from '../portal-auth/auth.js';
import { pemOf, readSpMetadata, SamlRefusal } from '../saml/saml-protocol.js';
import { SAML_PREFIX } from '../saml/saml-service.js';
import type { OidcSettingsInput, SsoApplication, SsoApplicationInput } from './sso-app-repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    ssoAppService: SsoAppService;
  }
}

/** The icon column's length. */
const ICON_MAX = 200;

/** The labels OIDC address problems name. */
const REDIRECT_LABEL = '回调地址';
const POST_LOGOUT_LABEL = '登出回调地址';
const BACKCHANNEL_LABEL = '后端登出地址';

/** A generated client id: 80 random bits as hex (what Casdoor and Logto do when none is chosen). */
const generatedClientId = () => randomBytes(10).toString('hex');

/** The settings as 应用列表 answers them (without the application id). */
function samlSettings(row: (SamlSettings & { applicationId: number }) | undefined): SamlSettings | undefined {
  if (!row) return undefined;
  const { applicationId: _id, ...settings } = row;
  return settings;
}

/** A unique name is checked first for its message; the constraint catches a concurrent twin. */
async function writing(work: () => Promise<void>) {
  try {
    await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConflictError(SsoMessage.nameTaken);
    throw err;
  }
}

/**
 * 应用列表's and 应用授权's rules: an enterprise's own applications on the embedded CAS. A service
 * address is an exact URL prefix (CAS 3.0 §2.1.1); it may not overlap this portal, a platform-wide
 * CAS_SERVICES address, a platform application's or another application's, so every service belongs
 * to one application of one enterprise. Subscribed platform applications are read-only: only 应用授权
 * applies to them. The caller decides the enterprise.
 */
export class SsoAppService {
  constructor(private readonly app: FastifyInstance) {}

  private get apps() {
    return this.app.ssoAppRepository;
  }

  private portalBase(caller: Caller): string {
    return this.app.config.publicUrl ?? caller.origin;
  }

  /** The CAS an application integrates with: the embedded one at the portal's configured address, else the configured external one. */
  private casServerUrlPrefix(caller: Caller): string {
    const { auth } = this.app.config;
    if (!auth.casEmbedded && auth.casServerUrl) return auth.casServerUrl;
    return `${this.portalBase(caller)}/cas`;
  }

  private withIntegration(caller: Caller, row: SsoApplication, saml?: SamlSettings): SsoApplicationRow {
    const cas = this.casServerUrlPrefix(caller);
    return {
      ...row,
      saml: row.protocol === 'saml2' ? (saml ?? null) : null,
      integration: {
        loginUrl: `${cas}/login`,
        validateUrl: `${cas}/p3/serviceValidate`,
        logoutUrl: `${cas}/logout`,
        casServerUrlPrefix: cas,
        // The provider's issuer is the portal's configured address (its discovery document names the same).
        oidc: oidcEndpoints(`${this.portalBase(caller)}${OIDC_PREFIX}`),
        saml: samlEndpoints(this.portalBase(caller)),
      },
    };
  }

  /** An application of the caller's enterprise; another enterprise's answers 404. */
  private async applicationOf(caller: Caller, id: number): Promise<SsoApplication> {
    const found = await this.apps.byId(callerEnterprise(caller), id);
    if (!found) throw new NotFoundError(SsoMessage.notFound);
    return found;
  }

  /** One of the enterprise's own applications: a subscribed platform application is the platform's to change. */
  private async ownApplicationOf(caller: Caller, id: number): Promise<SsoApplication> {
    const found = await this.applicationOf(caller, id);
    if (found.platform) throw new ForbiddenError(SsoMessage.platformReadOnly);
    return found;
  }

  /** An address the portal will connect to (single logout, 接入自检): a literal one it never would is refused now. */
  private assertReachable(raw: string, message: (url: string, reason: string) => string) {
    const url = new URL(raw);
    const refusal = this.app.outbound.literalRefusal(url.hostname, Number(url.port) || (url.protocol === 'https:' ? 443 : 80));
    if (refusal) throw new BadRequestError(message(raw, refusal));
  }

  /**
   * An OpenID Connect application's settings checked by the shared rules. Addresses are kept as typed
   * (trimmed): the provider compares a redirect_uri with them exactly (OIDC Core §3.1.2.1).
   */
  private oidcInputOf(body: OidcSettingsBody | undefined): OidcSettingsInput {
    // The provider signs in through the embedded CAS and runs only with it (CAS_EMBEDDED).
    if (!this.app.config.auth.casEmbedded) throw new BadRequestError(OidcAppMessage.providerOff);
    if (!body) throw new BadRequestError(OidcAppMessage.settingsRequired);
    const list = (values: readonly string[]) => [...new Set(values.map((v) => v.trim()).filter(Boolean))];
    const clientId = (body.clientId ?? '').trim();
    const backchannelLogoutUri = body.backchannelLogoutUri.trim();
    const initiateLoginUri = body.initiateLoginUri.trim();
    const lifetimes = Object.keys(OIDC_LIFETIMES) as OidcLifetime[];
    const problem =
      OidcRules.clientId(clientId) ??
      OidcRules.addresses(REDIRECT_LABEL, body.redirectUris, true) ??
      OidcRules.addresses(POST_LOGOUT_LABEL, body.postLogoutRedirectUris, false) ??
      OidcRules.address(BACKCHANNEL_LABEL, backchannelLogoutUri) ??
      OidcRules.initiateLoginUri(initiateLoginUri) ??
      lifetimes.map((which) => OidcRules.lifetime(which, body[which])).find(Boolean);
    if (problem) throw new BadRequestError(problem);
    const known: readonly string[] = OIDC_APP_SCOPES;
    if (body.scopes.some((s) => !known.includes(s))) throw new BadRequestError(OidcAppMessage.scopeUnknown);
    // The provider POSTs the logout token there.
    if (backchannelLogoutUri)
      this.assertReachable(backchannelLogoutUri, (url, reason) => OidcAppMessage.refused(BACKCHANNEL_LABEL, url, reason));
    return {
      clientId,
      clientType: body.clientType,
      redirectUris: list(body.redirectUris),
      postLogoutRedirectUris: list(body.postLogoutRedirectUris),
      backchannelLogoutUri,
      initiateLoginUri,
      // openid is always held, the rest in the console's order, once each.
      scopes: OIDC_APP_SCOPES.filter((s): s is OidcAppScope => s === 'openid' || body.scopes.includes(s)),
      accessTokenSeconds: body.accessTokenSeconds,
      idTokenSeconds: body.idTokenSeconds,
      refreshTokenSeconds: body.refreshTokenSeconds,
    };
  }

  /**
   * A SAML application's SP settings: the entity ID as typed (it is compared exactly), the ACS and SLO
   * addresses absolute http(s) (https but on loopback) and, for the SLO the portal POSTs to, allowed by
   * the outbound rules; a certificate when requests must be signed; at least one signature.
   */
  private samlInputOf(body: SamlSettingsBody | undefined): SamlSettings {
    if (!this.app.config.auth.casEmbedded) throw new BadRequestError(SamlAppMessage.providerOff);
    if (!body) throw new BadRequestError(SamlAppMessage.settingsRequired);
    const entityId = body.entityId.trim();
    if (!entityId || entityId.length > APP_URL_MAX || !/^[\x21-\x7e]+$/.test(entityId))
      throw new BadRequestError(SamlAppMessage.entityIdInvalid);
    const address = (raw: string, message: string, required: boolean) => {
      const value = raw.trim();
      if (!value && !required) return '';
      const url = parseRedirectUrl(value);
      const local = url && LOCAL_HOSTS.includes(url.hostname);
      if (!url || value.length > APP_URL_MAX || value.includes('#') || (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)))
        throw new BadRequestError(message);
      return value;
    };
    const acsUrl = address(body.acsUrl, SamlAppMessage.acsInvalid, true);
    const sloUrl = address(body.sloUrl, SamlAppMessage.sloInvalid, false);
    if (sloUrl) this.assertReachable(sloUrl, (url, reason) => SamlAppMessage.refused('单点登出地址', url, reason));
    let certificate = '';
    if (body.certificate.trim()) {
      certificate = pemOf(body.certificate);
      try {
        new X509Certificate(certificate);
      } catch {
        throw new BadRequestError(SamlAppMessage.certificateInvalid);
      }
    }
    if (body.wantRequestsSigned && !certificate) throw new BadRequestError(SamlAppMessage.certificateRequired);
    if (!body.signResponse && !body.signAssertion) throw new BadRequestError(SamlAppMessage.unsigned);
    if (!Object.keys(SAML_NAME_ID_FORMATS).includes(body.nameIdFormat)) throw new BadRequestError(SamlAppMessage.nameIdFormatUnknown);
    return {
      entityId,
      acsUrl,
      sloUrl,
      certificate,
      nameIdFormat: body.nameIdFormat as SamlSettings['nameIdFormat'],
      signResponse: body.signResponse,
      signAssertion: body.signAssertion,
      wantRequestsSigned: body.wantRequestsSigned,
    };
  }

  /**
   * 上传 / 获取 SP 元数据: the settings an SP's metadata names, for the form to fill in (nothing is
   * written). The metadata is the uploaded XML, or fetched from its address through the outbound rules
   * (an enterprise typed it), as Keycloak's "import from URL" does.
   */
  async readMetadata(body: SamlMetadataBody): Promise<Partial<SamlSettings> & { entityId: string }> {
    const xml = body.xml?.trim() ? body.xml : body.url?.trim() ? await this.fetchMetadata(body.url.trim()) : undefined;
    if (xml === undefined) throw new BadRequestError(SamlAppMessage.metadataSource);
    try {
      const found = readSpMetadata(xml);
      if (!found.acsUrl) throw new BadRequestError(SamlAppMessage.metadataNoAcs);
      return found;
    } catch (err) {
      if (err instanceof BadRequestError) throw err;
      if (err instanceof SamlRefusal || err instanceof Error) throw new BadRequestError(SamlAppMessage.metadataInvalid);
      throw err;
    }
  }

  /**
   * The SP metadata at an http(s) address: no redirect followed, at most SAML_METADATA_MAX_BYTES within
   * SAML_METADATA_TIMEOUT_SECONDS; a refused address, a failed connection or a non-2xx answer is the
   * Chinese reason (the answer's body is never quoted).
   */
  private async fetchMetadata(raw: string): Promise<string> {
    const url = URL.parse(raw);
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password)
      throw new BadRequestError(SamlAppMessage.metadataUrlInvalid);
    const failed = (reason: string) => new BadRequestError(SamlAppMessage.metadataFetchFailed(raw, reason));
    const { metadataFetch } = SamlAppMessage;
    let answer: Awaited<ReturnType<typeof outboundGetText>>;
    try {
      answer = await outboundGetText(this.app.outbound, url, {
        headers: { accept: 'application/samlmetadata+xml, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.1' },
        maxBytes: SAML_METADATA_MAX_BYTES,
        signal: AbortSignal.timeout(SAML_METADATA_TIMEOUT_SECONDS * 1000),
      });
    } catch (err) {
      if (err instanceof OutboundRefusedError) throw new BadRequestError(SamlAppMessage.refused('元数据地址', raw, err.message));
      if (err instanceof OutboundTooLargeError) throw failed(metadataFetch.tooLarge);
      if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) throw failed(metadataFetch.timeout);
      const code = errorCodeOf(err);
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') throw failed(metadataFetch.notFound);
      throw failed(metadataFetch.unreachable(code ?? (err instanceof Error ? err.name : 'unknown')));
    }
    if (answer.status >= 300 && answer.status < 400 && answer.location) {
      const target = URL.parse(answer.location, url);
      throw failed(metadataFetch.redirect(target ? `${target.origin}${target.pathname}`.slice(0, 200) : answer.location.slice(0, 40)));
    }
    if (answer.status < 200 || answer.status > 299) throw failed(metadataFetch.status(answer.status));
    return answer.text;
  }

  /** The body checked by the shared rules and normalised; the service addresses may still overlap others (checked in the write). */
  private inputOf(body: SsoApplicationBody): SsoApplicationInput {
    const name = body.name.trim();
    const category = (body.category ?? '').trim();
    const description = (body.description ?? '').trim();
    const common = SsoRules.name(name) ?? SsoRules.category(category) ?? SsoRules.description(description);
    if (common) throw new BadRequestError(common);
    const icon = checkedImagePath(body.icon, SsoMessage.iconInvalid) ?? '';
    if (icon.length > ICON_MAX) throw new BadRequestError(SsoMessage.iconInvalid);
    if (body.protocol === 'saml2') {
      // Its sign-ins follow its SP settings; 返回属性 are released under their own names.
      const known: readonly string[] = RELEASABLE_ATTRIBUTES;
      if (body.attributes.some((a) => !known.includes(a))) throw new BadRequestError(SsoMessage.attributeUnknown);
      return {
        protocol: 'saml2',
        saml: this.samlInputOf(body.saml),
        name,
        icon,
        category,
        description,
        servicePrefixes: [],
        logoutUrl: '',
        attributes: RELEASABLE_ATTRIBUTES.filter((a): a is ReleasableAttribute => body.attributes.includes(a)),
        status: body.status,
      };
    }
    if (body.protocol === 'oidc') {
      // Its sign-ins and logouts follow its OIDC settings: no service addresses, 注销地址 or CAS attributes.
      const oidc = this.oidcInputOf(body.oidc);
      return {
        protocol: 'oidc',
        oidc,
        name,
        icon,
        category,
        description,
        servicePrefixes: [],
        logoutUrl: '',
        attributes: [],
        status: body.status,
      };
    }
    const logoutUrl = (body.logoutUrl ?? '').trim();
    const problem = SsoRules.servicePrefixes(body.servicePrefixes) ?? SsoRules.logoutUrl(logoutUrl);
    if (problem) throw new BadRequestError(problem);
    // The portal POSTs single logout and 接入自检 to these addresses: a literal one it would never
    // connect to is refused now (a name is checked where it resolves, at connect time).
    for (const [raw, message] of [
      ...body.servicePrefixes.map((p) => [p, SsoMessage.serviceRefused] as const),
      ...(logoutUrl ? [[logoutUrl, SsoMessage.logoutUrlRefused] as const] : []),
    ]) {
      this.assertReachable(raw.trim(), message);
    }
    const known: readonly string[] = RELEASABLE_ATTRIBUTES;
    if (body.attributes.some((a) => !known.includes(a))) throw new BadRequestError(SsoMessage.attributeUnknown);
    return {
      protocol: 'cas3',
      name,
      icon,
      category,
      description,
      servicePrefixes: [...new Set(body.servicePrefixes.map(normalizeServicePrefix))],
      logoutUrl: logoutUrl ? new URL(logoutUrl).href : '',
      // In the order the console lists them, once each.
      attributes: RELEASABLE_ATTRIBUTES.filter((a): a is ReleasableAttribute => body.attributes.includes(a)),
      status: body.status,
    };
  }

  /** Refuses service addresses this portal or a CAS_SERVICES address already answers for. */
  private assertNotPlatform(caller: Caller, prefixes: readonly string[]) {
    const platform = this.app.casApplicationService.platformPrefixes(this.portalBase(caller));
    if (prefixes.some((p) => platform.some((q) => overlaps(new URL(p), q)))) throw new ConflictError(SsoMessage.servicePlatform);
  }

  /**
   * Inside the write's transaction: refuses service addresses overlapping another application's (its
   * own enterprise's named), a platform application's included.
   */
  private async assertNoOverlap(
    trx: Kysely<Database>,
    enterpriseId: number,
    applicationId: number | undefined,
    prefixes: readonly string[],
  ) {
    const urls = prefixes.map((p) => new URL(p));
    const existing = await this.apps.prefixesOnHosts(
      trx,
      urls.map((u) => u.hostname),
    );
    for (const other of existing) {
      if (!other.platform && other.applicationId === applicationId) continue;
      const theirs = new URL(other.prefix);
      if (!urls.some((u) => overlaps(u, theirs))) continue;
      if (other.platform) throw new ConflictError(SsoMessage.servicePlatform);
      throw new ConflictError(other.enterpriseId === enterpriseId ? serviceOverlapsOwn(other.name) : SsoMessage.serviceOtherEnterprise);
    }
  }

  /** One page of the enterprise's applications, newest first, each with its integration settings. */
  async page(
    caller: Caller,
    filters: { keyword: string; status: SsoApplicationStatus | undefined },
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: SsoApplicationRow[] }> {
    const page = await this.apps.page(callerEnterprise(caller), filters, offset, limit);
    const saml = await this.app.samlRepository.providersOf(page.rows.filter((r) => r.protocol === 'saml2').map((r) => r.id));
    return { total: page.total, rows: page.rows.map((row) => this.withIntegration(caller, row, samlSettings(saml.get(row.id)))) };
  }

  /** An application with its integration settings. */
  async detail(caller: Caller, id: number): Promise<SsoApplicationRow> {
    const row = await this.applicationOf(caller, id);
    const saml = row.protocol === 'saml2' ? await this.app.samlRepository.providerOf(row.id) : undefined;
    return this.withIntegration(caller, row, samlSettings(saml));
  }

  /**
   * 新建: answers the new application's id and, for an OIDC application, its client id and (confidential)
   * its secret, shown this once: only its hash is stored.
   */
  async create(caller: Caller, body: SsoApplicationBody): Promise<SsoAppCreated> {
    const enterpriseId = callerEnterprise(caller);
    const input = this.inputOf(body);
    this.assertNotPlatform(caller, input.servicePrefixes);
    if (await this.apps.nameTaken(enterpriseId, input.name)) throw new ConflictError(SsoMessage.nameTaken);
    const { oidc } = input;
    if (oidc && !oidc.clientId) oidc.clientId = generatedClientId();
    const secret = oidc?.clientType === 'confidential' ? newClientSecret() : '';
    let id = 0;
    await writing(() =>
      inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
        await this.assertNoOverlap(trx, enterpriseId, undefined, input.servicePrefixes);
        if (oidc) await this.reserveClientId(trx, oidc.clientId);
        id = await this.apps.create(trx, enterpriseId, input, secret ? hashClientSecret(secret) : '');
        if (input.saml) await this.saveSaml(trx, id, input.saml);
        const detail = input.saml
          ? `实体 ID：${input.saml.entityId}；ACS：${input.saml.acsUrl}`
          : oidc
            ? `客户端 ID：${oidc.clientId}；回调地址：${oidc.redirectUris.join(' ')}`
            : input.servicePrefixes.join(' ');
        await auditBy(trx, caller, 'sso-app.create', input.name, 'success', detail);
      }),
    );
    return { id, clientId: oidc?.clientId ?? '', clientSecret: secret };
  }

  /**
   * Takes a client id in the one namespace of OIDC applications and machine clients, inside the write's
   * transaction: the key of oidc_client_id refuses the second of two clients given it at the same moment.
   */
  private async reserveClientId(trx: Kysely<Database>, clientId: string) {
    const clients = this.app.oidcClientRepository;
    if (await clients.applicationHasClientId(trx, clientId)) throw new ConflictError(OidcAppMessage.clientIdTaken);
    try {
      await clients.reserveClientId(trx, clientId, 'application');
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(OidcAppMessage.clientIdTaken);
      throw err;
    }
  }

  /** An SP's settings, inside the write's transaction: an entity ID belongs to one application of all enterprises. */
  private async saveSaml(trx: Kysely<Database>, applicationId: number, saml: SamlSettings) {
    if (await this.app.samlRepository.entityIdTaken(trx, saml.entityId, applicationId))
      throw new ConflictError(SamlAppMessage.entityIdTaken);
    await this.app.samlRepository.saveProvider(trx, applicationId, saml);
  }

  /** 重置密钥 of a confidential OIDC application: a new secret answered this once; the old one stops working at once. */
  async resetSecret(caller: Caller, id: number): Promise<SsoAppSecret> {
    const current = await this.ownApplicationOf(caller, id);
    if (!current.oidc) throw new BadRequestError(OidcAppMessage.notOidc);
    if (current.oidc.clientType !== 'confidential') throw new BadRequestError(OidcAppMessage.noSecret);
    const { clientId } = current.oidc;
    const secret = newClientSecret();
    await inEnterpriseTransaction(this.app.database.db, callerEnterprise(caller), async (trx) => {
      await this.apps.setSecretHash(trx, current.id, hashClientSecret(secret));
      await auditBy(trx, caller, 'sso-app.reset-secret', current.name, 'success', `客户端 ID：${clientId}`);
    });
    return { clientId, clientSecret: secret };
  }

  /** 修改 of one of the enterprise's own applications. */
  async update(caller: Caller, id: number, body: SsoApplicationBody): Promise<void> {
    const enterpriseId = callerEnterprise(caller);
    const current = await this.ownApplicationOf(caller, id);
    // A relying party is configured for one protocol and one client: switching would strand it.
    if (body.protocol !== current.protocol) throw new BadRequestError(SsoMessage.protocolFixed);
    const input = this.inputOf(body);
    if (input.oidc && current.oidc) {
      if (input.oidc.clientId && input.oidc.clientId !== current.oidc.clientId) throw new BadRequestError(OidcAppMessage.clientIdFixed);
      if (input.oidc.clientType !== current.oidc.clientType) throw new BadRequestError(OidcAppMessage.clientTypeFixed);
      input.oidc.clientId = current.oidc.clientId;
    }
    this.assertNotPlatform(caller, input.servicePrefixes);
    if (await this.apps.nameTaken(enterpriseId, input.name, current.id)) throw new ConflictError(SsoMessage.nameTaken);
    await writing(() =>
      inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
        await this.assertNoOverlap(trx, enterpriseId, current.id, input.servicePrefixes);
        await this.apps.update(trx, enterpriseId, current.id, input);
        if (input.saml) await this.saveSaml(trx, current.id, input.saml);
        const renamed = input.name === current.name ? current.name : `${current.name} → ${input.name}`;
        const detail = input.oidc
          ? `客户端 ID：${input.oidc.clientId}；回调地址：${input.oidc.redirectUris.join(' ')}`
          : input.servicePrefixes.join(' ');
        await auditBy(trx, caller, 'sso-app.update', renamed, 'success', detail);
      }),
    );
  }

  /** 删除 (its tickets no longer validate). */
  async remove(caller: Caller, id: number): Promise<void> {
    const current = await this.ownApplicationOf(caller, id);
    await inEnterpriseTransaction(this.app.database.db, callerEnterprise(caller), async (trx) => {
      await this.apps.delete(trx, current.id);
      await auditBy(trx, caller, 'sso-app.delete', current.name);
    });
  }

  /** 应用授权 of an application: who of the enterprise may sign in to it. */
  async grants(caller: Caller, id: number): Promise<SsoAppGrants> {
    const application = await this.applicationOf(caller, id);
    return this.apps.grants(application.id);
  }

  /**
   * Saves 应用授权 whole; ids not the enterprise's answer 404 like any other id not its own. The CAS
   * checks it at every ticket and every validation, so the change holds at once. Answers the grants.
   */
  async setGrants(caller: Caller, id: number, body: SsoAppGrantsBody): Promise<SsoAppGrants> {
    const enterpriseId = callerEnterprise(caller);
    const application = await this.applicationOf(caller, id);
    const groupIds = [...new Set(body.groupIds)];
    const roleIds = [...new Set(body.roleIds)];
    const accountIds = [...new Set(body.accountIds)];
    const [groups, roles, accounts] = await Promise.all([
      this.apps.groupsOf(enterpriseId, groupIds),
      this.app.roleRepository.grantable(enterpriseId, roleIds),
      this.apps.accountsOf(enterpriseId, accountIds),
    ]);
    if (groups.length !== groupIds.length) throw new NotFoundError('账号组不存在');
    if (roles.length !== roleIds.length) throw new NotFoundError('角色不存在');
    if (accounts.length !== accountIds.length) throw new NotFoundError('账号不存在');
    const { allMembers } = body;
    await inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
      await this.apps.setGrants(trx, application.id, { allMembers, groupIds, roleIds, accountIds });
      const detail = [
        allMembers ? '企业全员' : '',
        groups.length ? `账号组：${groups.map((g) => g.name).join('、')}` : '',
        roles.length ? `角色：${roles.map((r) => r.name).join('、')}` : '',
        accounts.length ? `账号：${accounts.map((a) => a.username).join('、')}` : '',
      ]
        .filter(Boolean)
        .join('；');
      await auditBy(trx, caller, 'sso-app.grants', application.name, 'success', detail || '无');
    });
    return this.apps.grants(application.id);
  }

  /**
   * 我的应用: the applications the account may use, each at the address that signs it in. An OpenID
   * Connect application opens at its 发起登录地址 with `iss` (OpenID Connect Core §4, login initiated
   * by a third party), else at its first callback's origin, whose page starts its own sign-in.
   */
  async myApplications(accountId: number): Promise<MyApplication[]> {
    const issuer = `${publicSiteUrl(this.app.config)}${OIDC_PREFIX}`;
    const base = publicSiteUrl(this.app.config);
    return (await this.apps.usableBy(accountId)).map(({ oidc, saml, ...application }) => {
      // A SAML application opens through an IdP-initiated sign-on (an unsolicited response at its ACS).
      if (saml) return { ...application, url: `${base}${SAML_PREFIX}/initiate/${application.id}` };
      if (!oidc) return application;
      if (oidc.initiateLoginUri) {
        const url = new URL(oidc.initiateLoginUri);
        url.searchParams.set('iss', issuer);
        return { ...application, url: url.href };
      }
      const first = parseRedirectUrl(oidc.redirectUris[0]);
      return { ...application, url: first ? `${first.origin}/` : '' };
    });
  }
}

export default fp(
  async (app) => {
    app.decorate('ssoAppService', new SsoAppService(app));
  },
  { name: 'sso-app-service' },
);
