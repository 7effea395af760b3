import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ListFormatError, parseOfac, parseSimpleCsv } from '../../../src/domain/screening/formats.js';
import { loadListSync } from '../../../src/domain/screening/load.js';
import { parseBirthDate, parseRemarks } from '../../../src/domain/screening/remarks.js';
import { altRow, ofacFolder, SAMPLE, sdnRow } from './helpers.js';

/** The error's message (assert.throws matches a RegExp against `Error: …`). */
const says = (re: RegExp) => (e: unknown) => e instanceof Error && re.test(e.message);

const sample = () => loadListSync({ label: 'OFAC-SAMPLE', path: SAMPLE, kind: 'folder' });

describe('OFAC SDN files', () => {
  it('reads the shipped sample: entries, aliases, programs, dates of birth, countries, wallet addresses', () => {
    const list = sample();
    assert.equal(list.format, 'ofac-sdn');
    assert.match(list.version, /^[0-9a-f]{16}$/);
    assert.equal(list.entries.length, 15);
    const sidorov = list.entries.find((e) => e.entryNumber === '90001')!;
    assert.equal(sidorov.name, 'SIDOROV, Ivan Petrovich');
    assert.equal(sidorov.type, 'individual');
    assert.equal(sidorov.list, 'OFAC-SAMPLE');
    assert.deepEqual(sidorov.programs, ['CYBER2', 'RUSSIA-EO14024']);
    assert.deepEqual(sidorov.aliases, [
      { name: 'СИДОРОВ, Иван Петрович', aliasType: 'a.k.a.' },
      { name: 'SIDOROV, Vanya', aliasType: 'a.k.a.' },
    ]);
    assert.deepEqual(sidorov.birthDates.map((d) => d.day), ['1961-07-14']);
    assert.deepEqual(sidorov.countries, ['RUS']);
    assert.deepEqual(sidorov.walletAddresses.map((w) => w.currency), ['ETH', 'XBT']);
    const holdings = list.entries.find((e) => e.name === 'SANCTIONED HOLDINGS LTD')!;
    assert.equal(holdings.type, 'entity', 'SDN_Type -0- is an entity');
    assert.deepEqual(holdings.countries, ['CYP'], 'from ADD.CSV');
    assert.equal(list.entries.find((e) => e.name === 'GREY HERON')!.type, 'vessel');
    assert.deepEqual(list.entries.find((e) => e.entryNumber === '90013')!.birthDates.map((d) => d.text), ['01 Jan 1965', '1966'], 'alt. DOB too');
    assert.equal(list.entries.flatMap((e) => e.walletAddresses).filter((w) => w.currency === 'ETH').length, 3);
  });

  it('reads the forms of DOB OFAC writes', () => {
    assert.deepEqual(parseBirthDate('14 Jul 1961'), { text: '14 Jul 1961', day: '1961-07-14', month: '1961-07', fromYear: 1961, toYear: 1961 });
    assert.deepEqual(parseBirthDate('Jul 1961'), { text: 'Jul 1961', month: '1961-07', fromYear: 1961, toYear: 1961 });
    assert.deepEqual(parseBirthDate('1961'), { text: '1961', fromYear: 1961, toYear: 1961 });
    assert.deepEqual(parseBirthDate('circa 1961'), { text: 'circa 1961', fromYear: 1960, toYear: 1962, circa: true });
    assert.deepEqual(parseBirthDate('circa 07 Jul 1966'), { text: 'circa 07 Jul 1966', day: '1966-07-07', month: '1966-07', fromYear: 1965, toYear: 1967, circa: true });
    assert.deepEqual(parseBirthDate('circa Jul 1966'), { text: 'circa Jul 1966', month: '1966-07', fromYear: 1965, toYear: 1967, circa: true });
    assert.equal(parseBirthDate('circa 1961 to 1962'), undefined, 'not a form OFAC writes');
    assert.equal(parseBirthDate('circa'), undefined);
    assert.deepEqual(parseBirthDate('14 Jul 1961 to 1962'), { text: '14 Jul 1961 to 1962', fromYear: 1961, toYear: 1962 });
    assert.deepEqual(parseBirthDate('1958 to 1960'), { text: '1958 to 1960', fromYear: 1958, toYear: 1960 });
    assert.equal(parseBirthDate('14 Foo 1961'), undefined);
    assert.equal(parseBirthDate('yesterday'), undefined);
  });

  it('reads citizen as well as citizenship and nationality, and DOB circa with a day or a month', () => {
    const facts = parseRemarks('DOB circa 07 Jul 1966; alt. DOB circa Jul 1967; citizen Egypt; alt. citizen Jordan; Gender Male.');
    assert.deepEqual(facts.countries, ['EGY', 'JOR']);
    assert.deepEqual(facts.birthDates, [
      { text: 'circa 07 Jul 1966', day: '1966-07-07', month: '1966-07', fromYear: 1965, toYear: 1967, circa: true },
      { text: 'circa Jul 1967', month: '1967-07', fromYear: 1966, toYear: 1968, circa: true },
    ]);
    assert.deepEqual(facts.other, ['Gender Male'], 'what the matcher does not read is kept for operators, as written');
  });

  it('reads nationality, citizenship and several digital currency addresses from the remarks', () => {
    const facts = parseRemarks(
      'DOB 1970; nationality Korea, North; citizenship Iran; Digital Currency Address - ETH 0xAbC0000000000000000000000000000000000001; alt. Digital Currency Address - USDT TXyz123; Digital Currency Address - XBT 1BoatSLRHtKNngkdXEeobR76b53LETtpyT.',
    );
    assert.deepEqual(facts.countries, ['PRK', 'IRN']);
    assert.deepEqual(facts.other, [], 'every part read');
    assert.deepEqual(facts.walletAddresses, [
      { currency: 'ETH', address: '0xAbC0000000000000000000000000000000000001' },
      { currency: 'USDT', address: 'TXyz123' },
      { currency: 'XBT', address: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT' },
    ]);
  });

  it('refuses malformed files with the file and line named', () => {
    const sdn = (rows: string[]) => ({ path: '/lists/SDN.CSV', text: rows.join('\n') });
    const good = sdnRow(1, 'DOE, John', 'individual', 'SDGT', null);
    assert.throws(() => parseOfac('L', sdn([good, '2,"DOE, Jane","individual"'])), (e: Error) => e instanceof ListFormatError && /^\/lists\/SDN\.CSV line 2: SDN\.CSV has 12 columns, this row 3$/.test(e.message));
    assert.throws(() => parseOfac('L', sdn([good, sdnRow(1, 'X', null, 'SDGT', null)])), /SDN\.CSV line 2: ent_num 1 is given twice/);
    assert.throws(() => parseOfac('L', sdn([good, sdnRow(1, 'X', null, 'SDGT', null).replace(/^1,/, 'abc,')])), /SDN\.CSV line 2: ent_num must be a number/);
    assert.throws(() => parseOfac('L', sdn([good, good.replace(/^1,/, '3,').replace('"DOE, John"', '-0- ')])), /SDN\.CSV line 2: SDN_Name is empty/);
    assert.throws(() => parseOfac('L', sdn([good, '4,"unterminated,"individual"'])), says(/^\/lists\/SDN\.CSV line 2: not valid CSV/));
    assert.throws(() => parseOfac('L', sdn([good]), { path: '/lists/ALT.CSV', text: altRow(9, 1, 'X') }), says(/^\/lists\/ALT\.CSV line 1: ent_num 9 is not in SDN\.CSV$/));
    assert.throws(() => parseOfac('L', sdn([good]), { path: '/lists/ALT.CSV', text: '1,1,"a.k.a."' }), /ALT\.CSV line 1: ALT\.CSV has 5 columns/);
    assert.throws(() => parseOfac('L', sdn([good]), undefined, { path: '/lists/ADD.CSV', text: '1,1,"x"\n' }), /ADD\.CSV line 1: ADD\.CSV has 6 columns/);
  });

  it('names the folder that holds no list, or cannot be read', () => {
    const empty = mkdtempSync(join(tmpdir(), 'empty-'));
    assert.throws(() => loadListSync({ label: 'X', path: empty, kind: 'folder' }), says(new RegExp(`^${empty}: no SDN\\.CSV`)));
    assert.throws(() => loadListSync({ label: 'X', path: '/nonexistent/lists', kind: 'folder' }), says(/^\/nonexistent\/lists: cannot be read \(ENOENT\)$/));
    const broken = ofacFolder({ sdn: [sdnRow(1, 'DOE, John', 'individual', 'SDGT', null), '2,"x"'] });
    assert.throws(() => loadListSync({ label: 'X', path: broken, kind: 'folder' }), says(new RegExp(`^${broken}/SDN\\.CSV line 2: `)));
  });
});

describe('the simple CSV', () => {
  it('reads name,birthDate,country,list, quoted or not; a folder with one uses its label as the list', () => {
    const entries = parseSimpleCsv({ path: 'l.csv', text: 'name,birthDate,country,list\n"Doe, John",1970-01-02,USA,L1\nNo Date,,,L2\n' });
    assert.deepEqual(
      entries.map((e) => [e.list, e.entryNumber, e.name, e.birthDates[0]?.day, e.countries]),
      [
        ['L1', '2', 'Doe, John', '1970-01-02', ['USA']],
        ['L2', '3', 'No Date', undefined, []],
      ],
    );
    const dir = mkdtempSync(join(tmpdir(), 'simple-'));
    writeFileSync(join(dir, 'people.csv'), 'name,birthDate,country,list\nJane Roe,,,PEP\n');
    const list = loadListSync({ label: 'HOUSE', path: dir, kind: 'folder' });
    assert.equal(list.format, 'simple-csv');
    assert.deepEqual([list.entries[0]!.list, list.entries[0]!.programs], ['HOUSE', ['PEP']]);
  });

  it('refuses a wrong header, a missing name, a bad date or country, with the line', () => {
    assert.throws(() => parseSimpleCsv({ path: 'l.csv', text: 'who,when\nx,y' }), says(/^l\.csv line 1: .*header/));
    assert.throws(() => parseSimpleCsv({ path: 'l.csv', text: 'name,birthDate,country,list\nA,,,L\n,,,L\n' }), says(/^l\.csv line 3: name and list are required$/));
    assert.throws(() => parseSimpleCsv({ path: 'l.csv', text: 'name,birthDate,country,list\nA,14/07/1961,,L\n' }), says(/^l\.csv line 2: birthDate/));
    assert.throws(() => parseSimpleCsv({ path: 'l.csv', text: 'name,birthDate,country,list\nA,,Narnia,L\n' }), says(/^l\.csv line 2: country/));
    assert.throws(() => parseSimpleCsv({ path: 'l.csv', text: 'name,birthDate,country,list\nA,,,L,extra\n' }), says(/^l\.csv line 2: a watch list has 4 columns, this row 5$/));
  });
});
