import { PassThrough, type Readable } from 'node:stream';
import type * as Docx from 'docx';

export interface AuthorizationLetterFields {
  /** The platform the letter is addressed to (the site's name). */
  platform: string;
  /** The enterprise's name and 统一社会信用代码, '' when not known yet (left as blanks to fill in by hand). */
  enterpriseName: string;
  creditCode: string;
  legalRepresentative: string;
}

export const AUTHORIZATION_TEMPLATE_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const BLANK = '　'.repeat(12);
/** A value to print, or a blank line to write on. */
const fill = (value: string) => value || BLANK;

/** 小四 (12 pt) body text; sizes are in half-points. */
const BODY = 24;
const LINE = { line: 440 };

function text({ TextRun }: typeof Docx, value: string, options: { bold?: boolean; underline?: boolean } = {}) {
  return new TextRun({ text: value, bold: options.bold ?? false, ...(options.underline ? { underline: {} } : {}) });
}

/** “label：value” with the value underlined (a blank to fill in when unknown). */
function field(docx: typeof Docx, label: string, value: string) {
  return new docx.Paragraph({ spacing: LINE, children: [text(docx, `${label}：`), text(docx, fill(value), { underline: true })] });
}

function body(docx: typeof Docx, value: string) {
  return new docx.Paragraph({ spacing: LINE, indent: { firstLine: BODY * 20 }, children: [text(docx, value)] });
}

/**
 * 授权委托书 for 企业认证: the letter an agent who is not the legal representative uploads,
 * signed by the legal representative and stamped with the company seal. The enterprise's name and
 * credit code are printed when known.
 */
export async function authorizationLetter(fields: AuthorizationLetterFields): Promise<Readable> {
  // docx is loaded by the first letter asked for: most processes never build one.
  const docx = await import('docx');
  const { AlignmentType, Document, Packer, Paragraph, TextRun } = docx;
  const doc = new Document({
    creator: fields.platform,
    title: '授权委托书',
    styles: {
      default: {
        document: { run: { font: { ascii: 'Times New Roman', hAnsi: 'Times New Roman', eastAsia: '宋体' }, size: BODY } },
      },
    },
    sections: [
      {
        properties: { page: { margin: { top: 1440, bottom: 1440, left: 1700, right: 1700 } } },
        children: [
          new Paragraph({
            alignment: AlignmentType.CENTER,
            spacing: { after: 400 },
            children: [new TextRun({ text: '授权委托书', bold: true, size: 36, font: { eastAsia: '黑体' } })],
          }),
          new Paragraph({ spacing: LINE, children: [text(docx, `致：${fields.platform}`)] }),
          field(docx, '委托单位（全称）', fields.enterpriseName),
          field(docx, '统一社会信用代码', fields.creditCode),
          field(docx, '法定代表人', fields.legalRepresentative),
          field(docx, '受托人（经办人）姓名', ''),
          field(docx, '受托人身份证号码', ''),
          field(docx, '受托人联系电话', ''),
          body(
            docx,
            `现委托上述受托人作为我单位经办人，代表我单位在${fields.platform}办理企业认证相关事宜，包括填写和提交企业认证信息、` +
              '上传营业执照等证明材料、按审核意见修改并重新提交、接收审核结果通知。',
          ),
          body(
            docx,
            '受托人在上述委托范围内办理相关事项所签署的文件和所作的陈述，我单位均予以承认，并承担相应的法律责任。受托人无转委托权。',
          ),
          body(docx, '我单位承诺所提交的企业信息及证明材料真实、准确、有效，如有虚假，愿承担由此产生的一切法律责任。'),
          new Paragraph({
            spacing: LINE,
            indent: { firstLine: BODY * 20 },
            children: [text(docx, '委托期限：自　　　　年　　月　　日至　　　　年　　月　　日。')],
          }),
          new Paragraph({ spacing: { ...LINE, before: 200 }, children: [text(docx, '附：受托人身份证复印件（正反面）')] }),
          new Paragraph({ spacing: { ...LINE, before: 600 }, children: [text(docx, '法定代表人（签字）：')] }),
          new Paragraph({ spacing: LINE, children: [text(docx, '受托人（签字）：')] }),
          new Paragraph({ spacing: LINE, children: [text(docx, '委托单位（盖章）：')] }),
          new Paragraph({
            spacing: { ...LINE, before: 400 },
            alignment: AlignmentType.RIGHT,
            children: [text(docx, '　　　　年　　月　　日')],
          }),
        ],
      },
    ],
  });
  // Packer builds the whole file in memory (it is small); the route answers it as a stream.
  const out = new PassThrough();
  Packer.toBuffer(doc).then(
    (bytes) => out.end(bytes),
    (err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))),
  );
  return out;
}
