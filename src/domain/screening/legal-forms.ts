/**
 * Company legal forms as canonical codes across languages (issue 52): `Siemens Aktiengesellschaft` is `Siemens AG`,
 * `Open Joint Stock Company Gazprom` is `OAO Gazprom`, and `Deutsche Bank GmbH` is not `Deutsche Bank AG`. A name's
 * forms are taken out of its words (extractLegalForms) and compared by code and family (compareLegalForms), instead
 * of being dropped as words that say nothing.
 */

/**
 * What kind of company a form makes. `stock`: a company whose capital is shares (AG, SA, JSC, PLC, KK);
 * `limited`: a limited liability company of quotas (GmbH, SARL, OOO/LLC); `partnership`: partners answer for it (KG,
 * LP, SNC); `sole`: one person trading (IP); `cooperative`; `state`: a state or municipal enterprise (GUP);
 * `generic`: says only that it is a company (Company, Co, Cie).
 */
export type LegalFormFamily = 'stock' | 'limited' | 'partnership' | 'sole' | 'cooperative' | 'state' | 'generic';

export interface LegalForm {
  /** The canonical code: equivalent forms in any language share it (OAO and Open Joint Stock Company are OJSC). */
  code: string;
  family: LegalFormFamily;
  /** Families a form is also written as in English (a KK, a jusik hoesa, a gufen youxian gongsi are each a Co., Ltd.). */
  alsoFamilies?: readonly LegalFormFamily[];
  /** The table's spelling that was found, words separated by spaces (`plc` also when the name wrote `p.l.c.`). */
  words: string;
}

export type LegalFormRelation = 'same' | 'compatible' | 'different' | 'unknown';

interface Row {
  code: string;
  family: LegalFormFamily;
  also?: LegalFormFamily[];
  /**
   * Spellings as the matcher has them (lower-case ASCII, accents gone, apostrophes joined), separated by commas;
   * `a|b` in a word is either word. A spelling ending in `~` is a form only at the name's start or end (a word that
   * is also a name's word: `as`, `ip`); ending in `$`, only at its end (`co`, `ag`, `sa`: at a name's start these are
   * rather its initials or a word: AG Barr, SA Recycling, Co-operative). Others are also found inside a name.
   */
  spellings: string;
}

const RU_OBSHCHESTVO = 'obshchestvo|obschestvo|obshestvo';
const RU_AKTSIONERNOE = 'aktsionernoe|aktsionernoye|aktsionernoje|akcionernoe';
const RU_LIMITED = 'ogranichennoy|ogranichennoi|ogranichennoj otvetstvennostyu|otvetstvennostiu|otvetstvennostju';
const UA_TOVARYSTVO = 'tovarystvo|tovaristvo';
const UA_AKTSIONERNE = 'aktsionerne|akcionerne';
const RU_UNITARY = 'unitarnoe|unitarnoye predpriyatie|predpriyatiye';
const KAISHA = 'kaisha|gaisha';

