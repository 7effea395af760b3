/**
 * US Social Security Numbers. Accepted forms: 9 digits, or AAA-GG-SSSS. The Social Security
 * Administration never issues area 000, 666 or 900-999, group 00 or serial 0000, so those are certainly
 * mistyped or made up (900-999 are ITINs, not SSNs).
 */
const SSN_FORM = /^(?:\d{9}|\d{3}-\d{2}-\d{4})$/;

export function isValidSsn(ssn: string): boolean {
  if (!SSN_FORM.test(ssn)) return false;
  const digits = normalizeSsn(ssn);
  const area = Number(digits.slice(0, 3));
  const group = digits.slice(3, 5);
  const serial = digits.slice(5);
  return area !== 0 && area !== 666 && area < 900 && group !== '00' && serial !== '0000';
}

/** The digits only, e.g. "123-45-6789" -> "123456789": the form to store and compare. */
export function normalizeSsn(ssn: string): string {
  return ssn.replace(/\D/g, '');
}

/** "***-**-6789": the only form of an SSN that may appear in responses, logs or events. */
export function maskSsn(ssn: string): string {
  return `***-**-${normalizeSsn(ssn).slice(-4).padStart(4, '*')}`;
}
