import {
  type CertificationApplication,
  CertificationMessage,
  type EnterpriseProfile,
  EnterpriseMessage,
  EnterpriseRules,
} from '@portal/shared';
import { describe, expect, it } from 'vitest';
import {
  certificationBody,
  certificationFileProblem,
  certificationForm,
  reasonsByField,
  rejectedApplication,
} from '../lib/certification-form';
import { industryPath, normalizeCreditCode, optionalCreditCode, profileBody, profileForm, regionPath } from '../lib/profile-form';

const PROFILE: EnterpriseProfile = {
  id: 1,
  name: '徐州恒岳重工机械有限公司',
  creditCode: '',
  legalRepresentative: '张伟',
  address: '',
  industryCode: '34',
  industryLabel: 'C 制造业 / 34 通用设备制造业',
  regionCode: '320300',
  regionLabel: '江苏省 / 徐州市',
  contactName: '',
  contactPhone: '',
  introduction: '',
  logo: '',
  certificationStatus: 'none',
  certifiedAt: null,
  certifiedFieldsLocked: false,
  editable: true,
};

const REJECTED: CertificationApplication = {
  id: 3,
  status: 'rejected',
  enterpriseName: '徐州恒岳重工有限公司',
  creditCode: '91350100M000100Y43',
  legalRepresentative: '张伟',
  applicantRole: 'agent',
  applicantName: '李娜',
  licence: { id: 11, name: '营业执照.pdf', mime: 'application/pdf', bytes: 204800 },
  authorization: { id: 12, name: '授权书.jpg', mime: 'image/jpeg', bytes: 102400 },
  submittedAt: '2026-05-01 09:00:00',
  decidedAt: '2026-05-02 10:00:00',
  reviewerName: '审核员',
  reasons: ['name-mismatch', 'licence-unclear', 'licence-expired', 'other'],
  comment: '请上传最新的营业执照',
};

describe('企业信息 form rules', () => {
  it('the credit code: a wrong check character, a bad alphabet, and a valid code (GB 32100-2015)', () => {
    expect(EnterpriseRules.creditCode('91350100M000100Y43')).toBeUndefined();
    expect(EnterpriseRules.creditCode('91350100M000100Y44')).toBe(EnterpriseMessage.creditCodeCheck);
    expect(EnterpriseRules.creditCode('91350100M000100YI3')).toBe(EnterpriseMessage.creditCodeInvalid);
    // The profile may keep no code until the enterprise applies; the application needs one.
    expect(optionalCreditCode('')).toBeUndefined();
    expect(optionalCreditCode('91350100M000100Y44')).toBe(EnterpriseMessage.creditCodeCheck);
  });

  it('typed codes are upper-cased and lose their spaces', () => {
    expect(normalizeCreditCode(' 91350100m000 100y43 ')).toBe('91350100M000100Y43');
  });

  it('所属行业 and 所在地区 are cascader paths (门类 → 大类, province → city)', () => {
    expect(industryPath('34')).toEqual(['C', '34']);
    expect(industryPath('')).toEqual([]);
    expect(industryPath('99')).toEqual([]);
    const regions = [{ code: '110000', name: '北京市', children: [{ code: '110100', name: '北京市' }] }];
    expect(regionPath('110100', regions)).toEqual(['110000', '110100']);
    // Before the list has loaded, the province comes from the code.
    expect(regionPath('320300', undefined)).toEqual(['320000', '320300']);
    expect(regionPath('', regions)).toEqual([]);
  });

  it('the body carries the chosen 大类 and city codes and trimmed texts', () => {
    const values = { ...profileForm(PROFILE, undefined), address: '  徐州市经济技术开发区  ', region: [] };
    expect(profileBody(values)).toEqual({
      name: PROFILE.name,
      creditCode: '',
      legalRepresentative: '张伟',
      address: '徐州市经济技术开发区',
      industryCode: '34',
      regionCode: '',
      contactName: '',
      contactPhone: '',
      introduction: '',
      logo: '',
    });
  });
});

describe('企业认证 form', () => {
  it('starts from the profile, or after a rejection from the rejected application with its materials', () => {
    expect(certificationForm(PROFILE, undefined)).toMatchObject({
      enterpriseName: PROFILE.name,
      legalRepresentative: '张伟',
      applicantRole: 'legal',
      licence: null,
      declaration: false,
    });
    expect(certificationForm(PROFILE, REJECTED)).toMatchObject({
      enterpriseName: '徐州恒岳重工有限公司',
      creditCode: '91350100M000100Y43',
      applicantRole: 'agent',
      licence: REJECTED.licence,
      authorization: REJECTED.authorization,
      declaration: false,
    });
  });

  it('the rejected application is the latest rejected one, only while the status is 已驳回', () => {
    expect(rejectedApplication({ status: 'rejected', certifiedAt: null, applications: [REJECTED] })).toBe(REJECTED);
    expect(
      rejectedApplication({ status: 'pending', certifiedAt: null, applications: [{ ...REJECTED, id: 4, status: 'pending' }, REJECTED] }),
    ).toBeUndefined();
  });

  it('groups the reasons by the field each points at', () => {
    expect(reasonsByField(REJECTED)).toEqual({
      enterpriseName: ['企业名称与执照不一致'],
      licence: ['营业执照不清晰', '营业执照已过期'],
      general: ['其他'],
    });
  });

  it('sends the authorisation letter only for an agent', () => {
    const values = { ...certificationForm(PROFILE, REJECTED), declaration: true };
    expect(certificationBody(values)).toEqual({
      enterpriseName: '徐州恒岳重工有限公司',
      creditCode: '91350100M000100Y43',
      legalRepresentative: '张伟',
      applicantRole: 'agent',
      licenceFileId: 11,
      authorizationFileId: 12,
      declaration: true,
    });
    expect(certificationBody({ ...values, applicantRole: 'legal' }).authorizationFileId).toBeNull();
  });

  it('checks a material before sending: JPG, PNG or PDF up to 10 MB, in the server’s words', () => {
    expect(certificationFileProblem({ name: 'a.pdf', type: 'application/pdf', size: 10 * 1024 * 1024 })).toBeNull();
    expect(certificationFileProblem({ name: 'a.png', type: '', size: 100 })).toBeNull();
    expect(certificationFileProblem({ name: 'a.pdf', type: 'application/pdf', size: 10 * 1024 * 1024 + 1 })).toBe(
      CertificationMessage.fileTooLarge,
    );
    expect(certificationFileProblem({ name: 'a.docx', type: 'application/msword', size: 100 })).toBe(CertificationMessage.fileType);
    expect(certificationFileProblem({ name: 'a.gif', type: 'image/gif', size: 100 })).toBe(CertificationMessage.fileType);
  });
});
