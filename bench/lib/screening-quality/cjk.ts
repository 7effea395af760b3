/**
 * Chinese, Korean and Japanese names from tables written for this bench: Han characters with their pinyin, Hangul
 * syllables with the spellings lists and passports use, and katakana syllables with their Hepburn readings. The Latin
 * side is read off these tables, never made by pinyin-pro, es-hangul or wanakana (the engine's own romanizers).
 */

/** Han characters used as family names, and as given names, each with its pinyin (no tones). */
export const HAN_FAMILY: [han: string, pinyin: string][] = [
  ['王', 'wang'], ['李', 'li'], ['张', 'zhang'], ['刘', 'liu'], ['陈', 'chen'], ['杨', 'yang'], ['黄', 'huang'], ['赵', 'zhao'],
  ['吴', 'wu'], ['周', 'zhou'], ['徐', 'xu'], ['孙', 'sun'], ['马', 'ma'], ['朱', 'zhu'], ['胡', 'hu'], ['郭', 'guo'],
  ['何', 'he'], ['高', 'gao'], ['林', 'lin'], ['罗', 'luo'], ['郑', 'zheng'], ['梁', 'liang'], ['谢', 'xie'], ['宋', 'song'],
  ['唐', 'tang'], ['韩', 'han'], ['冯', 'feng'], ['邓', 'deng'], ['曹', 'cao'], ['彭', 'peng'], ['曾', 'zeng'], ['肖', 'xiao'],
  ['田', 'tian'], ['董', 'dong'], ['潘', 'pan'], ['袁', 'yuan'], ['蔡', 'cai'], ['蒋', 'jiang'], ['余', 'yu'], ['杜', 'du'],
  ['叶', 'ye'], ['程', 'cheng'], ['魏', 'wei'], ['苏', 'su'], ['丁', 'ding'], ['任', 'ren'], ['卢', 'lu'], ['姚', 'yao'],
  ['沈', 'shen'], ['钟', 'zhong'], ['崔', 'cui'], ['谭', 'tan'], ['范', 'fan'], ['廖', 'liao'], ['石', 'shi'], ['金', 'jin'],
  ['贾', 'jia'], ['夏', 'xia'], ['方', 'fang'], ['邹', 'zou'], ['熊', 'xiong'], ['白', 'bai'], ['孟', 'meng'], ['秦', 'qin'],
  ['邱', 'qiu'], ['侯', 'hou'], ['薛', 'xue'], ['段', 'duan'], ['雷', 'lei'], ['龙', 'long'], ['陶', 'tao'], ['毛', 'mao'],
  ['郝', 'hao'], ['顾', 'gu'], ['龚', 'gong'], ['邵', 'shao'], ['钱', 'qian'], ['戴', 'dai'], ['孔', 'kong'], ['向', 'xiang'],
];

export const HAN_GIVEN: [han: string, pinyin: string][] = [
  ['伟', 'wei'], ['芳', 'fang'], ['娜', 'na'], ['敏', 'min'], ['静', 'jing'], ['丽', 'li'], ['强', 'qiang'], ['磊', 'lei'],
  ['军', 'jun'], ['洋', 'yang'], ['勇', 'yong'], ['艳', 'yan'], ['杰', 'jie'], ['涛', 'tao'], ['明', 'ming'], ['超', 'chao'],
  ['秀', 'xiu'], ['霞', 'xia'], ['平', 'ping'], ['刚', 'gang'], ['英', 'ying'], ['华', 'hua'], ['文', 'wen'], ['志', 'zhi'],
  ['国', 'guo'], ['建', 'jian'], ['海', 'hai'], ['红', 'hong'], ['春', 'chun'], ['东', 'dong'], ['晓', 'xiao'], ['玉', 'yu'],
  ['成', 'cheng'], ['辉', 'hui'], ['新', 'xin'], ['鹏', 'peng'], ['浩', 'hao'], ['博', 'bo'], ['嘉', 'jia'], ['思', 'si'],
  ['婷', 'ting'], ['峰', 'feng'], ['斌', 'bin'], ['亮', 'liang'], ['宁', 'ning'], ['云', 'yun'], ['飞', 'fei'], ['安', 'an'],
  ['德', 'de'], ['学', 'xue'], ['庆', 'qing'], ['荣', 'rong'], ['振', 'zhen'], ['光', 'guang'], ['坤', 'kun'], ['凯', 'kai'],
  ['帆', 'fan'], ['哲', 'zhe'], ['睿', 'rui'], ['泽', 'ze'], ['轩', 'xuan'], ['毅', 'yi'], ['晨', 'chen'], ['梅', 'mei'],
  ['兰', 'lan'], ['月', 'yue'], ['忠', 'zhong'], ['仁', 'ren'], ['山', 'shan'], ['川', 'chuan'], ['江', 'jiang'], ['松', 'song'],
  ['竹', 'zhu'], ['菊', 'ju'], ['鸿', 'hong'], ['近', 'jin'], ['克', 'ke'], ['贵', 'gui'], ['福', 'fu'], ['禄', 'lu'],
];