/** One row per form: its code, its family, its spellings in every language it is written in. */
export const LEGAL_FORM_TABLE: readonly Row[] = [
  // English, and the forms English translations of other languages' forms are written as.
  { code: 'CO', family: 'generic', spellings: 'co$, company, cie$, compagnie$, compania~, companhia~, compagnia$, cia~, gong si$' }, // + French, Spanish, Portuguese, Italian; Chinese 公司
  { code: 'LTD', family: 'limited', spellings: 'ltd, limited, you xian gong si, you xian ze ren gong si' }, // UK/HK private company; Chinese 有限公司, 有限责任公司 (Co., Ltd.)
  { code: 'LLC', family: 'limited', spellings: `llc, limited liability company, ooo, ${RU_OBSHCHESTVO} s ${RU_LIMITED}, too~, tovarishchestvo s ${RU_LIMITED}, tov~, tzov, ${UA_TOVARYSTVO} z obmezhenoyu|obmezhenoiu|obmezhenoju vidpovidalnistyu|vidpovidalnistiu|vidpovidalnistju` }, // US; Russian ООО, Ukrainian ТОВ, ТзОВ
  { code: 'CORP', family: 'stock', spellings: 'corp, corporation, inc, incorporated' }, // US corporation (one form, either word)
  { code: 'PLC', family: 'stock', spellings: 'plc, pcl, public limited company, public company limited' }, // UK, Ireland; Thai PCL
  { code: 'LLP', family: 'partnership', spellings: 'llp, limited liability partnership' }, // UK, US (Kazakh ТОО, an LLC in all but name, is LLC's)
  { code: 'LP', family: 'partnership', spellings: 'lp$, limited partnership' }, // UK, US
  { code: 'PTE_LTD', family: 'limited', spellings: 'pte|pty|pvt|private|proprietary ltd|limited, sdn bhd, sendirian berhad' }, // Singapore, Australia, India; Malaysia
  { code: 'BHD', family: 'stock', spellings: 'bhd, berhad' }, // Malaysia, public company
  { code: 'WLL', family: 'limited', spellings: 'wll, with limited liability' }, // Bahrain, Qatar, Kuwait
  { code: 'IP', family: 'sole', spellings: 'ip~, individualnyy|individualnyi|individualny|individualnij predprinimatel, individual entrepreneur, sole proprietor, sole proprietorship, fop~, fizychna osoba pidpryiemets' }, // Russian ИП, Ukrainian ФОП
  // German (Germany, Austria, Switzerland).
  { code: 'AG', family: 'stock', spellings: 'ag$, aktiengesellschaft' },
  { code: 'SE', family: 'stock', spellings: 'se$, societas europaea' }, // EU
  { code: 'GMBH', family: 'limited', spellings: 'gmbh, mbh$, gesellschaft mbh, ges mbh, gesellschaft mit beschrankter|beschraenkter haftung' },
  { code: 'UG', family: 'limited', spellings: 'ug$, ug haftungsbeschrankt|haftungsbeschraenkt, unternehmergesellschaft, unternehmergesellschaft haftungsbeschrankt|haftungsbeschraenkt' },
  { code: 'KG', family: 'partnership', spellings: 'kg$, kommanditgesellschaft' },
  { code: 'KGAA', family: 'partnership', also: ['stock'], spellings: 'kgaa, kommanditgesellschaft auf aktien, ag co kgaa, ag und co kgaa' },
  { code: 'GMBH_CO_KG', family: 'partnership', spellings: 'gmbh co kg, gmbh und co kg, gmbh and co kg' }, // a KG whose general partner is a GmbH
  { code: 'AG_CO_KG', family: 'partnership', spellings: 'ag co kg, ag und co kg, ag and co kg' },
  { code: 'OHG', family: 'partnership', spellings: 'ohg, offene handelsgesellschaft' },
  { code: 'EK', family: 'sole', spellings: 'ek$, eingetragener kaufmann, eingetragene kauffrau' },
  { code: 'COOP', family: 'cooperative', spellings: 'eg$, eingetragene genossenschaft, genossenschaft$, co operative$, co op$, cooperativa$, cooperatieve$, cooperatie$, spoldzielnia$' }, // + English, Spanish/Italian, Dutch, Polish
  // French (France, Belgium, Switzerland, Luxembourg, Africa), Spanish, Portuguese, Italian, Polish and Romanian SA.
  { code: 'SA', family: 'stock', spellings: 'sa$, societe anonyme, sociedad anonima, sociedade anonima, societa anonima, spolka akcyjna, societate pe actiuni, sa de cv, sab de cv, sapi de cv, sociedad anonima de capital variable, ca$, compania anonima' }, // + Mexican de C.V., Venezuelan C.A.
  { code: 'SARL', family: 'limited', spellings: 'sarl, eurl, societe a responsabilite limitee, entreprise unipersonnelle a responsabilite limitee' }, // French
  { code: 'SAS', family: 'stock', spellings: 'sas$, sasu, societe par actions simplifiee, societe par actions simplifiee unipersonnelle' }, // French
  { code: 'SNC', family: 'partnership', spellings: 'snc$, societe en nom collectif, societa in nome collettivo' }, // French, Italian
  { code: 'SCI', family: 'partnership', spellings: 'sci$, societe civile immobiliere' }, // French
  // Spanish, Portuguese, Italian, Romanian limited companies.
  { code: 'SRL', family: 'limited', spellings: 'srl, srls, sl$, sociedad limitada, sociedad de responsabilidad limitada, societa a responsabilita limitata, societate cu raspundere limitata, s de rl, s de rl de cv' },
  { code: 'LTDA', family: 'limited', spellings: 'ltda, lda$, limitada, sociedade limitada, sociedade por quotas' }, // Portuguese, Brazilian, Chilean, Colombian
  { code: 'SPA', family: 'stock', spellings: 'spa$, societa per azioni' }, // Italian
  // Dutch and Belgian.
  { code: 'BV', family: 'limited', spellings: 'bv$, bvba, besloten vennootschap, besloten vennootschap met beperkte aansprakelijkheid' },
  { code: 'NV', family: 'stock', spellings: 'nv$, naamloze vennootschap' },
  { code: 'VOF', family: 'partnership', spellings: 'vof$, vennootschap onder firma' },
  // Nordic and Baltic. AS is one form in Norway (aksjeselskap), Denmark (A/S), Estonia, Latvia, Czechia and Slovakia (a.s.), and Turkey (A.Ş.).
  { code: 'AB', family: 'stock', spellings: 'ab~, ab publ, aktiebolag, aktiebolaget, akcine bendrove' }, // Swedish, Finland's Swedish; Lithuanian
  { code: 'AS', family: 'stock', spellings: 'as~, aksjeselskap, aktieselskab, aktsiaselts, akciju sabiedriba, akciova spolecnost, akciova spolocnost, anonim sirketi, anonim sirket' },
  { code: 'ASA', family: 'stock', spellings: 'asa$, allmennaksjeselskap' }, // Norwegian public company
  { code: 'APS', family: 'limited', spellings: 'aps$, anpartsselskab' }, // Danish
  { code: 'OY', family: 'stock', spellings: 'oy~, osakeyhtio' }, // Finnish
  { code: 'OYJ', family: 'stock', spellings: 'oyj, julkinen osakeyhtio' }, // Finnish public company
  { code: 'EHF', family: 'limited', spellings: 'ehf, einkahlutafelag' }, // Icelandic
  { code: 'HF', family: 'stock', spellings: 'hf$, hlutafelag' }, // Icelandic
  { code: 'OU', family: 'limited', spellings: 'ou$, osauhing' }, // Estonian
  { code: 'SIA', family: 'limited', spellings: 'sia~, sabiedriba ar ierobezotu atbildibu' }, // Latvian
  { code: 'UAB', family: 'stock', spellings: 'uab~, uzdaroji akcine bendrove' }, // Lithuanian
  // Central Europe.
  { code: 'SP_ZOO', family: 'limited', spellings: 'sp z oo, spolka z oo, spolka z ograniczona odpowiedzialnoscia' }, // Polish
  { code: 'SP_K', family: 'partnership', spellings: 'sp k, spolka komandytowa' }, // Polish
  { code: 'SP_J', family: 'partnership', spellings: 'sp j, spolka jawna' }, // Polish
  { code: 'SRO', family: 'limited', spellings: 'sro, spolecnost s rucenim omezenym, spolocnost s rucenim obmedzenym' }, // Czech, Slovak
  { code: 'KFT', family: 'limited', spellings: 'kft, korlatolt felelossegu tarsasag' }, // Hungarian
  { code: 'ZRT', family: 'stock', spellings: 'zrt, zartkoruen mukodo reszvenytarsasag' }, // Hungarian private company limited by shares
  { code: 'NYRT', family: 'stock', spellings: 'nyrt, nyilvanosan mukodo reszvenytarsasag, reszvenytarsasag' }, // Hungarian public company
  // Russian and the CIS, transliterated, under the codes of their English translations as the lists write them.
  { code: 'JSC', family: 'stock', spellings: `jsc, joint stock company, ao~, ${RU_AKTSIONERNOE} ${RU_OBSHCHESTVO}, nao~, nepublichnoe ${RU_AKTSIONERNOE} ${RU_OBSHCHESTVO}, ${UA_AKTSIONERNE} ${UA_TOVARYSTVO}` }, // АО, НАО; Ukrainian АТ
  { code: 'OJSC', family: 'stock', spellings: `ojsc, oao, open joint stock company, otkrytoe|otkrytoye|otkrytoje ${RU_AKTSIONERNOE} ${RU_OBSHCHESTVO}, vidkryte ${UA_AKTSIONERNE} ${UA_TOVARYSTVO}` }, // ОАО (PAO since 2014); Ukrainian ВАТ
  { code: 'CJSC', family: 'stock', spellings: `cjsc, zao, closed joint stock company, zakrytoe|zakrytoye|zakrytoje ${RU_AKTSIONERNOE} ${RU_OBSHCHESTVO}, prjsc, prat~, private joint stock company, pryvatne|privatne ${UA_AKTSIONERNE} ${UA_TOVARYSTVO}` }, // ЗАО; Ukrainian ПрАТ
  { code: 'PJSC', family: 'stock', spellings: `pjsc, pao, public joint stock company, publichnoe|publichnoye ${RU_AKTSIONERNOE} ${RU_OBSHCHESTVO}, pat~, publichne ${UA_AKTSIONERNE} ${UA_TOVARYSTVO}` }, // ПАО; Ukrainian ПАТ
  { code: 'GUP', family: 'state', spellings: `gup~, state unitary enterprise, gosudarstvennoe|gosudarstvennoye ${RU_UNITARY}` }, // ГУП
  { code: 'FGUP', family: 'state', spellings: `fgup, federal state unitary enterprise, federalnoe|federalnoye gosudarstvennoe|gosudarstvennoye ${RU_UNITARY}` }, // ФГУП
  { code: 'MUP', family: 'state', spellings: `mup~, municipal unitary enterprise, munitsipalnoe|munitsipalnoye ${RU_UNITARY}` }, // МУП
  // Turkish (A.Ş. is AS above).
  { code: 'LTD_STI', family: 'limited', spellings: 'ltd sti, limited sirketi, limited sti' },
  // United Arab Emirates free zones.
  { code: 'FZE', family: 'limited', spellings: 'fze, free zone establishment' },
  { code: 'FZCO', family: 'limited', spellings: 'fzco, fzc, free zone company' },
  { code: 'FZ_LLC', family: 'limited', spellings: 'fz llc, free zone limited liability company' },
  // Chinese in pinyin (romanize.ts writes Han syllable by syllable; joined syllables match too): 有限公司 is LTD above.
  { code: 'LTD_BY_SHARES', family: 'stock', also: ['limited'], spellings: 'gu fen you xian gong si, gu fen gong si, company limited by shares' }, // 股份有限公司
  // Japanese and Korean: 株式会社 is kabushiki kaisha and jusik hoesa (Korean 주식회사), and zhu shi hui she when its Han is read as Chinese.
  { code: 'KK', family: 'stock', also: ['limited'], spellings: `kk~, kabushiki ${KAISHA}, zhu shi hui she, ju|joo|chu sik hoe sa` },
  { code: 'GK', family: 'limited', spellings: `gk$, godo|goudou ${KAISHA}, he tong hui she` }, // 合同会社
  { code: 'YK', family: 'limited', spellings: `yk$, yugen|yuugen ${KAISHA}, you xian hui she, yu|yoo han hoe sa` }, // 有限会社, Korean 유한회사
  // Indonesian.
  { code: 'PT', family: 'limited', also: ['stock'], spellings: 'pt~, perseroan terbatas' },
  { code: 'TBK', family: 'stock', spellings: 'tbk$' }, // PT ... Tbk: a listed company
];

