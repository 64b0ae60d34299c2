import { describe, expect, it } from 'vitest';
import { authenticationDateOf } from '../portal-auth-service.js';

// CAS 3.0 §2.7 authenticationDate as CAS servers send it: the re-authentication clock starts there.
describe('a CAS server’s authenticationDate', () => {
  it('reads the ISO form, a list of one, and Apereo’s zone-named form', () => {
    const at = '2026-11-29T08:00:00.000Z';
    expect(authenticationDateOf(at).toISOString()).toBe(at);
    expect(authenticationDateOf([at]).toISOString()).toBe(at);
    expect(authenticationDateOf('2026-11-29T16:00:00+08:00[Asia/Shanghai]').toISOString()).toBe(at);
  });

  it('counts a missing or unreadable one as long ago, never as just now', () => {
    for (const value of [undefined, '', 'yesterday', [], 42]) expect(authenticationDateOf(value).getTime()).toBe(0);
  });
});
