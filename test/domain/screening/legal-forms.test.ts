import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { compareLegalForms, extractLegalForms, LEGAL_FORM_TABLE, type LegalForm } from '../../../src/domain/screening/legal-forms.js';

const words = (name: string) => name.split(' ');
/** The name's tokens left and its forms' codes. */
const read = (name: string): [string, string[]] => {
  const { tokens, forms } = extractLegalForms(words(name));
  return [tokens.join(' '), forms.map((f) => f.code)];
};
const forms = (name: string): LegalForm[] => extractLegalForms(words(name)).forms;
const relation = (a: string, b: string) => compareLegalForms(forms(a), forms(b));

describe('legal forms', () => {
  it('are found at the end, at the start, and stacked at the end', () => {
    assert.deepEqual(read('oao gazprom'), ['gazprom', ['OJSC']]);
    assert.deepEqual(read('gazprom oao'), ['gazprom', ['OJSC']]);
    assert.deepEqual(read('open joint stock company gazprom'), ['gazprom', ['OJSC']]);
    assert.deepEqual(read('siemens aktiengesellschaft'), ['siemens', ['AG']]);
    assert.deepEqual(read('rosa trading company limited'), ['rosa trading', ['CO', 'LTD']]);
    assert.deepEqual(read('rosa trading co ltd'), ['rosa trading', ['CO', 'LTD']]);
    assert.deepEqual(read('ooo rosa trading llc'), ['rosa trading', ['LLC']], 'a code once');
    assert.deepEqual(read('obshchestvo s ogranichennoy otvetstvennostyu roza'), ['roza', ['LLC']]);
    assert.deepEqual(read('tzov roza'), ['roza', ['LLC']]);
    assert.deepEqual(read('rosa gmbh co kg'), ['rosa', ['GMBH_CO_KG']], 'the longest form, not KG after Co after GmbH');
    assert.deepEqual(read('rosa fz llc'), ['rosa', ['FZ_LLC']]);
    assert.deepEqual(read('pt bank rakyat indonesia tbk'), ['bank rakyat indonesia', ['PT', 'TBK']]);
    assert.deepEqual(read('ab volvo'), ['volvo', ['AB']]);
  });

  it('dotted forms arrive as letters or joined, and letters in a row are a form only when they spell one exactly', () => {
    assert.deepEqual(read('hsbc holdings p l c'), ['hsbc holdings', ['PLC']]);
    assert.deepEqual(read('hsbc holdings plc'), ['hsbc holdings', ['PLC']]);
    assert.deepEqual(extractLegalForms(['hsbc', 'holdings', 'p', 'l', 'c']).forms, [{ code: 'PLC', family: 'stock', words: 'plc' }]);
    assert.deepEqual(read('rosa trading s a'), ['rosa trading', ['SA']]);
    assert.deepEqual(read('rosa trading sa'), ['rosa trading', ['SA']]);
    for (const name of ['rosa sp z o o', 'rosa sp z oo', 'rosa sp zoo', 'rosa spzoo', 'rosa s p z o o']) assert.deepEqual(read(name), ['rosa', ['SP_ZOO']], name);
    assert.deepEqual(read('rosa s r o'), ['rosa', ['SRO']]);
    assert.deepEqual(read('rosa a s'), ['rosa', ['AS']]);
    assert.deepEqual(read('rosa s a de c v'), ['rosa', ['SA']]);
    assert.deepEqual(read('rosa s de r l de c v'), ['rosa', ['SRL']]);
    assert.deepEqual(read('rosa g m b h'), ['rosa', ['GMBH']]);
    assert.deepEqual(read('rosa a b c s a'), ['rosa a b c s a', []], 'abcsa is no form: its last two letters are not S.A.');
    assert.deepEqual(read('rosa l t d'), ['rosa', ['LTD']]);
    assert.deepEqual(read('rosa l td'), ['rosa l td', []], 'a piece of a word is not one of the letters of a dotted form');
  });

  it('Chinese, Korean and Japanese forms as romanized, syllable by syllable or joined', () => {
    assert.deepEqual(read('zhong xing tong xun gu fen you xian gong si'), ['zhong xing tong xun', ['LTD_BY_SHARES']]);
    assert.deepEqual(read('huawei youxian gongsi'), ['huawei', ['LTD']]);
    assert.deepEqual(read('samsung jusik hoesa'), ['samsung', ['KK']]);
    assert.deepEqual(read('toyota jidosha kabushiki kaisha'), ['toyota jidosha', ['KK']]);
    assert.deepEqual(read('kabushikigaisha toshiba'), ['toshiba', ['KK']]);
  });

  it('words that are also a name\'s words are forms only where forms stand', () => {
    assert.deepEqual(read('rosa llc dubai branch'), ['rosa dubai branch', ['LLC']], 'an unambiguous form inside the name');
    assert.deepEqual(read('rosa limited liability company trading'), ['rosa trading', ['LLC']], 'a form of several words inside the name');
    assert.deepEqual(read('rosa ag dubai'), ['rosa ag dubai', []], 'ag only at the end');
    assert.deepEqual(read('ag barr plc'), ['ag barr', ['PLC']], 'ag not at the start');
    assert.deepEqual(read('sa recycling'), ['sa recycling', []]);
    assert.deepEqual(read('co operative bank'), ['co operative bank', []]);
    assert.deepEqual(read('ip ivanov'), ['ivanov', ['IP']]);
    assert.deepEqual(read('rosa ip trading'), ['rosa ip trading', []], 'ip not inside the name');
    assert.deepEqual(read('as rietumu banka'), ['rietumu banka', ['AS']]);
    assert.deepEqual(read('as sahab media'), ['as sahab media', []], 'as before a word in s is the Arabic article');
    assert.deepEqual(read('the rosa company of london'), ['the rosa of london', ['CO']], 'the, of and and are left to the caller');
  });

  it('never take every word: a name of forms alone stays as it is', () => {
    for (const name of ['limited', 'company limited', 'co', 'oao', 'p l c', 'ooo limited', 'joint stock company']) assert.deepEqual(read(name), [name, []], name);
    assert.deepEqual(extractLegalForms([]), { tokens: [], forms: [], kept: [] });
    assert.deepEqual(extractLegalForms(words('as as banka')).kept, [2]);
  });

  it('compare by code, then by family', () => {
    assert.equal(relation('deutsche bank ag', 'deutsche bank gmbh'), 'different');
    assert.equal(relation('siemens aktiengesellschaft', 'siemens ag'), 'same');
    assert.equal(relation('open joint stock company gazprom', 'oao gazprom'), 'same');
    assert.equal(relation('pao gazprom', 'oao gazprom'), 'compatible', 'OAO was renamed PAO: both joint-stock');
    assert.equal(relation('ooo roza', 'roza llc'), 'same');
    assert.equal(relation('rosa trading company', 'rosa trading co'), 'same');
    assert.equal(relation('rosa trading company', 'rosa trading ag'), 'compatible', 'a generic form says nothing against another');
    assert.equal(relation('rosa trading company limited', 'rosa trading ltd'), 'same');
    assert.equal(relation('rosa trading company', 'rosa trading'), 'unknown');
    assert.equal(relation('nintendo co ltd', 'nintendo kabushiki kaisha'), 'compatible', 'a KK is written Co., Ltd. in English');
    assert.equal(relation('baltga petroleum ltd', 'baltga petroleum ag'), 'different', 'a British Ltd is not a German AG');
    assert.equal(relation('rosa gmbh co kg', 'rosa gmbh'), 'different', 'a GmbH & Co. KG is a partnership beside its GmbH');
    assert.equal(relation('rosa too', 'rosa llc'), 'same', 'the Kazakh TOO is an LLC in all but name');
    assert.equal(relation('rosa llp', 'rosa llc'), 'different', 'a partnership is not a company');
    assert.equal(relation('rosa lp', 'rosa llc'), 'different');
    assert.equal(relation('rosa ip', 'rosa llc'), 'different');
  });

  it('the table: each spelling in one row, codes once, every family of the brief', () => {
    const codes = LEGAL_FORM_TABLE.map((r) => r.code);
    assert.equal(new Set(codes).size, codes.length);
    assert.ok(LEGAL_FORM_TABLE.length >= 60);
    for (const family of ['stock', 'limited', 'partnership', 'sole', 'cooperative', 'state', 'generic']) assert.ok(LEGAL_FORM_TABLE.some((r) => r.family === family), family);
  });

  it('property: the tokens left are a subsequence of those given, none left out only when none were given', () => {
    const formWords = [...new Set(LEGAL_FORM_TABLE.flatMap((r) => r.spellings.split(/[ ,|$~]+/)).filter((w) => w !== ''))];
    const token = fc.oneof(fc.constantFrom(...formWords), fc.constantFrom('rosa', 'trading', 'gazprom', 'p', 'l', 'c', 's', 'a', 'o', 'z', 'bank'), fc.string({ unit: fc.constantFrom(...'abcdefgilmnoprstuz'), minLength: 1, maxLength: 6 }));
    fc.assert(
      fc.property(fc.array(token, { maxLength: 10 }), (tokens) => {
        const out = extractLegalForms(tokens);
        let k = 0;
        for (const t of tokens) if (k < out.tokens.length && out.tokens[k] === t) k++;
        assert.equal(k, out.tokens.length, 'a subsequence');
        assert.deepEqual(out.kept.map((i) => tokens[i]), out.tokens, 'kept: where the tokens left stand');
        assert.ok(out.kept.every((i, n) => n === 0 || i > out.kept[n - 1]!));
        assert.equal(out.tokens.length > 0, tokens.length > 0);
        if (out.forms.length === 0) assert.deepEqual(out.tokens, tokens, 'no forms: nothing taken');
        assert.equal(new Set(out.forms.map((f) => f.code)).size, out.forms.length);
        const again = extractLegalForms(tokens);
        assert.deepEqual(again, out);
      }),
      { numRuns: 2000 },
    );
  });
});
