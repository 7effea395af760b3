import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseEuFsf } from '../../../src/domain/screening/eu-fsf.js';
import { ListFormatError } from '../../../src/domain/screening/formats.js';
import { ScreeningLists } from '../../../src/domain/screening/lists.js';
import { loadListSync } from '../../../src/domain/screening/load.js';
import { parseUkSanctions, ukBirthDates } from '../../../src/domain/screening/uk-sanctions.js';
import { parseUnSc } from '../../../src/domain/screening/un-sc.js';
import type { ListEntry } from '../../../src/domain/screening/types.js';
import { ROOT_URL } from '../../harness/root.js';

const sampleDir = (name: string) => new URL(`config/screening/${name}`, ROOT_URL).pathname;
const EU_SAMPLE = sampleDir('eu-sample');
const UN_SAMPLE = sampleDir('un-sample');
const UK_SAMPLE = sampleDir('uk-sample');

const EU_FILE = join(EU_SAMPLE, 'eu-sample.xml');
const UN_FILE = join(UN_SAMPLE, 'un-sample.xml');
const UK_FILE = join(UK_SAMPLE, 'UK-Sanctions-List.csv');

/** The error's message (assert.throws matches a RegExp against `Error: …`). */
const says = (re: RegExp) => (e: unknown) => e instanceof ListFormatError && re.test(e.message);
const byNumber = (entries: ListEntry[], n: string) => entries.find((e) => e.entryNumber === n)!;

/** A folder holding these files (name → text). */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'lists-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** The sample's text with `from` replaced by `to` (once; it must be there). */
function edited(file: string, from: string | RegExp, to: string): string {
  const text = readFileSync(file, 'utf8');
  const out = text.replace(from, to);
  assert.notEqual(out, text, `${String(from)} is in ${file}`);
  return out;
}

/** The line (1-based) of the first occurrence of `needle` in `text`. */
const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;

