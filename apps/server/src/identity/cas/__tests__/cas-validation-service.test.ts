import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../../../testing/test-app.js';

// The ticket validation as a service (CAS 3.0 §2.5–2.7), called without HTTP.
describe.each(testDialects())('CAS ticket validation service on %s', (dialect) => {
  let t: TestApp;
  let accountId: number;
  let tgt: string;
  const service = 'https://app.example.com/login';
  beforeAll(async () => {
    t = await createTestApp(dialect);
    accountId = (await t.app.accountRepository.findForLogin('admin'))!.id;
    ({ tgt } = await t.app.casTicketService.createTgt(accountId, { ip: '127.0.0.1', userAgent: 'test' }, async () => {}));
  });
  afterAll(() => t.close());

  const ticket = (fromLogin: boolean) => t.app.casTicketService.issueServiceTicket(tgt, service, fromLogin, null);

  it('answers the user and the attributes once; the ticket is spent by its first validation', async () => {
    const id = await ticket(true);
    const first = await t.app.casValidationService.serviceValidate({ service, ticket: id }, true);
    expect(first).toMatchObject({ ok: true, user: 'admin', attributes: { isFromNewLogin: 'true' } });
    const again = await t.app.casValidationService.serviceValidate({ service, ticket: id }, true);
    expect(again).toEqual({ ok: false, code: 'INVALID_TICKET', description: `Ticket ${id} not recognized` });
  });

  it('a CAS 2.0 answer carries no attributes; CAS 1.0 answers the user', async () => {
    expect(await t.app.casValidationService.serviceValidate({ service, ticket: await ticket(true) }, false)).toEqual({
      ok: true,
      user: 'admin',
    });
    expect(await t.app.casValidationService.validateUser({ service, ticket: await ticket(false) })).toBe('admin');
  });

  it('refuses a missing parameter, a malformed ticket, another service, renew for an SSO ticket and an expired ticket', async () => {
    const v = t.app.casValidationService;
    expect(await v.validate({ service })).toMatchObject({ ok: false, code: 'INVALID_REQUEST' });
    expect(await v.validate({ service, ticket: 'nope' })).toMatchObject({ ok: false, code: 'INVALID_TICKET_SPEC' });
    expect(await v.validate({ service: `${service}/other`, ticket: await ticket(true) })).toMatchObject({
      ok: false,
      code: 'INVALID_SERVICE',
    });
    expect(await v.validate({ service, ticket: await ticket(false), renew: 'true' })).toMatchObject({ ok: false, code: 'INVALID_TICKET' });
    const later = new Date(Date.now() + 3_600_000);
    const expired = await v.validate({ service, ticket: await ticket(true) }, later);
    expect(expired).toMatchObject({ ok: false, code: 'INVALID_TICKET', description: expect.stringContaining('已过期') });
  });
});