/** Pinyin syllables written as one given name: Jinping, Xi'an-style apostrophe before a syllable starting a, e, o. */
export function pinyinGiven(syllables: string[]): string {
  const joined = syllables.map((s, i) => (i > 0 && /^[aeo]/.test(s) ? `'${s}` : s)).join('');
  return joined.charAt(0).toUpperCase() + joined.slice(1);
}

/**
 * Hangul syllables with their Latin spellings: [North Korean / McCune-Reischauer without marks, South Korean
 * conventional, Revised Romanization]; fewer when they agree.
 */
export const HANGUL_FAMILY: [hangul: string, ...latin: string[]][] = [
  ['김', 'Kim', 'Kim', 'Gim'], ['이', 'Ri', 'Lee', 'Yi'], ['박', 'Pak', 'Park', 'Bak'], ['최', 'Choe', 'Choi'],
  ['정', 'Jong', 'Jung', 'Jeong'], ['강', 'Kang', 'Kang', 'Gang'], ['조', 'Jo', 'Cho'], ['윤', 'Yun', 'Yoon'],
  ['장', 'Jang', 'Chang'], ['임', 'Rim', 'Lim', 'Im'], ['한', 'Han'], ['오', 'O', 'Oh'], ['서', 'So', 'Suh', 'Seo'],
  ['신', 'Sin', 'Shin'], ['권', 'Kwon', 'Kwon', 'Gwon'], ['황', 'Hwang'], ['안', 'An', 'Ahn'], ['송', 'Song'],
  ['류', 'Ryu', 'Yoo', 'Yu'], ['홍', 'Hong'], ['전', 'Jon', 'Jeon', 'Jeon'], ['고', 'Ko', 'Ko', 'Go'], ['문', 'Mun', 'Moon'],
  ['양', 'Ryang', 'Yang'], ['손', 'Son', 'Sohn'], ['배', 'Pae', 'Bae'], ['백', 'Paek', 'Baek'], ['허', 'Ho', 'Huh', 'Heo'],
  ['남', 'Nam'], ['노', 'Ro', 'Roh', 'No'], ['현', 'Hyon', 'Hyun', 'Hyeon'], ['주', 'Ju', 'Joo'],
];

export const HANGUL_GIVEN: [hangul: string, ...latin: string[]][] = [
  ['정', 'Jong', 'Jung', 'Jeong'], ['은', 'Un', 'Eun', 'Eun', 'On'], ['일', 'Il'], ['성', 'Song', 'Sung', 'Seong'], ['민', 'Min'],
  ['준', 'Jun', 'Joon'], ['영', 'Yong', 'Young', 'Yeong'], ['수', 'Su', 'Soo'], ['현', 'Hyon', 'Hyun', 'Hyeon'], ['지', 'Ji'],
  ['호', 'Ho'], ['진', 'Jin'], ['혜', 'Hye'], ['근', 'Gun', 'Geun', 'Geun'], ['철', 'Chol', 'Chul', 'Cheol'],
  ['광', 'Kwang', 'Kwang', 'Gwang'], ['명', 'Myong', 'Myung', 'Myeong'], ['선', 'Son', 'Sun', 'Seon'], ['희', 'Hui', 'Hee'],
  ['동', 'Dong'], ['상', 'Sang'], ['재', 'Jae'], ['경', 'Kyong', 'Kyung', 'Gyeong'], ['태', 'Thae', 'Tae'], ['석', 'Sok', 'Suk', 'Seok'],
  ['훈', 'Hun', 'Hoon'], ['연', 'Yon', 'Yeon'], ['하', 'Ha'], ['미', 'Mi'], ['숙', 'Suk', 'Sook'], ['국', 'Guk', 'Kook', 'Guk'],
  ['원', 'Won'], ['혁', 'Hyok', 'Hyuk', 'Hyeok'], ['환', 'Hwan'], ['규', 'Gyu', 'Kyu'], ['용', 'Ryong', 'Yong'], ['옥', 'Ok'],
  ['순', 'Sun', 'Soon'], ['춘', 'Chun'], ['남', 'Nam'], ['학', 'Hak'], ['범', 'Bom', 'Beom'],
];

