import { useEffect } from 'react';
import { Outlet, useNavigation } from 'react-router';
import type NProgressModule from 'nprogress';
import 'nprogress/nprogress.css';
import { usePageTitle } from '@/lib/page-head';

type Progress = typeof NProgressModule;
let progress: Promise<Progress> | undefined;

/** The progress bar's code loads with the first route change, not with the first page. */
function loadProgress(): Promise<Progress> {
  progress ??= import('nprogress').then((m) => {
    // A named progress bar (nprogress's own template says role="bar", which is no role).
    m.default.configure({
      showSpinner: false,
      template: '<div class="bar" role="progressbar" aria-label="页面加载中"><div class="peg"></div></div>',
      barSelector: '[role="progressbar"]',
    });
    return m.default;
  });
  return progress;
}

/** Progress bar on route changes and the page title (spec section 1: product title plus route title; `lib/page-head`). */
export function RootLayout() {
  const navigation = useNavigation();
  const title = usePageTitle();

  useEffect(() => {
    // Both wait on the same import, so a start always runs before its done.
    if (navigation.state !== 'idle') void loadProgress().then((bar) => bar.start());
    else if (progress) void progress.then((bar) => bar.done());
  }, [navigation.state]);

  useEffect(() => {
    if (title !== undefined) document.title = title;
  }, [title]);

  // The app is interactive (a server-rendered page is hydrated): `<html data-app="ready">`.
  useEffect(() => {
    document.documentElement.dataset.app = 'ready';
  }, []);

  return <Outlet />;
}
