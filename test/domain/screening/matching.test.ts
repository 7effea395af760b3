import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ScreeningIndex } from '../../../src/domain/screening/engine.js';
import { ScreeningLists } from '../../../src/domain/screening/lists.js';
import { consonants, nameTokens } from '../../../src/domain/screening/text.js';
import type { ListEntry, ScreeningSubject } from '../../../src/domain/screening/types.js';
import { SAMPLE } from './helpers.js';

const lists = new ScreeningLists([{ label: 'OFAC-SAMPLE', path: SAMPLE, kind: 'folder' }]);
const person = (name: string, more: Partial<ScreeningSubject> = {}): ScreeningSubject => ({ kind: 'person', names: [name], ...more });
const top = (subject: ScreeningSubject) => lists.screen(subject)[0];
const hitOn = (subject: ScreeningSubject) => top(subject)?.entryNumber;

/** The sample's entry 90001, as a name hit and an address hit both name it. */
const SIDOROV = { list: 'OFAC-SAMPLE', entryNumber: '90001', programs: ['CYBER2', 'RUSSIA-EO14024'] };

describe('name matching', () => {
  it('ignores case, accents, punctuation and word order', () => {
    assert.equal(top(person('ivan petrovich sidorov'))?.nameScore, 1);
    assert.equal(top(person('SIDOROV, IVAN PETROVICH'))?.nameScore, 1);
    assert.equal(top(person('Helene Marguerite Dubois Lefevre'))?.nameScore, 1, 'Hélène Dubois-Lefèvre');
    assert.equal(top(person('Petrovich; Ivan. (Sidorov)'))?.nameScore, 1);
  });

  it('matches initials', () => {
    const hit = top(person('I. P. Sidorov'))!;
    assert.equal(hit.entryNumber, '90001');
    assert.ok(hit.nameScore >= 0.9 && hit.nameScore < 1, String(hit.nameScore));
    assert.equal(hitOn(person('I. P. Q.')), undefined, 'initials alone are no name');
    assert.equal(hitOn(person('X. Y. Sidorov')), undefined, 'initials that do not fit');
  });

  it('matches aliases from ALT.CSV and says which', () => {
    const hit = top(person('Vanya Sidorov'))!;
    assert.equal(hit.listedName, 'SIDOROV, Ivan Petrovich');
    assert.deepEqual(hit.matchedAlias, { name: 'SIDOROV, Vanya', aliasType: 'a.k.a.' });
    assert.equal(top({ kind: 'entity', names: ['Northwind Shipping'] })?.matchedAlias?.name, 'NORTHWIND SHIPPING LLC');
  });

  it('transliterates Cyrillic, Greek and Arabic script', () => {
    assert.equal(hitOn(person('Иван Петрович Сидоров')), '90001');
    assert.equal(hitOn(person('Елена Волкова')), '90007');
    assert.equal(hitOn(person('Στέλιος Καραβιώτης')), '90006');
    assert.deepEqual(nameTokens('Γιώργος Παπαδόπουλος').tokens, ['giorgos', 'papadopoulos'], 'ου is ou');
    assert.deepEqual(nameTokens('Ντόρα Μπακογιάννη').tokens, ['dora', 'bakogianni'], 'initial ντ and μπ are d and b');
    const arabic = top(person('خالد يوسف المنصوري'))!;
    assert.equal(arabic.entryNumber, '90005', 'Khalid Yusuf al-Mansouri written in Arabic');
    assert.ok(arabic.nameScore < 1, 'a match on consonants is not certain');
    assert.equal(hitOn(person('عمر عبد الرحمن حداد')), '90013', 'Omar Abdelrahman Haddad: عبد الرحمن is one word there');
    assert.deepEqual(nameTokens('خالد المنصوري').tokens, ['khld', 'mnswry'], 'the joined article goes');
    assert.equal(consonants('mohammed'), consonants('muhammad'));
  });

  it('tolerates small spelling differences, within the threshold', () => {
    const hit = top(person('Ivan Petrovitch Sidorow'))!;
    assert.equal(hit.entryNumber, '90001');
    assert.ok(hit.nameScore >= 0.88 && hit.nameScore < 1, String(hit.nameScore));
    assert.equal(hitOn(person('Timur Rashydov')), '90011');
    assert.equal(hitOn({ kind: 'entity', names: ['Blue Lotus Trading Co.'] }), '90009', 'legal forms do not count');
  });

  it('does not hit names that only share a word or are merely alike', () => {
    for (const name of ['Ivan Petrov', 'Maria Rossi', 'Ivan', 'Sidorov', 'Elena Volkonsky', 'Wei Zhou', 'Darius Bell', 'Stelios Papadakis', 'Olga Sidorenko']) {
      assert.equal(hitOn(person(name)), undefined, name);
    }
    assert.equal(hitOn({ kind: 'entity', names: ['Blue Ocean Trading'] }), undefined);
    assert.equal(hitOn({ kind: 'entity', names: ['Ivan Petrovich Sidorov'] }), undefined, 'a company is not screened against people');
    assert.equal(hitOn(person('Grey Heron')), undefined, 'nor a person against vessels');
  });

  it('a birth date that agrees raises the score; one that conflicts drops the hit; an unknown one does neither', () => {
    const exact = 'Ivan Petrovich Sidorov';
    assert.deepEqual([top(person(exact, { birthDate: '1961-07-14' }))?.agreed, top(person(exact, { birthDate: '1961-07-14' }))?.conflicting], [['name', 'birthDate'], []]);
    assert.equal(hitOn(person(exact, { birthDate: '1970-01-01' })), undefined, 'another person of the same name');
    assert.equal(top(person(exact))?.score, 1);
    const fuzzy = 'Ivan Petrovich Sidorow';
    const plain = top(person(fuzzy))!.score;
    assert.ok(top(person(fuzzy, { birthDate: '1961-07-14' }))!.score > plain);
    // DOB circa 1970 allows 1969-1971; 1958 to 1960 a span; Jul 1980 a month.
    assert.deepEqual(top(person('Khalid Yusuf Al-Mansouri', { birthDate: '1971-12-31' }))?.agreed, ['name', 'birthDate']);
    assert.equal(hitOn(person('Khalid Yusuf Al-Mansouri', { birthDate: '1975-01-01' })), undefined);
    assert.deepEqual(top(person('Stelios Karaviotis', { birthDate: '1960-06-01' }))?.agreed, ['name', 'birthDate']);
    assert.deepEqual(top(person('Elena Volkova', { birthDate: '1980-07-30' }))?.agreed, ['name', 'birthDate']);
    // A date one slip away (a month or a year off) is near: it lowers the score a little, not like another person's.
    const near = top(person('Elena Volkova', { birthDate: '1980-08-01' }))!;
    assert.deepEqual([near.conflicting, near.score, near.nameScore], [['birthDate'], 0.94, 0.96]);
    assert.equal(top(person('Elena Volkova', { birthDate: '1981-07-30' }))?.score, 0.94, 'a year off');
    assert.equal(hitOn(person('Elena Volkova', { birthDate: '1985-08-01' })), undefined, 'five years off: another person');
    assert.deepEqual(top(person('Omar Haddad', { birthDate: '1966-03-03' }))?.agreed, ['name', 'birthDate'], 'alt. DOB');
  });

  it('a country that agrees raises the score a little, one that conflicts lowers it a little', () => {
    const name = 'Wei Min Zhang';
    const agree = top(person(name, { countries: ['CHN'] }))!;
    const conflict = top(person(name, { countries: ['DEU', null] }))!;
    assert.deepEqual([agree.agreed, agree.score], [['name', 'country'], 1]);
    assert.deepEqual([conflict.conflicting, conflict.score], [['country'], 0.95]);
    const near = top(person('Ivan Petrovich Sidorow'))!.score;
    assert.ok(top(person('Ivan Petrovich Sidorow', { countries: ['RUS'] }))!.score > near);
    assert.ok(top(person('Ivan Petrovich Sidorow', { countries: ['FRA'] }))!.score < near);
    assert.equal(top(person('Ivan Sidorov'))?.score, 0.96, 'without the patronymic');
    assert.equal(hitOn(person('Ivan Sidorenko', { countries: ['RUS'] })), undefined, 'another family name, however alike');
  });

  it('records what a hit is: list, entry, programs, names, score, fields', () => {
    const hit = top(person('Sidorov Ivan', { birthDate: '1961-07-14', countries: ['RUS'] }))!;
    assert.deepEqual(hit, {
      ...SIDOROV,
      entryType: 'individual',
      listedName: 'SIDOROV, Ivan Petrovich',
      matchedName: 'Sidorov Ivan',
      score: 1,
      nameScore: 0.96,
      agreed: ['name', 'birthDate', 'country'],
      conflicting: [],
      listedBirthDates: ['14 Jul 1961'],
      listedCountries: ['RUS'],
      explanation: {
        pairs: [
          { subject: 'sidorov', listed: 'sidorov', similarity: 1, weight: 0.667 },
          { subject: 'ivan', listed: 'ivan', similarity: 1, weight: 0.333 },
        ],
        onlySubject: [],
        onlyListed: ['petrovich'],
        adjustments: [
          { kind: 'extra_words', effect: -0.04, detail: 'petrovich: only the listed name has it' },
          { kind: 'birth_date', effect: 0.05, detail: '1961-07-14 agrees with 14 Jul 1961' },
          { kind: 'country', effect: 0.03, detail: 'RUS agrees with RUS' },
        ],
      },
    });
  });

  it('screens every name of a company and reports the best', () => {
    const hits = lists.screen({ kind: 'entity', names: ['Clean Co', 'Zircon Capital'] });
    assert.deepEqual(hits.map((h) => [h.entryNumber, h.matchedName]), [['90014', 'Zircon Capital']]);
  });

  it('the threshold decides', () => {
    const entries: ListEntry[] = [{ list: 'L', entryNumber: '1', type: 'individual', name: 'SIDOROV, Ivan', aliases: [], programs: [], birthDates: [], countries: [], walletAddresses: [] }];
    const name = 'Ivan Sidorow';
    const score = new ScreeningIndex(entries, 0.5).screen(person(name))[0]!.score;
    assert.ok(score > 0.9 && score < 1, String(score));
    assert.equal(new ScreeningIndex(entries, score + 0.001).screen(person(name)).length, 0);
    assert.equal(new ScreeningIndex(entries, score).screen(person(name))[0]?.score, score);
  });
});


describe('wallet addresses', () => {
  it('finds the listed addresses, 0x ones whatever their case', () => {
    const hit = lists.addressHit('0x6E6CCD85D4EC1491A30438EB7194B4FC819E05C2')!;
    assert.deepEqual(hit, {
      ...SIDOROV,
      name: 'SIDOROV, Ivan Petrovich',
      currency: 'ETH',
      address: '0x6e6ccd85d4ec1491a30438eb7194b4fc819e05c2',
    });
    assert.equal(lists.addressHit(' 0x6e6ccd85d4ec1491a30438eb7194b4fc819e05c2 ')?.entryNumber, '90001');
    assert.equal(lists.addressHit('0x000000000000000000000000000000000000dead')?.currency, 'USDC');
    assert.equal(lists.addressHit('TSampleFictionalLotus00000000000000')?.currency, 'TRX');
    assert.equal(lists.addressHit('tsamplefictionallotus00000000000000'), undefined, 'only 0x addresses ignore case');
    assert.equal(lists.addressHit('0x6e6ccd85d4ec1491a30438eb7194b4fc819e05c3'), undefined);
    assert.equal(lists.addressHit(''), undefined);
  });
});
