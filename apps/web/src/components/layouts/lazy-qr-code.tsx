import type { QRCodeProps } from 'antd';
import { type ComponentType, useEffect, useState } from 'react';
import './lazy-qr-code.css';

type QrCodeComponent = ComponentType<QRCodeProps>;

let loading: Promise<QrCodeComponent> | undefined;

/**
 * antd's QR code (and the QR encoder) load on demand, not with the first page, with antd's provider:
 * the public pages' stylesheet holds its styles (`prebuilt`).
 */
export function loadQrCode(): Promise<QrCodeComponent> {
  loading ??= Promise.all([import('antd/es/qr-code'), import('@/components/antd-provider')]).then(
    ([{ default: QrCode }, { AntdProvider }]) =>
      function ThemedQrCode(props: QRCodeProps) {
        return (
          <AntdProvider prebuilt>
            <QrCode {...props} />
          </AntdProvider>
        );
      },
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

/**
 * A QR code whose code loads once `load` is true. Until then (and on the server) it is a box of the
 * same size, so nothing moves when the code is drawn; both are an image named `label`, the box busy.
 */
export function LazyQrCode({
  value,
  size,
  bgColor,
  load,
  label,
}: {
  value: string;
  size: number;
  /** The QR code's background (antd's default: transparent). */
  bgColor?: string;
  load: boolean;
  label: string;
}) {
  const [QrCode, setQrCode] = useState<QrCodeComponent | null>(null);
  useEffect(() => {
    if (!load || QrCode) return;
    let live = true;
    loadQrCode().then(
      (component) => {
        if (live) setQrCode(() => component);
      },
      () => {
        // Offline: the box stays; the next mount tries again.
      },
    );
    return () => {
      live = false;
    };
  }, [load, QrCode]);
  if (!QrCode) {
    return (
      <div
        className="lazy-qr"
        style={{ width: size, height: size, backgroundColor: bgColor }}
        role="img"
        aria-label={label}
        aria-busy="true"
      />
    );
  }
  return <QrCode value={value} size={size} bordered={false} bgColor={bgColor} aria-label={label} />;
}
