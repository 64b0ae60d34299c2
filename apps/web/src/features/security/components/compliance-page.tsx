import { DownloadOutlined, FilePdfOutlined, ReloadOutlined } from '@ant-design/icons';
import { COMPLIANCE_FRAMEWORK_LABELS, type ComplianceControl, type ComplianceFramework, type ComplianceScore } from '@portal/shared';
import {
  Button,
  Card,
  Col,
  DatePicker,
  Grid,
  Progress,
  Result,
  Row,
  Skeleton,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConsolePage } from '@/components/console-page';
import { paths } from '@/config/paths';
import '@/lib/dayjs';
import { useComplianceReport, useExportComplianceCsv, useExportEvidencePack } from '../api/compliance';
import './security.css';

const FRAMEWORKS = Object.keys(COMPLIANCE_FRAMEWORK_LABELS) as ComplianceFramework[];
const DATE = 'YYYY-MM-DD';

function ResultTag({ passed }: { passed: boolean }) {
  return passed ? <Tag color="success">通过</Tag> : <Tag color="error">未通过</Tag>;
}

/** What to change, with a link to 安全设置 when the setting is there. */
function Remedy({ control }: { control: ComplianceControl }) {
  if (control.passed) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <span className="compliance__remedy">
      {control.remedy}
      {control.inSettings && <Link to={paths.securitySetting.getHref()}>前往安全设置</Link>}
    </span>
  );
}

function ScoreCard({ score }: { score: ComplianceScore }) {
  return (
    <Card size="small" className="compliance__score">
      <Space size={16} align="center">
        <Progress
          type="circle"
          size={72}
          percent={score.score}
          status={score.passed === score.total ? 'success' : 'normal'}
          format={(percent) => `${percent ?? 0}分`}
          aria-label={`${score.title}得分`}
        />
        <Space orientation="vertical" size={2}>
          <Typography.Text strong>{score.title}</Typography.Text>
          <Typography.Text type="secondary">
            {score.total} 项控制中 {score.passed} 项通过
          </Typography.Text>
        </Space>
      </Space>
    </Card>
  );
}

function ControlTable({ framework, controls, wide }: { framework: ComplianceFramework; controls: ComplianceControl[]; wide: boolean }) {
  const columns: TableColumnsType<ComplianceControl> = wide
    ? [
        { title: '条款', dataIndex: 'clause', width: 230 },
        {
          title: '控制项',
          dataIndex: 'title',
          width: 220,
          render: (title: string, c) => (
            <span className="security-list__user">
              {title}
              <Typography.Text type="secondary">{c.requirement}</Typography.Text>
            </span>
          ),
        },
        { title: '当前设置', dataIndex: 'current' },
        { title: '结果', dataIndex: 'passed', width: 90, render: (passed: boolean) => <ResultTag passed={passed} /> },
        { title: '整改建议', dataIndex: 'remedy', width: 280, render: (_: unknown, c) => <Remedy control={c} /> },
      ]
    : // A phone shows one card per control, without sideways scrolling.
      [
        {
          title: '控制项',
          dataIndex: 'title',
          render: (title: string, c) => (
            <div className="security-list__card">
              <Space size={8} wrap>
                <Typography.Text strong>{title}</Typography.Text>
                <ResultTag passed={c.passed} />
              </Space>
              <span className="security-list__meta">{c.clause}</span>
              <span>{c.current}</span>
              {!c.passed && <Remedy control={c} />}
            </div>
          ),
        },
      ];
  return (
    <Card size="small" title={COMPLIANCE_FRAMEWORK_LABELS[framework]} className="compliance__framework">
      <Table<ComplianceControl>
        rowKey="id"
        aria-label={COMPLIANCE_FRAMEWORK_LABELS[framework]}
        columns={columns}
        dataSource={controls}
        pagination={false}
        size="middle"
      />
    </Card>
  );
}

/**
 * 安全合规: each control of 等保 2.0 third level and OWASP ASVS 5.0 evaluated on the enterprise's saved
 * 安全设置 (by the server), with its clause, result and what to change, a score per baseline; the control
 * table as CSV and a PDF evidence pack for a period.
 */
export function CompliancePage() {
  const report = useComplianceReport();
  const csv = useExportComplianceCsv();
  const pdf = useExportEvidencePack();
  const wide = Grid.useBreakpoint().md ?? true;
  const [period, setPeriod] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(29, 'day'), dayjs()]);

  if (report.isError && !report.data) {
    return (
      <ConsolePage>
        <Result
          status="warning"
          title="安全合规加载失败"
          extra={
            <Button type="primary" icon={<ReloadOutlined />} onClick={() => void report.refetch()}>
              重新加载
            </Button>
          }
        />
      </ConsolePage>
    );
  }

  const stamp = dayjs().format('YYYYMMDDHHmmss');
  const start = period[0].format(DATE);
  const end = period[1].format(DATE);
  const data = report.data;

  return (
    <ConsolePage
      className="compliance"
      filters={
        <DatePicker.RangePicker
          aria-label="统计区间"
          value={period}
          format={DATE}
          allowClear={false}
          disabledDate={(d) => d.isAfter(dayjs(), 'day')}
          placeholder={['开始日期', '结束日期']}
          presets={[
            { label: '近 30 天', value: [dayjs().subtract(29, 'day'), dayjs()] },
            { label: '近 90 天', value: [dayjs().subtract(89, 'day'), dayjs()] },
            { label: '近 180 天', value: [dayjs().subtract(179, 'day'), dayjs()] },
          ]}
          onChange={(value) => value?.[0] && value[1] && setPeriod([value[0], value[1]])}
        />
      }
      actions={
        <>
          <Button icon={<DownloadOutlined />} loading={csv.isPending} disabled={!data} onClick={() => csv.mutate(`安全合规-${stamp}.csv`)}>
            导出 CSV
          </Button>
          <Button
            type="primary"
            icon={<FilePdfOutlined />}
            loading={pdf.isPending}
            disabled={!data}
            onClick={() => pdf.mutate({ period: { start, end }, filename: `安全合规证据包-${start}-${end}.pdf` })}
          >
            导出证据包
          </Button>
        </>
      }
    >
      {data ? (
        <Space orientation="vertical" size={16} className="security-setting__stack">
          <Typography.Text type="secondary">
            {data.enterpriseName} · 按当前保存的安全设置评估于 {data.evaluatedAt} · 证据包含统计区间内的登录与操作日志统计
          </Typography.Text>
          <Row gutter={[16, 16]}>
            {data.scores.map((score) => (
              <Col key={score.framework} xs={24} xl={12}>
                <ScoreCard score={score} />
              </Col>
            ))}
          </Row>
          {FRAMEWORKS.map((framework) => (
            <ControlTable
              key={framework}
              framework={framework}
              controls={data.controls.filter((c) => c.framework === framework)}
              wide={wide}
            />
          ))}
        </Space>
      ) : (
        <Skeleton active paragraph={{ rows: 10 }} />
      )}
    </ConsolePage>
  );
}
