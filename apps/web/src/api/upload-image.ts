import { ApiPrefix } from '@portal/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** `POST /web-api/files/v1/upload`: `path` is stored (relative to the file service), `url` shows it. */
export interface UploadedImage {
  path: string;
  url: string;
}

/** Largest image the server accepts. */
export const MAX_IMAGE_MB = 5;
export const IMAGE_ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';

/** Checked before sending, with the server's own words; the server checks the bytes again. */
export function imageFileProblem(file: { type: string; size: number }): string | null {
  if (!IMAGE_ACCEPT.split(',').includes(file.type)) return '只能上传 PNG、JPEG、GIF 或 WebP 图片';
  if (file.size > MAX_IMAGE_MB * 1024 * 1024) return `图片不能超过 ${MAX_IMAGE_MB} MB`;
  return null;
}

export async function uploadImage(file: Blob, filename = 'image'): Promise<UploadedImage> {
  const form = new FormData();
  form.append('file', file, filename);
  const image = (await api().post<UploadedImage>(`${ApiPrefix.files}/upload`, form)).data[0];
  if (!image) throw new Error('图片上传失败');
  return image;
}

export function useUploadImage() {
  return useMutation({ mutationFn: ({ file, filename }: { file: Blob; filename?: string }) => uploadImage(file, filename) });
}
