import { describe, expect, it } from 'vitest';
import {
  CREDIT_CODE_CHARSET,
  EnterpriseMessage,
  EnterpriseRules,
  INDUSTRY_SECTIONS,
  creditCodeCheckChar,
  industryLabel,
} from '../enterprise.js';

/** Unified social credit codes published by their holders (licences, annual reports). */
const PUBLISHED = ['91350100M000100Y43', '914403001922038216', '9144030071526726XG', '91330100716105852F'];

describe('统一社会信用代码 check character (GB 32100-2015)', () => {
  it('accepts published codes', () => {
    for (const code of PUBLISHED) {
      expect(creditCodeCheckChar(code.slice(0, 17)), code).toBe(code.charAt(17));
      expect(EnterpriseRules.creditCode(code), code).toBeUndefined();
    }
  });

  it('refuses each published code with its check character changed', () => {
    for (const code of PUBLISHED) {
      for (const other of CREDIT_CODE_CHARSET) {
        if (other === code.charAt(17)) continue;
        expect(EnterpriseRules.creditCode(code.slice(0, 17) + other), code).toBe(EnterpriseMessage.creditCodeCheck);
      }
    }
  });

  it('refuses lower case, the letters I, O, Z, S, V and other lengths', () => {
    expect(EnterpriseRules.creditCode('9144030071526726xg')).toBe(EnterpriseMessage.creditCodeInvalid);
    expect(EnterpriseRules.creditCode('91330100716105852f')).toBe(EnterpriseMessage.creditCodeInvalid);
    for (const letter of ['I', 'O', 'Z', 'S', 'V']) {
      // In the organisation code (positions 9–17) and as the check character.
      expect(EnterpriseRules.creditCode(`91350100M00010${letter}Y43`), letter).toBe(EnterpriseMessage.creditCodeInvalid);
      expect(EnterpriseRules.creditCode(`91350100M000100Y4${letter}`), letter).toBe(EnterpriseMessage.creditCodeInvalid);
    }
    expect(EnterpriseRules.creditCode('91350100M000100Y4')).toBe(EnterpriseMessage.creditCodeInvalid);
    expect(EnterpriseRules.creditCode('91350100M000100Y430')).toBe(EnterpriseMessage.creditCodeInvalid);
    expect(EnterpriseRules.creditCode(' 91350100M000100Y43')).toBe(EnterpriseMessage.creditCodeInvalid);
    expect(EnterpriseRules.creditCode('')).toBe(EnterpriseMessage.creditCodeRequired);
  });
});

describe('国民经济行业分类 (GB/T 4754-2017)', () => {
  it('has 20 门类 A–T and 97 大类 with the codes 01–97 once each', () => {
    expect(INDUSTRY_SECTIONS.map((s) => s.code).join('')).toBe('ABCDEFGHIJKLMNOPQRST');
    const codes = INDUSTRY_SECTIONS.flatMap((s) => s.divisions.map((d) => d.code));
    expect(codes).toHaveLength(97);
    expect(codes).toEqual(Array.from({ length: 97 }, (_, i) => String(i + 1).padStart(2, '0')));
  });

  it('labels a 大类 with its 门类 and checks codes', () => {
    expect(industryLabel('35')).toBe('C 制造业 / 35 专用设备制造业');
    expect(industryLabel('34')).toBe('C 制造业 / 34 通用设备制造业');
    expect(industryLabel('64')).toBe('I 信息传输、软件和信息技术服务业 / 64 互联网和相关服务');
    expect(industryLabel('')).toBe('');
    for (const bad of ['00', '98', '5', 'C', '350']) expect(EnterpriseRules.industry(bad), bad).toBe(EnterpriseMessage.industryInvalid);
    expect(EnterpriseRules.industry('')).toBeUndefined();
  });
});
