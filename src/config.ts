// The configuration's public face: importers keep `./config.js`; the parts live in config/ (types, env helpers,
// sections that differ per environment, loadConfig).
export { ConfigError } from './config/env.js';
export { loadConfig } from './config/load.js';
export { loadConfigOrExit } from './config/or-exit.js';
export { DEFAULT_RETRY_SCHEDULE_SECONDS, SANDBOX_WEBAUTHN } from './config/sections.js';
export type { AppEnv, Config, LogLevel, OtpConfig, WebhookConfig } from './config/types.js';