describe("the EU's consolidated list (FSF XML)", () => {
  it('reads the shipped sample: names and family names, aliases, programmes, each form of birth date, countries, a wallet', () => {
    const list = loadListSync({ label: 'EU', path: EU_SAMPLE, kind: 'folder' });
    assert.equal(list.format, 'eu-fsf-xml');
    assert.deepEqual(list.files, [EU_FILE]);
    assert.match(list.version, /^[0-9a-f]{16}$/);
    assert.equal(list.entries.length, 8);
    const anton = byNumber(list.entries, '190001');
    assert.deepEqual(
      { ...anton },
      {
        list: 'EU',
        entryNumber: '190001',
        type: 'individual',
        name: 'Anton Pavlovich Velikorodov',
        familyName: 'Velikorodov',
        aliases: [
          { name: 'Антон Павлович Великородов', familyName: 'Великородов', aliasType: 'a.k.a.' },
          { name: 'Tosha Velikorodov', familyName: 'Velikorodov', aliasType: 'a.k.a.' },
        ],
        programs: ['UKR'],
        birthDates: [{ text: '1961-07-14', day: '1961-07-14', month: '1961-07', fromYear: 1961, toYear: 1961 }],
        countries: ['RUS'],
        walletAddresses: [],
      },
    );
    const dates = (n: string) => byNumber(list.entries, n).birthDates;
    assert.deepEqual(dates('190002'), [{ text: '1975', fromYear: 1975, toYear: 1975 }], 'year only');
    assert.deepEqual(dates('190003'), [{ text: 'circa 1968', fromYear: 1967, toYear: 1969, circa: true }], 'circa: a year either side');
    assert.deepEqual(dates('190004'), [{ text: '1958 to 1960', fromYear: 1958, toYear: 1960 }], 'yearRangeFrom/To');
    assert.deepEqual(dates('190005'), [{ text: '1980-03', month: '1980-03', fromYear: 1980, toYear: 1980 }], 'year and monthOfYear');
    assert.deepEqual(dates('190006'), [{ text: 'circa 1966-07-07', day: '1966-07-07', month: '1966-07', fromYear: 1965, toYear: 1967, circa: true }]);
    assert.deepEqual(byNumber(list.entries, '190003').aliases, [{ name: 'خالد يوسف البراني', aliasType: 'a.k.a.' }], 'a wholeName alone: no family name');
    assert.deepEqual(byNumber(list.entries, '190005').walletAddresses, [{ currency: 'ETH', address: '0x3e1f0c2d4b5a69788796a5b4c3d2e1f00f1e2d3c' }], 'from the remark');
    const borealis = byNumber(list.entries, '190007');
    assert.deepEqual([borealis.type, borealis.name, borealis.familyName, borealis.countries], ['entity', 'Borealis Tidewater Trading FZE', undefined, ['ARE']]);
    assert.deepEqual(
      list.entries.map((e) => e.countries),
      [['RUS'], ['BLR'], ['YEM'], ['IRN'], ['RUS'], ['KAZ'], ['ARE'], ['CYP']],
      'alpha-2 codes of citizenship and address as alpha-3; 00 (unknown) and the place of birth left out',
    );
  });

  it('a nameAlias without wholeName is its name parts in order; an empty birthdate is no date', () => {
    const xml = `<export xmlns="http://eu.europa.ec/fpi/fsd/export">
  <sanctionEntity logicalId="7" euReferenceNumber="EU.1.1">
    <subjectType code="person" classificationCode="P"/>
    <nameAlias firstName="Ana" middleName="Maria" lastName="Doe" wholeName="" strong="true"/>
    <birthdate circa="false" calendarType="GREGORIAN" city="Somewhere" countryIso2Code="00"/>
  </sanctionEntity>
</export>`;
    const [entry] = parseEuFsf('EU', { path: '/l/eu.xml', text: xml });
    assert.deepEqual([entry!.name, entry!.familyName, entry!.birthDates, entry!.programs], ['Ana Maria Doe', 'Doe', [], []]);
  });

  it('refuses malformed XML, and entries without an id or a name, naming the file and line', () => {
    const broken = edited(EU_FILE, '<subjectType code="enterprise" classificationCode="E"/>', '<subjectType code="enterprise" classificationCode="E">');
    const dir = folder({ 'eu.xml': broken });
    assert.throws(() => loadListSync({ label: 'EU', path: dir, kind: 'folder' }), says(new RegExp(`^${dir}/eu\\.xml line \\d+: not well-formed XML \\(Expected closing tag 'subjectType'`)));

    const noId = edited(EU_FILE, 'logicalId="190004"', 'logicalId=""');
    assert.throws(() => parseEuFsf('EU', { path: '/l/eu.xml', text: noId }), says(new RegExp(`^/l/eu\\.xml line ${lineOf(noId, 'EU.9004.14')}: a sanctionEntity needs a logicalId`)));
    const twice = edited(EU_FILE, 'logicalId="190004"', 'logicalId="190003"');
    assert.throws(() => parseEuFsf('EU', { path: '/l/eu.xml', text: twice }), says(new RegExp(`line ${lineOf(twice, 'EU.9004.14')}: sanctionEntity 190003 is given twice$`)));
    const noName = edited(EU_FILE, /<nameAlias [^>]*wholeName="Kestrel Ridge Logistics LLC"[^>]*\/>/, '');
    assert.throws(() => parseEuFsf('EU', { path: '/l/eu.xml', text: noName }), says(new RegExp(`^/l/eu\\.xml line ${lineOf(noName, 'EU.9008.18')}: sanctionEntity 190008 has no nameAlias with a name`)));
    const badDate = edited(EU_FILE, 'birthdate="1961-07-14"', 'birthdate="14/07/1961"');
    assert.throws(() => parseEuFsf('EU', { path: '/l/eu.xml', text: badDate }), says(/line 5: sanctionEntity 190001 has a birthdate whose birthdate "14\/07\/1961" is not a date$/));
  });
});

