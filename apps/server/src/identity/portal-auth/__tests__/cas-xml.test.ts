import { describe, expect, it } from 'vitest';
import { failureXml, successXml } from '../../cas/cas-responses.js';
import { parseCasXml } from '../cas-client.js';

/** Reading CAS 3.0 validation answers in XML (protocol §2.5.2, appendix A) as a CAS client does. */
describe('parseCasXml', () => {
  it('reads the user and every attribute as a list, repeated elements as several values, escapes undone', () => {
    const xml = successXml('admin', { name: '张伟 & <Co>', email: '', groups: ['信息中心', '质量部'], roles: [] });
    expect(parseCasXml(xml)).toEqual({
      ok: true,
      user: 'admin',
      attributes: { name: ['张伟 & <Co>'], email: [''], groups: ['信息中心', '质量部'] },
    });
  });

  it('reads an answer laid out over several lines, and one without attributes (CAS 2.0)', () => {
    const xml = `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">
      <cas:authenticationSuccess>
        <cas:user>u1</cas:user>
        <cas:attributes>
          <cas:number>HY0001</cas:number>
        </cas:attributes>
      </cas:authenticationSuccess>
    </cas:serviceResponse>`;
    expect(parseCasXml(xml)).toEqual({ ok: true, user: 'u1', attributes: { number: ['HY0001'] } });
    expect(parseCasXml(successXml('u2', undefined))).toEqual({ ok: true, user: 'u2', attributes: {} });
  });

  it('reads a failure with its code and description', () => {
    expect(parseCasXml(failureXml('INVALID_SERVICE', 'Ticket ST-1 does not match supplied service'))).toEqual({
      ok: false,
      code: 'INVALID_SERVICE',
      description: 'Ticket ST-1 does not match supplied service',
    });
  });

  it('answers nothing for what is not a validation answer', () => {
    for (const text of ['', 'yes\nadmin\n', '<html><body>login</body></html>', '<<<', '<cas:serviceResponse xmlns:cas="x"/>']) {
      expect(parseCasXml(text)).toBeUndefined();
    }
    expect(
      parseCasXml('<cas:serviceResponse xmlns:cas="x"><cas:authenticationSuccess></cas:authenticationSuccess></cas:serviceResponse>'),
    ).toBeUndefined();
  });
});