type Where = 'any' | 'edge' | 'end';

interface Spelling {
  form: LegalForm;
  /** Offsets in the spelling's letters (its words joined) where a word starts or ends. */
  bounds: ReadonlySet<number>;
  where: Where;
}

/** The table's spellings by their letters: `plc`, `spzoo`, `openjointstockcompany`. */
const SPELLINGS = new Map<string, Spelling>();
let MAX_LETTERS = 0;

for (const row of LEGAL_FORM_TABLE) {
  for (const written of row.spellings.split(',')) {
    const text = written.trim();
    const where: Where = text.endsWith('$') ? 'end' : text.endsWith('~') ? 'edge' : 'any';
    for (const words of expand(text.replace(/[$~]$/, '').split(' '))) {
      const letters = words.join('');
      const bounds = new Set<number>([0]);
      let at = 0;
      for (const w of words) bounds.add((at += w.length));
      const form: LegalForm = { code: row.code, family: row.family, words: words.join(' ') };
      if (row.also) form.alsoFamilies = row.also;
      const before = SPELLINGS.get(letters);
      if (before) throw new Error(`legal forms: "${form.words}" (${row.code}) has the letters of "${before.form.words}" (${before.form.code})`);
      SPELLINGS.set(letters, { form, bounds, where });
      MAX_LETTERS = Math.max(MAX_LETTERS, letters.length);
    }
  }
}

