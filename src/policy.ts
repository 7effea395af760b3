import type { Config } from './config.js';
import type { Policy } from './domain/context.js';
import { ScreeningLists } from './domain/screening/lists.js';

export function policyFromConfig(config: Config): Policy {
  const { sources, loaded, threshold } = config.screening;
  // One holder for names and wallet addresses: a reload swaps both at once.
  const screening = sources.length > 0 ? new ScreeningLists(sources, threshold, loaded) : undefined;
  return {
    highRiskCountries: new Set(config.highRiskCountries),
    webauthn: config.webauthn,
    ...(screening ? { screening, addressScreen: screening } : {}),
  };
}
