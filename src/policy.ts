import type { Config } from './config.js';
import type { Policy } from './domain/context.js';

export function policyFromConfig(config: Config): Policy {
  return { highRiskCountries: new Set(config.highRiskCountries) };
}
