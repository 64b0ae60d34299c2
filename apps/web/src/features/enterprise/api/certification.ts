import {
  CERTIFICATION_FILE_TYPES,
  type CertificationFilePurpose,
  type CertificationState,
  type CertificationSubmitBody,
  type PrivateFileRef,
} from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { saveBlob } from '@/lib/download';
import type { UploadProgress } from '@/lib/http-transport';
import { queryKeys } from '@/lib/query-keys';
import { ENTERPRISE_API, useEnterpriseMutation } from './enterprise-profile';
import { getPrivateFile } from '@/api/private-file';

const CERTIFICATION_API = `${ENTERPRISE_API}/certification`;

/** `GET /enterprise/certification`: the status and every application, newest first. */
export async function getCertification(): Promise<CertificationState> {
  const state = (await api().get<CertificationState>(CERTIFICATION_API)).data[0];
  if (!state) throw new Error('企业认证信息为空');
  return state;
}

export const getCertificationQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.enterprise.certification, queryFn: getCertification, staleTime: 0 });

export function useCertification() {
  return useQuery(getCertificationQueryOptions());
}

/**
 * `POST /enterprise/certification/file`: a business licence or an authorisation letter, stored as a
 * private file of the enterprise. `purpose` goes before the file (the server reads the fields in order).
 * Silent: the form shows a refusal at the material's field.
 */
export async function uploadCertificationFile(
  purpose: CertificationFilePurpose,
  file: File,
  onProgress?: (percent: number) => void,
): Promise<PrivateFileRef> {
  const form = new FormData();
  form.append('purpose', purpose);
  form.append('file', file, file.name);
  const ref = (
    await api().post<PrivateFileRef>(`${CERTIFICATION_API}/file`, form, {
      silent: true,
      onUploadProgress: (event: UploadProgress) => {
        if (onProgress && event.total) onProgress(Math.round((event.loaded / event.total) * 100));
      },
    })
  ).data[0];
  if (!ref) throw new Error('文件上传失败');
  return ref;
}

/** `POST /enterprise/certification` (silent: the form shows a refusal under the field it names). */
export const submitCertification = async (body: CertificationSubmitBody) =>
  (await api().post<{ id: number }>(CERTIFICATION_API, body, { silent: true })).msg;

export const useSubmitCertification = () => useEnterpriseMutation(submitCertification);

/** 下载授权书模板: a .docx with the enterprise's name and credit code filled in when known. */
export async function downloadAuthorizationTemplate(): Promise<void> {
  saveBlob(await api().blob(`${CERTIFICATION_API}/authorization-template`), '企业认证授权书模板.docx');
}

/**
 * 查看 a material: fetched with the token (private files are never under the public `/files/`) and
 * opened in a new tab as the browser shows images and PDFs. The tab is opened at the click, before
 * the download, so popup blockers let it through; without one the file is saved instead.
 */
export async function openCertificationFile(file: PrivateFileRef): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const blob = await getPrivateFile(file.id);
    // Shown only as one of the accepted kinds (the server recognised it by content): never as a page.
    const type = (CERTIFICATION_FILE_TYPES as readonly string[]).includes(blob.type) ? blob.type : file.mime;
    const typed = new Blob([blob], { type });
    if (!tab) {
      saveBlob(typed, file.name);
      return;
    }
    tab.opener = null;
    const url = URL.createObjectURL(typed);
    tab.location.href = url;
    // The tab has loaded the bytes long before; the URL would otherwise live as long as this page.
    window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (err) {
    tab?.close();
    throw err;
  }
}
