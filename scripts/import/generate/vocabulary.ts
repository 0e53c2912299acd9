/**
 * Words and name patterns for generated venues, per language of the city's country, so that
 * a venue reads like one of its place: "Stadthalle Augsburg", "Sala Apolo", "Zepp Nagoya",
 * "The Rusty Anchor". Every language also draws on the international (English) patterns,
 * as real music scenes do.
 */

import {
  german,
  french,
  spanish,
  italian,
  portuguese,
  dutch,
  nordic,
  slavicLatin,
  cyrillic,
  japanese,
  turkish,
  type Vocabulary,
} from "./vocabulary-languages.ts";



const english: Vocabulary = {
  localShare: 1,
  lists: {
    adj: [
      "Blue", "Red", "Golden", "Silver", "Velvet", "Electric", "Crystal", "Royal", "Grand", "Old",
      "Little", "Black", "White", "Green", "Purple", "Wild", "Lucky", "Rusty", "Broken", "Hidden",
      "Secret", "Midnight", "Neon", "Copper", "Iron", "Union", "Liberty", "Empire", "Majestic",
      "Starlight", "Sunset", "Riverside", "Harbour", "Northern", "Southern", "Crooked", "Howling",
      "Roaring", "Dancing", "Jolly", "Brass", "Marble", "Ivory", "Amber", "Scarlet", "Emerald",
      "Sonic", "Cosmic", "Atomic", "Analog", "Vinyl", "Lonely", "Humble", "Mighty", "Gilded",
    ],
    noun: [
      "Room", "Lounge", "Tavern", "Saloon", "Cellar", "Basement", "Garage", "Warehouse", "Factory",
      "Mill", "Depot", "Station", "Ballroom", "Parlour", "Den", "Cave", "Attic", "Loft", "Barn",
      "Pavilion", "House", "Social", "Bowl", "Garden", "Yard", "Anchor", "Lantern", "Jukebox",
      "Engine Room", "Boiler Room",
    ],
    animal: [
      "Fox", "Crow", "Raven", "Horse", "Lion", "Stag", "Swan", "Owl", "Cat", "Dog", "Bear", "Wolf",
      "Hound", "Goat", "Hare", "Rooster", "Bull", "Eagle", "Dragon", "Unicorn", "Pelican", "Badger",
    ],
    surname: [
      "Smith", "Taylor", "Wilson", "Brown", "Walker", "Turner", "Hughes", "Murphy", "O'Brien",
      "McCarthy", "Parker", "Cooper", "Fletcher", "Baxter", "Harper", "Bennett", "Sullivan", "Doyle",
      "Quinn", "Mitchell", "Carter", "Foster", "Reynolds", "Gallagher", "Kennedy", "Lawson",
      "Whitfield", "Ashby", "Caldwell", "Donovan",
    ],
    word: [
      "Apollo", "Odeon", "Roxy", "Bijou", "Metro", "Nexus", "Echo", "Vortex", "Orbit", "Zodiac",
      "Rialto", "Palladium", "Forum", "Lyric", "Globe", "Astoria", "Magnet", "Bamboo", "Cobalt",
      "Mercury", "Atlas", "Phoenix", "Nova", "Aurora", "Horizon", "Pulse", "Tempo", "Rhythm",
      "Groove", "Paradise", "Oasis", "Fillmore", "Troubadour", "Wiltern", "Mayan", "Majestic",
    ],
    saint: ["George", "Andrew", "Patrick", "David", "Mary", "John", "Luke", "James", "Paul", "Cecilia"],
  },
  patterns: [
    // arenas and stadiums
    "{city} Arena", "{adj} Arena", "{surname} Arena", "{city} Coliseum", "{city} Civic Center",
    "{city} Convention Center", "{city} Events Centre", "{city} Stadium", "{surname} Field",
    "{surname} Park", "{city} Memorial Stadium", "{city} Sports Ground",
    // theatres and halls
    "The {adj} Theatre", "{surname} Theatre", "{city} Opera House", "{adj} Playhouse",
    "{city} Music Hall", "{surname} Auditorium", "{city} Civic Theatre", "The {word} Theater",
    "{city} Town Hall", "{surname} Hall", "{city} Concert Hall", "{adj} Ballroom",
    "St. {saint}'s Hall", "{city} Corn Exchange", "{surname} & Sons Music Hall", "{word} Theatre",
    // clubs and bars
    "The {adj} {noun}", "Club {word}", "The {noun} Club", "{adj} {noun} Club", "The {word}",
    "{adj} {animal} Club", "The {adj} {animal}", "{surname}'s Bar", "{surname}'s Pub",
    "The {animal} & {animal}", "{adj} {animal} Tavern", "The {adj} {noun} Bar", "{word} Lounge",
    "{word} Social Club", "Rock & Roll {noun}", "The \"{word}\" Room",
    // festival grounds
    "{city} Festival Grounds", "{city} Fairgrounds", "{surname} Farm", "{city} Showground",
    "{adj} Meadows", "{city} Park Festival Site",
  ],
};

const VOCABULARIES: Record<string, Vocabulary> = {
  en: english,
  de: german,
  fr: french,
  es: spanish,
  ca: spanish,
  gl: spanish,
  it: italian,
  pt: portuguese,
  nl: dutch,
  sv: nordic,
  no: nordic,
  nb: nordic,
  nn: nordic,
  da: nordic,
  fi: nordic,
  is: nordic,
  pl: slavicLatin,
  cs: slavicLatin,
  sk: slavicLatin,
  sl: slavicLatin,
  hr: slavicLatin,
  bs: slavicLatin,
  ru: cyrillic,
  uk: cyrillic,
  be: cyrillic,
  bg: cyrillic,
  mk: cyrillic,
  sr: cyrillic,
  ja: japanese,
  tr: turkish,
};

export const ENGLISH = english;

/** The vocabulary for a country's first language, or null where English patterns serve. */
export function vocabularyFor(language: string | undefined): Vocabulary | null {
  const v = language === undefined ? undefined : VOCABULARIES[language];
  return v === undefined || v === english ? null : v;
}

/** Names for venues without a city: open-air sites that belong to no town. */
export const CITYLESS: Vocabulary = {
  localShare: 1,
  lists: english.lists,
  patterns: [
    "{adj} Meadows Festival Site", "{surname} Farm Festival Grounds", "{word} Open Air Grounds",
    "{adj} Valley Festival Site", "{word} Fields", "{adj} {word} Festival Site",
    "{surname}'s Field", "{adj} Hill Open Air", "{word} Lake Festival Grounds",
    "{adj} Forest Stage", "{surname} Estate Open Air", "{adj} {animal} Campsite",
  ],
};
