import { SUBSCRIPTION_PURPOSE_MAX } from '@portal/shared';

export const PURPOSE_TOO_LONG = `申请说明最多${SUBSCRIPTION_PURPOSE_MAX}个字符`;

/** 申请说明 is optional and fits SUBSCRIPTION_PURPOSE_MAX characters, counted as the server does. */
export function purposeProblem(value: string): string | undefined {
  return [...value.trim()].length > SUBSCRIPTION_PURPOSE_MAX ? PURPOSE_TOO_LONG : undefined;
}

/** The day part of a `yyyy-MM-dd HH:mm:ss` time: the detail says on which day a request was made or decided. */
export const dayOf = (time: string) => time.slice(0, 10);
