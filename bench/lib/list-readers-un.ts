/** The UN's consolidated XML: <CONSOLIDATED_LIST><INDIVIDUALS><INDIVIDUAL>… <ENTITIES><ENTITY>… */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Names } from './list-readers-names.js';
import { lorem, p2, xmlEscape } from './list-readers-text.js';
import { Rng } from './screening-quality/random.js';

const UN_LISTS: [string, string][] = [
  ['Al-Qaida', 'QD'],
  ['Taliban', 'TA'],
  ['DPRK', 'KP'],
  ['Iraq', 'IQ'],
  ['DRC', 'CD'],
  ['Libya', 'LY'],
  ['Somalia', 'SO'],
  ['South Sudan', 'SS'],
  ['Mali', 'ML'],
  ['CAR', 'CF'],
  ['Yemen', 'YE'],
  ['Haiti', 'HT'],
];
const UN_COUNTRIES = ['Yemen', 'Iraq', 'Afghanistan', 'Somalia', 'Libya', 'Democratic Republic of the Congo', 'Sudan', 'Mali', 'Syrian Arab Republic', "Democratic People's Republic of Korea", 'Pakistan', 'Central African Republic', 'Haiti', 'Tunisia', 'Saudi Arabia'];

export function generateUn(dir: string, count: number): void {
  const rng = new Rng(5203);
  const names = new Names(rng);
  const counters = new Map<string, number>();
  const reference = (prefix: string) => {
    const n = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, n);
    return `${prefix}.${String(n).padStart(3, '0')}`;
  };
  let dataId = 6_900_000;
  const individuals: string[] = [];
  const entities: string[] = [];
  for (let i = 0; i < count; i++) {
    const [listName, prefix] = rng.pick(UN_LISTS);
    const country = rng.pick(UN_COUNTRIES);
    const person = rng.chance(0.73);
    const tag = person ? 'INDIVIDUAL' : 'ENTITY';
    const x: string[] = [`    <${tag}>`, `      <DATAID>${++dataId}</DATAID>`, '      <VERSIONNUM>1</VERSIONNUM>'];
    const aliasNames: [string, string][] = [];
    let script: string | undefined;
    if (person) {
      const p = names.person(rng.chance(0.7) ? 'arabic' : names.origin());
      const parts = [...p.given, p.family].map((w) => w.toUpperCase());
      ['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME'].forEach((t, k) => {
        if (parts[k]) x.push(`      <${t}>${xmlEscape(k === 3 ? parts.slice(3).join(' ') : parts[k]!)}</${t}>`);
      });
      script = p.script;
      for (let a = 0, n = rng.few(6); a < n; a++) aliasNames.push([a === 0 && rng.chance(0.3) ? `Abu ${p.given[0]}` : [...p.given.map((w) => names.spelling(w)), names.spelling(p.family)].join(' '), rng.pick(['Good', 'Good', 'Low', 'a.k.a.'])]);
      x.push(`      <UN_LIST_TYPE>${listName}</UN_LIST_TYPE>`, `      <REFERENCE_NUMBER>${reference(`${prefix}i`)}</REFERENCE_NUMBER>`, `      <LISTED_ON>${2001 + rng.int(24)}-${p2(1 + rng.int(12))}-${p2(1 + rng.int(28))}</LISTED_ON>`);
      if (script && rng.chance(0.6)) x.push(`      <NAME_ORIGINAL_SCRIPT>${xmlEscape(script)}</NAME_ORIGINAL_SCRIPT>`);
      x.push(`      <COMMENTS1>${xmlEscape(lorem(rng, 20 + rng.int(100)))}.</COMMENTS1>`);
      if (rng.chance(0.5)) x.push('      <TITLE>', `        <VALUE>${rng.pick(['Mullah', 'Maulavi', 'Haji', 'General', 'Colonel'])}</VALUE>`, '      </TITLE>');
      if (rng.chance(0.6)) x.push('      <DESIGNATION>', `        <VALUE>${xmlEscape(lorem(rng, 4 + rng.int(10)))}</VALUE>`, '      </DESIGNATION>');
      for (let c = 0, n = rng.chance(0.85) ? 1 + rng.few(2) : 0; c < n; c++) x.push('      <NATIONALITY>', `        <VALUE>${xmlEscape(c === 0 ? country : rng.pick(UN_COUNTRIES))}</VALUE>`, '      </NATIONALITY>');
      x.push('      <LIST_TYPE>', '        <VALUE>UN List</VALUE>', '      </LIST_TYPE>', '      <LAST_DAY_UPDATED>', `        <VALUE>${2015 + rng.int(10)}-${p2(1 + rng.int(12))}-${p2(1 + rng.int(28))}</VALUE>`, '      </LAST_DAY_UPDATED>');
      if (aliasNames.length === 0) x.push('      <INDIVIDUAL_ALIAS>', '        <QUALITY/>', '        <ALIAS_NAME/>', '      </INDIVIDUAL_ALIAS>');
      for (const [a, quality] of aliasNames) x.push('      <INDIVIDUAL_ALIAS>', `        <QUALITY>${quality}</QUALITY>`, `        <ALIAS_NAME>${xmlEscape(a)}</ALIAS_NAME>`, '      </INDIVIDUAL_ALIAS>');
      x.push(rng.chance(0.5) ? `      <INDIVIDUAL_ADDRESS>\n        <CITY>${rng.pick(['Sanaa', 'Mosul', 'Kandahar', 'Mogadishu', 'Tripoli', 'Goma', 'Gao'])}</CITY>\n        <COUNTRY>${xmlEscape(country)}</COUNTRY>\n      </INDIVIDUAL_ADDRESS>` : '      <INDIVIDUAL_ADDRESS/>');
      const { y, m, d } = p.birth;
      for (let b = 0, n = rng.chance(0.9) ? 1 + rng.few(3) : 0; b < n; b++) {
        const form = rng.int(5);
        const inner = [`          <TYPE_OF_DATE>EXACT</TYPE_OF_DATE>\n          <DATE>${y}-${p2(m)}-${p2(d)}</DATE>`, `          <TYPE_OF_DATE>EXACT</TYPE_OF_DATE>\n          <YEAR>${y + b}</YEAR>`, `          <TYPE_OF_DATE>APPROXIMATELY</TYPE_OF_DATE>\n          <YEAR>${y}</YEAR>`, `          <TYPE_OF_DATE>BETWEEN</TYPE_OF_DATE>\n          <FROM_YEAR>${y}</FROM_YEAR>\n          <TO_YEAR>${y + 2}</TO_YEAR>`, `          <TYPE_OF_DATE>APPROXIMATELY</TYPE_OF_DATE>\n          <DATE>${y}-${p2(m)}-${p2(d)}</DATE>`][form]!;
        x.push('      <INDIVIDUAL_DATE_OF_BIRTH>', inner.replace(/^ {2}/gm, ''), '      </INDIVIDUAL_DATE_OF_BIRTH>');
      }
      x.push('      <INDIVIDUAL_PLACE_OF_BIRTH>', `        <CITY>${xmlEscape(names.entity().words.split(' ')[1]!)}</CITY>`, `        <COUNTRY>${xmlEscape(country)}</COUNTRY>`, '      </INDIVIDUAL_PLACE_OF_BIRTH>');
      for (let n = 0, k = rng.few(3); n < k; n++) x.push('      <INDIVIDUAL_DOCUMENT>', `        <TYPE_OF_DOCUMENT>${rng.pick(['Passport', 'National Identification Number'])}</TYPE_OF_DOCUMENT>`, `        <NUMBER>${rng.pick(['A', 'B', 'N'])}${1000000 + rng.int(8999999)}</NUMBER>`, `        <ISSUING_COUNTRY>${xmlEscape(country)}</ISSUING_COUNTRY>`, `        <NOTE>${xmlEscape(lorem(rng, 3 + rng.int(8)))}</NOTE>`, '      </INDIVIDUAL_DOCUMENT>');
      if (x.at(-1) !== '      </INDIVIDUAL_DOCUMENT>') x.push('      <INDIVIDUAL_DOCUMENT/>');
    } else {
      const e = names.entity();
      x.push(`      <FIRST_NAME>${xmlEscape(`${e.words} ${e.form}`.toUpperCase())}</FIRST_NAME>`, `      <UN_LIST_TYPE>${listName}</UN_LIST_TYPE>`, `      <REFERENCE_NUMBER>${reference(`${prefix}e`)}</REFERENCE_NUMBER>`, `      <LISTED_ON>${2001 + rng.int(24)}-${p2(1 + rng.int(12))}-${p2(1 + rng.int(28))}</LISTED_ON>`, `      <COMMENTS1>${xmlEscape(lorem(rng, 20 + rng.int(120)))}.</COMMENTS1>`, '      <LIST_TYPE>', '        <VALUE>UN List</VALUE>', '      </LIST_TYPE>');
      for (let a = 0, n = rng.few(5); a < n; a++) aliasNames.push([a === 0 ? e.words.toUpperCase() : `${names.entity().words} ${e.form}`, rng.pick(['Good', 'Low', 'a.k.a.', 'f.k.a.'])]);
      if (aliasNames.length === 0) x.push('      <ENTITY_ALIAS>', '        <QUALITY/>', '        <ALIAS_NAME/>', '      </ENTITY_ALIAS>');
      for (const [a, quality] of aliasNames) x.push('      <ENTITY_ALIAS>', `        <QUALITY>${quality}</QUALITY>`, `        <ALIAS_NAME>${xmlEscape(a)}</ALIAS_NAME>`, '      </ENTITY_ALIAS>');
      for (let n = 0, k = 1 + rng.few(3); n < k; n++) x.push('      <ENTITY_ADDRESS>', `        <STREET>${xmlEscape(names.entity().words)} Street</STREET>`, `        <CITY>${rng.pick(['Pyongyang', 'Nampo', 'Baghdad', 'Idlib', 'Benghazi', 'Kinshasa'])}</CITY>`, `        <COUNTRY>${xmlEscape(n === 0 ? country : rng.pick(UN_COUNTRIES))}</COUNTRY>`, '      </ENTITY_ADDRESS>');
    }
    x.push('      <SORT_KEY/>', '      <SORT_KEY_LAST_MOD/>', `    </${tag}>`);
    (person ? individuals : entities).push(x.join('\n'));
  }
  const head = ['<?xml version="1.0" encoding="UTF-8"?>', '<CONSOLIDATED_LIST xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="https://scsanctions.un.org/resources/xsd/consolidated-list.xsd" dateGenerated="2026-01-15T10:00:00.000Z">'];
  writeFileSync(join(dir, 'consolidated.xml'), [...head, '  <INDIVIDUALS>', ...individuals, '  </INDIVIDUALS>', '  <ENTITIES>', ...entities, '  </ENTITIES>', '</CONSOLIDATED_LIST>', ''].join('\n'));
}
