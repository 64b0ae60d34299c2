import {
  DownloadOutlined,
  RotateLeftOutlined,
  RotateRightOutlined,
  UndoOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import { Button, Empty, Spin, Tooltip } from 'antd';
import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import { type ReactNode, type SyntheticEvent, useEffect, useRef, useState } from 'react';
import { usePrivateFile } from '@/api/private-file';
import { saveBlob } from '@/lib/download';
import { loadPdfjs } from '@/lib/pdfjs';
import './material-viewer.css';

/** A stored private file to show (certification materials: JPG, PNG or PDF). */
export interface MaterialFile {
  id: number;
  name: string;
  mime: string;
}

/** Zoom levels, relative to the size that fits the viewer (100%). */
export const ZOOM_STEPS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4] as const;
const MIN_ZOOM = ZOOM_STEPS[0];
const MAX_ZOOM = ZOOM_STEPS[ZOOM_STEPS.length - 1]!;
type Rotation = 0 | 90 | 180 | 270;

interface ViewState {
  zoom: number;
  rotation: Rotation;
}

const INITIAL_VIEW: ViewState = { zoom: 1, rotation: 0 };
/** Room the stage's padding takes around the material (material-viewer.css). */
const STAGE_PADDING = 24;
/** A PDF page at 100% is at most its printed size (PDF points to CSS pixels, 72 → 96 per inch). */
const PDF_MAX_FIT = 96 / 72;
/** A canvas holds at most this many pixels (pdf.js's own viewer limit is 2^25): a zoomed page on a dense screen stays within memory. */
const MAX_CANVAS_PIXELS = 2 ** 24;

const nextZoom = (zoom: number) => ZOOM_STEPS.find((step) => step > zoom) ?? zoom;
const previousZoom = (zoom: number) => [...ZOOM_STEPS].reverse().find((step) => step < zoom) ?? zoom;
const rotate = (rotation: Rotation, by: 90 | -90) => ((rotation + by + 360) % 360) as Rotation;

/** The stage's usable size: 0 where nothing is laid out yet. */
function stageRoom(stage: HTMLElement | null): { width: number; height: number } {
  if (!stage) return { width: 0, height: 0 };
  return { width: Math.max(0, stage.clientWidth - STAGE_PADDING), height: Math.max(0, stage.clientHeight - STAGE_PADDING) };
}

/**
 * An image: shown whole at 100% (never enlarged past its own size), zoomed and rotated with a CSS
 * transform. The box around it takes the turned, zoomed size so the stage scrolls to every edge.
 */
function ImageMaterial({ blob, name, view }: { blob: Blob; name: string; view: ViewState }) {
  const stageRef = useRef<HTMLDivElement>(null);
  const imageRef = useRef<HTMLImageElement>(null);
  const [fitted, setFitted] = useState<{ width: number; height: number } | null>(null);

  // The bytes came with the console's token: the image shows them through an object URL, released
  // when the image goes or the file changes.
  useEffect(() => {
    const image = imageRef.current;
    if (!image) return;
    const url = URL.createObjectURL(blob);
    image.src = url;
    return () => {
      image.removeAttribute('src');
      URL.revokeObjectURL(url);
    };
  }, [blob]);

  const fit = (event: SyntheticEvent<HTMLImageElement>) => {
    const { naturalWidth: width, naturalHeight: height } = event.currentTarget;
    const room = stageRoom(stageRef.current);
    const scale = room.width > 0 && room.height > 0 ? Math.min(1, room.width / width, room.height / height) : 1;
    setFitted({ width: width * scale, height: height * scale });
  };

  const sideways = view.rotation % 180 !== 0;
  const box = fitted && {
    width: (sideways ? fitted.height : fitted.width) * view.zoom,
    height: (sideways ? fitted.width : fitted.height) * view.zoom,
  };
  return (
    <div className="material-viewer__stage" ref={stageRef}>
      <div className="material-viewer__box" style={box ?? undefined}>
        <img
          ref={imageRef}
          alt={name}
          className="material-viewer__image"
          onLoad={fit}
          style={{
            width: fitted?.width,
            height: fitted?.height,
            transform: `translate(-50%, -50%) rotate(${view.rotation}deg) scale(${view.zoom})`,
          }}
        />
      </div>
    </div>
  );
}

/**
 * A PDF: every page drawn by pdf.js on its own canvas, at the zoom and turn asked for (drawn again
 * at each change, so zoomed text stays sharp). 100% fits the page's width to the viewer.
 */
