import type { Hex } from 'viem';
import type { TokenRates } from '../tokens/token-rates.js';

export const DEPOSIT_CURRENCIES = ['USD', 'EUR'] as const;
export type DepositCurrency = (typeof DEPOSIT_CURRENCIES)[number];

/** The bank a currency's deposits are paid into (the spec's fiatDepositInstructions, without currency and reference). */
export interface BankDetails {
  bank_name: string;
  bank_address: string;
  payment_rails: string[];
  bank_beneficiary_name: string;
  bank_beneficiary_address: string;
  bank_account_number: string;
  bank_routing_number: string;
  iban_number: string;
  iban_bic: string;
}

export interface DepositConfig {
  /** Per currency; a currency without details cannot be deposited (422 not_offered). */
  banks: Partial<Record<DepositCurrency, BankDetails>>;
  /** Wei paid out per whole unit of each currency (DEPOSIT_RATES). */
  weiPerUnit: Record<DepositCurrency, bigint>;
  /** DEPOSIT_TOKEN_RATES: whole units of a listed token paid out per whole unit of fiat (docs/tokens.md). */
  tokenRates: TokenRates;
  /** Sandbox: a stablecoin of the deposit's currency without a configured rate is paid 1:1 (tokenRate). */
  sandboxRates: boolean;
  /** TREASURY_PRIVATE_KEY; undefined: derived from ENCRYPTION_KEY in sandbox, none in production. */
  treasuryKey: Hex | undefined;
  /** DEPOSIT_EXPIRY_HOURS: how long a deposit waits for its bank transfer before it fails as expired. */
  expiryMs: number;
}

/** Plainly fictitious banks, so sandbox instructions are never mistaken for real ones. */
export const SANDBOX_BANKS: Record<DepositCurrency, BankDetails> = {
  USD: {
    bank_name: 'Sandbox Bank, N.A. (not a real bank)',
    bank_address: '1 Example Plaza, New York, NY 10001, US',
    payment_rails: ['ach', 'wire'],
    bank_beneficiary_name: 'Integrator API Sandbox Custody',
    bank_beneficiary_address: '1 Example Plaza, New York, NY 10001, US',
    bank_account_number: '000123456789',
    bank_routing_number: '021000021',
    iban_number: '',
    iban_bic: '',
  },
  EUR: {
    bank_name: 'Sandbox Bank AG (not a real bank)',
    bank_address: 'Beispielstraße 1, 10115 Berlin, DE',
    payment_rails: ['sepa'],
    bank_beneficiary_name: 'Integrator API Sandbox Custody',
    bank_beneficiary_address: 'Beispielstraße 1, 10115 Berlin, DE',
    bank_account_number: '',
    bank_routing_number: '',
    iban_number: 'DE89370400440532013000',
    iban_bic: 'COBADEFFXXX',
  },
};

/** 1 unit of fiat = 10^12 wei (0.000001 ETH) in sandbox: small enough for any funded test treasury. */
export const DEFAULT_WEI_PER_UNIT: Record<DepositCurrency, bigint> = { USD: 10n ** 12n, EUR: 11n * 10n ** 11n };

const STRING_FIELDS = ['bank_name', 'bank_address', 'bank_beneficiary_name', 'bank_beneficiary_address', 'bank_account_number', 'bank_routing_number', 'iban_number', 'iban_bic'] as const;

/** DEPOSIT_BANK_USD / DEPOSIT_BANK_EUR: a JSON object of the BankDetails fields (missing strings are empty). */
export function parseBankDetails(raw: string, currency: DepositCurrency): BankDetails {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new Error('must be a JSON object');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('must be a JSON object');
  const input = value as Record<string, unknown>;
  const unknown = Object.keys(input).filter((k) => k !== 'payment_rails' && !(STRING_FIELDS as readonly string[]).includes(k));
  if (unknown.length > 0) throw new Error(`unknown field(s): ${unknown.join(', ')}`);
  const details = { payment_rails: currency === 'USD' ? ['ach', 'wire'] : ['sepa'] } as BankDetails;
  for (const field of STRING_FIELDS) {
    const v = input[field] ?? '';
    if (typeof v !== 'string' || v.length > 200) throw new Error(`${field} must be a string of up to 200 characters`);
    details[field] = v;
  }
  if (input.payment_rails !== undefined) {
    const rails = input.payment_rails;
    if (!Array.isArray(rails) || rails.length === 0 || rails.some((r) => typeof r !== 'string' || !/^[a-z_]{2,20}$/.test(r))) {
      throw new Error('payment_rails must be a non-empty array of rail names such as "ach", "wire", "sepa"');
    }
    details.payment_rails = rails as string[];
  }
  if (!details.bank_name || !details.bank_beneficiary_name) throw new Error('bank_name and bank_beneficiary_name are required');
  if (currency === 'USD' && (!details.bank_account_number || !details.bank_routing_number)) throw new Error('USD needs bank_account_number and bank_routing_number');
  if (currency === 'EUR' && (!details.iban_number || !details.iban_bic)) throw new Error('EUR needs iban_number and iban_bic');
  return details;
}

/** DEPOSIT_RATES: `USD=<wei per unit>,EUR=<wei per unit>` (either may be omitted: the default stays). */
export function parseRates(raw: string): Record<DepositCurrency, bigint> {
  const rates = { ...DEFAULT_WEI_PER_UNIT };
  for (const part of raw.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(USD|EUR)=([1-9][0-9]{0,30})$/.exec(part);
    if (!m) throw new Error(`"${part}" is not CURRENCY=<wei per unit> (USD or EUR, a positive integer)`);
    rates[m[1] as DepositCurrency] = BigInt(m[2]!);
  }
  return rates;
}

export function parseTreasuryKey(raw: string): Hex {
  const hex = raw.startsWith('0x') ? raw.slice(2) : raw;
  if (!/^[0-9a-fA-F]{64}$/.test(hex) || /^0+$/.test(hex)) throw new Error('must be a 32-byte secp256k1 private key in hex');
  return `0x${hex.toLowerCase()}`;
}
