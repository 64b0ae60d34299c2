import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.js';
import { createSmsSender } from './create-sms-sender.js';
import { type SmsMessage, type SmsSender, type SmsTemplateKey, SmsTemplateMissingError } from './sms-sender.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The configured SMS provider (SMS_PROVIDER), chosen once at startup. */
    smsSender: SmsSender;
  }
}

/**
 * Sends `message` for a console or registration request, or refuses the request with 503: a
 * template that is not configured is named, a provider's own reason is logged and never shown.
 */
export async function sendSmsOrRefuse(log: FastifyBaseLogger, sender: SmsSender, message: SmsMessage): Promise<void> {
  try {
    await sender.send(message);
  } catch (err) {
    log.error({ err: (err as Error).message, provider: sender.name, templateKey: message.templateKey }, 'SMS not sent');
    if (err instanceof SmsTemplateMissingError) throw new AppError(err.message, 503);
    throw new AppError('短信发送失败，请稍后再试', 503);
  }
}

/** Refuses with 503 naming the template, before anything is written, when messages of `key` cannot be sent. */
export function refuseWithoutTemplate(sender: SmsSender, key: SmsTemplateKey): void {
  if (!sender.hasTemplate(key)) throw new AppError(new SmsTemplateMissingError(key).message, 503);
}

export default fp(
  async (app) => {
    app.decorate('smsSender', createSmsSender(app.config.smsEnv, app.log));
  },
  { name: 'sms-sender' },
);
