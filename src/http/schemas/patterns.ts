import { Type, type TStringOptions } from 'typebox';
import { AMOUNT_PATTERN } from '../../domain/deposits/deposits.js';

/**
 * Every `pattern` of both API documents, each with the sentence a 400 says when a value does not match it
 * (validation.ts). A failed pattern must never show the integrator its regular expression: the sentence says the
 * same thing in words, and it completes "<field> …", so it starts with "must".
 *
 * Keyed by the pattern itself because that is all Ajv's error carries (`params.pattern`): reaching the schema
 * object would take Ajv's `verbose` mode, which copies the request's data into every error. A schema takes its
 * pattern from here through `patterned()`, so the expression and its sentence are one entry and cannot drift; a
 * pattern written inline anyway gets a generic sentence, and test/http/validation-messages.test.ts fails on it.
 * One sentence per expression: the sentence describes the form, the schema's description its meaning.
 */
export interface PatternFormat {
  readonly pattern: string;
  readonly sentence: string;
}

export const FORMATS = {
  /** Fiat amounts: deposits, withdrawals, an operator's received funds. */
  fiatAmount: {
    pattern: AMOUNT_PATTERN,
    sentence: 'must be a decimal amount with at most 2 decimals, such as "250.00" (up to 12 digits before the point, no leading zeros)',
  },
  /** Vault deposits and withdrawals, in the asset's units or in shares. */
  vaultAmount: { pattern: '^[0-9]{1,78}(\\.[0-9]{1,78})?$', sentence: 'must be a decimal number written in digits, such as "12.5" (up to 78 digits on each side of the point)' },
  decimal: { pattern: '^[0-9]+(\\.[0-9]+)?$', sentence: 'must be a decimal number written in digits, such as "12.5"' },
  signedDecimal: { pattern: '^-?[0-9]+(\\.[0-9]+)?$', sentence: 'must be a decimal number written in digits, such as "12.5" or "-0.25"' },
  integer: { pattern: '^[0-9]+$', sentence: 'must be a whole number written in digits, such as "12500000"' },
  signedInteger: { pattern: '^-?[0-9]+$', sentence: 'must be a whole number written in digits, such as "12500000" or "-250"' },
  ledgerAsset: {
    pattern: '^(eip155:[0-9]{1,15}/(slip44:60|erc20:0x[0-9a-f]{40})|iso4217:[A-Z]{3})$',
    sentence: 'must be an asset code: eip155:<chainId>/slip44:60 (the native coin), eip155:<chainId>/erc20:<lowercase address> or iso4217:<currency>',
  },
  timestampMs: { pattern: '^[0-9]{1,16}$', sentence: 'must be a whole number of 1 to 16 digits' },
  otpCode: { pattern: '^[0-9]{6}$', sentence: 'must be 6 digits' },
  usdRange12: { pattern: '^\\d{1,12}_\\d{1,12}$', sentence: 'must be a range of two whole numbers joined by an underscore, such as "1000_5000" (up to 12 digits each)' },
  usdRange15: { pattern: '^\\d{1,15}_\\d{1,15}$', sentence: 'must be a range of two whole numbers joined by an underscore, such as "1000_5000" (up to 15 digits each)' },
  assetSymbol: { pattern: '^[A-Za-z][A-Za-z0-9.]{0,10}$', sentence: 'must be an asset symbol such as "USDC": a letter, then up to 10 letters, digits or dots' },
  publicKey: { pattern: '^0x0[23][0-9a-fA-F]{64}$', sentence: 'must be a compressed P-256 public key: 0x, then 02 or 03, then 64 hexadecimal digits' },
  address: { pattern: '^0x[0-9a-fA-F]{40}$', sentence: 'must be 0x and 40 hexadecimal digits' },
  lowercaseAddress: { pattern: '^0x[0-9a-f]{40}$', sentence: 'must be 0x and 40 lowercase hexadecimal digits' },
  privateKey: { pattern: '^0x[0-9a-f]{64}$', sentence: 'must be 0x and 64 lowercase hexadecimal digits' },
  webhookPublicKey: { pattern: '^(whpk_[A-Za-z0-9+/]{43}=)?$', sentence: 'must be empty, or whpk_ followed by 44 characters of base64' },
  webhookSecret: { pattern: '^whsec_[A-Za-z0-9+/]{43}=$', sentence: 'must be whsec_ followed by 44 characters of base64' },
  idempotencyKey: { pattern: '^[\\x21-\\x7e]{1,255}$', sentence: 'must be 1 to 255 printable ASCII characters, without spaces' },
  cursor: { pattern: '^[A-Za-z0-9_-]+$', sentence: 'must be the nextCursor of a previous page: letters, digits, - and _ only' },
  depositReference: { pattern: '^DEP-[0-9A-Z]{12}$', sentence: 'must be a deposit reference: DEP- and 12 capital letters or digits' },
  withdrawalReference: { pattern: '^WDR-[0-9A-Z]{12}$', sentence: 'must be a withdrawal reference: WDR- and 12 capital letters or digits' },
  requestId: { pattern: '^req_', sentence: 'must start with req_' },
  notBlank: { pattern: '\\S', sentence: 'must not be blank: give at least one character other than a space' },
} as const satisfies Record<string, PatternFormat>;

const SENTENCES = new Map<string, string>();
for (const [name, format] of Object.entries(FORMATS)) {
  // Two entries with one expression would make the sentence depend on the order of this table.
  if (SENTENCES.has(format.pattern)) throw new Error(`patterns.ts: ${name} repeats the pattern of another entry`);
  SENTENCES.set(format.pattern, format.sentence);
}

/** The sentence for a failed pattern, or undefined for one not in FORMATS. */
export const patternSentence = (pattern: string): string | undefined => SENTENCES.get(pattern);

/** A string schema with the format's pattern; the other options (description, lengths, examples) as given. */
export const patterned = (format: PatternFormat, options: Omit<TStringOptions, 'pattern'> = {}) => Type.String({ pattern: format.pattern, ...options });
