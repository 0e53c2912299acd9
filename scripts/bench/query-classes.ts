/**
 * The query classes the benchmark measures and the plan test checks: every kind of filter,
 * short and long name prefixes, deep pages, both resources and both formats; names with typos
 * (each paired with the strict class it is compared with), names with a place in the text (each
 * paired with the plain name class of the same search), and searches near a point and in a box.
 */
export interface QueryClass {
  id: string;
  label: string;
  resource: "venues" | "cities";
  query: string;
  format: "json" | "xml";
  /** A class whose name has typos: the strict class with the same name spelled right. */
  strictPair?: string;
  /** A class with a place in the text: the class of the same name without it; a suggestion: the name search it is compared with. */
  plainPair?: string;
  /** Suggestions (/1.0/suggest/…) rather than the search. */
  suggest?: true;
}

/** A class's request path. */
export const classPath = (c: QueryClass): string =>
  `/1.0/${c.suggest === true ? "suggest" : "search"}/${c.resource}?${c.query}`;

const of =
  (resource: QueryClass["resource"]) =>
  (
    id: string,
    label: string,
    query: string,
    extra: Partial<Pick<QueryClass, "format" | "strictPair" | "plainPair">> = {},
  ): QueryClass => ({
    id,
    label,
    resource,
    query,
    format: extra.format ?? "json",
    ...(extra.strictPair === undefined ? {} : { strictPair: extra.strictPair }),
    ...(extra.plainPair === undefined ? {} : { plainPair: extra.plainPair }),
  });
const venues = of("venues");
const cities = of("cities");

const LONDON = "lat=51.5074&long=-0.1278";
const PARIS = "lat=48.8566&long=2.3522";
/** Boxes (bbox=minLong,minLat,maxLong,maxLat): about 40 × 30 km around central London and Paris, and western Europe. */
const LONDON_BOX = "bbox=-0.4,51.35,0.15,51.65";
const PARIS_BOX = "bbox=2.05,48.7,2.65,49.0";
const EUROPE_BOX = "bbox=-10,36,20,60";

