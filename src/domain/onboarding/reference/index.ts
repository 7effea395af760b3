export * from './country-codes.js';
export * from './document-types.js';
export * from './entity-kyb.js';
export * from './high-risk-countries.js';
export * from './individual-kyc.js';
