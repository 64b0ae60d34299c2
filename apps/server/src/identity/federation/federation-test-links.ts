import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a console's 测试连接 link stays usable. */
const TEST_LINK_SECONDS = 120;

/** The signed 测试连接 link of a source (the console's call hands it to the administrator's popup). */
export class FederationTestLinks {
  constructor(private readonly key: Buffer) {}

  private mac(text: string) {
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }

  issue(sourceId: number, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + TEST_LINK_SECONDS;
    return `${expires}.${this.mac(`${sourceId}|${expires}`)}`;
  }

  valid(sourceId: number, token: string, now = Date.now()): boolean {
    const [expires = '', mac = ''] = token.split('.');
    const expected = this.mac(`${sourceId}|${expires}`);
    return Number(expires) * 1000 > now && mac.length === expected.length && timingSafeEqual(Buffer.from(mac), Buffer.from(expected));
  }
}
