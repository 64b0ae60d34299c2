export * from './response-codes.js';
export * from './runtime-config.js';
export * from './site.js';
export * from './content.js';
export * from './xss-corpus.js';
export * from './auth.js';
export * from './audit.js';
export * from './ssr.js';