/** Every spelling `a|b c` stands for: `a c`, `b c`. */
function expand(words: string[]): string[][] {
  let out: string[][] = [[]];
  for (const word of words) out = out.flatMap((prefix) => word.split('|').map((alt) => [...prefix, alt]));
  return out;
}

const single = (t: string | undefined) => t !== undefined && t.length === 1;

/**
 * The spelling tokens[start, end) write, if any: their letters are one spelling's, each token of two letters or more
 * is one or more of its whole words (single letters may spell a word: `p l c`, `sp z o o`), and the tokens do not
 * cut a row of single letters (`a b c s a` has no `sa`).
 */
function spellingAt(tokens: readonly string[], start: number, end: number, letters: string): Spelling | undefined {
  const found = SPELLINGS.get(letters);
  if (!found) return undefined;
  if ((single(tokens[start - 1]) && single(tokens[start])) || (single(tokens[end - 1]) && single(tokens[end]))) return undefined;
  let at = 0;
  for (let i = start; i < end; i++) {
    const t = tokens[i]!;
    if (t.length > 1 && !(found.bounds.has(at) && found.bounds.has(at + t.length))) return undefined;
    at += t.length;
  }
  return found;
}

/** The longest form ending at `end`, starting at `from` or after (any form may stand at the end). */
function longestEndingAt(tokens: readonly string[], from: number, end: number): { start: number; spelling: Spelling } | undefined {
  let letters = '';
  let best: { start: number; spelling: Spelling } | undefined;
  for (let start = end - 1; start >= from; start--) {
    letters = tokens[start]! + letters;
    if (letters.length > MAX_LETTERS) break;
    const spelling = spellingAt(tokens, start, end, letters);
    if (spelling) best = { start, spelling };
  }
  return best;
}

