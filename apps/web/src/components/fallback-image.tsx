import { useState } from 'react';
import placeholder from '@/assets/image-placeholder.svg';

/** Spec section 8: an image that fails to load shows a placeholder with alt 图片加载失败. */
export function FallbackImage({ src, alt, className }: { src: string; alt: string; className?: string }) {
  const [failed, setFailed] = useState(false);
  return failed ? (
    <img className={className} src={placeholder} alt="图片加载失败" />
  ) : (
    <img className={className} src={src} alt={alt} loading="lazy" onError={() => setFailed(true)} />
  );
}
