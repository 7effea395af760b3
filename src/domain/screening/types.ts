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
  /** Given as approximate (`circa 07 Jul 1966`, the EU's and UN's approximate dates): any day of fromYear–toYear agrees. */
  circa?: boolean;
}

export type EntryType = 'individual' | 'entity' | 'vessel' | 'aircraft' | 'unknown';

export interface ListedName {
  name: string;
  /**
   * Absent for the entry's own name; for an alias, as its list types it: OFAC's ALT.CSV alt_type (`a.k.a.`, `f.k.a.`,
   * `n.k.a.`); the EU's other nameAliases `a.k.a.`; the UN's alias QUALITY (`Good`, `Low`; `a.k.a.` when empty) and
   * `original script` for NAME_ORIGINAL_SCRIPT; the UK's Name type with its Alias strength in parentheses (`Alias`,
   * `Alias (Low quality)`, `Primary Name Variation`; `Alias` for a primary name the file gave after another) and
   * `non-Latin script` for Name non-latin script. A finding's message reads it as words (run-checks.ts aliasRelation).
   */
  aliasType?: string;
  /**
   * The family name, where the list gives it apart (the EU's lastName, the UK's Name 6 of a person); OFAC writes it
   * before a comma (`SIDOROV, Ivan Petrovich`). The UN's name parts do not say which is the family name, so its
   * names have none. The matcher weighs it above given names.
   */
  familyName?: string;
}

export interface ListedWalletAddress {
  currency: string;
  address: string;
}

/** One party on a list, whatever the file format it came from. */
export interface ListEntry {
  /**
   * The list's label in SCREENING_LISTS (`EU=…`: `EU`), whatever the folder's format (OFAC's, the EU's, the UN's, the
   * UK's or a simple CSV); the simple CSV's `list` column for WATCHLIST_FILE's list, which has no label.
   */
  list: string;
  /**
   * What the list numbers the entry by: OFAC's ent_num, the EU's logicalId, the UN's REFERENCE_NUMBER (its DATAID when
   * it has none), the UK's Unique ID (`RUS0001`); the line number in a simple CSV.
   */
  entryNumber: string;
  type: EntryType;
  /**
   * The entry's own name as published: OFAC's SDN_Name (`SIDOROV, Ivan Petrovich`), the EU's first nameAlias
   * (wholeName), the UN's FIRST_NAME to FOURTH_NAME, the UK's primary name as `Name 6, Name 1 … Name 5`.
   */
  name: string;
  /** The family name of the entry's own name, where the list gives it apart (see ListedName.familyName). */
  familyName?: string;
  aliases: ListedName[];
  /**
   * OFAC's programs, the EU's regulation programmes, the UN's UN_LIST_TYPE, the UK's Regime Name; a simple CSV's
   * `list` column when the folder has a label.
   */
  programs: string[];
  birthDates: ListedBirthDate[];
  /** ISO 3166 alpha-3 codes: nationality, citizenship, the countries of its addresses (and a UK ship's flag). */
  countries: string[];
  walletAddresses: ListedWalletAddress[];
  /**
   * The entry's other remarks as published (OFAC's: place of birth, gender, passports and other identifiers), shown
   * to operators beside a hit; never matched on, and left out of a hit's match key.
   */
  remarks?: string[];
}

/** Who is screened: a person (with a birth date when known) or a company (legal and trade names). */
export interface ScreeningSubject {
  kind: 'person' | 'entity';
  /** One or more names (a company's legal and trade names); the best-scoring one is reported. */
  names: string[];
  /** A person's family (last) name, when given apart: weighed above given names. */
  familyName?: string | null;
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
  /** The alias that matched (with its list's aliasType), when it was not the entry's own name. */
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
  /** Why it scored what it did: which parts agreed, which differed, and by how much. */
  explanation: HitExplanation;
}

/** One word of the subject's name paired with one of the listed name's. */
export interface PairedWords {
  subject: string;
  listed: string;
  /** 0 to 1 (3 decimals), as it counts in the name's score (a pair below 0.85 counts twice as far below it). */
  similarity: number;
  /** Its share of the name's score (the pairs' weights sum to 1): a family name and a rare, long word weigh more. */
  weight: number;
}

export type ScoreAdjustmentKind = 'extra_words' | 'contradicting_words' | 'legal_form' | 'birth_date' | 'country';

/** Why a hit scored what it did (docs/screening.md#how-a-hit-explains-itself). */
export interface HitExplanation {
  /** The words compared, as the matcher read them (lower case, Latin letters), each pair's similarity and weight. */
  pairs: PairedWords[];
  /** Words only the subject's name has, and only the listed name has. */
  onlySubject: string[];
  onlyListed: string[];
  /** What raised or lowered the score after the words' mean, signed (3 decimals), with a line saying why. */
  adjustments: { kind: ScoreAdjustmentKind; effect: number; detail: string }[];
}
