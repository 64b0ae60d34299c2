import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AccountTrustedDeviceParamsSchema,
  ApiPrefix,
  Authority,
  EmptyAnswerSchema,
  TrustedDeviceParamsSchema,
  TrustedDeviceRowSchema,
  TwoFactorResetParamsSchema,
} from '@portal/shared';
import { actorOf, callerOf } from '../portal-auth/auth.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { ForbiddenError } from '../../platform/lib/errors.js';

const tags = ['security'];

/**
 * 信任此设备's lists: the signed-in account's own (个人信息) and, for holders of org:account or
 * security:setting, those of an account of their enterprise (账号管理); each device can be removed, audited.
 */
const trustedDeviceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const devices = app.trustedDeviceService;
  const enterpriseOf = (enterpriseId: number | null | undefined): number => {
    if (!enterpriseId) throw new ForbiddenError('当前账号不属于任何企业');
    return enterpriseId;
  };

  app.get(
    `${ApiPrefix.portalAuth}/account/trusted-devices`,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: '我的受信任设备：登录时免二次验证的浏览器（未到期的）',
        response: { 200: Envelope(TrustedDeviceRowSchema), ...errorResponses },
      },
    },
    async (request) => ok(await devices.listOf(callerOf(request).accountId)),
  );

  app.delete(
    `${ApiPrefix.portalAuth}/account/trusted-devices/:deviceId`,
    {
      onRequest: app.authenticate,
      config: { auditAction: 'trusted-device.revoke' },
      schema: {
        tags,
        summary: '移除我的受信任设备（该浏览器下次登录时重新进行二次验证）',
        params: TrustedDeviceParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await devices.revokeOwn(callerOf(request), request.params.deviceId);
      return ok([], '已移除，该设备下次登录时需重新进行二次验证');
    },
  );

  app.get(
    `${ApiPrefix.console}/account/:id/trusted-devices`,
    {
      onRequest: app.requireAuthority(Authority.OrgAccount, Authority.SecuritySetting),
      schema: {
        tags,
        summary: '账号的受信任设备（本企业账号）',
        params: TwoFactorResetParamsSchema,
        response: { 200: Envelope(TrustedDeviceRowSchema), ...errorResponses },
      },
    },
    async (request) => ok(await devices.listForAdmin(enterpriseOf(request.principal?.profile.enterpriseId), request.params.id)),
  );

  app.delete(
    `${ApiPrefix.console}/account/:id/trusted-devices/:deviceId`,
    {
      onRequest: app.requireAuthority(Authority.OrgAccount, Authority.SecuritySetting),
      config: { auditAction: 'trusted-device.revoke' },
      schema: {
        tags,
        summary: '移除账号的受信任设备（该浏览器下次登录时重新进行二次验证）',
        params: AccountTrustedDeviceParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const enterpriseId = enterpriseOf(request.principal?.profile.enterpriseId);
      await devices.revokeForAdmin(enterpriseId, request.params.id, request.params.deviceId, actorOf(request));
      return ok([], '已移除，该设备下次登录时需重新进行二次验证');
    },
  );
};

export default trustedDeviceRoutes;
