import { AUTH_SOURCE_TYPES, AUTH_SOURCE_TYPE_LABELS, type AuthSourceType, AuthSourceMessage, isChatSourceType } from '@portal/shared';
import { Button, Modal } from 'antd';
import { SOURCE_TYPE_DESCRIPTIONS } from '../lib/platforms';
import { SOURCE_TYPE_ICONS } from './source-type';

/**
 * 新增认证源, first step: the kind of source, as cards. An enterprise has at most one source of each
 * chat platform (its QR sign-in button on the login page), so a configured one is offered no more.
 */
export function SourceTypePicker({
  open,
  configured,
  onPick,
  onClose,
}: {
  open: boolean;
  /** The types the enterprise already has a source of. */
  configured: ReadonlySet<AuthSourceType>;
  onPick(type: AuthSourceType): void;
  onClose(): void;
}) {
  return (
    <Modal
      title="选择认证源类型"
      open={open}
      onCancel={onClose}
      footer={<Button onClick={onClose}>取消</Button>}
      width={{ xs: '100%', sm: 640 }}
      destroyOnHidden
    >
      <ul className="auth-sources__types">
        {AUTH_SOURCE_TYPES.map((type) => {
          const taken = isChatSourceType(type) && configured.has(type);
          return (
            <li key={type}>
              <button
                type="button"
                className={`auth-sources__type-card auth-sources__type-card--${type}`}
                disabled={taken}
                aria-labelledby={`auth-source-type-${type}-name`}
                aria-describedby={`auth-source-type-${type}-description`}
                onClick={() => onPick(type)}
              >
                <span className="auth-sources__type-icon" aria-hidden>
                  {SOURCE_TYPE_ICONS[type]}
                </span>
                <span className="auth-sources__type-text">
                  <span className="auth-sources__type-name" id={`auth-source-type-${type}-name`}>
                    {AUTH_SOURCE_TYPE_LABELS[type]}
                  </span>
                  <span className="auth-sources__type-description" id={`auth-source-type-${type}-description`}>
                    {taken ? AuthSourceMessage.chatTypeTaken : SOURCE_TYPE_DESCRIPTIONS[type]}
                  </span>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </Modal>
  );
}
