import type { TemplateItemInput } from '@portal/shared';

/** Demo prefixes (README, "Demo data"): one per demo manufacturer. */
export const DEMO_PREFIXES = [
  { prefix: '88.118.8', name: '恒岳重工工程机械产品标识', enterprise: '徐州恒岳重工机械有限公司' },
  { prefix: '88.118.16', name: '瑞驰液压元件产品标识', enterprise: '常州瑞驰液压科技有限公司' },
] as const;

const text = (name: string, idType: string, required: boolean, minLength: number, maxLength: number): TemplateItemInput => ({
  name,
  idType,
  required,
  metadata: { type: 'string', minLength, maxLength },
});

/** A calendar date `YYYY-MM-DD` (checked as a real date on every write). */
const date = (name: string, idType: string, required: boolean): TemplateItemInput => ({
  name,
  idType,
  required,
  metadata: { type: 'date' },
});

/** 计入统计: 标识统计 counts the item's values among found lookups, e.g. which models are scanned. */
const counted = (item: TemplateItemInput): TemplateItemInput => ({ ...item, analytics: true });

/** Whole machines: excavators, cranes, loaders. */
export const MACHINERY_TEMPLATE = {
  name: '工程机械整机',
  items: [
    text('产品名称', 'productName', true, 1, 64),
    counted(text('产品型号', 'productModel', true, 1, 32)),
    text('出厂编号', 'serialNumber', true, 1, 32),
    date('生产日期', 'productionDate', true),
    text('生产厂家', 'manufacturer', true, 1, 64),
    text('生产工厂', 'factory', false, 1, 100),
    text('主要参数', 'mainSpec', false, 1, 200),
    text('发动机型号', 'engineModel', false, 1, 32),
    text('质保期', 'warrantyPeriod', true, 1, 32),
    text('售后电话', 'serviceHotline', true, 1, 32),
    text('服务网点', 'serviceCenter', false, 1, 64),
  ],
};

/** Hydraulic components: pumps, valves, cylinders. */
export const HYDRAULIC_TEMPLATE = {
  name: '液压元件',
  items: [
    text('产品名称', 'productName', true, 1, 64),
    counted(text('产品型号', 'productModel', true, 1, 32)),
    text('出厂编号', 'serialNumber', true, 1, 32),
    date('生产日期', 'productionDate', true),
    text('生产厂家', 'manufacturer', true, 1, 64),
    text('额定压力', 'ratedPressure', false, 1, 32),
    text('适配主机', 'compatibleMachine', false, 1, 100),
    text('质保期', 'warrantyPeriod', true, 1, 32),
    text('售后电话', 'serviceHotline', true, 1, 32),
  ],
};

const MACHINES = {
  EX: {
    factory: '徐州经济技术开发区恒岳重工挖掘机事业部',
    models: [
      { name: '小型履带式液压挖掘机', model: 'HY-E60', spec: '整机重量 6.2 t，标准斗容 0.23 m³', engine: 'YM4TNV94L' },
      { name: '中型履带式液压挖掘机', model: 'HY-E135', spec: '整机重量 13.8 t，标准斗容 0.55 m³', engine: 'WP4.1G' },
      { name: '中型履带式液压挖掘机', model: 'HY-E215', spec: '整机重量 21.5 t，标准斗容 1.0 m³', engine: 'WP6G175E' },
      { name: '大型履带式液压挖掘机', model: 'HY-E360', spec: '整机重量 35.8 t，标准斗容 1.8 m³', engine: 'QSL9-C300' },
      { name: '轮式挖掘机', model: 'HY-W150', spec: '整机重量 14.5 t，标准斗容 0.6 m³，最高车速 35 km/h', engine: 'WP4.1G' },
    ],
  },
  CR: {
    factory: '徐州高新区恒岳重工起重机事业部',
    models: [
      { name: '汽车起重机', model: 'HY-Q25K', spec: '最大额定起重量 25 t，主臂长 33.5 m', engine: 'WP7.270E' },
      { name: '汽车起重机', model: 'HY-Q50K', spec: '最大额定起重量 50 t，主臂长 43.5 m', engine: 'WP10H.375' },
      { name: '全地面起重机', model: 'HY-A100', spec: '最大额定起重量 100 t，主臂长 60 m', engine: 'WP12.430' },
      { name: '履带起重机', model: 'HY-C80', spec: '最大额定起重量 80 t，主臂长 58 m', engine: 'WP10H.336' },
    ],
  },
  LD: {
    factory: '徐州铜山区恒岳重工装载机事业部',
    models: [
      { name: '轮式装载机', model: 'HY-L30', spec: '额定载重量 3 t，标准斗容 1.8 m³', engine: 'WP6G125E' },
      { name: '轮式装载机', model: 'HY-L50', spec: '额定载重量 5 t，标准斗容 3.0 m³', engine: 'WD10G220E' },
      { name: '电动轮式装载机', model: 'HY-L50E', spec: '额定载重量 5 t，电池容量 350 kWh', engine: '永磁同步电机' },
      { name: '大型轮式装载机', model: 'HY-L80', spec: '额定载重量 8 t，标准斗容 4.5 m³', engine: 'WP12G290' },
    ],
  },
} as const;

