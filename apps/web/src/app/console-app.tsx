import { AntdProvider } from '@/components/antd-provider';
import { ConsoleLayout } from '@/features/console/components/console-layout';
import { consoleRoutes } from './console-routes';

/** The tenant console with the app's page table: loaded only when someone opens the console. */
export function ConsoleApp() {
  return (
    <AntdProvider>
      <ConsoleLayout routes={consoleRoutes} />
    </AntdProvider>
  );
}