function PdfMaterial({ blob, view, onLoaded }: { blob: Blob; view: ViewState; onLoaded(pages: number): void }) {
  const stageRef = useRef<HTMLDivElement>(null);
  const canvases = useRef<(HTMLCanvasElement | null)[]>([]);
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let destroy: (() => Promise<void>) | undefined;
    void (async () => {
      try {
        const pdfjs = await loadPdfjs();
        const data = new Uint8Array(await blob.arrayBuffer());
        if (cancelled) return;
        // No eval in pdf.js: the file comes from an applicant.
        const task = pdfjs.getDocument({ data, isEvalSupported: false });
        destroy = () => task.destroy();
        const loaded = await task.promise;
        if (cancelled) return;
        setPdf(loaded);
        onLoaded(loaded.numPages);
      } catch {
        if (!cancelled) setFailed(true);
      }
    })();
    return () => {
      cancelled = true;
      void destroy?.();
    };
  }, [blob, onLoaded]);

  useEffect(() => {
    if (!pdf) return;
    let cancelled = false;
    const tasks: RenderTask[] = [];
    const room = stageRoom(stageRef.current);
    void (async () => {
      for (let number = 1; number <= pdf.numPages; number++) {
        const page = await pdf.getPage(number);
        const canvas = canvases.current[number - 1];
        if (cancelled || !canvas) return;
        const upright = page.getViewport({ scale: 1 });
        const fit = room.width > 0 ? Math.min(PDF_MAX_FIT, room.width / upright.width) : 1;
        const viewport = page.getViewport({ scale: fit * view.zoom, rotation: (page.rotate + view.rotation) % 360 });
        // Sharp on dense screens, within the pixel budget.
        const ratio = Math.min(window.devicePixelRatio || 1, Math.sqrt(MAX_CANVAS_PIXELS / (viewport.width * viewport.height)));
        canvas.width = Math.floor(viewport.width * ratio);
        canvas.height = Math.floor(viewport.height * ratio);
        canvas.style.width = `${Math.floor(viewport.width)}px`;
        canvas.style.height = `${Math.floor(viewport.height)}px`;
        const task = page.render({ canvas, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] });
        tasks.push(task);
        try {
          await task.promise;
        } catch {
          // Cancelled by a newer zoom or turn, or a page pdf.js cannot draw: the other pages still show.
          if (cancelled) return;
        }
      }
    })();
    return () => {
      cancelled = true;
      for (const task of tasks) task.cancel();
    };
  }, [pdf, view.zoom, view.rotation]);

  if (failed) return <Empty className="material-viewer__stage" description="无法预览该 PDF，请下载后查看" />;
  return (
    <div className="material-viewer__stage" ref={stageRef}>
      {pdf ? (
        <div className="material-viewer__pages">
          {Array.from({ length: pdf.numPages }, (_, i) => (
            <canvas
              key={i}
              ref={(canvas) => {
                canvases.current[i] = canvas;
              }}
              role="img"
              aria-label={`第 ${i + 1} 页`}
              className="material-viewer__page"
            />
          ))}
        </div>
      ) : (
        <Spin className="material-viewer__loading" description="正在打开 PDF…">
          <div className="material-viewer__loading-box" />
        </Spin>
      )}
    </div>
  );
}

function ToolButton({ label, icon, onClick, disabled }: { label: string; icon: ReactNode; onClick(): void; disabled?: boolean }) {
  return (
    <Tooltip title={label}>
      <Button type="text" size="small" aria-label={label} icon={icon} onClick={onClick} disabled={disabled} />
    </Tooltip>
  );
}

/**
 * A private material (business licence, authorisation letter) in the console: images and
 * PDF pages with 放大, 缩小, 向左旋转, 向右旋转 and 还原, and 下载. The bytes come through the API
 * client with the token; pdf.js loads only when a PDF is opened.
 */
export function MaterialViewer({ file }: { file: MaterialFile }) {
  // Another file starts at 100%, upright.
  return <Viewer key={file.id} file={file} />;
}

function Viewer({ file }: { file: MaterialFile }) {
  const content = usePrivateFile(file.id);
  const [view, setView] = useState<ViewState>(INITIAL_VIEW);
  const [pages, setPages] = useState<number | null>(null);
  const pdf = file.mime === 'application/pdf';
  const blob = content.data;

  return (
    <figure className="material-viewer" aria-label={file.name}>
      <div className="material-viewer__toolbar" role="toolbar" aria-label={`查看${file.name}`}>
        <ToolButton
          label="缩小"
          icon={<ZoomOutOutlined />}
          disabled={view.zoom <= MIN_ZOOM}
          onClick={() => setView((v) => ({ ...v, zoom: previousZoom(v.zoom) }))}
        />
        <output className="material-viewer__zoom" aria-label="缩放比例">
          {Math.round(view.zoom * 100)}%
        </output>
        <ToolButton
          label="放大"
          icon={<ZoomInOutlined />}
          disabled={view.zoom >= MAX_ZOOM}
          onClick={() => setView((v) => ({ ...v, zoom: nextZoom(v.zoom) }))}
        />
        <ToolButton
          label="向左旋转"
          icon={<RotateLeftOutlined />}
          onClick={() => setView((v) => ({ ...v, rotation: rotate(v.rotation, -90) }))}
        />
        <ToolButton
          label="向右旋转"
          icon={<RotateRightOutlined />}
          onClick={() => setView((v) => ({ ...v, rotation: rotate(v.rotation, 90) }))}
        />
        <ToolButton label="还原" icon={<UndoOutlined />} onClick={() => setView(INITIAL_VIEW)} />
        <ToolButton label="下载" icon={<DownloadOutlined />} disabled={!blob} onClick={() => blob && saveBlob(blob, file.name)} />
        {pdf && pages !== null && <span className="material-viewer__page-count">共 {pages} 页</span>}
      </div>
      {blob ? (
        pdf ? (
          <PdfMaterial blob={blob} view={view} onLoaded={setPages} />
        ) : (
          <ImageMaterial blob={blob} name={file.name} view={view} />
        )
      ) : content.isError ? (
        <Empty className="material-viewer__stage" description={content.error.message || '材料加载失败'}>
          <Button onClick={() => void content.refetch()}>重试</Button>
        </Empty>
      ) : (
        <div className="material-viewer__stage">
          <Spin className="material-viewer__loading" description="正在加载材料…">
            <div className="material-viewer__loading-box" />
          </Spin>
        </div>
      )}
      <figcaption className="material-viewer__caption">{file.name}</figcaption>
    </figure>
  );
}
