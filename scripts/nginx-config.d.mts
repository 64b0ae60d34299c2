// Types of nginx-config.mjs for the server's TypeScript tests that run the portal behind nginx.
export declare const DEPLOY_CONFIG: string;
export declare const NGINX_MISSING: string;
export declare function findNginx(): string | undefined;
export declare function brotliInstalled(): boolean;
export declare function freePort(): Promise<number>;
export declare function makeTestCertificate(dir: string): { cert: string; key: string };
export declare function localConfig(options: {
  dir: string;
  upstreams: string[];
  tls?: { cert: string; key: string; httpPort: number; httpsPort: number };
  httpPort?: number;
  accessLog?: boolean;
}): { text: string; notes: string[] };
export declare function testConfig(nginx: string, dir: string, text: string): { ok: boolean; output: string };
export declare function startNginx(
  nginx: string,
  dir: string,
  text: string,
  port: number,
): Promise<{ stderr(): string; stop(): Promise<void> }>;
