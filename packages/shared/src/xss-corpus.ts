/**
 * XSS payloads both sanitisers are tested against (server on write, browser before render).
 * After sanitising none may keep a script, an event handler or a `javascript:` URL.
 */
export const XSS_CORPUS: readonly string[] = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/xss.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" ONERROR="alert(1)">',
  '<svg onload=alert(1)><circle r="1"/></svg>',
  '<a href="javascript:alert(1)">点击</a>',
  '<a href="JaVaScRiPt:alert(1)">点击</a>',
  '<a href="&#106;avascript:alert(1)">编码</a>',
  '<a href=" javascript:alert(1)">空格</a>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<body onload=alert(1)>',
  '<div style="background:url(javascript:alert(1))">样式</div>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<form action="javascript:alert(1)"><button>提交</button></form>',
  '<input autofocus onfocus=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<p>正常段落<b onclick="alert(1)">加粗</b></p>',
  '<img src="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">',
  '<a href="vbscript:msgbox(1)">vb</a>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '"><script>alert(document.cookie)</script>',
];

/** True when sanitised HTML still carries something that could run. */
export function hasActiveContent(html: string): boolean {
  const lower = html.toLowerCase();
  return (
    /<\s*script/.test(lower) ||
    /<\s*(iframe|object|embed|form|meta|base|style)\b/.test(lower) ||
    /\son[a-z]+\s*=/.test(lower) ||
    /(href|src|action|data|formaction)\s*=\s*["']?\s*(javascript|vbscript|data:text\/html)/.test(lower)
  );
}
