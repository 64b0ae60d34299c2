import { type ComponentType, lazy } from 'react';

/**
 * `React.lazy` for a component that renders antd (a dialog, a menu): its code and antd's provider load
 * together on first use, so the page that shows it does not carry antd before then. `preload` starts
 * the download early (a pointer over the button that opens it).
 */
export function lazyWithAntd<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () => {
    loading ??= Promise.all([load(), import('./antd-provider')]).then(
      ([Component, { AntdProvider }]) => ({
        default: (props: P) => (
          <AntdProvider>
            <Component {...props} />
          </AntdProvider>
        ),
      }),
      (err: unknown) => {
        // Offline: the next attempt loads again.
        loading = undefined;
        throw err;
      },
    );
    return loading;
  };
  return Object.assign(lazy(preload), { preload });
}