/** The longest form starting at `start`, ending at `to` or before, and where it may stand. */
function longestStartingAt(tokens: readonly string[], start: number, to: number, allowed: (spelling: Spelling, end: number) => boolean): { end: number; spelling: Spelling } | undefined {
  let letters = '';
  let best: { end: number; spelling: Spelling } | undefined;
  for (let end = start + 1; end <= to; end++) {
    letters += tokens[end - 1]!;
    if (letters.length > MAX_LETTERS) break;
    const spelling = spellingAt(tokens, start, end, letters);
    if (spelling && allowed(spelling, end)) best = { end, spelling };
  }
  return best;
}

/**
 * Finds legal forms in a company name's tokens (lower-case ASCII words as the matcher has them:
 * `['open','joint','stock','company','gazprom']`, dotted forms as letters `['p','l','c']` or joined `['plc']`).
 * Forms are whole runs of tokens, the longest first: at the end, one after another (`company limited`), then at the
 * start (`oao gazprom`), then inside the name for a form of several words or one that is no name's word
 * (`rosa llc dubai branch`). Returns the tokens without the forms (a subsequence of those given) and the forms in the
 * name's order, each code once, and the indexes of the tokens left (`kept`); when nothing but forms would be left,
 * the tokens as given and no forms.
 */
