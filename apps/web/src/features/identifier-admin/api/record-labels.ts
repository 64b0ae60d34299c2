import { ApiPrefix, type LabelRequest } from '@portal/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { saveBlob } from '@/lib/download';

/** Up to 5000 labels are drawn and streamed in seconds, but a busy server may need longer than the client's usual 50 s. */
export const LABEL_DOWNLOAD_TIMEOUT_MS = 5 * 60_000;

const pad = (n: number) => String(n).padStart(2, '0');

/** `标识标签-2026-11-20.pdf` in the browser's local date, as the server names it. */
export function labelFilename(now: Date): string {
  return `标识标签-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.pdf`;
}

/** `POST /web-api/identity/v1/record/labels`: the labels as a PDF, handed to the browser. */
export async function downloadLabels({ request, filename }: { request: LabelRequest; filename: string }): Promise<void> {
  const file = await api().blob(`${ApiPrefix.identity}/record/labels`, {
    method: 'post',
    data: request,
    timeout: LABEL_DOWNLOAD_TIMEOUT_MS,
  });
  saveBlob(file, filename);
}

export function useDownloadLabels() {
  return useMutation({ mutationFn: downloadLabels });
}
