import { useEffect, useRef, useState } from 'react';
import placeholder from '@/assets/image-placeholder.svg';

/**
 * Spec section 8: an image that fails to load shows a placeholder with alt 图片加载失败. Images load
 * lazily, except `eager` ones: those in the first view, which a lazy load would only delay (LCP).
 */
export function FallbackImage({ src, alt, className, eager = false }: { src: string; alt: string; className?: string; eager?: boolean }) {
  const [failed, setFailed] = useState(false);
  const ref = useRef<HTMLImageElement>(null);
  // A server-rendered image may have failed before the app hydrated and could listen for the error.
  useEffect(() => {
    const img = ref.current;
    if (img?.complete && img.naturalWidth === 0 && img.currentSrc !== '') setFailed(true);
  }, []);
  return failed ? (
    <img className={className} src={placeholder} alt="图片加载失败" />
  ) : (
    <img
      ref={ref}
      className={className}
      src={src}
      alt={alt}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : 'auto'}
      onError={() => setFailed(true)}
    />
  );
}
