import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ScreeningIndex } from '../../../src/domain/screening/engine.js';
import { loadListSync } from '../../../src/domain/screening/load.js';
import { aliasRelation, hitMessage } from '../../../src/domain/verification/checks/run-checks.js';
import { ROOT_URL } from '../../harness/root.js';

/** The shipped sample of a list, indexed as the server indexes it. */
const sample = (label: string, folder: string) => new ScreeningIndex(loadListSync({ label, path: new URL(`config/screening/${folder}`, ROOT_URL).pathname, kind: 'folder' }).entries);

/** The finding's message of the best hit of a name (no birth date: `Name matches`). */
function message(index: ScreeningIndex, kind: 'person' | 'entity', name: string): string {
  const hit = index.screen({ kind, names: [name] })[0];
  assert.ok(hit, `${name} is on the list`);
  return hitMessage(hit);
}

describe("a finding's message names the alias that matched as each list types it", () => {
  it("reads each list's alias type as words: OFAC's and the EU's a.k.a., the UN's quality, the UK's name type and strength", () => {
    for (const [type, words] of [
      ['a.k.a.', 'a.k.a.'],
      ['f.k.a.', 'f.k.a.'],
      ['n.k.a.', 'n.k.a.'],
      // OFAC's own ALT.CSV writes them without dots.
      ['aka', 'a.k.a.'],
      ['FKA', 'f.k.a.'],
      // The UN's QUALITY of an alias, and its NAME_ORIGINAL_SCRIPT.
      ['Good', 'alias, good quality,'],
      ['Low', 'alias, low quality,'],
      ['original script', 'original script'],
      // The UK's Name type, with its Alias strength when given, and its Name non-latin script.
      ['Alias', 'alias'],
      ['Alias (Low quality)', 'alias, low quality,'],
      ['Alias (Good quality)', 'alias, good quality,'],
      ['Primary Name Variation', 'name variation'],
      ['Primary Name Variation (Low quality)', 'name variation, low quality,'],
      ['non-Latin script', 'non-Latin script'],
      // None given: an alias; one no list writes today: as given, in lower case.
      ['', 'alias'],
      [undefined, 'alias'],
      ['Weak Alias (Low)', 'weak alias, low quality,'],
    ] as const) {
      assert.equal(aliasRelation(type), words, String(type));
    }
  });

  it('the samples of the UN and the UK: an alias of low or good quality, a name variation, a name in its own script', () => {
    const un = sample('UN', 'un-sample');
    assert.equal(message(un, 'person', 'Abu Fawzi'), 'Name matches "Abu Fawzi" (alias, low quality, of "NABIL FAWZI AL-QARRANI") on UN entry QDi.901 (Al-Qaida): score 1; name agrees');
    assert.equal(message(un, 'person', 'Nabil Fawzi al-Qirani'), 'Name matches "Nabil Fawzi al-Qirani" (alias, good quality, of "NABIL FAWZI AL-QARRANI") on UN entry QDi.901 (Al-Qaida): score 1; name agrees');
    assert.equal(message(un, 'person', 'نبيل فوزي القراني'), 'Name matches "نبيل فوزي القراني" (original script of "NABIL FAWZI AL-QARRANI") on UN entry QDi.901 (Al-Qaida): score 1; name agrees');

    const uk = sample('UK', 'uk-sample');
    const regime = '(The Russia (Sanctions) (EU Exit) Regulations 2019)';
    assert.equal(message(uk, 'person', 'ZAVO'), `Name matches "ZAVO" (alias, low quality, of "ZAVORONKOV, Gleb Arkadyevich") on UK entry RUS9001 ${regime}: score 1; name agrees`);
    assert.equal(
      message(uk, 'person', 'KHRAMYKO, Aleksei Petrovich'),
      'Name matches "KHRAMYKO, Aleksei Petrovich" (alias, good quality, of "HRAMYKA, Aliaksei Piatrovich") on UK entry BLR9001 (The Republic of Belarus (Sanctions) (EU Exit) Regulations 2019): score 1; name agrees',
    );
    assert.equal(message(uk, 'person', 'ZAVORONKOV, Gleb Arkadievich'), `Name matches "ZAVORONKOV, Gleb Arkadievich" (name variation of "ZAVORONKOV, Gleb Arkadyevich") on UK entry RUS9001 ${regime}: score 1; name agrees`);
    assert.equal(message(uk, 'person', 'Глеб Аркадьевич Заворонков'), `Name matches "Глеб Аркадьевич Заворонков" (non-Latin script of "ZAVORONKOV, Gleb Arkadyevich") on UK entry RUS9001 ${regime}: score 1; name agrees`);
    assert.equal(message(uk, 'entity', 'Granite Fjord'), `Name matches "GRANITE FJORD" (alias of "GRANITE FJORD ENGINEERING JSC") on UK entry RUS9003 ${regime}: score 1; name agrees`);
  });

  it("OFAC's and the EU's a.k.a. read as before", () => {
    assert.equal(message(sample('OFAC-SDN', 'ofac-sample'), 'person', 'Temur Rashidov'), 'Name matches "RASHIDOV, Temur" (a.k.a. of "RASHIDOV, Timur Bakhtiyorovich") on OFAC-SDN entry 90011 (CYBER2): score 1; name agrees');
    assert.equal(message(sample('EU', 'eu-sample'), 'person', 'Tosha Velikorodov'), 'Name matches "Tosha Velikorodov" (a.k.a. of "Anton Pavlovich Velikorodov") on EU entry 190001 (UKR): score 1; name agrees');
  });
});
