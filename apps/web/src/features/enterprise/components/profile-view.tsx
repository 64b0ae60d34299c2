import type { EnterpriseProfile } from '@portal/shared';
import { Descriptions, Grid, Image, Typography } from 'antd';
import type { ReactNode } from 'react';
import { fileUrl, useRuntimeConfig } from '@/config/runtime-config';

const empty = <Typography.Text type="secondary">未填写</Typography.Text>;
const orEmpty = (value: string): ReactNode => value || empty;

/** 基本信息 as every member of the enterprise reads it. */
export function ProfileView({ profile }: { profile: EnterpriseProfile }) {
  const config = useRuntimeConfig();
  // On a phone each label stands above its value: a label column would halve the width.
  const wide = Grid.useBreakpoint().md ?? true;
  return (
    <Descriptions
      bordered
      layout={wide ? 'horizontal' : 'vertical'}
      size="middle"
      column={{ xs: 1, sm: 1, md: 2 }}
      className="enterprise-profile__view"
      items={[
        { key: 'name', label: '企业名称', children: profile.name },
        { key: 'creditCode', label: '统一社会信用代码', children: orEmpty(profile.creditCode) },
        { key: 'legalRepresentative', label: '法定代表人', children: orEmpty(profile.legalRepresentative) },
        { key: 'industry', label: '所属行业', children: orEmpty(profile.industryLabel) },
        { key: 'region', label: '所在地区', children: orEmpty(profile.regionLabel) },
        { key: 'address', label: '注册地址', children: orEmpty(profile.address) },
        { key: 'contactName', label: '联系人', children: orEmpty(profile.contactName) },
        { key: 'contactPhone', label: '联系电话', children: orEmpty(profile.contactPhone) },
        {
          key: 'introduction',
          label: '企业简介',
          span: 'filled',
          children: profile.introduction ? <div className="enterprise-profile__intro">{profile.introduction}</div> : empty,
        },
        {
          key: 'logo',
          label: '企业 Logo',
          span: 'filled',
          children: profile.logo ? (
            <Image src={fileUrl(config, profile.logo)} alt={`${profile.name} Logo`} width={96} className="enterprise-profile__logo" />
          ) : (
            empty
          ),
        },
      ]}
    />
  );
}