describe("the UN Security Council's consolidated list (XML)", () => {
  it('reads the shipped sample: name parts, aliases with their quality, each form of birth date, countries by name, entities', () => {
    const list = loadListSync({ label: 'UN', path: UN_SAMPLE, kind: 'folder' });
    assert.equal(list.format, 'un-sc-xml');
    assert.equal(list.entries.length, 7);
    assert.deepEqual(
      { ...byNumber(list.entries, 'QDi.901') },
      {
        list: 'UN',
        entryNumber: 'QDi.901',
        type: 'individual',
        name: 'NABIL FAWZI AL-QARRANI',
        aliases: [
          { name: 'نبيل فوزي القراني', aliasType: 'original script' },
          { name: 'Nabil Fawzi al-Qirani', aliasType: 'Good' },
          { name: 'Abu Fawzi', aliasType: 'Low' },
        ],
        programs: ['Al-Qaida'],
        birthDates: [{ text: '1972-03-09', day: '1972-03-09', month: '1972-03', fromYear: 1972, toYear: 1972 }],
        countries: ['YEM'],
        walletAddresses: [],
      },
    );
    const dates = (n: string) => byNumber(list.entries, n).birthDates;
    assert.deepEqual(dates('KPi.901'), [{ text: '1966', fromYear: 1966, toYear: 1966 }], 'EXACT with a YEAR');
    assert.deepEqual(dates('CDi.901'), [{ text: 'approximately 1970', fromYear: 1969, toYear: 1971, circa: true }]);
    assert.deepEqual(dates('SOi.901'), [{ text: '1975 to 1977', fromYear: 1975, toYear: 1977 }], 'BETWEEN');
    assert.deepEqual(dates('LYi.901'), [{ text: 'approximately 1981-11-02', day: '1981-11-02', month: '1981-11', fromYear: 1980, toYear: 1982, circa: true }]);
    assert.deepEqual(byNumber(list.entries, 'KPi.901').countries, ['PRK'], "Democratic People's Republic of Korea");
    assert.deepEqual(byNumber(list.entries, 'CDi.901').countries, ['COD', 'RWA'], 'nationality, then the address');
    assert.deepEqual(byNumber(list.entries, 'LYi.901').countries, ['LBY', 'TUN']);
    assert.deepEqual(byNumber(list.entries, 'KPi.901').aliases, [], 'an empty INDIVIDUAL_ALIAS is none');
    assert.equal(byNumber(list.entries, 'SOi.901').aliases[0]!.aliasType, 'a.k.a.');
    const trust = byNumber(list.entries, 'QDe.901');
    assert.deepEqual([trust.type, trust.name, trust.aliases, trust.countries], ['entity', 'SILVER DUNE RELIEF TRUST', [{ name: 'Silver Dune Trust', aliasType: 'Good' }], ['SYR']]);
    assert.ok(list.entries.every((e) => e.familyName === undefined), 'the UN does not say which name part is the family name');
  });

  it('numbers an entry by its DATAID when it has no REFERENCE_NUMBER', () => {
    const xml = edited(UN_FILE, '<REFERENCE_NUMBER>KPi.901</REFERENCE_NUMBER>', '<REFERENCE_NUMBER/>');
    assert.equal(parseUnSc('UN', { path: '/l/un.xml', text: xml })[1]!.entryNumber, '7100002');
  });

  it('refuses malformed XML, and entries without an id or a name, naming the file and line', () => {
    const broken = edited(UN_FILE, '<FIRST_NAME>SOK</FIRST_NAME>', '<FIRST_NAME>SOK</FIRST-NAME>');
    const dir = folder({ 'consolidated.xml': broken });
    assert.throws(() => loadListSync({ label: 'UN', path: dir, kind: 'folder' }), says(new RegExp(`^${dir}/consolidated\\.xml line ${lineOf(broken, '</FIRST-NAME>')}: not well-formed XML`)));

    const noId = edited(UN_FILE, '<DATAID>7100004</DATAID>', '').replace('<REFERENCE_NUMBER>SOi.901</REFERENCE_NUMBER>', '');
    const individualLine = lineOf(noId, 'ISMAACIIL') - 3;
    assert.throws(() => parseUnSc('UN', { path: '/l/un.xml', text: noId }), says(new RegExp(`^/l/un\\.xml line ${individualLine}: an INDIVIDUAL needs a REFERENCE_NUMBER or a DATAID$`)));
    const noName = edited(UN_FILE, '<FIRST_NAME>CHONGSAN HARBOUR TRADING CORPORATION</FIRST_NAME>', '<FIRST_NAME/>');
    assert.throws(() => parseUnSc('UN', { path: '/l/un.xml', text: noName }), says(new RegExp(`^/l/un\\.xml line ${lineOf(noName, '<DATAID>7100102') - 1}: ENTITY KPe\\.901 has no name \\(FIRST_NAME\\)$`)));
    const badYear = edited(UN_FILE, '<FROM_YEAR>1975</FROM_YEAR>', '<FROM_YEAR>mid-70s</FROM_YEAR>');
    assert.throws(() => parseUnSc('UN', { path: '/l/un.xml', text: badYear }), says(/: INDIVIDUAL SOi\.901 has an INDIVIDUAL_DATE_OF_BIRTH whose FROM_YEAR "mid-70s" is not a date$/));
    const twice = edited(UN_FILE, 'KPi.901', 'QDi.901');
    assert.throws(() => parseUnSc('UN', { path: '/l/un.xml', text: twice }), says(/: INDIVIDUAL QDi\.901 is given twice$/));
  });
});

