/**
 * The query classes the benchmark measures and the plan test checks: every kind of filter,
 * short and long name prefixes, deep pages, both resources and both formats.
 */
export interface QueryClass {
  id: string;
  label: string;
  resource: "venues" | "cities";
  query: string;
  format: "json" | "xml";
}

const venues = (id: string, label: string, query: string, format: "json" | "xml" = "json"): QueryClass => ({
  id,
  label,
  resource: "venues",
  query,
  format,
});
const cities = (id: string, label: string, query: string, format: "json" | "xml" = "json"): QueryClass => ({
  id,
  label,
  resource: "cities",
  query,
  format,
});

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
  venues("venue-name-xml", "venues name, common word (XML)", "name=club", "xml"),
  cities("city-name", "cities name", "name=paris"),
  cities("city-alternate", "cities alternate name", "name=munchen"),
  cities("city-name-1", "cities name, 1-letter prefix", "name=s"),
  cities("city-name-country", "cities name + country", "name=san&country=US"),
  cities("city-state", "cities state", "state=bavaria"),
  cities("city-deep-100", "cities country, p=100", "country=US&p=100"),
  cities("city-name-xml", "cities name (XML)", "name=paris", "xml"),
];
