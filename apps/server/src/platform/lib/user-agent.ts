import { LRUCache } from 'lru-cache';
import UAParser from 'ua-parser-js';

export interface ClientSoftware {
  /** Browser name and major version (`Chrome 120`); '' when the user agent names none. */
  browser: string;
  /** Operating system name and version (`Windows 10`, `iOS 17.2`); '' when it names none. */
  os: string;
}

const joined = (...parts: (string | undefined)[]) => parts.filter(Boolean).join(' ');

/** 浏览器 and 系统 of a session or a sign-in (在线会话, 登录日志), read from its User-Agent header. */
export function clientSoftware(userAgent: string): ClientSoftware {
  if (!userAgent) return { browser: '', os: '' };
  const parsed = new UAParser(userAgent);
  const browser = parsed.getBrowser();
  const os = parsed.getOS();
  return { browser: joined(browser.name, browser.version?.split('.')[0]), os: joined(os.name, os.version) };
}

/** What makes a browser the same one across its updates: browser name, system name and device type, without versions. */
export interface BrowserFamily {
  browser: string;
  os: string;
  /** ua-parser's device type (mobile, tablet…); '' for a desktop. */
  device: string;
}

/**
 * Families of the User-Agents seen lately: every sign-in asks, a few browser builds account for most of
 * them, and ua-parser's regular expressions cost more than the rest of the check.
 */
const families = new LRUCache<string, BrowserFamily>({ max: 1000 });

/** The browser family of a User-Agent (a sign-in from a browser the account never used). */
export function browserFamily(userAgent: string): BrowserFamily {
  if (!userAgent) return { browser: '', os: '', device: '' };
  let family = families.get(userAgent);
  if (!family) {
    const parsed = new UAParser(userAgent);
    family = Object.freeze({
      browser: parsed.getBrowser().name ?? '',
      os: parsed.getOS().name ?? '',
      device: parsed.getDevice().type ?? '',
    });
    // Real browsers' User-Agents are a few hundred characters; a longer one is not kept (the cache's size stays bounded).
    if (userAgent.length <= 512) families.set(userAgent, family);
  }
  return family;
}
