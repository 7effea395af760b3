/**
 * The EU's FSF XML: <export> of <sanctionEntity>, each with regulation, subjectType, nameAlias, citizenship,
 * birthdate, address, identification, remark; every part with its <regulationSummary>, as the full file has
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cyrillic, LEGAL, Names } from './list-readers-names.js';
import { lorem, p2, wallet, xmlEscape } from './list-readers-text.js';
import { Rng } from './screening-quality/random.js';

const EU_PROGRAMMES = ['RUS', 'UKR', 'BLR', 'IRN', 'SYR', 'PRK', 'LBY', 'TERR', 'CYB', 'HR', 'MLI', 'VEN', 'MMR', 'YEM', 'SDN'];
const EU_COUNTRIES: [string, string][] = [
  ['RU', 'RUSSIAN FEDERATION'],
  ['BY', 'BELARUS'],
  ['IR', 'IRAN (ISLAMIC REPUBLIC OF)'],
  ['SY', 'SYRIAN ARAB REPUBLIC'],
  ['KP', "KOREA (DEMOCRATIC PEOPLE'S REPUBLIC OF)"],
  ['YE', 'YEMEN'],
  ['LY', 'LIBYA'],
  ['MM', 'MYANMAR'],
  ['AE', 'UNITED ARAB EMIRATES'],
  ['TR', 'TÜRKIYE'],
  ['CY', 'CYPRUS'],
  ['KZ', 'KAZAKHSTAN'],
  ['00', 'UNKNOWN'],
];
const EU_LANGUAGES = ['', 'EN', 'DE', 'FR', 'ES', 'IT', 'PL', 'BG', 'CS', 'EL', 'LT', 'LV', 'RO'];

export function generateEu(dir: string, count: number): void {
  const rng = new Rng(5202);
  const names = new Names(rng);
  let logical = 100_000;
  const id = () => ++logical;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>', '<export xmlns="http://eu.europa.ec/fpi/fsd/export" generationDate="2026-01-15T10:00:00.000+01:00" globalFileId="900001">'];
  for (let i = 0; i < count; i++) {
    const entityId = id();
    const year = 2011 + rng.int(15);
    const date = `${year}-${p2(1 + rng.int(12))}-${p2(1 + rng.int(28))}`;
    const programme = rng.pick(EU_PROGRAMMES);
    const number = `${year}/${1000 + rng.int(8999)}`;
    const summary = `<regulationSummary regulationType="regulation" publicationDate="${date}" numberTitle="${number}" publicationUrl="https://eur-lex.europa.eu/example/fictional-${entityId}"/>`;
    const country = rng.pick(EU_COUNTRIES);
    const person = rng.chance(0.82);
    const lines: string[] = [`  <sanctionEntity designationDetails="" unitedNationId="" euReferenceNumber="EU.${1000 + i}.${10 + rng.int(89)}" logicalId="${entityId}">`];
    for (let r = 0, n = 1 + rng.few(3); r < n; r++) {
      lines.push(`    <regulation regulationType="regulation" organisationType="council" publicationDate="${date}" entryIntoForceDate="${date}" numberTitle="${number} (OJ L ${100 + rng.int(900)})" programme="${programme}" logicalId="${id()}">`, `      <publicationUrl>https://eur-lex.europa.eu/example/fictional-${entityId}-${r}</publicationUrl>`, '    </regulation>');
    }
    if (rng.chance(0.15)) lines.push(`    <remark>${xmlEscape(lorem(rng, 20 + rng.int(40)))}${rng.chance(0.1) ? `; Digital Currency Address - ETH ${wallet(rng)}` : ''}.</remark>`);
    lines.push(person ? '    <subjectType code="person" classificationCode="P"/>' : '    <subjectType code="enterprise" classificationCode="E"/>');
    const alias = (first: string, middle: string, last: string, whole: string, language: string, strong: boolean, gender: string, fn = '') =>
      lines.push(`    <nameAlias firstName="${xmlEscape(first)}" middleName="${xmlEscape(middle)}" lastName="${xmlEscape(last)}" wholeName="${xmlEscape(whole)}" function="${xmlEscape(fn)}" gender="${gender}" title="" nameLanguage="${language}" strong="${strong}" regulationLanguage="en" logicalId="${id()}">`, `      ${summary}`, '    </nameAlias>');
    if (person) {
      const p = names.person();
      const gender = p.male ? 'M' : 'F';
      const [first = '', ...rest] = p.given;
      const middle = rest.join(' ');
      const whole = [first, middle, p.family].filter(Boolean).join(' ');
      const fn = rng.chance(0.6) ? lorem(rng, 6 + rng.int(25)) : '';
      alias(first, middle, p.family, whole, '', true, gender, fn);
      // The EU repeats a name in the languages of its regulations (the reader keeps it once), and adds spellings.
      for (let a = 0, n = rng.few(12); a < n; a++) alias(first, middle, p.family, whole, rng.pick(EU_LANGUAGES), true, gender, fn);
      if (p.script) alias('', '', '', p.script, p.origin === 'slavic' ? 'RU' : 'AR', true, gender);
      for (let a = 0, n = rng.few(4); a < n; a++) {
        const f = names.spelling(first);
        const l = rng.chance(0.7) ? names.spelling(p.family) : p.family;
        alias(f, middle, l, [f, middle, l].filter(Boolean).join(' '), '', !rng.chance(0.2), gender);
      }
      for (let c = 0, n = 1 + rng.few(2); c < n; c++) {
        const [code, desc] = c === 0 ? country : rng.pick(EU_COUNTRIES);
        lines.push(`    <citizenship region="" countryIso2Code="${code}" countryDescription="${desc}" regulationLanguage="en" logicalId="${id()}">`, `      ${summary}`, '    </citizenship>');
      }
      const { y, m, d } = p.birth;
      const forms = [`birthdate="${y}-${p2(m)}-${p2(d)}" dayOfMonth="${d}" monthOfYear="${m}" year="${y}"`, `year="${y}"`, `monthOfYear="${m}" year="${y}"`, `yearRangeFrom="${y}" yearRangeTo="${y + 2}"`, ''];
      for (let b = 0, n = 1 + rng.few(3); b < n; b++) {
        const form = b === 0 ? forms[rng.int(4)]! : rng.pick(forms);
        const circa = form.startsWith('year=') && rng.chance(0.3);
        lines.push(`    <birthdate circa="${circa}" calendarType="GREGORIAN" city="${b === 0 ? xmlEscape(names.entity().words.split(' ')[1]!) : ''}" zipCode="" ${form} region="" place="" countryIso2Code="${country[0]}" countryDescription="${country[1]}" regulationLanguage="en" logicalId="${id()}">`, `      ${summary}`, '    </birthdate>');
      }
      for (let n = 0, k = rng.few(3); n < k; n++) {
        lines.push(`    <identification diplomatic="false" knownExpired="false" knownFalse="false" reportedLost="false" revokedByIssuer="false" issuedBy="" latinNumber="" nameOnDocument="" number="${100000000 + rng.int(899999999)}" region="" countryIso2Code="${country[0]}" countryDescription="${country[1]}" identificationTypeCode="${rng.pick(['passport', 'id', 'tin'])}" identificationTypeDescription="" regulationLanguage="en" logicalId="${id()}">`, `      ${summary}`, '    </identification>');
      }
    } else {
      const e = names.entity();
      alias('', '', '', `${e.words} ${e.form}`, '', true, '');
      // An entity's name in the regulations' languages: the legal form translated, one alias each.
      const translated = ['Obshchestvo s ogranichennoy otvetstvennostyu', 'Limited Liability Company', 'Gesellschaft mit beschränkter Haftung', 'Société à responsabilité limitée', 'Sociedad de responsabilidad limitada', 'Joint Stock Company', 'Aktsionernoe obshchestvo'];
      for (let a = 0, n = rng.few(9); a < n; a++) alias('', '', '', `${rng.chance(0.5) ? `${rng.pick(translated)} ${e.words}` : `${e.words} ${rng.pick(LEGAL)}`}`, rng.pick(EU_LANGUAGES), true, '');
      if (rng.chance(0.4)) alias('', '', '', cyrillic(e.words), 'RU', true, '');
      if (rng.chance(0.5)) alias('', '', '', e.words, '', rng.chance(0.5), '');
    }
    for (let a = 0, n = (person ? 0 : 1) + rng.few(2); a < n; a++) {
      const [code, desc] = a === 0 ? country : rng.pick(EU_COUNTRIES);
      const remark = rng.chance(0.2) ? `\n      <remark>${xmlEscape(lorem(rng, 8 + rng.int(12)))}</remark>` : '';
      lines.push(`    <address city="${rng.pick(['Moscow', 'Minsk', 'Tehran', 'Damascus', 'Dubai', 'Limassol', 'Tripoli', 'Yangon'])}" street="${1 + rng.int(200)} ${xmlEscape(names.entity().words)} Street" poBox="" zipCode="${100000 + rng.int(899999)}" region="" place="" asAtListingTime="false" countryIso2Code="${code}" countryDescription="${desc}" regulationLanguage="en" logicalId="${id()}">${remark}`, `      ${summary}`, '    </address>');
    }
    lines.push('  </sanctionEntity>');
    out.push(lines.join('\n'));
  }
  out.push('</export>', '');
  writeFileSync(join(dir, 'eu-fsf.xml'), out.join('\n'));
}
