/**
 * Russian names written in Cyrillic (for this bench), and Latin spellings of them by small letter tables of our own:
 * BGN/PCGN (the US and UK lists' system, used for the listed name), ICAO 9303 (passports since 2013), German (Duden),
 * French, and the wire services' English. The engine transliterates Cyrillic with any-ascii; none of these is it.
 */
const words = (s: string): string[] => s.trim().split(/\s+/);

/** A man's given name and the patronymic made from it (his children's: -ович, -евич; a daughter's -овна, -евна). */
export const RUSSIAN_GIVEN: [given: string, patronymic: string][] = [
  ['Александр', 'Александрович'], ['Сергей', 'Сергеевич'], ['Владимир', 'Владимирович'], ['Дмитрий', 'Дмитриевич'],
  ['Андрей', 'Андреевич'], ['Алексей', 'Алексеевич'], ['Михаил', 'Михайлович'], ['Николай', 'Николаевич'],
  ['Евгений', 'Евгеньевич'], ['Юрий', 'Юрьевич'], ['Виктор', 'Викторович'], ['Игорь', 'Игоревич'],
  ['Олег', 'Олегович'], ['Павел', 'Павлович'], ['Борис', 'Борисович'], ['Григорий', 'Григорьевич'],
  ['Константин', 'Константинович'], ['Вячеслав', 'Вячеславович'], ['Аркадий', 'Аркадьевич'], ['Геннадий', 'Геннадьевич'],
  ['Анатолий', 'Анатольевич'], ['Валерий', 'Валерьевич'], ['Максим', 'Максимович'], ['Роман', 'Романович'],
  ['Леонид', 'Леонидович'], ['Тимофей', 'Тимофеевич'], ['Степан', 'Степанович'], ['Кирилл', 'Кириллович'],
  ['Яков', 'Яковлевич'], ['Фёдор', 'Фёдорович'], ['Эдуард', 'Эдуардович'], ['Вадим', 'Вадимович'],
  ['Ярослав', 'Ярославович'], ['Захар', 'Захарович'], ['Илья', 'Ильич'], ['Артём', 'Артёмович'],
  ['Семён', 'Семёнович'], ['Всеволод', 'Всеволодович'], ['Глеб', 'Глебович'], ['Руслан', 'Русланович'],
];

export const RUSSIAN_FAMILY: string[] = words(`
  Иванов Смирнов Кузнецов Попов Соколов Лебедев Козлов Новиков Морозов Волков Соловьёв Васильев Зайцев Павлов
  Семёнов Голубев Виноградов Богданов Воробьёв Фёдоров Михайлов Беляев Тарасов Белов Комаров Орлов Киселёв Макаров
  Андреев Ковалёв Ильин Гусев Титов Кузьмин Кудрявцев Баранов Куликов Алексеев Степанов Сорокин Сергеев Захаров
  Королёв Герасимов Пономарёв Григорьев Лазарев Медведев Ершов Никитин Соболев Рябов Поляков Цветков Данилов Жуков
  Фролов Журавлёв Крылов Максимов Сидоров Осипов Белоусов Федотов Егоров Матвеев Бобров Калинин Анисимов Петухов
  Антонов Никифоров Веселов Филиппов Марков Суханов Миронов Ширяев Коновалов Шестаков Казаков Ефимов Денисов Громов
  Фомин Давыдов Мельников Щербаков Блинов Колесников Карпов Афанасьев Власов Маслов Исаков Тихонов Аксёнов Гаврилов
  Родионов Котов Горбунов Кудряшов Быков Зуев Третьяков Савельев Панов Рыбаков Суворов Воронов Мухин Архипов
  Трофимов Мартынов Емельянов Горшков Чернов Овчинников Селезнёв Панфилов Копылов Михеев Галкин Назаров Лобанов
  Тарханов Хрусталёв Чайковский Шевцов Ющенко Ткаченко Кравченко Литвиненко Ковальчук Бондарчук Жданов Хохлов
  Цыганов Щукин Юдин Ярцев Чистяков Шубин Жилин Хабибуллин Цой Эйдельман Юсупов Якунин Шапошников Чубаров
`);

