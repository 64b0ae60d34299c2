import {
  DeleteOutlined,
  EyeOutlined,
  FileImageOutlined,
  FilePdfOutlined,
  InboxOutlined,
  SwapOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import type { CertificationFilePurpose, PrivateFileRef } from '@portal/shared';
import { Button, Progress, Upload, type UploadProps } from 'antd';
import { useState } from 'react';
import { openCertificationFile, uploadCertificationFile } from '../api/certification';
import { CERTIFICATION_FILE_ACCEPT, certificationFileProblem } from '../lib/certification-form';

export interface CertificationFileFieldProps {
  purpose: CertificationFilePurpose;
  /** What the material is, for the buttons' names (营业执照, 授权书). */
  title: string;
  value?: PrivateFileRef | null;
  onChange?(value: PrivateFileRef | null): void;
  /** A refused file (client check or the server's answer): the form shows it under the field. */
  onProblem(message: string): void;
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-required'?: boolean | 'true' | 'false';
}

export const fileSize = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** 查看 a private material; a refusal has been toasted by the API client. */
export const viewFile = (file: PrivateFileRef) => void openCertificationFile(file).catch(() => undefined);

/**
 * A certification material: picked (or dropped), checked (JPG, PNG or PDF, at most 10 MB), uploaded at
 * once as a private file of the enterprise; the form holds the stored file's reference.
 */
export function CertificationFileField({ purpose, title, value, onChange, onProblem, id, ...aria }: CertificationFileFieldProps) {
  const [percent, setPercent] = useState<number | null>(null);

  // The same picking, checking and uploading behind the drop zone and the 重新上传 button.
  // The buttons inside are the controls (named, and described by the field's hint and errors); the drop
  // zone around them is not a second one.
  const uploadProps: UploadProps = {
    hasControlInside: true,
    accept: CERTIFICATION_FILE_ACCEPT,
    showUploadList: false,
    disabled: percent !== null,
    beforeUpload: (file) => {
      const problem = certificationFileProblem(file);
      if (problem) {
        onProblem(problem);
        return Upload.LIST_IGNORE;
      }
      return true;
    },
    customRequest: ({ file }) => {
      if (!(file instanceof File)) return;
      setPercent(0);
      uploadCertificationFile(purpose, file, setPercent)
        .then((ref) => onChange?.(ref))
        .catch((err: unknown) => onProblem(err instanceof Error && err.message ? err.message : '文件上传失败'))
        .finally(() => setPercent(null));
    },
  };

  if (!value) {
    return (
      <div className="certification-file">
        <Upload.Dragger {...uploadProps} className="certification-file__dragger">
          {percent === null ? (
            <>
              <p className="ant-upload-drag-icon">
                <InboxOutlined />
              </p>
              <p className="ant-upload-text">点击或拖拽文件到此处，上传{title}</p>
              <p className="ant-upload-hint">JPG、PNG 图片或 PDF 文件，不超过 10 MB</p>
              <Button id={id} {...aria} icon={<UploadOutlined />} aria-label={`${title}：选择文件`} className="certification-file__pick">
                选择文件
              </Button>
            </>
          ) : (
            <div className="certification-file__progress">
              <Progress percent={percent} size="small" aria-label={`${title}上传进度`} />
              <span>正在上传…</span>
            </div>
          )}
        </Upload.Dragger>
      </div>
    );
  }

  return (
    <div className="certification-file certification-file--done">
      <span className="certification-file__icon" aria-hidden="true">
        {value.mime === 'application/pdf' ? <FilePdfOutlined /> : <FileImageOutlined />}
      </span>
      <span className="certification-file__name" title={value.name}>
        {value.name}
        <small>{fileSize(value.bytes)}</small>
      </span>
      <span className="certification-file__actions">
        <Button type="link" size="small" icon={<EyeOutlined />} onClick={() => viewFile(value)} aria-label={`查看${title} ${value.name}`}>
          查看
        </Button>
        <Upload {...uploadProps}>
          <Button
            id={id}
            {...aria}
            type="link"
            size="small"
            icon={<SwapOutlined />}
            loading={percent !== null}
            aria-label={`重新上传${title}`}
          >
            重新上传
          </Button>
        </Upload>
        <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => onChange?.(null)} aria-label={`移除${title}`}>
          移除
        </Button>
      </span>
      {percent !== null && <Progress percent={percent} size="small" className="certification-file__bar" aria-label={`${title}上传进度`} />}
    </div>
  );
}
