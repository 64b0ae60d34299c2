import { SearchOutlined } from '@ant-design/icons';
import { MARK_EXAMPLE } from '../lib/mark-result';

/**
 * An identifier the node does not know (spec section 2: the empty notice): says so, repeats what was
 * searched, and how an identifier is written, so a mistyped one can be corrected.
 */
export function MarkNotFound({ handle }: { handle: string }) {
  return (
    <section className="mark-missing" aria-label="未找到该标识">
      <SearchOutlined className="mark-missing__icon" aria-hidden="true" />
      <h2 className="mark-missing__title">未找到该标识</h2>
      <p className="mark-missing__handle">{handle}</p>
      <p className="mark-missing__hint">
        请核对标识是否完整：标识写作“前缀/后缀”，如 <code>{MARK_EXAMPLE}</code>
      </p>
      <p className="mark-missing__hint">前缀是以点分隔的节点编码，后缀是企业给产品编的码，通常印在设备铭牌或二维码标签上。</p>
    </section>
  );
}
