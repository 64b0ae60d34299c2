import { ExclamationCircleFilled } from '@ant-design/icons';
import { useEffect, useId, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { ANTD_SCOPE, AntButton } from '@/components/antd-markup';
import { centralLoginUrl } from '@/lib/auth';
import { LOGIN_PROMPT_TEXT } from '../lib/login-prompt';
import './login-prompt-dialog.css';

/**
 * Spec sections 2 and 8: 请先登录 over an article (确定 → central login, 取消 or Esc → stay). antd's
 * confirm dialog as it looks (its markup, `components/antd-markup`) in the browser's own modal
 * `<dialog>`, which keeps the focus inside and the page behind inert: an article's first visit, the one
 * that asks, loads no antd. Opened like antd's `Modal.confirm`, outside the page's tree; `onAnswer`
 * runs on 确定, 取消 and Esc, and the dialog closes.
 */
export function openLoginPrompt(onAnswer: () => void): { destroy: () => void } {
  const host = document.body.appendChild(document.createElement('div'));
  const root = createRoot(host);
  let open = true;
  const destroy = () => {
    if (!open) return;
    open = false;
    // Not while React runs the dialog's own click handler.
    queueMicrotask(() => {
      root.unmount();
      host.remove();
    });
  };
  root.render(
    <LoginPromptDialog
      onAnswer={() => {
        onAnswer();
        destroy();
      }}
    />,
  );
  return { destroy };
}

/** The dialog itself. */
function LoginPromptDialog({ onAnswer }: { onAnswer: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const contentId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    element.showModal();
    // 确定 has the focus, as in antd's confirm (the browser gives it to the first button).
    element.querySelector<HTMLButtonElement>('.ant-btn-primary')?.focus();
    return () => element.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="ant-modal-root login-prompt"
      aria-labelledby={titleId}
      aria-describedby={contentId}
      onCancel={(e) => {
        // Esc: the dialog answers 取消 (and closes through its parent, like a click on 取消).
        e.preventDefault();
        onAnswer();
      }}
    >
      <div className={`ant-modal ant-modal-confirm ant-modal-confirm-confirm ${ANTD_SCOPE} ant-modal-css-var`} style={{ width: 416 }}>
        <div className="ant-modal-container">
          <div className="ant-modal-body">
            <div className="ant-modal-confirm-body-wrapper">
              <div className="ant-modal-confirm-body ant-modal-confirm-body-has-title">
                <ExclamationCircleFilled />
                <div className="ant-modal-confirm-paragraph">
                  <span className="ant-modal-confirm-title" id={titleId}>
                    请先登录
                  </span>
                  <div className="ant-modal-confirm-content" id={contentId}>
                    {LOGIN_PROMPT_TEXT}
                  </div>
                </div>
              </div>
              <div className="ant-modal-confirm-btns">
                <AntButton onClick={onAnswer}>取消</AntButton>
                <AntButton
                  look="primary"
                  onClick={() => {
                    onAnswer();
                    window.location.assign(centralLoginUrl());
                  }}
                >
                  确定
                </AntButton>
              </div>
            </div>
          </div>
        </div>
      </div>
    </dialog>
  );
}
