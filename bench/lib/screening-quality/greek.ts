/**
 * Greek names written in Greek (for this bench) and two Latin spellings by tables of our own: ELOT 743 (the Greek
 * standard, passports) and the phonetic one common in the press and abroad (Yiorgos, Hatzidakis, Vasiliou).
 */
const words = (s: string): string[] => s.trim().split(/\s+/);

export const GREEK_GIVEN = words(`Γιώργος Γεώργιος Ιωάννης Κωνσταντίνος Δημήτρης Νικόλαος Παναγιώτης Βασίλειος Χρήστος Αθανάσιος
  Μιχάλης Ευάγγελος Σπύρος Αντώνης Ανδρέας Θεόδωρος Σταύρος Αλέξανδρος Πέτρος Γρηγόρης Χαράλαμπος Ηλίας Φώτης Στέλιος
  Κυριάκος Ευστάθιος Λευτέρης Θανάσης Μάρκος Άγγελος`);
export const GREEK_FAMILY = words(`Παπαδόπουλος Παπανικολάου Γεωργίου Οικονόμου Βασιλείου Νικολάου Καραγιάννης Παππάς Αντωνίου
  Μακρής Αθανασίου Ιωάννου Δημητρίου Κωνσταντίνου Χριστοδούλου Παπαγεωργίου Λαμπρόπουλος Κουτσούκος Μπακογιάννης Σαμαράς
  Μητσοτάκης Βενιζέλος Χατζηδάκης Σπανός Ζαχαρίου Θεοδωρίδης Ευαγγέλου Φωτόπουλος Ψαρράς Ξενάκης Κυριακίδης Αλεξίου
  Στεφανίδης Ντόκος Αγγελόπουλος Τσακαλώτος Μαυρίδης Δούκας Μπουκουβάλας Ντελής`);

const LETTERS: Record<string, string> = {
  α: 'a', β: 'v', γ: 'g', δ: 'd', ε: 'e', ζ: 'z', η: 'i', θ: 'th', ι: 'i', κ: 'k', λ: 'l', μ: 'm', ν: 'n', ξ: 'x', ο: 'o',
  π: 'p', ρ: 'r', σ: 's', ς: 's', τ: 't', υ: 'y', φ: 'f', χ: 'ch', ψ: 'ps', ω: 'o',
};
const VOICELESS = new Set('θκξπστφχψ');

export type GreekSystem = 'elot' | 'phonetic';

/** One Greek word in Latin letters, capitalised. */
export function romanizeGreekWord(word: string, system: GreekSystem): string {
  const w = word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  let out = '';
  for (let i = 0; i < w.length; i++) {
    const c = w[i]!;
    const next = w[i + 1];
    const pair = c + (next ?? '');
    const start = i === 0;
    if (pair === 'ου') { out += 'ou'; i++; continue; }
    if ((c === 'α' || c === 'ε' || c === 'η') && next === 'υ') {
      const after = w[i + 2];
      const f = after === undefined || VOICELESS.has(after);
      out += { α: 'a', ε: 'e', η: 'i' }[c] + (f ? 'f' : 'v');
      i++;
      continue;
    }
    if (pair === 'μπ') { out += start ? 'b' : system === 'elot' ? 'mp' : 'mb'; i++; continue; }
    if (pair === 'ντ') { out += start ? 'd' : 'nt'; i++; continue; }
    if (pair === 'γγ') { out += 'ng'; i++; continue; }
    if (pair === 'γκ') { out += start ? 'g' : system === 'elot' ? 'gk' : 'ng'; i++; continue; }
    if (pair === 'γχ') { out += system === 'elot' ? 'nch' : 'nh'; i++; continue; }
    if (system === 'phonetic') {
      if (pair === 'αι') { out += 'e'; i++; continue; }
      if (pair === 'ει' || pair === 'οι') { out += 'i'; i++; continue; }
      if (start && pair === 'γι' && w[i + 2] !== undefined && 'αεοωου'.includes(w[i + 2]!)) { out += 'y'; i++; continue; }
      if (c === 'υ') { out += 'i'; continue; }
      if (c === 'χ') { out += 'h'; continue; }
    }
    out += LETTERS[c] ?? c;
  }
  return out.charAt(0).toUpperCase() + out.slice(1);
}
