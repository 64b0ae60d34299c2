import { SUBSCRIPTION_PURPOSE_MAX, SubscriptionMessage } from '@portal/shared';

/** 申请说明 is optional and fits SUBSCRIPTION_PURPOSE_MAX characters, counted as the server does. */
export function purposeProblem(value: string): string | undefined {
  return [...value.trim()].length > SUBSCRIPTION_PURPOSE_MAX ? SubscriptionMessage.purposeTooLong : undefined;
}

/** The day part of a `yyyy-MM-dd HH:mm:ss` time ('' for none): the detail says on which day a request was made or decided. */
export const dayOf = (time: string | undefined) => (time ?? '').slice(0, 10);
