/**
 * Statement amounts between their decimal text and minor units, exactly: bigint arithmetic on the digits, never a
 * float (0.1 + 0.2 is not a cent away from anything here).
 */

/**
 * ISO 4217's currencies whose minor unit is not the cent; every other three-letter code has two decimals. Kept here
 * rather than taken from a package: the list changes about once a decade and a missing entry fails loudly (an amount
 * with more decimals than its currency is refused, below).
 */
const MINOR_DIGITS: Readonly<Record<string, number>> = {
  BIF: 0, CLP: 0, DJF: 0, GNF: 0, ISK: 0, JPY: 0, KMF: 0, KRW: 0, PYG: 0, RWF: 0, UGX: 0, UYI: 0, VND: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0,
  BHD: 3, IQD: 3, JOD: 3, KWD: 3, LYD: 3, OMR: 3, TND: 3,
  CLF: 4, UYW: 4,
};

/** The number of decimals of a currency's minor unit (2 unless listed above). */
export function minorDigits(currency: string): number {
  return MINOR_DIGITS[currency] ?? 2;
}

export const isCurrencyCode = (text: string): boolean => /^[A-Z]{3}$/.test(text);

/** ISO 20022's ActiveOrHistoricCurrencyAndAmount: at most 18 digits, leading and trailing zeros aside. */
const MAX_DIGITS = 18;

/**
 * A camt amount (xs:decimal without sign or exponent, as ISO 20022's ActiveOrHistoricCurrencyAndAmount allows) in
 * minor units, or undefined when the text is not such a decimal, has more than 18 digits, or has non-zero digits
 * below the minor unit (`10.005` EUR is no amount a bank books).
 */
export function toMinor(text: string, currency: string): bigint | undefined {
  const m = /^([0-9]+)(?:\.([0-9]*))?$/.exec(text) ?? /^()\.([0-9]+)$/.exec(text);
  if (!m) return undefined;
  const digits = minorDigits(currency);
  const fraction = m[2] ?? '';
  if ((m[1] ?? '').replace(/^0+/, '').length + fraction.replace(/0+$/, '').length > MAX_DIGITS) return undefined;
  if (/[1-9]/.test(fraction.slice(digits))) return undefined;
  return BigInt((m[1] || '0') + fraction.slice(0, digits).padEnd(digits, '0'));
}

/** Minor units as a decimal with the currency's number of decimals: 125050n EUR is `1250.50`, 1000n JPY `1000`. */
export function formatMinor(minor: bigint, currency: string): string {
  const digits = minorDigits(currency);
  const sign = minor < 0n ? '-' : '';
  const text = (minor < 0n ? -minor : minor).toString().padStart(digits + 1, '0');
  return digits === 0 ? `${sign}${text}` : `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}
