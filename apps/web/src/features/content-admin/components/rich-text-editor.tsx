import {
  BoldOutlined,
  ItalicOutlined,
  LineOutlined,
  LinkOutlined,
  OrderedListOutlined,
  PictureOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import Image from '@tiptap/extension-image';
import { Placeholder } from '@tiptap/extensions';
import { TextSelection } from '@tiptap/pm/state';
import { type Editor, EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Divider, Input, Modal, Select, Spin, Tooltip } from 'antd';
import { type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { IMAGE_ACCEPT, imageFileProblem, uploadImage } from '@/api/upload-image';
import { notify } from '@/lib/notify';
import { isLinkUrl } from '../lib/url-rules';
import './rich-text-editor.css';

export interface RichTextEditorProps {
  /** HTML. */
  value?: string;
  onChange?(html: string): void;
  placeholder?: string;
  /** Marks the frame red, like antd inputs, when the form item has an error. */
  status?: 'error' | '';
  id?: string;
  /** From the form item: the editor announces the field's error and that it is needed. */
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-required'?: boolean | 'true' | 'false';
}

type FieldAria = Pick<RichTextEditorProps, 'id' | 'aria-describedby' | 'aria-invalid' | 'aria-required'>;

/** The editable area's attributes: a multi-line text box named 正文, with the form item's links. */
function contentAttributes(field: FieldAria): Record<string, string> {
  const attributes: Record<string, string> = {
    class: 'rich-text-editor__content',
    'aria-label': '正文',
    role: 'textbox',
    'aria-multiline': 'true',
  };
  for (const [name, value] of Object.entries(field)) if (value !== undefined && value !== false) attributes[name] = String(value);
  return attributes;
}

/** An editor with nothing in it answers `<p></p>`; the form treats that as empty. */
export function isEmptyHtml(html: string | undefined): boolean {
  if (!html) return true;
  return (
    !/<img\s/i.test(html) &&
    html
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;/g, ' ')
      .trim() === ''
  );
}

const HEADINGS = [
  { value: 0, label: '正文' },
  { value: 2, label: '标题 2' },
  { value: 3, label: '标题 3' },
  { value: 4, label: '标题 4' },
] as const;
type HeadingLevel = 2 | 3 | 4;

/** Uploads image files and inserts them at the cursor, one after another. */
async function insertImages(editor: Editor, files: readonly File[], setBusy: (busy: boolean) => void): Promise<void> {
  const images = files.filter((f) => f.type.startsWith('image/'));
  if (images.length === 0) return;
  setBusy(true);
  try {
    for (const file of images) {
      const problem = imageFileProblem(file);
      if (problem) {
        notify.error(problem);
        continue;
      }
      const uploaded = await uploadImage(file, file.name);
      editor
        .chain()
        .focus()
        .setImage({ src: uploaded.url, alt: file.name.replace(/\.[^.]+$/, '') })
        // Continue typing after the image, not over it (the new image is selected as a node).
        .command(({ tr, state }) => {
          const end = tr.selection.to;
          const paragraph = state.schema.nodes.paragraph;
          if (!tr.doc.resolve(end).nodeAfter && paragraph) tr.insert(end, paragraph.create());
          tr.setSelection(TextSelection.near(tr.doc.resolve(Math.min(end + 1, tr.doc.content.size))));
          return true;
        })
        .run();
    }
  } catch {
    // The API client has already shown the server's message.
  } finally {
    setBusy(false);
  }
}

function ToolButton({
  title,
  active,
  disabled,
  onClick,
  children,
}: {
  title: string;
  active?: boolean;
  disabled?: boolean;
  onClick(): void;
  children: ReactNode;
}) {
  return (
    <Tooltip title={title} mouseEnterDelay={0.4}>
      <Button
        type="text"
        size="small"
        aria-label={title}
        aria-pressed={active}
        className={active ? 'rich-text-editor__tool is-active' : 'rich-text-editor__tool'}
        disabled={disabled}
        onMouseDown={(e) => e.preventDefault()}
        onClick={onClick}
      >
        {children}
      </Button>
    </Tooltip>
  );
}

/**
 * The article body editor (TipTap on ProseMirror): headings, emphasis, lists, quotes, links, rules
 * and images uploaded to the server (toolbar, paste or drop). It writes HTML; the server cleans it.
 */
export function RichTextEditor({ value, onChange, placeholder = '请输入正文…', status, ...field }: RichTextEditorProps) {
  const [busy, setBusy] = useState(false);
  const [linkOpen, setLinkOpen] = useState(false);
  const [linkValue, setLinkValue] = useState('');
  const fileInput = useRef<HTMLInputElement>(null);
  const onChangeRef = useRef(onChange);
  const editorRef = useRef<Editor | null>(null);
  useLayoutEffect(() => {
    onChangeRef.current = onChange;
  });

  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3, 4] },
        code: false,
        codeBlock: false,
        link: { openOnClick: false, autolink: true, defaultProtocol: 'https' },
      }),
      Image.configure({ inline: false, allowBase64: false }),
      Placeholder.configure({ placeholder }),
    ],
    content: value ?? '',
    editorProps: {
      attributes: contentAttributes(field),
      handlePaste: (_view, event) => {
        const files = Array.from(event.clipboardData?.files ?? []);
        if (!editorRef.current || !files.some((f) => f.type.startsWith('image/'))) return false;
        void insertImages(editorRef.current, files, setBusy);
        return true;
      },
      handleDrop: (_view, event) => {
        const files = Array.from(event.dataTransfer?.files ?? []);
        if (!editorRef.current || !files.some((f) => f.type.startsWith('image/'))) return false;
        event.preventDefault();
        void insertImages(editorRef.current, files, setBusy);
        return true;
      },
    },
    onUpdate: ({ editor: e }) => onChangeRef.current?.(e.isEmpty ? '' : e.getHTML()),
  });
  useLayoutEffect(() => {
    editorRef.current = editor;
  }, [editor]);

  // The form item's error comes and goes without the text changing: the attributes follow it.
  const { id, 'aria-describedby': describedBy, 'aria-invalid': invalid, 'aria-required': required } = field;
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const attributes = contentAttributes({ id, 'aria-describedby': describedBy, 'aria-invalid': invalid, 'aria-required': required });
    editor.setOptions({ editorProps: { ...editor.options.editorProps, attributes } });
  }, [editor, id, describedBy, invalid, required]);

  // The form sets a new value (another article, a reset): show it without echoing it back.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const next = value ?? '';
    const current = editor.isEmpty ? '' : editor.getHTML();
    if (next !== current) editor.commands.setContent(next, { emitUpdate: false });
  }, [editor, value]);

  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      strike: e.isActive('strike'),
      bulletList: e.isActive('bulletList'),
      orderedList: e.isActive('orderedList'),
      blockquote: e.isActive('blockquote'),
      link: e.isActive('link'),
      heading: ([2, 3, 4] as const).find((level) => e.isActive('heading', { level })) ?? 0,
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });

  const openLink = () => {
    if (!editor) return;
    setLinkValue(String(editor.getAttributes('link').href ?? ''));
    setLinkOpen(true);
  };
  const applyLink = () => {
    if (!editor) return;
    const href = linkValue.trim();
    if (!href) {
      editor.chain().focus().extendMarkRange('link').unsetLink().run();
    } else {
      if (!isLinkUrl(href) && !/^mailto:[^\s"'<>]+$/i.test(href)) {
        notify.error('链接须为 http(s) 地址、mailto: 或以 / 开头的站内路径');
        return;
      }
      editor.chain().focus().extendMarkRange('link').setLink({ href }).run();
    }
    setLinkOpen(false);
  };

  return (
    <div className={`rich-text-editor${status === 'error' ? ' rich-text-editor--error' : ''}`}>
      <div className="rich-text-editor__toolbar" role="toolbar" aria-label="正文格式">
        <Select
          size="small"
          variant="borderless"
          aria-label="段落格式"
          className="rich-text-editor__heading"
          style={{ width: 96 }}
          value={state?.heading ?? 0}
          options={HEADINGS.map((h) => ({ value: h.value, label: h.label }))}
          popupMatchSelectWidth={false}
          onChange={(level: number) => {
            if (!editor) return;
            if (level === 0) editor.chain().focus().setParagraph().run();
            else
              editor
                .chain()
                .focus()
                .toggleHeading({ level: level as HeadingLevel })
                .run();
          }}
        />
        <Divider orientation="vertical" />
        <ToolButton title="加粗" active={state?.bold} onClick={() => editor?.chain().focus().toggleBold().run()}>
          <BoldOutlined />
        </ToolButton>
        <ToolButton title="斜体" active={state?.italic} onClick={() => editor?.chain().focus().toggleItalic().run()}>
          <ItalicOutlined />
        </ToolButton>
        <ToolButton title="下划线" active={state?.underline} onClick={() => editor?.chain().focus().toggleUnderline().run()}>
          <UnderlineOutlined />
        </ToolButton>
        <ToolButton title="删除线" active={state?.strike} onClick={() => editor?.chain().focus().toggleStrike().run()}>
          <StrikethroughOutlined />
        </ToolButton>
        <Divider orientation="vertical" />
        <ToolButton title="无序列表" active={state?.bulletList} onClick={() => editor?.chain().focus().toggleBulletList().run()}>
          <UnorderedListOutlined />
        </ToolButton>
        <ToolButton title="有序列表" active={state?.orderedList} onClick={() => editor?.chain().focus().toggleOrderedList().run()}>
          <OrderedListOutlined />
        </ToolButton>
        <ToolButton title="引用" active={state?.blockquote} onClick={() => editor?.chain().focus().toggleBlockquote().run()}>
          <span className="rich-text-editor__quote" aria-hidden="true">
            “
          </span>
        </ToolButton>
        <ToolButton title="分割线" onClick={() => editor?.chain().focus().setHorizontalRule().run()}>
          <LineOutlined />
        </ToolButton>
        <Divider orientation="vertical" />
        <ToolButton title="链接" active={state?.link} onClick={openLink}>
          <LinkOutlined />
        </ToolButton>
        <ToolButton title="插入图片" disabled={busy} onClick={() => fileInput.current?.click()}>
          <PictureOutlined />
        </ToolButton>
        <Divider orientation="vertical" />
        <ToolButton title="撤销" disabled={!state?.canUndo} onClick={() => editor?.chain().focus().undo().run()}>
          <UndoOutlined />
        </ToolButton>
        <ToolButton title="重做" disabled={!state?.canRedo} onClick={() => editor?.chain().focus().redo().run()}>
          <RedoOutlined />
        </ToolButton>
        {busy && (
          <span className="rich-text-editor__busy">
            <Spin size="small" /> 图片上传中…
          </span>
        )}
        <input
          ref={fileInput}
          type="file"
          accept={IMAGE_ACCEPT}
          multiple
          hidden
          // antd forms style file inputs as blocks; the toolbar button opens this one.
          style={{ display: 'none' }}
          aria-label="选择要插入的图片"
          onChange={(e) => {
            const files = Array.from(e.target.files ?? []);
            e.target.value = '';
            if (editor) void insertImages(editor, files, setBusy);
          }}
        />
      </div>
      <EditorContent editor={editor} className="rich-text-editor__body" />
      <Modal
        title="插入链接"
        open={linkOpen}
        okText="确定"
        cancelText="取消"
        onOk={applyLink}
        onCancel={() => setLinkOpen(false)}
        destroyOnHidden
      >
        <Input
          autoFocus
          value={linkValue}
          placeholder="https://… 或 /news，留空则移除链接"
          onChange={(e) => setLinkValue(e.target.value)}
          onPressEnter={applyLink}
        />
      </Modal>
    </div>
  );
}
