// PLACEHOLDER (issue 19 foundation): the chat-platform helper replaces this file.
import type { ChatSourceType } from '@portal/shared';
import type { ChatEndpoints } from '../../../config.js';
import { type Directory, DirectoryError, type DirectoryUser, type LoadedSource } from '../directory.js';

/** 企业微信, 钉钉, 飞书: contacts for sync, and QR sign-in (OAuth 2.0 authorization code). */
export interface ChatPlatform extends Directory {
  /** The platform's QR sign-in page, returning to `redirectUri` with `code` and `state`. */
  authorizeUrl(state: string, redirectUri: string): string;
  /** The person who scanned: the code exchanged for their platform identity (phone when the platform gives it). */
  identify(code: string, redirectUri: string): Promise<DirectoryUser>;
}

export function chatPlatform(source: LoadedSource & { type: ChatSourceType }, _endpoints: ChatEndpoints): ChatPlatform {
  throw new DirectoryError(`not implemented: ${source.type}`);
}
