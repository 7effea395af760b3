/**
 * Semantic validators of onboarding payloads: pure, never throwing, each returning FieldError[]
 * (empty = valid) located by JSON pointer under the base pointer it is given. They run after the
 * schema layer, for rules a JSON Schema cannot express (calendars, checksums, cross-field rules).
 */
export { validateAdditionalUserInfo, additionalUserInfoRequired, ADDITIONAL_INFO_AGE_THRESHOLD } from './additional-user-info.js';
export { validateAddress } from './address.js';
export { prepareAuthenticators, validateAuthenticators, AUTHENTICATOR_TRANSPORTS, type PreparedAuthenticator } from './authenticators.js';
export { validateBeneficiaryDetails, checkUboTotal, BENEFICIARY_TYPES, UBO_THRESHOLD_PERCENT } from './beneficiary.js';
export { ageOn } from './dates.js';
export { validateEntityInfo } from './entity-info.js';
export { joinPointer } from './fields.js';
export { isEmail, isHttpUrl, isIntegerRange } from './formats.js';
export { isValidE164Phone } from './phone.js';
export { isValidSsn, maskSsn, normalizeSsn } from './ssn.js';
export { validateUserInfo, MIN_AGE, MAX_AGE } from './user-info.js';
export { validateWalletAddress, normalizeWalletAddress } from './wallet-address.js';