export function extractLegalForms(tokens: readonly string[]): { tokens: string[]; forms: LegalForm[]; kept: number[] } {
  const taken: { start: number; form: LegalForm }[] = [];
  const gone = new Array<boolean>(tokens.length).fill(false);
  const take = (start: number, end: number, form: LegalForm) => {
    taken.push({ start, form });
    for (let i = start; i < end; i++) gone[i] = true;
  };
  let lo = 0;
  let hi = tokens.length;
  for (let m = longestEndingAt(tokens, lo, hi); m; m = longestEndingAt(tokens, lo, hi)) {
    take(m.start, hi, m.spelling.form);
    hi = m.start;
  }
  // At the start: no form read only at the end, and not `as` before a word in s, which is the Arabic article (As-Sahab).
  const atStart = (s: Spelling, end: number) => s.where !== 'end' && !(s.form.words === 'as' && tokens[end]?.startsWith('s'));
  for (let m = longestStartingAt(tokens, lo, hi, atStart); m; m = longestStartingAt(tokens, lo, hi, atStart)) {
    take(lo, m.end, m.spelling.form);
    lo = m.end;
  }
  if (lo >= hi) return { tokens: [...tokens], forms: [], kept: tokens.map((_, i) => i) };
  for (let i = lo + 1; i < hi - 1; i++) {
    const m = longestStartingAt(tokens, i, hi - 1, (s) => s.where === 'any');
    if (!m) continue;
    take(i, m.end, m.spelling.form);
    i = m.end - 1;
  }
  const forms: LegalForm[] = [];
  for (const { form } of taken.sort((a, b) => a.start - b.start)) if (!forms.some((f) => f.code === form.code)) forms.push(form);
  const kept = tokens.map((_, i) => i).filter((i) => !gone[i]);
  return { tokens: kept.map((i) => tokens[i]!), forms, kept };
}

const families = (f: LegalForm): readonly LegalFormFamily[] => (f.alsoFamilies ? [f.family, ...f.alsoFamilies] : [f.family]);

/**
 * How two names' forms relate: `same` (a code in common), `compatible` (a family in common, or a side's forms only
 * generic: Company, Co), `different` (both have specific forms, no code or family in common: AG and GmbH),
 * `unknown` (a side has none). Generic forms count only when neither side has another: `Rosa Company` and `Rosa
 * Co` are the same, `Rosa Company GmbH` and `Rosa Company AG` differ.
 */
export function compareLegalForms(a: readonly LegalForm[], b: readonly LegalForm[]): LegalFormRelation {
  if (a.length === 0 || b.length === 0) return 'unknown';
  const specificA = a.filter((f) => f.family !== 'generic');
  const specificB = b.filter((f) => f.family !== 'generic');
  const shareCode = (x: readonly LegalForm[], y: readonly LegalForm[]) => x.some((f) => y.some((g) => g.code === f.code));
  if (specificA.length === 0 || specificB.length === 0) return specificA.length === 0 && specificB.length === 0 && shareCode(a, b) ? 'same' : 'compatible';
  if (shareCode(specificA, specificB)) return 'same';
  const familiesB = new Set(specificB.flatMap(families));
  return specificA.some((f) => families(f).some((family) => familiesB.has(family))) ? 'compatible' : 'different';
}