describe('the UK Sanctions List (CSV)', () => {
  it('reads the shipped sample: rows grouped by Unique ID, Name 6 as the family name, name types, dates with unknown parts, countries, a ship', () => {
    const list = loadListSync({ label: 'UK', path: UK_SAMPLE, kind: 'folder' });
    assert.equal(list.format, 'uk-sanctions-csv');
    assert.equal(list.entries.length, 7);
    assert.deepEqual(
      { ...byNumber(list.entries, 'RUS9001') },
      {
        list: 'UK',
        entryNumber: 'RUS9001',
        type: 'individual',
        name: 'ZAVORONKOV, Gleb Arkadyevich',
        familyName: 'ZAVORONKOV',
        aliases: [
          { name: 'Глеб Аркадьевич Заворонков', aliasType: 'non-Latin script' },
          { name: 'ZAVORONKOV, Gleb Arkadievich', familyName: 'ZAVORONKOV', aliasType: 'Primary Name Variation' },
          { name: 'ZAVO', familyName: 'ZAVO', aliasType: 'Alias (Low quality)' },
        ],
        programs: ['The Russia (Sanctions) (EU Exit) Regulations 2019'],
        birthDates: [{ text: '14/02/1969', day: '1969-02-14', month: '1969-02', fromYear: 1969, toYear: 1969 }],
        countries: ['RUS'],
        walletAddresses: [{ currency: 'ETH', address: '0x7d2a9c4e1b3f5a6d8c0e2b4a6f8d1c3e5a7b9d0f' }],
      },
    );
    assert.deepEqual(byNumber(list.entries, 'RUS9002').birthDates, [{ text: 'dd/mm/1978', fromYear: 1978, toYear: 1978 }]);
    assert.deepEqual(byNumber(list.entries, 'BLR9001').birthDates, [{ text: '00/03/1974', month: '1974-03', fromYear: 1974, toYear: 1974 }]);
    const behrang = byNumber(list.entries, 'IRN9001');
    assert.deepEqual(behrang.birthDates.map((d) => d.day), ['1960-01-01', '1961-01-01'], 'a row each');
    assert.deepEqual(behrang.countries, ['IRN', 'IRQ'], 'Iran|Iraq');
    assert.deepEqual(behrang.aliases, [], 'the same primary name on two rows is one name');
    const granite = byNumber(list.entries, 'RUS9003');
    assert.deepEqual([granite.type, granite.familyName, granite.countries, granite.aliases], ['entity', undefined, ['RUS', 'KAZ'], [{ name: 'GRANITE FJORD', aliasType: 'Alias' }]]);
    const ship = byNumber(list.entries, 'RUS9004');
    assert.deepEqual([ship.type, ship.name, ship.countries], ['vessel', 'NORTHERN AURIGA', ['GAB']], 'the believed flag');
  });

  it('reads the dates of a D.O.B cell', () => {
    assert.deepEqual(ukBirthDates('dd/07/1961'), [{ text: 'dd/07/1961', month: '1961-07', fromYear: 1961, toYear: 1961 }]);
    assert.deepEqual(ukBirthDates('(1) 01/02/1960 (2) 00/00/1962').map((d) => d.text), ['01/02/1960', '00/00/1962']);
    assert.deepEqual(ukBirthDates('unknown'), []);
  });

  it('a primary name that comes after its alias is still the entry’s name', () => {
    const text = readFileSync(UK_FILE, 'utf8').split('\r\n');
    const [first, header] = [text[0]!, text[1]!];
    const rows = text.filter((l) => l.includes(',BLR9001,'));
    const [entry] = parseUkSanctions('UK', { path: '/l/uk.csv', text: [first, header, rows[1], rows[0]].join('\n') });
    assert.deepEqual([entry!.name, entry!.aliases.map((a) => [a.name, a.aliasType])], ['HRAMYKA, Aliaksei Piatrovich', [['KHRAMYKO, Aleksei Petrovich', 'Alias']]]);
  });

  it('refuses a row of the wrong width, a header without its columns, an empty Unique ID or name, naming the file and line', () => {
    const lines = readFileSync(UK_FILE, 'utf8').split('\r\n');
    const file = (ls: string[]) => ({ path: '/l/uk.csv', text: ls.join('\r\n') });
    assert.throws(() => parseUkSanctions('UK', file([...lines.slice(0, 4), '15/01/2026,RUS9999,,,HALF,A ROW'])), says(/^\/l\/uk\.csv line 5: the UK Sanctions List has 58 columns, this row 6$/));
    assert.throws(() => parseUkSanctions('UK', file([lines[0]!, lines[1]!.replace('Name 6', 'Surname'), lines[2]!])), says(/^\/l\/uk\.csv line 2: the UK Sanctions List's header has no Name 6$/));
    assert.throws(() => parseUkSanctions('UK', file([...lines.slice(0, 3), lines[3]!.replace(',RUS9001,', ',,')])), says(/^\/l\/uk\.csv line 4: Unique ID is empty$/));
    const nameless = lines[5]!.replace('OSTAPENKO-REUS,Liliya', ',');
    assert.throws(() => parseUkSanctions('UK', file([...lines.slice(0, 5), nameless])), says(/^\/l\/uk\.csv line 6: RUS9002 has no name/));
    const dir = folder({ 'UK-Sanctions-List.csv': [...lines.slice(0, 3), '"unterminated,RUS9001'].join('\r\n') });
    assert.throws(() => loadListSync({ label: 'UK', path: dir, kind: 'folder' }), says(new RegExp(`^${dir}/UK-Sanctions-List\\.csv line 4: not valid CSV`)));
  });

  it('refuses OFSI’s Consolidated List, closed on 28 January 2026', () => {
    const dir = folder({ 'ConList.csv': 'Last Updated,15/01/2026\nName 6,Name 1,Name 2,Name 3,Name 4,Name 5,Title,DOB,Group Type,Alias Type,Regime,Group ID\nDOE,John,,,,,,01/01/1970,Individual,Primary name,Russia,1\n' });
    assert.throws(() => loadListSync({ label: 'UK', path: dir, kind: 'folder' }), says(/ConList\.csv line 2: OFSI's Consolidated List \(closed on 28 January 2026\) is not read/));
  });
});

describe('telling the formats apart', () => {
  it('an .xml is read before the .csv beside it; an unknown root element, or two formats in one folder, are refused', () => {
    const dir = folder({ 'notes.csv': 'not a list', 'eu.xml': readFileSync(EU_FILE, 'utf8') });
    assert.equal(loadListSync({ label: 'EU', path: dir, kind: 'folder' }).format, 'eu-fsf-xml');
    const other = folder({ 'list.xml': '<?xml version="1.0"?>\n<!-- a comment -->\n<sdnList><sdnEntry/></sdnList>' });
    assert.throws(() => loadListSync({ label: 'X', path: other, kind: 'folder' }), says(new RegExp(`^${other}/list\\.xml line 1: the root element <sdnList> is neither the EU's <export> nor the UN's <CONSOLIDATED_LIST>$`)));
    const both = folder({ 'a.xml': readFileSync(EU_FILE, 'utf8'), 'b.xml': readFileSync(UN_FILE, 'utf8') });
    assert.throws(() => loadListSync({ label: 'X', path: both, kind: 'folder' }), says(/: one list a folder, in one format: a\.xml is the EU's list \(<export>\), b\.xml the UN's list/));
    const split = folder({ 'a.xml': readFileSync(EU_FILE, 'utf8'), 'b.xml': readFileSync(EU_FILE, 'utf8') });
    assert.throws(() => loadListSync({ label: 'X', path: split, kind: 'folder' }), says(/b\.xml: entry 190001 is also in .*a\.xml$/));
    const simple = folder({ 'people.csv': 'name,birthDate,country,list\nJane Roe,,,PEP\n' });
    assert.equal(loadListSync({ label: 'HOUSE', path: simple, kind: 'folder' }).format, 'simple-csv');
  });

  it('does not expand entities a file declares (the standard five are read)', () => {
    const xml = '<?xml version="1.0"?>\n<!DOCTYPE export [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>\n<export><sanctionEntity logicalId="1"><nameAlias wholeName="&b; &amp; Sons"/></sanctionEntity></export>';
    assert.equal(parseEuFsf('EU', { path: '/l/eu.xml', text: xml })[0]!.name, '&b; & Sons');
  });

  it('the three samples side by side: their wallet addresses are listed, their people screened', () => {
    const lists = new ScreeningLists([
      { label: 'EU', path: EU_SAMPLE, kind: 'folder' },
      { label: 'UN', path: UN_SAMPLE, kind: 'folder' },
      { label: 'UK', path: UK_SAMPLE, kind: 'folder' },
    ]);
    assert.deepEqual(
      lists.versions().map((v) => [v.label, v.format, v.entries]),
      [
        ['EU', 'eu-fsf-xml', 8],
        ['UN', 'un-sc-xml', 7],
        ['UK', 'uk-sanctions-csv', 7],
      ],
    );
    assert.equal(lists.addressHit('0x3E1F0C2D4B5A69788796A5B4C3D2E1F00F1E2D3C')?.entryNumber, '190005');
    const wallet = lists.addressHit('0x7d2a9c4e1b3f5a6d8c0e2b4a6f8d1c3e5a7b9d0f');
    assert.deepEqual([wallet?.list, wallet?.name], ['UK', 'ZAVORONKOV, Gleb Arkadyevich']);
    const first = (name: string, birthDate: string) => {
      const hit = lists.screen({ kind: 'person', names: [name], birthDate })[0];
      return [hit?.list, hit?.entryNumber];
    };
    assert.deepEqual(first('Anton Velikorodov', '1961-07-14'), ['EU', '190001']);
    assert.deepEqual(first('Ismail Abdi Warsame', '1976-05-01'), ['UN', 'SOi.901']);
    assert.deepEqual(first('Aliaksei Hramyka', '1974-03-30'), ['UK', 'BLR9001']);
    assert.equal(lists.screen({ kind: 'entity', names: ['Granite Fjord Engineering'] })[0]?.entryNumber, 'RUS9003');
  });

  it('reloads an EU folder whose file changed: a new version, the new entry screened', async () => {
    const dir = folder({ 'eu.xml': readFileSync(EU_FILE, 'utf8') });
    const lists = new ScreeningLists([{ label: 'EU', path: dir, kind: 'folder' }]);
    const before = lists.versions()[0]!;
    assert.deepEqual([before.format, before.entries], ['eu-fsf-xml', 8]);
    copyFileSync(EU_FILE, join(dir, 'eu.xml'));
    assert.deepEqual(await lists.check(), { changed: [], failed: [] }, 'the same bytes: the same version');
    writeFileSync(join(dir, 'eu.xml'), edited(EU_FILE, 'wholeName="Kestrel Ridge Logistics LLC"', 'wholeName="Kestrel Ridge Logistics LLC"/><nameAlias wholeName="Kestrel Shipping"'));
    const outcome = await lists.check();
    assert.equal(outcome.changed.length, 1);
    assert.notEqual(lists.versions()[0]!.version, before.version);
    assert.deepEqual(lists.entry('EU', '190008')?.aliases, [{ name: 'Kestrel Shipping', aliasType: 'a.k.a.' }]);
    writeFileSync(join(dir, 'eu.xml'), '<export><sanctionEntity>');
    const failed = await lists.check();
    assert.match(failed.failed[0]!.problem, new RegExp(`^${dir}/eu\\.xml line 1: not well-formed XML`));
    assert.equal(lists.entry('EU', '190008')?.aliases.length, 1, 'the loaded version stays');
  });
});