export const QUERY_CLASSES: readonly QueryClass[] = [
  venues("venue-name-common", "venues name, common word", "name=club"),
  venues("venue-name-1", "venues name, 1-letter prefix", "name=s"),
  venues("venue-name-2", "venues name, 2-letter prefix", "name=sa"),
  venues("venue-name-rare", "venues name, rare word", "name=zollhaus"),
  venues("venue-name-words", "venues name, two words", "name=blue%20room"),
  venues("venue-name-country", "venues name + country", "name=s&country=US"),
  venues("venue-city-id", "venues cityId", "cityId=2950159"),
  venues("venue-city-country", "venues cityName + country", "cityName=london&country=GB"),
  venues("venue-country", "venues country", "country=US"),
  venues("venue-state", "venues state", "state=California"),
  venues("venue-state-code", "venues stateCode + country", "stateCode=CA&country=US"),
  venues("venue-deep-100", "venues country, p=100", "country=US&p=100"),
  venues("venue-deep-1000", "venues all, p=1000", "p=1000"),
  venues("venue-name-deep", "venues name, p=100", "name=s&p=100"),
  venues("venue-name-xml", "venues name, common word (XML)", "name=club", { format: "xml" }),
  venues("venue-fuzzy-common", "venues name with a typo, common word", "name=clbu", {
    strictPair: "venue-name-common",
  }),
  venues("venue-fuzzy-rare", "venues name with a typo, rare word", "name=zolhaus", { strictPair: "venue-name-rare" }),
  venues("venue-fuzzy-words", "venues name with a typo, two words", "name=bleu%20room", {
    strictPair: "venue-name-words",
  }),
  venues("venue-place-city", "venues name and a city in the text", "name=club%20berlin", {
    plainPair: "venue-name-common",
  }),
  venues("venue-near-london", "venues within 10 km of central London", `${LONDON}&radius=10`),
  venues("venue-near-paris", "venues within 100 km of Paris", `${PARIS}&radius=100`),
  venues("venue-near-london-name", "venues named club within 10 km of London", `name=club&${LONDON}&radius=10`),
  venues("venue-near-paris-name", "venues named club within 100 km of Paris", `name=club&${PARIS}&radius=100`),
  venues("venue-near-paris-the", "venues named the within 100 km of Paris", `name=the&${PARIS}&radius=100`),
  venues("venue-near-london-kind", "clubs (kind) within 10 km of London", `kind=club&${LONDON}&radius=10`),
  venues("venue-box-london", "venues in a box around London", LONDON_BOX),
  venues("venue-box-london-name", "venues named club in a box around London", `name=club&${LONDON_BOX}`),
  venues("venue-box-europe-name", "venues named the in a box over western Europe", `name=the&${EUROPE_BOX}`),
  cities("city-name", "cities name", "name=paris"),
  cities("city-alternate", "cities alternate name", "name=munchen"),
  cities("city-name-1", "cities name, 1-letter prefix", "name=s"),
  cities("city-name-country", "cities name + country", "name=san&country=US"),
  cities("city-state", "cities state", "state=bavaria"),
  cities("city-deep-100", "cities country, p=100", "country=US&p=100"),
  cities("city-name-xml", "cities name (XML)", "name=paris", { format: "xml" }),
  cities("city-fuzzy", "cities name with a typo", "name=pasris", { strictPair: "city-name" }),
  cities("city-fuzzy-alternate", "cities alternate name with a typo", "name=munchn", { strictPair: "city-alternate" }),
  cities("city-place-region", "cities name and a region code in the text", "name=Paris%2C%20TX", {
    plainPair: "city-name",
  }),
  cities("city-place-country", "cities name and a country in the text", "name=paris%20france", {
    plainPair: "city-name",
  }),
  cities("city-near-london", "cities within 10 km of central London", `${LONDON}&radius=10`),
  cities("city-near-paris", "cities within 100 km of Paris", `${PARIS}&radius=100`),
  cities("city-near-london-name", "cities named saint within 10 km of London", `name=saint&${LONDON}&radius=10`),
  cities("city-near-paris-name", "cities named saint within 100 km of Paris", `name=saint&${PARIS}&radius=100`),
  cities("city-box-paris", "cities in a box around Paris", PARIS_BOX),
  cities("city-box-paris-name", "cities named saint in a box around Paris", `name=saint&${PARIS_BOX}`),
  cities("city-box-europe-name", "cities named saint in a box over western Europe", `name=saint&${EUROPE_BOX}`),
];

const suggestion = (
  resource: QueryClass["resource"],
  id: string,
  label: string,
  query: string,
  plainPair: string,
): QueryClass => ({
  id,
  label,
  resource,
  query,
  format: "json",
  plainPair,
  suggest: true,
});

/**
 * Suggestions as you type (docs/api.md#suggestions), each measured in turn with the plain name
 * search it must not be slower than (npm run bench -- --suggest).
 */
export const SUGGEST_CLASSES: readonly QueryClass[] = [
  suggestion("venues", "suggest-venue-1", "suggest venues, 1 letter", "name=s", "venue-name-1"),
  suggestion("venues", "suggest-venue-word", "suggest venues, a common word", "name=club", "venue-name-common"),
  suggestion(
    "venues",
    "suggest-venue-place",
    "suggest venues, a city being typed",
    "name=club%20ber",
    "venue-name-common",
  ),
  suggestion(
    "venues",
    "suggest-venue-focus",
    "suggest venues around London",
    `name=the&${LONDON}`,
    "venue-name-common",
  ),
  suggestion("cities", "suggest-city-1", "suggest cities, 1 letter", "name=s", "city-name-1"),
  suggestion("cities", "suggest-city-3", "suggest cities, 3 letters", "name=par", "city-name"),
  suggestion("cities", "suggest-city-alternate", "suggest cities, another name", "name=munch", "city-alternate"),
  suggestion("cities", "suggest-city-focus", "suggest cities around Paris", `name=saint&${PARIS}`, "city-name"),
];
