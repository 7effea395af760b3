import { deflateSync } from 'node:zlib';

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/**
 * A real (tiny, grey) PNG, the same bytes for the same `seed` and different ones for any other: the seed changes its
 * pixels and is written whole in a tEXt chunk (the pixels alone repeat every 256 seeds, and the checks refuse a file
 * another customer of the integrator gave, so two suites sharing a test process met each other's documents). doc()'s
 * images take string seeds (`doc <n>`), so a suite's own numbers never meet them.
 */
export function png(seed: number | string = 0, size = 8): Buffer {
  const shade = typeof seed === 'number' ? seed : [...seed].reduce((sum, ch) => sum + ch.charCodeAt(0), 0);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.concat(Array.from({ length: size }, (_, y) => Buffer.from([0, ...Array.from({ length: size }, (_, x) => (x * 31 + y * 17 + shade) & 0xff)])));
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('tEXt', Buffer.from(`seed\0${seed}`, 'latin1')), chunk('IEND', Buffer.alloc(0))]);
}

/** A minimal valid one-page PDF carrying `text`. */
export function pdf(text = 'document'): Buffer {
  const content = `BT /F1 12 Tf 72 720 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** JPEG framing (SOI, a JFIF APP0 segment, EOI) around seed bytes: enough for type detection. */
export function jpeg(seed = 0): Buffer {
  const app0 = Buffer.from('ffe000104a46494600010100000100010000', 'hex');
  return Buffer.concat([Buffer.from('ffd8', 'hex'), app0, Buffer.from(`seed-${seed}`), Buffer.from('ffd9', 'hex')]);
}

export const dataUrl = (mediaType: string, bytes: Buffer) => `data:${mediaType};base64,${bytes.toString('base64')}`;

let counter = 0;
/** A distinct document of the given type each call. */
export function doc(documentType: string, issuingCountry = 'USA', extra: Record<string, string> = {}): { documentType: string; issuingCountry: string; document: string; documentNumber?: string; description?: string } {
  counter++;
  const bytes = documentType === 'passport' || documentType.startsWith('national_id') ? png(`doc ${counter}`) : pdf(`${documentType} ${counter}`);
  return { documentType, issuingCountry, document: dataUrl(documentType === 'passport' || documentType.startsWith('national_id') ? 'image/png' : 'application/pdf', bytes), ...extra };
}

let ssns = 0;
/**
 * A valid SSN ending 6789 (the masked `***-**-6789` tests read), another for each person: a shared SSN is an error
 * finding, and an approval over one takes two operators (docs/back-office.md#four-eyes).
 */
const nextSsn = (): string => {
  const n = ssns++;
  return `${100 + (n % 500)}-${10 + (Math.floor(n / 500) % 89)}-6789`;
};

export const californian = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Maria',
  middleName: 'Elena',
  lastName: 'Garcia',
  email: 'maria.garcia@example.com',
  phone: '+14155552671',
  birthDate: '1988-04-12',
  nationality: 'USA',
  countryOfBirth: 'USA',
  residentialAddress: { streetLine1: '1 Market St', streetLine2: 'Suite 300', city: 'San Francisco', state: 'US-CA', postalCode: '94105', country: 'USA' },
  socialSecurityNumber: nextSsn(),
  profilePictureUrl: 'https://example.com/maria.png',
  ...overrides,
});

export const berliner = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Jonas',
  lastName: 'Becker',
  email: 'jonas.becker@example.de',
  phone: '+4930123456',
  birthDate: '1990-09-30',
  nationality: 'DEU',
  countryOfBirth: 'DEU',
  residentialAddress: { streetLine1: 'Unter den Linden 77', city: 'Berlin', state: 'DE-BE', postalCode: '10117', country: 'DEU' },
  ...overrides,
});

export const companyInfo = (overrides: Record<string, unknown> = {}) => ({
  businessLegalName: 'Acme Robotics Inc.',
  businessTradeName: 'Acme',
  businessType: 'corporation',
  companyNumber: 'C4512345',
  email: 'compliance@acme-robotics.example',
  website: 'https://acme-robotics.example',
  registeredAddress: { streetLine1: '500 Howard St', city: 'San Francisco', state: 'US-CA', postalCode: '94105', country: 'USA' },
  physicalAddress: { streetLine1: '500 Howard St', city: 'San Francisco', state: 'US-CA', postalCode: '94105', country: 'USA' },
  activityInfo: { businessDescription: 'Industrial robots for warehouses', businessIndustry: 333922 },
  financialInfo: { sourceOfFunds: 'business_revenue', estimatedAnnualRevenueUsd: '1000000_10000000', expectedMonthlyPaymentsUsd: 250000, hasMaterialIntermediaryEntityOwner: false },
  highRiskInfo: { operatesInProhibitedCountries: false, highRiskActivities: 'none', conductsMoneyServices: false },
  ...overrides,
});

export const entityDocs = () => [doc('incorporation_cert'), doc('shareholder_registry'), doc('source_of_funds'), doc('proof_of_address')];
export const personDocs = (country = 'USA') => [doc('passport', country, { documentNumber: `P${Date.now()}${counter}` }), doc('proof_of_address', country)];
export const signedAt = () => new Date(Date.now() - 3600_000).toISOString();
