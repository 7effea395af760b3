import { ConfigError } from './env.js';
import { loadConfig } from './load.js';
import type { Config } from './types.js';

/**
 * For process entry points: the validated configuration, or one line per bad variable and exit 78. Light to import
 * (the configuration only), so a process can log that it is starting before it loads the rest (main.ts).
 */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(err.problems.map((problem) => `configuration error: ${problem}\n`).join(''));
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
}
