/**
 * Generated venue names in Cyrillic or Japanese script written in Latin letters, as OpenStreetMap's
 * `name:ru-Latn` or `int_name` gives them for real venues (docs/api.md#every-name-a-venue-has), so
 * that generated venues have other names and a shown name by the same rule. Cyrillic letter by
 * letter (BGN/PCGN, without diacritics); Japanese by the words of the generator's own vocabulary.
 */
const CYRILLIC: Record<string, string> = {
  а: "a",
  б: "b",
  в: "v",
  г: "g",
  д: "d",
  е: "e",
  ё: "yo",
  ж: "zh",
  з: "z",
  и: "i",
  й: "y",
  к: "k",
  л: "l",
  м: "m",
  н: "n",
  о: "o",
  п: "p",
  р: "r",
  с: "s",
  т: "t",
  у: "u",
  ф: "f",
  х: "kh",
  ц: "ts",
  ч: "ch",
  ш: "sh",
  щ: "shch",
  ъ: "",
  ы: "y",
  ь: "",
  э: "e",
  ю: "yu",
  я: "ya",
  і: "i",
  ї: "yi",
  є: "ye",
  ґ: "g",
  ў: "u",
  ј: "j",
  љ: "lj",
  њ: "nj",
  ћ: "c",
  џ: "dz",
  ђ: "dj",
  ѓ: "gj",
  ќ: "kj",
  ѕ: "dz",
};

/** The Japanese words of the generator's vocabulary (vocabulary-languages.ts), in Latin letters. */
const JAPANESE: Record<string, string> = {
  ホール: " Hall",
  ライブハウス: " Live House",
  ドーム: " Dome",
  会館: " Kaikan",
  劇場: " Gekijo",
  青葉: "Aoba",
  桜: "Sakura",
  港: "Minato",
  星: "Hoshi",
  月光: "Gekko",
  白鳥: "Hakucho",
  銀河: "Ginga",
  朝日: "Asahi",
  若草: "Wakakusa",
  緑: "Midori",
};
const JAPANESE_WORD = new RegExp(Object.keys(JAPANESE).join("|"), "g");

function cyrillicLetter(ch: string): string {
  const lower = ch.toLowerCase();
  const latin = CYRILLIC[lower];
  if (latin === undefined) return ch;
  return ch === lower ? latin : latin.charAt(0).toUpperCase() + latin.slice(1);
}

/** The name in Latin letters, or null when it is already (or cannot be written) in them. */
export function romanized(name: string): string | null {
  if (!/[^\P{L}\p{Script=Latin}]/u.test(name)) return null;
  const latin = name
    .replace(JAPANESE_WORD, (word) => JAPANESE[word] ?? word)
    .replace(/\p{Script=Cyrillic}/gu, cyrillicLetter)
    .replace(/\s+/g, " ")
    .trim();
  return /[^\P{L}\p{Script=Latin}]/u.test(latin) ? null : latin;
}
