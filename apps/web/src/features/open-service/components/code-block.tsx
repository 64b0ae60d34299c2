import { useEffect, useRef, useState } from 'react';

type CopyState = 'idle' | 'copied' | 'manual';
const COPY_TEXT: Record<CopyState, string> = { idle: '复制', copied: '已复制', manual: '请按 Ctrl+C 复制' };

/**
 * A block of code with a copy button: plain markup the server renders (the API reference and the
 * client configurations), the button is its only script. Where the clipboard is refused (an insecure
 * page, a denied permission) the code is selected for the reader to copy.
 */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  const [state, setState] = useState<CopyState>('idle');
  const codeRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setState('copied');
    } catch {
      if (codeRef.current) window.getSelection()?.selectAllChildren(codeRef.current);
      setState('manual');
    }
  };

  return (
    <figure className="code-block">
      <figcaption className="code-block__bar">
        <span className="code-block__label">{label}</span>
        <button type="button" className="code-block__copy" onClick={() => void copy()}>
          {COPY_TEXT[state]}
          {/* Names the block for a screen reader: 复制 application.yml. */}
          <span className="code-block__hidden"> {label}</span>
        </button>
      </figcaption>
      {/* Focusable: a keyboard user scrolls a wide block sideways. */}
      <pre className="code-block__pre" tabIndex={0}>
        <code ref={codeRef}>{code}</code>
      </pre>
    </figure>
  );
}
