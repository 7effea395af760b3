import { electronicFormatIBAN, isSEPACountry, isValidBIC, validateIBAN, ValidationErrorsIBAN } from 'ibantools';
import type { FieldError } from '../errors.js';
import type { Address } from '../onboarding/types.js';
import { validateAddress } from '../onboarding/validation/address.js';
import { checkText, fieldError, isRecord } from '../onboarding/validation/fields.js';

export const BANK_CURRENCIES = ['USD', 'EUR'] as const;
export type BankCurrency = (typeof BANK_CURRENCIES)[number];

export interface UsDetails {
  accountNumber: string;
  routingNumber: string;
  accountType: 'checking' | 'savings';
}

export interface IbanDetails {
  iban: string;
  bic?: string;
}

export interface BankAccountInput {
  accountId: string;
  currency: BankCurrency;
  accountHolderName: string;
  bankName?: string;
  us?: UsDetails;
  iban?: IbanDetails;
  address?: Address;
}

/** What is stored of valid details: the number to seal, and what may be shown. */
export type CheckedDetails =
  | { rail: 'ach'; number: string; last4: string; routingNumber: string; accountType: 'checking' | 'savings' }
  | { rail: 'sepa'; number: string; last4: string; ibanCountry: string; bic: string | null };

/**
 * ABA routing number: nine digits whose weighted sum (3, 7, 1 repeating) is a multiple of 10, and whose first
 * two digits are a Federal Reserve routing symbol (00-12, 21-32, 61-72, 80).
 */
export function isValidRoutingNumber(value: string): boolean {
  if (!/^[0-9]{9}$/.test(value)) return false;
  const prefix = Number(value.slice(0, 2));
  const prefixOk = prefix <= 12 || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72) || prefix === 80;
  const d = [...value].map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return prefixOk && sum % 10 === 0;
}

/** A US account number: 4 to 17 digits (the ACH file's field is 17 characters). */
export function isValidUsAccountNumber(value: string): boolean {
  return /^[0-9]{4,17}$/.test(value);
}

const IBAN_PROBLEMS: Partial<Record<ValidationErrorsIBAN, [string, string]>> = {
  [ValidationErrorsIBAN.NoIBANCountry]: ['invalid_iban_country', 'does not start with a known IBAN country code'],
  [ValidationErrorsIBAN.WrongBBANLength]: ['invalid_iban_length', 'has the wrong length for its country'],
  [ValidationErrorsIBAN.WrongBBANFormat]: ['invalid_iban_format', 'does not have its country’s format'],
  [ValidationErrorsIBAN.ChecksumNotNumber]: ['invalid_iban_checksum', 'has a non-numeric check digit pair'],
  [ValidationErrorsIBAN.WrongIBANChecksum]: ['invalid_iban_checksum', 'fails the mod-97 checksum'],
  [ValidationErrorsIBAN.WrongAccountBankBranchChecksum]: ['invalid_iban_checksum', 'fails its country’s national checksum'],
};

/** The IBAN in electronic format (no spaces, upper case) when it is valid and in SEPA; else the reasons. */
export function checkIban(value: string, pointer: string): { iban: string } | { errors: FieldError[] } {
  const iban = electronicFormatIBAN(value) ?? '';
  if (!/^[A-Z0-9]{5,34}$/.test(iban)) return { errors: [fieldError(pointer, 'invalid_iban_format', 'must be 5 to 34 letters and digits (spaces allowed)')] };
  const result = validateIBAN(iban);
  if (!result.valid) {
    const [code, detail] = IBAN_PROBLEMS[result.errorCodes[0]!] ?? ['invalid_iban', 'is not a valid IBAN'];
    return { errors: [fieldError(pointer, code, detail)] };
  }
  if (!isSEPACountry(iban.slice(0, 2))) return { errors: [fieldError(pointer, 'iban_not_sepa', `is from ${iban.slice(0, 2)}, which is not in the SEPA area`)] };
  return { iban };
}

/** BIC (ISO 9362): 8 or 11 characters, bank code, country, location, optional branch. */
export function normalizeBic(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

/**
 * Field checks beyond the schema's types, each naming its field: exactly one of `us` (USD, ACH) or `iban`
 * (EUR, SEPA); the numbers' checksums; the holder name's length; the address's format.
 */
export function checkBankDetails(input: BankAccountInput): { details: CheckedDetails } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const name = input.accountHolderName.trim();
  if (checkText(input.accountHolderName, '/accountHolderName', errors) && (name.length < 2 || name.length > 140)) {
    errors.push(fieldError('/accountHolderName', 'invalid_length', 'must be 2 to 140 characters'));
  }
  if (input.bankName !== undefined) checkText(input.bankName, '/bankName', errors);
  if (input.address !== undefined) errors.push(...validateAddress(input.address, '/address'));

  const wanted = input.currency === 'USD' ? 'us' : 'iban';
  const other = wanted === 'us' ? 'iban' : 'us';
  if (input[other] !== undefined) errors.push(fieldError(`/${other}`, 'not_allowed', `is not allowed with currency ${input.currency} (give ${wanted})`));
  if (!isRecord(input[wanted])) {
    errors.push(fieldError(`/${wanted}`, 'required', `is required with currency ${input.currency}`));
    return { errors };
  }

  let details: CheckedDetails | undefined;
  if (input.us) {
    const { accountNumber, routingNumber, accountType } = input.us;
    if (!isValidUsAccountNumber(accountNumber)) errors.push(fieldError('/us/accountNumber', 'invalid_account_number', 'must be 4 to 17 digits'));
    if (!isValidRoutingNumber(routingNumber)) errors.push(fieldError('/us/routingNumber', 'invalid_routing_number', 'is not a valid ABA routing number (9 digits with a valid checksum)'));
    details = { rail: 'ach', number: accountNumber, last4: accountNumber.slice(-4), routingNumber, accountType };
  } else if (input.iban) {
    const checked = checkIban(input.iban.iban, '/iban/iban');
    const bic = input.iban.bic === undefined ? null : normalizeBic(input.iban.bic);
    if (bic !== null && !isValidBIC(bic)) errors.push(fieldError('/iban/bic', 'invalid_bic', 'is not a valid BIC (8 or 11 characters: bank, country, location, branch)'));
    if ('errors' in checked) errors.push(...checked.errors);
    else details = { rail: 'sepa', number: checked.iban, last4: checked.iban.slice(-4), ibanCountry: checked.iban.slice(0, 2), bic };
  }
  return errors.length > 0 || !details ? { errors } : { details };
}
