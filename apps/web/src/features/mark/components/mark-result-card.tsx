import { AntButton } from '@/components/antd-markup';
import { LazyQrCode } from '@/components/layouts/lazy-qr-code';
import { portalUrl, useRuntimeConfig } from '@/config/runtime-config';
import { type MarkField, scanHref } from '../lib/mark-result';

/**
 * The result (spec section 2): the identifier (mark), then every template item as label and value in
 * template order. Beyond the spec: a QR code of the identifier's lookup address, so a printed label
 * can be scanned back to this page; its lookups count as scans, like those of the console's labels.
 */
export function MarkResultCard({ mark, fields, onClear }: { mark: string; fields: MarkField[]; onClear: () => void }) {
  const lookupUrl = portalUrl(useRuntimeConfig(), scanHref(mark));
  return (
    <section className="mark-result" aria-label="查询结果">
      <header className="mark-result__head">
        <div className="mark-result__identity">
          <span className="mark-result__tag">标识</span>
          <h2 className="mark-result__mark">{mark}</h2>
          <AntButton className="mark-result__clear" onClick={onClear}>
            清空结果
          </AntButton>
        </div>
        <figure className="mark-result__qr" title={lookupUrl}>
          <LazyQrCode value={lookupUrl} size={120} bgColor="#fff" load label={`${mark} 的查询二维码`} />
          <figcaption>扫码查看此标识</figcaption>
        </figure>
      </header>
      <dl className="mark-result__fields">
        {fields.map((field) => (
          <div key={field.label} className="mark-result__field">
            <dt>{field.label}</dt>
            <dd>{field.value || '-'}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
