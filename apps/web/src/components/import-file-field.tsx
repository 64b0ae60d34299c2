import { InboxOutlined } from '@ant-design/icons';
import { Form, Upload } from 'antd';
import type { ReactNode } from 'react';

export interface ImportFileFieldProps {
  /** The field's label, also the name of the hidden file input. */
  label: string;
  accept: string;
  file: File | null;
  error: string | null;
  disabled: boolean;
  /** Why a picked file cannot be sent (type, size), or null. */
  problemOf: (file: File) => string | null;
  /** A file was picked (null after a refused pick or a removal) with the problem to show. */
  onChange: (file: File | null, problem: string | null) => void;
  text: string;
  hint: ReactNode;
}

/**
 * The file of an import dialog (账号导入, 标识导入): a drop zone holding one file, checked when picked
 * and sent only when the dialog's 开始导入 is pressed.
 */
export function ImportFileField({ label, accept, file, error, disabled, problemOf, onChange, text, hint }: ImportFileFieldProps) {
  return (
    <Form.Item label={label} required validateStatus={error ? 'error' : undefined} help={error ?? undefined}>
      <Upload.Dragger
        // The file input (hidden behind the drop zone) is the field's control.
        aria-label={label}
        accept={accept}
        maxCount={1}
        disabled={disabled}
        fileList={file ? [{ uid: 'import', name: file.name, size: file.size, status: 'done' }] : []}
        beforeUpload={(picked) => {
          const problem = problemOf(picked);
          onChange(problem ? null : picked, problem);
          return false;
        }}
        onRemove={() => {
          onChange(null, null);
          return true;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{text}</p>
        <p className="ant-upload-hint">{hint}</p>
      </Upload.Dragger>
    </Form.Item>
  );
}
