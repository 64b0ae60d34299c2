import { type IdentifierStats, LookupOutcomeLabel, REGION_INTRANET, REGION_UNKNOWN, STATS_TOP_ROWS } from '@portal/shared';
import { Button, Grid, Table, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { formatCount, shareOf } from '../lib/stats-view';

type HandleRow = IdentifierStats['topHandles'][number];
type ValueRow = IdentifierStats['topValues'][number];
type MissingRow = IdentifierStats['topMissing'][number];

const rank = (index: number) => <span className={`identifier-stats__rank${index < 3 ? ' is-top' : ''}`}>{index + 1}</span>;
const count = (value: number) => <span className="identifier-stats__count">{formatCount(value)}</span>;
const handleText = (handle: string) => <span className="identifier-stats__handle">{handle}</span>;
/** Columns of counts keep their width on a phone; the text columns wrap. */
const COUNT_WIDTH = 76;
const RANK_WIDTH = 52;

/**
 * Lookups per province, most first, as a bar list (the portal ranks places rather than drawing a map
 * of China). 内网 and 未知 are ranked with the provinces; the first rows show, the rest on demand.
 */
export function RegionRanking({ regions, total }: { regions: IdentifierStats['regions']; total: number }) {
  const [all, setAll] = useState(false);
  const max = Math.max(1, ...regions.map((r) => r.lookups));
  const shown = all ? regions : regions.slice(0, STATS_TOP_ROWS);
  return (
    <>
      <ol className="identifier-stats__ranking" aria-label="各地区查询次数">
        {shown.map((r, i) => (
          <li key={r.region} className="identifier-stats__ranking-row">
            {rank(i)}
            <span className={`identifier-stats__region${r.region === REGION_INTRANET || r.region === REGION_UNKNOWN ? ' is-other' : ''}`}>
              {r.region}
            </span>
            <span className="identifier-stats__bar" aria-hidden="true">
              <span style={{ width: `${Math.max(2, Math.round((r.lookups / max) * 100))}%` }} />
            </span>
            <span className="identifier-stats__ranking-figure">
              {count(r.lookups)}
              <span className="identifier-stats__share">{shareOf(r.lookups, total)}</span>
            </span>
          </li>
        ))}
      </ol>
      {regions.length > STATS_TOP_ROWS && (
        <Button type="link" size="small" className="identifier-stats__more" onClick={() => setAll((a) => !a)}>
          {all ? '收起' : `展开全部 ${regions.length} 个地区`}
        </Button>
      )}
    </>
  );
}

/** The most looked-up identifiers that were found, each with its share of all lookups under the count. */
export function TopHandlesTable({ rows, total }: { rows: IdentifierStats['topHandles']; total: number }) {
  const columns: TableColumnsType<HandleRow> = [
    { title: '排名', key: 'rank', width: RANK_WIDTH, render: (_v, _r, i) => rank(i) },
    { title: '标识', dataIndex: 'handle', render: handleText },
    {
      title: '查询次数',
      dataIndex: 'lookups',
      width: COUNT_WIDTH,
      align: 'right',
      render: (lookups: number) => (
        <span className="identifier-stats__figure">
          {count(lookups)}
          <span className="identifier-stats__share">占 {shareOf(lookups, total)}</span>
        </span>
      ),
    },
  ];
  return <Table<HandleRow> size="small" rowKey="handle" columns={columns} dataSource={rows} pagination={false} tableLayout="fixed" />;
}

/** The most common values of the template items counted in statistics (计入统计), such as 产品型号. */
export function TopValuesTable({ rows }: { rows: IdentifierStats['topValues'] }) {
  const columns: TableColumnsType<ValueRow> = [
    { title: '排名', key: 'rank', width: RANK_WIDTH, render: (_v, _r, i) => rank(i) },
    { title: '数据项', dataIndex: 'item', width: '32%', render: (item: string) => <span className="identifier-stats__item">{item}</span> },
    { title: '取值', dataIndex: 'value', render: (value: string) => <span className="identifier-stats__value">{value}</span> },
    { title: '查询次数', dataIndex: 'lookups', width: COUNT_WIDTH, align: 'right', render: count },
  ];
  return (
    <Table<ValueRow>
      size="small"
      rowKey={(r) => `${r.item}\u0000${r.value}`}
      columns={columns}
      dataSource={rows}
      pagination={false}
      tableLayout="fixed"
    />
  );
}

const outcomeTag = (outcome: MissingRow['outcome']) => (
  <Tag color={outcome === 'malformed' ? 'red' : 'orange'} variant="outlined" className="identifier-stats__outcome">
    {LookupOutcomeLabel[outcome]}
  </Tag>
);

/** The handles most often looked up in vain: not registered, or not a handle at all (on a phone, the result under the handle). */
export function TopMissingTable({ rows }: { rows: IdentifierStats['topMissing'] }) {
  const wide = Grid.useBreakpoint().sm ?? true;
  const columns: TableColumnsType<MissingRow> = wide
    ? [
        { title: '标识', dataIndex: 'handle', render: handleText },
        { title: '结果', dataIndex: 'outcome', width: 88, render: outcomeTag },
        { title: '查询次数', dataIndex: 'lookups', width: COUNT_WIDTH, align: 'right', render: count },
      ]
    : [
        {
          title: '标识',
          dataIndex: 'handle',
          render: (handle: string, r) => (
            <>
              {handleText(handle)}
              {outcomeTag(r.outcome)}
            </>
          ),
        },
        { title: '查询次数', dataIndex: 'lookups', width: COUNT_WIDTH, align: 'right', render: count },
      ];
  return (
    <Table<MissingRow>
      size="small"
      rowKey={(r) => `${r.outcome}\u0000${r.handle}`}
      columns={columns}
      dataSource={rows}
      pagination={false}
      tableLayout="fixed"
    />
  );
}