/** Katakana for the syllables of Hepburn romaji (ours, for the names below). */
const KANA: Record<string, string> = {
  a: 'ア', i: 'イ', u: 'ウ', e: 'エ', o: 'オ', ka: 'カ', ki: 'キ', ku: 'ク', ke: 'ケ', ko: 'コ', sa: 'サ', shi: 'シ', su: 'ス',
  se: 'セ', so: 'ソ', ta: 'タ', chi: 'チ', tsu: 'ツ', te: 'テ', to: 'ト', na: 'ナ', ni: 'ニ', nu: 'ヌ', ne: 'ネ', no: 'ノ',
  ha: 'ハ', hi: 'ヒ', fu: 'フ', he: 'ヘ', ho: 'ホ', ma: 'マ', mi: 'ミ', mu: 'ム', me: 'メ', mo: 'モ', ya: 'ヤ', yu: 'ユ',
  yo: 'ヨ', ra: 'ラ', ri: 'リ', ru: 'ル', re: 'レ', ro: 'ロ', wa: 'ワ', n: 'ン', ga: 'ガ', gi: 'ギ', gu: 'グ', ge: 'ゲ',
  go: 'ゴ', za: 'ザ', ji: 'ジ', zu: 'ズ', ze: 'ゼ', zo: 'ゾ', da: 'ダ', de: 'デ', do: 'ド', ba: 'バ', bi: 'ビ', bu: 'ブ',
  be: 'ベ', bo: 'ボ', pa: 'パ', pi: 'ピ', pu: 'プ', pe: 'ペ', po: 'ポ', sho: 'ショ', ryo: 'リョ', ju: 'ジュ', kyo: 'キョ',
  U: 'ウ',
};

/**
 * Japanese names as syllables (`sa.to.U`: a capital U lengthens the vowel before it, written ウ in katakana and left out
 * in Hepburn without macrons: Sato; Satou and Satoh are also seen).
 */
export const JAPANESE_FAMILY = `ta.na.ka su.zu.ki sa.to.U ta.ka.ha.shi wa.ta.na.be i.to.U ya.ma.mo.to na.ka.mu.ra ko.ba.ya.shi
  ka.to.U yo.shi.da ya.ma.da sa.sa.ki ya.ma.gu.chi ma.tsu.mo.to i.no.u.e ki.mu.ra ha.ya.shi shi.mi.zu sa.i.to.U ya.ma.za.ki
  mo.ri a.be i.ke.da ha.shi.mo.to i.shi.ka.wa ma.e.da fu.ji.ta o.ga.wa go.to.U o.ka.da ha.se.ga.wa mu.ra.ka.mi ko.n.do.U
  sa.ka.mo.to e.n.do.U a.o.ki ni.shi.mu.ra fu.ku.da mi.u.ra fu.ji.wa.ra o.ka.mo.to ma.tsu.da na.ka.no ha.ra.da ta.mu.ra
  ta.ke.u.chi ka.ne.ko wa.da i.shi.da u.e.da mo.ri.ta shi.ba.ta sa.ka.i ku.do.U yo.ko.ya.ma mi.ya.za.ki u.chi.da ta.ka.gi
  a.n.do.U ta.ni.gu.chi ma.ru.ya.ma i.ma.i ta.ke.da mu.ra.ta su.gi.ya.ma ma.su.da ko.ya.ma hi.ra.no ku.bo chi.ba
  sa.ku.ra.i no.gu.chi ki.no.shi.ta`.trim().split(/\s+/);

export const JAPANESE_GIVEN = `hi.ro.shi ta.ke.shi ke.n.ji yu.ki a.ki.ra sa.to.shi ma.ko.to ka.zu.o shi.n.zo.U yo.U.ko ke.i.ko
  na.o.ko i.chi.ro.U ta.ro.U sho.U.ko ryo.U.ta yu.ka ma.sa.shi ta.ka.shi hi.de.ki ka.zu.ya shi.ge.ru o.sa.mu mi.no.ru
  ma.sa.o ko.U.ji tsu.yo.shi da.i.su.ke ke.n.ta sho.U.ta ha.ru.to so.U.ta ha.na sa.ku.ra yu.i a.o.i mi.sa.ki na.na.mi
  a.ya.ka e.ri.ko to.mo.ko ma.yu.mi ju.n.ko a.ki.ko mi.chi.ko hi.ro.mi ku.mi.ko ya.su.o no.bu.o te.tsu.ya ma.mo.ru
  kyo.U.ko ryo.U.su.ke`.trim().split(/\s+/);

export function katakana(key: string): string {
  return key
    .split('.')
    .map((s) => {
      const k = KANA[s];
      if (!k) throw new Error(`no katakana for ${s} in ${key}`);
      return k;
    })
    .join('');
}

/** Hepburn without macrons (Sato), or the long vowel written `ou`/`uu` (Satou) or `oh` (Satoh). */
export function hepburn(key: string, long: 'drop' | 'write' | 'h' = 'drop'): string {
  const syllables = key.split('.');
  let out = '';
  for (let i = 0; i < syllables.length; i++) {
    const s = syllables[i]!;
    if (s === 'U') {
      const atEnd = i === syllables.length - 1;
      out += long === 'drop' ? '' : long === 'h' && atEnd && out.endsWith('o') ? 'h' : 'u';
    } else out += s;
  }
  return out.charAt(0).toUpperCase() + out.slice(1);
}