const VOWELS = new Set('аеёиоуыэюяАЕЁИОУЫЭЮЯ');
const SIGNS = new Set('ьъЬЪ');

type System = 'bgn' | 'icao' | 'german' | 'french' | 'wire';

const COMMON: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'yo', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l', м: 'm', н: 'n',
  о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'shch', ъ: '', ы: 'y',
  ь: '', э: 'e', ю: 'yu', я: 'ya',
};
const TABLES: Record<System, Record<string, string>> = {
  bgn: COMMON,
  icao: { ...COMMON, ё: 'e', й: 'i', ъ: 'ie', ю: 'iu', я: 'ia' },
  german: { ...COMMON, в: 'w', ё: 'jo', ж: 'sch', з: 's', й: 'j', х: 'ch', ц: 'z', ч: 'tsch', ш: 'sch', щ: 'schtsch', ю: 'ju', я: 'ja' },
  french: { ...COMMON, ё: 'io', ж: 'j', й: 'i', у: 'ou', х: 'kh', ч: 'tch', ш: 'ch', щ: 'chtch', ю: 'iou', я: 'ia' },
  wire: { ...COMMON, й: 'i' },
};

/** One Cyrillic word in Latin letters by `system`, capitalised. */
export function romanizeRussianWord(word: string, system: System): string {
  const w = word.toLowerCase();
  const table = TABLES[system];
  if (system === 'wire' && w === 'александр') return 'Alexander';
  let out = '';
  for (let i = 0; i < w.length; i++) {
    const c = w[i]!;
    const prev = w[i - 1];
    const next = w[i + 1];
    const atEnd = i === w.length - 1 || (i === w.length - 2 && next === 'й');
    const afterVowel = prev === undefined || VOWELS.has(prev) || SIGNS.has(prev);
    // Word endings: -ий / -ый (Dmitriy, Dmitrii, Dmitri, Dmitry).
    if ((c === 'и' || c === 'ы') && next === 'й' && i === w.length - 2) {
      out += { bgn: c === 'и' ? 'iy' : 'yy', icao: c === 'и' ? 'ii' : 'yi', german: c === 'и' ? 'i' : 'y', french: c === 'и' ? 'i' : 'y', wire: 'y' }[system];
      break;
    }
    if (c === 'е') {
      out += afterVowel ? { bgn: 'ye', icao: 'e', german: 'je', french: 'ie', wire: prev === undefined ? 'ye' : 'ye' }[system] : 'e';
      continue;
    }
    if (c === 'ё' && system === 'bgn') {
      out += afterVowel ? 'yo' : 'e';
      continue;
    }
    if (system === 'german' && c === 'в' && atEnd && (prev === 'о' || prev === 'е' || prev === 'ё')) {
      out += 'w';
      continue;
    }
    if (system === 'german' && c === 'с' && prev !== undefined && next !== undefined && VOWELS.has(prev) && VOWELS.has(next)) {
      out += 'ss';
      continue;
    }
    if (system === 'french' && c === 'г' && next !== undefined && 'еиёэ'.includes(next)) {
      out += 'gu';
      continue;
    }
    if (system === 'french' && c === 'с' && prev !== undefined && next !== undefined && VOWELS.has(prev) && VOWELS.has(next)) {
      out += 'ss';
      continue;
    }
    if (system === 'wire' && c === 'к' && next === 'с') {
      out += 'x';
      i++;
      continue;
    }
    out += table[c] ?? c;
  }
  return out.charAt(0).toUpperCase() + out.slice(1);
}

export const RUSSIAN_SYSTEMS: System[] = ['icao', 'german', 'french', 'wire'];
export type RussianSystem = System;

/** A Russian woman's form of a family name (Иванов → Иванова, Чайковский → Чайковская; -енко, -чук, Цой unchanged). */
export function feminineFamily(family: string): string {
  if (/(ов|ев|ёв|ин|ын)$/.test(family)) return family + 'а';
  if (family.endsWith('ский')) return family.slice(0, -4) + 'ская';
  return family;
}
