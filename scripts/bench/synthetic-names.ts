/**
 * Names recombined from two real ones, as the synthetic cities get them (synthetic-cities.ts):
 * word halves joined where they read naturally, or whole words mixed.
 */

/** The longest name the import takes. */
export const MAX_NAME = 200;

/** A name (words separated by single spaces) and where its last word can be cut in two. */
export interface Name {
  text: string;
  /** Cut positions in `text`, as char codes: 200,000 short strings take less memory than arrays. */
  cuts: string;
}

/** A's words but the last, then the head of A's last word and the tail of B's: "Berlin" + "Hamburg" → "Bemburg". */
export function splice(a: Name, b: Name, f: number, g: number): string {
  const aCut = a.cuts.charCodeAt(Math.floor(f * a.cuts.length));
  const bCut = b.cuts.charCodeAt(Math.floor(g * b.cuts.length));
  const bLast = b.text.slice(b.text.lastIndexOf(" ") + 1);
  // A word that cannot be cut is kept whole, and the two whole words stand side by side.
  const name =
    Number.isNaN(aCut) || Number.isNaN(bCut) ? `${a.text} ${bLast}` : a.text.slice(0, aCut) + b.text.slice(bCut);
  return bounded(name, a.text);
}

/** The first half of A's words and the second half of B's: "El Tarter" + "Pas de la Casa" → "El la Casa". */
export function mixWords(a: Name, b: Name): string {
  const aWords = a.text.split(" ");
  const bWords = b.text.split(" ");
  const head = aWords.slice(0, Math.ceil(aWords.length / 2));
  const tail = bWords.slice(Math.floor(bWords.length / 2));
  return bounded([...head, ...tail].join(" "), a.text);
}

/** The name cut to the import's limit (never inside a surrogate pair), or `fallback` if nothing is left. */
function bounded(name: string, fallback: string): string {
  if (name.length <= MAX_NAME) return name;
  let end = MAX_NAME;
  if (/[\udc00-\udfff]/.test(name.charAt(end))) end--;
  return name.slice(0, end).trim() || fallback.slice(0, MAX_NAME);
}

export function parts(name: string): Name {
  // Brackets and quotes ("Colonia X (Lucha Social)", 'Poselok "Y"') would be cut open by the recombination.
  const plain = name
    .replace(/\([^()]*\)|\[[^[\]]*\]/g, " ")
    .replace(/["“”„«»]/g, "")
    .trim();
  const text = (plain || name).split(/\s+/).join(" ");
  const start = text.lastIndexOf(" ") + 1;
  return { text, cuts: String.fromCharCode(...cuts(text.slice(start)).map((i) => start + i)) };
}

/**
 * Where a word can be cut so that heads and tails join readably: after a vowel and before a
 * consonant ("Be|rlin"), away from the ends if possible; failing that between any two letters
 * (scripts without known vowels). Never before a combining mark or inside a surrogate pair,
 * which are not letters here.
 */
function cuts(word: string): number[] {
  const vowelConsonant: number[] = [];
  const letters: number[] = [];
  for (let i = 1; i < word.length; i++) {
    const before = charClass(word.charAt(i - 1));
    const after = charClass(word.charAt(i));
    if (before !== OTHER && after !== OTHER) letters.push(i);
    if (before === VOWEL && after === CONSONANT) vowelConsonant.push(i);
  }
  const inner = vowelConsonant.filter((i) => i >= 2 && i <= word.length - 2);
  return inner.length > 0 ? inner : vowelConsonant.length > 0 ? vowelConsonant : letters;
}

const OTHER = 0;
const VOWEL = 1;
const CONSONANT = 2;
const VOWELS = new Set([..."aeiouyıæøœаеёиоуыэюяіїєαεηιουωάέήίόύώ"]);
const LETTER = /^\p{L}$/u;
const classes = new Map<string, number>();

function charClass(ch: string): number {
  let c = classes.get(ch);
  if (c === undefined) {
    const plain = ch.normalize("NFD").charAt(0).toLowerCase();
    c = !LETTER.test(ch) ? OTHER : VOWELS.has(plain) ? VOWEL : CONSONANT;
    classes.set(ch, c);
  }
  return c;
}
