import { CheckCircleOutlined, CloseCircleOutlined, ReloadOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Progress, Result, Row, Skeleton, Typography } from 'antd';
import { type ReactNode, useMemo } from 'react';
import { ConsolePage } from '@/components/console-page';
import type { Statistics } from '@portal/shared';
import { useStatistics } from '../api/get-statistics';
import {
  accountStatusOption,
  accountTotal,
  applicationsOption,
  coveragePercent,
  hasSignIns,
  signInTotals,
  signInsOption,
} from '../lib/statistics-charts';
import { StatisticsChart } from './statistics-chart';
import './statistics.css';

const number = new Intl.NumberFormat('zh-CN');
const NO_ACCOUNTS: Statistics['accountsByStatus'] = { active: 0, disabled: 0, locked: 0 };
const share = (part: number, whole: number) => (whole > 0 ? `占全部账号 ${Math.round((part / whole) * 100)}%` : '暂无账号');

interface Tile {
  label: string;
  value: number | undefined;
  note?: string;
  icon: ReactNode;
  tone: string;
}

function Tiles({ tiles }: { tiles: Tile[] }) {
  return (
    <div className="statistics__tiles">
      {tiles.map((t) => (
        <div key={t.label} className={`statistics__tile statistics__tile--${t.tone}`}>
          <span className="statistics__tile-icon" aria-hidden="true">
            {t.icon}
          </span>
          <div className="statistics__tile-text">
            <span className="statistics__tile-label">{t.label}</span>
            <strong className="statistics__tile-value">{t.value === undefined ? '—' : number.format(t.value)}</strong>
            {t.note && <span className="statistics__tile-note">{t.note}</span>}
          </div>
        </div>
      ))}
    </div>
  );
}

const noData = (text: string) => <Empty description={text} image={Empty.PRESENTED_IMAGE_SIMPLE} className="statistics__empty" />;
const loading = <Skeleton active paragraph={{ rows: 6 }} />;

function TwoFactorCoverage({ twoFactor }: { twoFactor: Statistics['twoFactor'] }) {
  const total = twoFactor.enabled + twoFactor.notEnabled;
  if (total === 0) return noData('暂无账号');
  return (
    <div className="statistics__coverage">
      <Progress
        type="dashboard"
        percent={coveragePercent(twoFactor)}
        strokeColor="#1456d9"
        aria-label="二次验证覆盖率"
        format={(percent) => `${percent ?? 0}%`}
      />
      <Typography.Text type="secondary">
        已绑定验证器 {number.format(twoFactor.enabled)} / {number.format(total)} 个账号
      </Typography.Text>
    </div>
  );
}

/**
 * 统计分析: the enterprise's sign-ins per day over 30 days (successes and failures), its
 * active accounts, sign-ins per application, accounts by state and two-factor coverage.
 */
export function StatisticsPage() {
  const statistics = useStatistics();
  const data = statistics.data;
  const totals = useMemo(() => signInTotals(data?.signInsPerDay ?? []), [data?.signInsPerDay]);
  const signIns = useMemo(() => signInsOption(data?.signInsPerDay ?? []), [data?.signInsPerDay]);
  const perApplication = useMemo(() => applicationsOption(data?.signInsPerApplication ?? []), [data?.signInsPerApplication]);
  const byStatus = useMemo(() => accountStatusOption(data?.accountsByStatus ?? NO_ACCOUNTS), [data?.accountsByStatus]);

  if (statistics.isError && !data) {
    return (
      <ConsolePage>
        <Result
          status="warning"
          title="统计数据加载失败"
          extra={
            <Button type="primary" onClick={() => void statistics.refetch()}>
              重新加载
            </Button>
          }
        />
      </ConsolePage>
    );
  }

  const active = data?.activeAccounts;
  const tiles: Tile[] = [
    {
      label: '近 7 天活跃账号',
      value: active?.last7Days,
      note: active && share(active.last7Days, active.total),
      icon: <UserOutlined />,
      tone: 'blue',
    },
    {
      label: '近 30 天活跃账号',
      value: active?.last30Days,
      note: active && share(active.last30Days, active.total),
      icon: <TeamOutlined />,
      tone: 'cyan',
    },
    { label: '近 30 天登录成功', value: data && totals.success, icon: <CheckCircleOutlined />, tone: 'green' },
    { label: '近 30 天登录失败', value: data && totals.failure, icon: <CloseCircleOutlined />, tone: 'red' },
  ];
  const accounts = data ? accountTotal(data.accountsByStatus) : 0;

  return (
    <ConsolePage
      className="statistics"
      filters={<Typography.Text type="secondary">本企业账号在统一身份认证的登录情况，近 30 天按北京时间统计。</Typography.Text>}
      actions={
        <Button icon={<ReloadOutlined />} loading={statistics.isFetching} onClick={() => void statistics.refetch()}>
          刷新
        </Button>
      }
    >
      <Tiles tiles={tiles} />
      <Row gutter={[16, 16]}>
        <Col xs={24}>
          <Card title="近 30 天登录趋势" size="small">
            {!data ? (
              loading
            ) : hasSignIns(data.signInsPerDay) ? (
              <StatisticsChart option={signIns} label="近 30 天每日登录成功与失败次数折线图" />
            ) : (
              noData('近 30 天暂无登录')
            )}
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card title="各应用登录次数" extra={<span className="statistics__note">近 30 天</span>} size="small">
            {!data ? (
              loading
            ) : data.signInsPerApplication.length > 0 ? (
              <StatisticsChart option={perApplication} label="近 30 天各应用登录次数柱状图" />
            ) : (
              noData('暂无应用登录')
            )}
          </Card>
        </Col>
        <Col xs={24} md={12} xl={6}>
          <Card title="账号状态" extra={data && <span className="statistics__note">共 {number.format(accounts)} 个</span>} size="small">
            {!data ? loading : accounts > 0 ? <StatisticsChart option={byStatus} label="账号状态分布环形图" /> : noData('暂无账号')}
          </Card>
        </Col>
        <Col xs={24} md={12} xl={6}>
          <Card title="二次验证覆盖" size="small">
            {data ? <TwoFactorCoverage twoFactor={data.twoFactor} /> : loading}
          </Card>
        </Col>
      </Row>
    </ConsolePage>
  );
}