const HYDRAULICS = {
  HP: [
    { name: '斜轴式柱塞泵', model: 'RC-A7V107', pressure: '35 MPa', machine: '20–30 t 级液压挖掘机' },
    { name: '斜盘式变量柱塞泵', model: 'RC-K3V112', pressure: '34.3 MPa', machine: '20 t 级液压挖掘机' },
    { name: '齿轮泵', model: 'RC-CBG2080', pressure: '20 MPa', machine: '轮式装载机工作装置' },
  ],
  HV: [
    { name: '多路换向阀', model: 'RC-DF32', pressure: '31.5 MPa', machine: '汽车起重机上车' },
    { name: '先导控制阀', model: 'RC-PV48', pressure: '5 MPa', machine: '液压挖掘机先导系统' },
  ],
  HC: [
    { name: '动臂油缸', model: 'RC-HSG160', pressure: '31.5 MPa', machine: 'HY-E215 液压挖掘机' },
    { name: '变幅油缸', model: 'RC-HSG250', pressure: '25 MPa', machine: 'HY-Q25K 汽车起重机' },
    { name: '转向油缸', model: 'RC-HSG80', pressure: '16 MPa', machine: '轮式装载机转向系统' },
  ],
} as const;

const SERVICE_CENTERS = [
  '江苏徐州服务中心',
  '山东临沂服务中心',
  '河南郑州服务中心',
  '安徽合肥服务中心',
  '四川成都服务中心',
  '广东佛山服务中心',
  '湖南长沙服务中心',
  '新疆乌鲁木齐服务中心',
];

/** A date of `year` spread over the months, the same on every run. */
function productionDate(year: number, i: number): string {
  const month = 1 + ((i * 7) % 12);
  const day = 1 + ((i * 11) % 28);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export interface DemoRecord {
  suffix: string;
  values: Record<string, string>;
}

/** The `n`-th machine of a series: kind EX/CR/LD, a year, a running number from 101. */
export function machineRecord(kind: keyof typeof MACHINES, year: number, n: number): DemoRecord {
  const series = MACHINES[kind];
  const m = series.models[n % series.models.length]!;
  const number = String(100 + n + 1).padStart(6, '0');
  return {
    suffix: `${kind}-${year}-${number}`,
    values: {
      productName: m.name,
      productModel: m.model,
      serialNumber: `${m.model.replace(/-/g, '')}${String(year).slice(2)}${number}`,
      productionDate: productionDate(year, n),
      manufacturer: '徐州恒岳重工机械有限公司',
      factory: series.factory,
      mainSpec: m.spec,
      engineModel: m.engine,
      warrantyPeriod: kind === 'CR' ? '24个月或3000小时' : '36个月或5000小时',
      serviceHotline: '0516-87886000',
      serviceCenter: SERVICE_CENTERS[(n * 3 + year) % SERVICE_CENTERS.length]!,
    },
  };
}

export function hydraulicRecord(kind: keyof typeof HYDRAULICS, year: number, n: number): DemoRecord {
  const series = HYDRAULICS[kind];
  const m = series[n % series.length]!;
  const number = String(100 + n + 1).padStart(6, '0');
  return {
    suffix: `${kind}-${year}-${number}`,
    values: {
      productName: m.name,
      productModel: m.model,
      serialNumber: `RC${kind}${String(year).slice(2)}${number}`,
      productionDate: productionDate(year, n + 3),
      manufacturer: '常州瑞驰液压科技有限公司',
      ratedPressure: m.pressure,
      compatibleMachine: m.machine,
      warrantyPeriod: '12个月',
      serviceHotline: '0519-86229100',
    },
  };
}

/** The demo records of each prefix: 280 machines and 100 hydraulic parts. */
export function demoRecords(prefix: (typeof DEMO_PREFIXES)[number]['prefix']): DemoRecord[] {
  const series = (count: number, make: (n: number) => DemoRecord) => Array.from({ length: count }, (_, n) => make(n));
  if (prefix === '88.118.8') {
    return [
      ...series(40, (n) => machineRecord('EX', 2023, n)),
      ...series(120, (n) => machineRecord('EX', 2024, n)),
      ...series(20, (n) => machineRecord('CR', 2023, n)),
      ...series(40, (n) => machineRecord('CR', 2024, n)),
      ...series(20, (n) => machineRecord('LD', 2023, n)),
      ...series(40, (n) => machineRecord('LD', 2024, n)),
    ];
  }
  return [
    ...series(40, (n) => hydraulicRecord('HP', 2024, n)),
    ...series(30, (n) => hydraulicRecord('HV', 2024, n)),
    ...series(30, (n) => hydraulicRecord('HC', 2024, n)),
  ];
}
