import type {
  IdentifierPrefix,
  IdentifierRecord,
  IdentifierTemplate,
  IdentifierTemplateVersion,
  PrefixRequestRow,
  TemplateItem,
} from '@portal/shared';

const item = (name: string, idType: string, idIndex: number, required: boolean, minLength: number, maxLength: number): TemplateItem => ({
  name,
  idType,
  idIndex,
  required,
  state: 1,
  metadata: { type: 'string', minLength, maxLength },
});

/** Two required items with length rules, an optional one and a retired one. */
export const ITEMS: TemplateItem[] = [
  item('产品名称', 'productName', 2000, true, 1, 20),
  item('出厂编号', 'serialNumber', 2001, true, 4, 12),
  item('颜色', 'color', 2002, false, 1, 8),
  { ...item('旧型号', 'oldModel', 2003, false, 1, 8), state: 0 },
];

/** A date, a bounded number and an enumeration counted in 标识统计. */
export const TYPED_ITEMS: TemplateItem[] = [
  { name: '生产日期', idType: 'productionDate', idIndex: 2000, required: true, state: 1, metadata: { type: 'date' } },
  { name: '额定压力', idType: 'ratedPressure', idIndex: 2001, required: false, state: 1, metadata: { type: 'number', min: 0, max: 35 } },
  {
    name: '质保期',
    idType: 'warranty',
    idIndex: 2002,
    required: false,
    state: 1,
    metadata: { type: 'enum', options: ['12个月', '24个月'] },
    analytics: true,
  },
];

export const HENGYUE: IdentifierPrefix = {
  id: 1,
  prefix: '88.118.8',
  name: '恒岳重工工程机械产品标识',
  enterpriseId: 1,
  enterpriseName: '徐州恒岳重工机械有限公司',
  templateCount: 2,
  recordCount: 1,
  createdAt: '2026-01-03 09:30:00',
  updatedAt: '2026-01-03 09:30:00',
};

export const RUICHI: IdentifierPrefix = {
  ...HENGYUE,
  id: 2,
  prefix: '88.118.16',
  name: '瑞驰液压元件产品标识',
  enterpriseId: 2,
  enterpriseName: '常州瑞驰液压科技有限公司',
  templateCount: 0,
  recordCount: 0,
};

export const MACHINES: IdentifierTemplate = {
  id: 5,
  prefix: '88.118.8',
  name: '工程机械整机',
  version: 2,
  items: ITEMS,
  recordCount: 1,
  createdAt: '2026-01-03 09:30:00',
  updatedAt: '2026-02-01 10:00:00',
};

export const PARTS: IdentifierTemplate = {
  ...MACHINES,
  id: 6,
  name: '配件',
  version: 1,
  items: [item('配件名称', 'partName', 2000, true, 1, 32)],
  recordCount: 0,
};

/** Parts described by typed items. */
export const PUMPS: IdentifierTemplate = { ...MACHINES, id: 7, name: '液压泵', version: 1, items: TYPED_ITEMS, recordCount: 0 };

/** Written with version 1; has a value of the item retired since. */
export const RECORD: IdentifierRecord = {
  id: 9,
  handle: '88.118.8/EX-1',
  prefix: '88.118.8',
  suffix: 'EX-1',
  templateId: 5,
  templateName: '工程机械整机',
  templateVersion: 1,
  values: { productName: '中型履带式液压挖掘机', serialNumber: 'HYE2150001', oldModel: 'E215' },
  createdAt: '2026-01-05 08:00:00',
  updatedAt: '2026-01-05 08:00:00',
};

export const VERSIONS: IdentifierTemplateVersion[] = [
  { templateId: 5, version: 2, name: '工程机械整机', items: ITEMS, createdAt: '2026-02-01 10:00:00', createdBy: 'admin' },
  {
    templateId: 5,
    version: 1,
    name: '工程机械整机',
    // "weight" (2009) was dropped in version 2: a new item goes after it.
    items: [...ITEMS.slice(0, 2), item('整机重量', 'weight', 2009, false, 1, 16)],
    createdAt: '2026-01-03 09:30:00',
    createdBy: 'operator',
  },
];

/** 申请标识前缀: one waiting for a decision, one approved, one rejected with the operator's reason. */
export const PENDING_REQUEST: PrefixRequestRow = {
  id: 21,
  enterpriseId: 2,
  enterpriseName: '常州瑞驰液压科技有限公司',
  prefix: '88.118.30',
  purpose: '瑞驰液压泵产品标识',
  status: 'pending',
  applicantName: '李娜',
  reviewerName: '',
  reason: '',
  createdAt: '2026-03-02 10:00:00',
  decidedAt: null,
};

export const APPROVED_REQUEST: PrefixRequestRow = {
  ...PENDING_REQUEST,
  id: 20,
  prefix: '88.118.16',
  purpose: '瑞驰液压元件产品标识',
  status: 'approved',
  reviewerName: '平台运营',
  createdAt: '2026-02-01 09:00:00',
  decidedAt: '2026-02-02 15:00:00',
};

export const REJECTED_REQUEST: PrefixRequestRow = {
  ...PENDING_REQUEST,
  id: 19,
  prefix: '88.118.29',
  purpose: '试用前缀',
  status: 'rejected',
  reviewerName: '平台运营',
  reason: '前缀未在国家顶级节点注册',
  createdAt: '2026-01-20 09:00:00',
  decidedAt: '2026-01-21 11:00:00',
};
