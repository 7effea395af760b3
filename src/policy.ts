import type { Config } from './config.js';
import type { Policy } from './domain/context.js';
import { WatchList } from './domain/verification/checks/watch-list.js';

export function policyFromConfig(config: Config): Policy {
  return {
    highRiskCountries: new Set(config.highRiskCountries),
    webauthn: config.webauthn,
    ...(config.watchListFile ? { watchList: WatchList.fromFile(config.watchListFile) } : {}),
  };
}
