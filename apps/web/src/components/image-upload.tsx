import { DeleteOutlined, LoadingOutlined, PlusOutlined, SwapOutlined } from '@ant-design/icons';
import { Button, Upload } from 'antd';
import { useState } from 'react';
import { fileUrl, useRuntimeConfig } from '@/config/runtime-config';
import { notify } from '@/lib/notify';
import { IMAGE_ACCEPT, imageFileProblem, uploadImage } from '@/api/upload-image';
import './image-upload.css';

export interface ImageUploadProps {
  /** The stored path (`/uploads/…`) or URL; empty when none. */
  value?: string | null;
  onChange?(path: string): void;
  /** Size advice under the box, e.g. 建议 1920×480. */
  hint?: string;
  /** Box shape: a wide banner or a square icon. */
  shape?: 'wide' | 'square';
  id?: string;
  /** From the form item: the button announces the field's error and whether one is needed. */
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-required'?: boolean | 'true' | 'false';
}

/**
 * Picks an image, uploads it to the file service at once and holds its path; shows what is stored.
 * Type and size are checked before sending with the server's own words.
 */
export function ImageUpload({ value, onChange, hint, shape = 'square', id, ...aria }: ImageUploadProps) {
  const config = useRuntimeConfig();
  const [uploading, setUploading] = useState(false);
  return (
    <div className={`image-upload image-upload--${shape}`}>
      <Upload
        accept={IMAGE_ACCEPT}
        showUploadList={false}
        beforeUpload={(file) => {
          const problem = imageFileProblem(file);
          if (problem) {
            notify.error(problem);
            return Upload.LIST_IGNORE;
          }
          return true;
        }}
        customRequest={({ file, onSuccess, onError }) => {
          if (!(file instanceof Blob)) return;
          setUploading(true);
          uploadImage(file, file instanceof File ? file.name : 'image')
            .then((image) => {
              onChange?.(image.path);
              onSuccess?.(image);
            })
            .catch((err: unknown) => onError?.(err instanceof Error ? err : new Error('图片上传失败')))
            .finally(() => setUploading(false));
        }}
      >
        <button
          type="button"
          id={id}
          className="image-upload__box"
          aria-label={value ? '更换图片' : '上传图片'}
          {...aria}
          disabled={uploading}
        >
          {value ? (
            <>
              <img src={fileUrl(config, value)} alt="" className="image-upload__img" />
              <span className="image-upload__mask">{uploading ? <LoadingOutlined /> : <SwapOutlined />} 更换</span>
            </>
          ) : (
            <span className="image-upload__empty">
              {uploading ? <LoadingOutlined /> : <PlusOutlined />}
              <span>{uploading ? '上传中' : '上传图片'}</span>
            </span>
          )}
        </button>
      </Upload>
      <div className="image-upload__side">
        {value && (
          <Button size="small" type="link" danger icon={<DeleteOutlined />} onClick={() => onChange?.('')}>
            移除
          </Button>
        )}
        <div className="image-upload__hint">{hint ?? 'PNG、JPEG、GIF 或 WebP，不超过 5 MB'}</div>
      </div>
    </div>
  );
}
