import { useSiteInfo } from '@/api/get-site-info';
import { LazyQrCode } from '@/components/layouts/lazy-qr-code';
import { useNearViewport } from '@/components/layouts/use-near-viewport';
import { paths } from '@/config/paths';
import { portalUrl, useRuntimeConfig } from '@/config/runtime-config';
import { telHref } from '@/lib/contact-links';
import { APP_CHANGELOG, APP_FEATURES, APP_NAME, APP_RELEASES, type AppRelease } from '../lib/app-releases';
import '@/components/layouts/portal-button.css';
import './app-download.css';

/**
 * The package's address is configuration (APP_PACKAGE_URL): without one there is nothing to download,
 * so the card says whom to ask instead of offering a link that answers 404.
 */
function ReleaseAction({ release }: { release: AppRelease }) {
  const config = useRuntimeConfig();
  const { data: site } = useSiteInfo();
  if (release.source.kind === 'store') return <p className="app-download__store">{release.source.hint}</p>;
  if (config.appPackageUrl) {
    return (
      <a className="portal-btn portal-btn--primary app-download__get" href={config.appPackageUrl} download>
        下载安装包
      </a>
    );
  }
  return (
    <p className="app-download__store">
      安装包暂未开放下载，请联系企业管理员获取
      {site?.phone ? (
        <>
          ，或拨打服务热线 <a href={telHref(site.phone)}>{site.phone}</a>
        </>
      ) : null}
      。
    </p>
  );
}

/**
 * App 下载: where the footer's 扫码下载 App leads. Platforms, versions and how to install
 * each; on a computer a QR code of this page takes the visitor to it on the phone. Rendered by the
 * server with no code of its own but the QR code, which loads only where it is shown (not on phones).
 */
export function AppDownloadPage() {
  const config = useRuntimeConfig();
  const [qrRef, qrShown] = useNearViewport<HTMLDivElement>('0px');
  return (
    <div className="app-download">
      <section className="app-download__hero">
        <div className="app-download__hero-inner">
          <div className="app-download__intro">
            <h1>{`${APP_NAME} App`}</h1>
            <p>设备在身边，服务在指尖：监控、告警、标识扫码与售后工单，随时随地处理。</p>
          </div>
          <div className="app-download__qr" ref={qrRef}>
            <LazyQrCode
              value={portalUrl(config, paths.appDownload.getHref())}
              size={144}
              bgColor="#ffffff"
              load={qrShown}
              label="本页的二维码"
            />
            <span>手机扫码，打开本页下载</span>
          </div>
        </div>
      </section>
      <div className="app-download__body">
        <section className="app-download__section" aria-labelledby="app-download-platforms">
          <h2 id="app-download-platforms">选择您的设备</h2>
          <ul className="app-download__platforms">
            {APP_RELEASES.map((release) => (
              <li key={release.platform} className={`app-download__platform app-download__platform--${release.platform}`}>
                <h3>{release.name}</h3>
                <dl>
                  <div>
                    <dt>版本</dt>
                    <dd>{`V${release.version}`}</dd>
                  </div>
                  <div>
                    <dt>更新日期</dt>
                    <dd>
                      <time dateTime={release.releasedOn}>{release.releasedOn}</time>
                    </dd>
                  </div>
                  <div>
                    <dt>大小</dt>
                    <dd>{release.size}</dd>
                  </div>
                  <div>
                    <dt>系统要求</dt>
                    <dd>{release.requirement}</dd>
                  </div>
                </dl>
                <ReleaseAction release={release} />
              </li>
            ))}
          </ul>
        </section>
        <section className="app-download__section" aria-labelledby="app-download-features">
          <h2 id="app-download-features">主要功能</h2>
          <ul className="app-download__features">
            {APP_FEATURES.map((f) => (
              <li key={f.title}>
                <strong>{f.title}</strong>
                <p>{f.text}</p>
              </li>
            ))}
          </ul>
        </section>
        <section className="app-download__section" aria-labelledby="app-download-changelog">
          <h2 id="app-download-changelog">更新记录</h2>
          <ol className="app-download__changelog">
            {APP_CHANGELOG.map((entry) => (
              <li key={entry.version}>
                <h3>
                  {`V${entry.version} `}
                  <time dateTime={entry.releasedOn}>{entry.releasedOn}</time>
                </h3>
                <ul>
                  {entry.notes.map((note) => (
                    <li key={note}>{note}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        </section>
      </div>
    </div>
  );
}
