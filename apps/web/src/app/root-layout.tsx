import { useEffect } from 'react';
import { Outlet, useMatches, useNavigation } from 'react-router';
import NProgress from 'nprogress';
import 'nprogress/nprogress.css';
import { pageTitle } from '@/config/paths';

export interface RouteHandle {
  title?: string;
}

NProgress.configure({ showSpinner: false });

/** Progress bar on route changes and the page title (spec section 1: product title plus route title). */
export function RootLayout() {
  const navigation = useNavigation();
  const matches = useMatches();
  const title = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title)?.handle as RouteHandle | undefined;

  useEffect(() => {
    if (navigation.state === 'idle') NProgress.done();
    else NProgress.start();
  }, [navigation.state]);

  useEffect(() => {
    document.title = pageTitle(title?.title);
  }, [title?.title]);

  // The app is interactive (a server-rendered page is hydrated): `<html data-app="ready">`.
  useEffect(() => {
    document.documentElement.dataset.app = 'ready';
  }, []);

  return <Outlet />;
}
