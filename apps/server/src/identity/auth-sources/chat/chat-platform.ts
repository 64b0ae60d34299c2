import type { ChatSourceType } from '@portal/shared';
import type { ChatEndpoints } from '../../../platform/config.js';
import type { LoadedSource } from '../directory.js';
import type { ChatPlatform } from './chat-directory.js';
import { DingtalkPlatform } from './dingtalk.js';
import { FeishuPlatform } from './feishu.js';
import { WecomPlatform } from './wecom.js';

export type { ChatPlatform } from './chat-directory.js';

/** The platform behind a 企业微信, 钉钉 or 飞书 source, talking to the configured hosts (config.auth.chatEndpoints). */
export function chatPlatform(source: LoadedSource & { type: ChatSourceType }, endpoints: ChatEndpoints): ChatPlatform {
  switch (source.type) {
    case 'wecom':
      return new WecomPlatform(source.config, source.secret, endpoints);
    case 'dingtalk':
      return new DingtalkPlatform(source.config, source.secret, endpoints);
    case 'feishu':
      return new FeishuPlatform(source.config, source.secret, endpoints);
  }
}
