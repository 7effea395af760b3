/**
 * Companies' legal forms, abbreviated and spelled out, grouped by family: a joint-stock company is not a limited
 * liability company nor a partnership, so "X Bank AG" and "X Bank GmbH" are two companies. Written for this bench.
 */
export type FormFamily = 'stock' | 'limited' | 'partnership';

export interface LegalForm {
  family: FormFamily;
  /** Abbreviations, undotted first. */
  short: string[];
  /** Spelled out. */
  long: string[];
  /** Written before the name (Russian forms: OAO "Uralkhim"). */
  before?: boolean;
}

export const LEGAL_FORMS: LegalForm[] = [
  { family: 'stock', short: ['AG', 'A.G.'], long: ['Aktiengesellschaft'] },
  { family: 'stock', short: ['SA', 'S.A.'], long: ['Sociedad Anonima', 'Societe Anonyme'] },
  { family: 'stock', short: ['PLC', 'p.l.c.', 'P.L.C.'], long: ['Public Limited Company'] },
  { family: 'stock', short: ['JSC', 'J.S.C.'], long: ['Joint Stock Company', 'Joint-Stock Company'] },
  { family: 'stock', short: ['OAO', 'O.A.O.'], long: ['Open Joint Stock Company', 'Open Joint-Stock Company'], before: true },
  { family: 'stock', short: ['PJSC', 'PAO'], long: ['Public Joint Stock Company'], before: true },
  { family: 'stock', short: ['CJSC', 'ZAO'], long: ['Closed Joint Stock Company'], before: true },
  { family: 'stock', short: ['SpA', 'S.p.A.'], long: ['Societa per Azioni'] },
  { family: 'stock', short: ['NV', 'N.V.'], long: ['Naamloze Vennootschap'] },
  { family: 'stock', short: ['Inc', 'Inc.'], long: ['Incorporated'] },
  { family: 'stock', short: ['Corp', 'Corp.'], long: ['Corporation'] },
  { family: 'limited', short: ['GmbH'], long: ['Gesellschaft mit beschraenkter Haftung', 'Gesellschaft mbH'] },
  { family: 'limited', short: ['LLC', 'L.L.C.'], long: ['Limited Liability Company'] },
  { family: 'limited', short: ['OOO', 'O.O.O.'], long: ['Obshchestvo s Ogranichennoy Otvetstvennostyu'], before: true },
  { family: 'limited', short: ['Ltd', 'Ltd.'], long: ['Limited'] },
  { family: 'limited', short: ['SARL', 'S.A.R.L.'], long: ['Societe a Responsabilite Limitee'] },
  { family: 'limited', short: ['Srl', 'S.r.l.'], long: ['Societa a Responsabilita Limitata'] },
  { family: 'limited', short: ['BV', 'B.V.'], long: ['Besloten Vennootschap'] },
  { family: 'partnership', short: ['KG'], long: ['Kommanditgesellschaft'] },
  { family: 'partnership', short: ['LP', 'L.P.'], long: ['Limited Partnership'] },
  { family: 'partnership', short: ['LLP', 'L.L.P.'], long: ['Limited Liability Partnership'] },
];

/** Words of a company's name besides its own (shared by many companies, so candidates are many). */
export const INDUSTRY_WORDS = `Bank Shipping Trading Petroleum Energy Logistics Holding Industries Maritime Capital Investment Mining
  Chemical Steel Textile Aviation Engineering Construction Technologies Pharmaceuticals Export Import Finance Insurance
  Metals Grain Tankers Telecom Security Electronics Minerals Development Resources`.trim().split(/\s+/);

/** Syllables of the companies' own names (Nordvik, Uralkhim): split by position between dev and held. */
export const STEM_SYLLABLES = `nord vik ural khim balt mor sib neft volg tran kara zar ost mar pol gaz tek lin ros vest
  alta kor dan vel strom ber ga lux tor via kem ar bor sol vin tex pro mash tal ruk sen dor quin pel`.trim().split(/\s+/);
