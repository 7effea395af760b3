/** A date of birth as a list gives it: a day, a month, a year, a span of years, or a year "circa". */
export interface ListedBirthDate {
  /** As published (`14 Jul 1961`, `circa 1961`, `1961 to 1962`). */
  text: string;
  /** YYYY-MM-DD when the day is given. */
  day?: string;
  /** YYYY-MM when the month is given. */
  month?: string;
  /** The years it may be, both included (circa: one year either side). */
  fromYear: number;
  toYear: number;
}

export type EntryType = 'individual' | 'entity' | 'vessel' | 'aircraft' | 'unknown';

export interface ListedName {
  name: string;
  /** Absent for the entry's own name; `a.k.a.`, `f.k.a.`, `n.k.a.` (ALT.CSV's alt_type) for an alias. */
  aliasType?: string;
}

export interface ListedWalletAddress {
  currency: string;
  address: string;
}

/** One party on a list, whatever the file format it came from. */
export interface ListEntry {
  /** The list's label (SCREENING_LISTS), or the simple CSV's `list` column. */
  list: string;
  /** OFAC's ent_num; the line number in a simple CSV. */
  entryNumber: string;
  type: EntryType;
  /** The entry's own name as published (`SIDOROV, Ivan Petrovich`). */
  name: string;
  aliases: ListedName[];
  programs: string[];
  birthDates: ListedBirthDate[];
  /** ISO 3166 alpha-3 codes: nationality, citizenship, and the countries of its addresses. */
  countries: string[];
  walletAddresses: ListedWalletAddress[];
}

/** Who is screened: a person (with a birth date when known) or a company (legal and trade names). */
export interface ScreeningSubject {
  kind: 'person' | 'entity';
  /** One or more names (a company's legal and trade names); the best-scoring one is reported. */
  names: string[];
  /** YYYY-MM-DD. */
  birthDate?: string | null;
  /** Alpha-3 codes: nationality, residence; a company's registered and physical addresses. */
  countries?: (string | null | undefined)[];
}

export type AgreedField = 'name' | 'birthDate' | 'country';

/** A subject found on a list (docs/screening.md#what-a-hit-records). */
export interface ScreeningHit {
  list: string;
  entryNumber: string;
  entryType: EntryType;
  programs: string[];
  /** The entry's own name as published. */
  listedName: string;
  /** The alias (ALT.CSV) that matched, when it was not the entry's own name. */
  matchedAlias?: ListedName;
  /** The subject's name that matched, as the customer gave it. */
  matchedName: string;
  /** 0 to 1 (3 decimals): the name's similarity, raised or lowered by birth date and country; at least the threshold. */
  score: number;
  /** The name's similarity alone. */
  nameScore: number;
  /** Fields that agree: always `name`; `birthDate` and `country` when both sides give them and they agree. */
  agreed: AgreedField[];
  /** Fields both sides give that disagree. */
  conflicting: Exclude<AgreedField, 'name'>[];
  listedBirthDates: string[];
  listedCountries: string[];
}
