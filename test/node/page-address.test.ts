/**
 * The search page's address (src/page/address.ts, docs/architecture.md#the-search-page): a search
 * written as the page's query string and read back the same; what the page cannot show left out.
 */
import { describe, expect, it } from "vitest";
import {
  addressQuery,
  apiQuery,
  asksAnything,
  readAddress,
  searchQuery,
  suggestQuery,
  type PageSearch,
} from "../../src/page/address.ts";

/** The page as it opens. */
const START: PageSearch = {
  kind: "venues",
  id: "",
  name: "",
  cityName: "",
  country: "",
  state: "",
  near: null,
  bbox: "",
  typos: true,
  asTyped: false,
  page: 1,
  lang: "en",
  view: "list",
};

const search = (changes: Partial<PageSearch>): PageSearch => ({ ...START, ...changes });

describe("a search as the page's address", () => {
  it("is the type, then the API's parameters as the page sends them, then the language and the view", () => {
    expect(addressQuery(search({ name: "arena", cityName: "berlin", page: 2 }))).toBe(
      "type=venues&name=arena&cityName=berlin&p=2",
    );
    expect(
      addressQuery(
        search({
          kind: "cities",
          name: "club berlin",
          country: "DE",
          near: { lat: "48.8566", long: "2.3522", radius: "25" },
          typos: false,
          asTyped: true,
          lang: "de",
          view: "xml",
        }),
      ),
    ).toBe(
      "type=cities&name=club+berlin&country=DE&lat=48.8566&long=2.3522&radius=25&typos=0&places=0&lang=de&view=xml",
    );
    expect(addressQuery(search({ state: "Bayern", bbox: "170,-20,-170,-10" }))).toBe(
      "type=venues&state=Bayern&bbox=170%2C-20%2C-170%2C-10",
    );
  });

  it("is empty for the page as it opens, and says a city search even without a name", () => {
    expect(addressQuery(START)).toBe("");
    expect(addressQuery(search({ kind: "cities" }))).toBe("type=cities");
  });

  it("leaves out what the API would not be sent: a city for cities, places=0 without a name", () => {
    expect(addressQuery(search({ kind: "cities", name: "paris", cityName: "berlin" }))).toBe("type=cities&name=paris");
    expect(addressQuery(search({ country: "DE", asTyped: true }))).toBe("type=venues&country=DE");
  });

  it("reads back as the search it was written from", () => {
    const searches = [
      START,
      search({ kind: "cities", name: "Zürich & Co", typos: false, page: 7, lang: "fr", view: "json" }),
      search({ name: "portland, or", asTyped: true, country: "US", state: "Oregon", cityName: "Portland" }),
      search({ near: { lat: "-33.8688", long: "151.2093", radius: "500" } }),
      search({ kind: "cities", bbox: "-180,-90,180,90" }),
      search({ kind: "cities", id: "2950159", name: "Berlin", country: "DE" }),
      search({ id: "osm-node-123_4", name: "Arena Berlin", cityName: "Berlin" }),
    ];
    for (const s of searches) expect(readAddress(addressQuery(s))).toEqual(s);
  });
});

describe("the API's query of a search", () => {
  it("is what the page sends, in its order", () => {
    const near = { lat: "48.8566", long: "2.3522", radius: "100" };
    expect(apiQuery(search({ name: "versailles", near })).toString()).toBe(
      "name=versailles&lat=48.8566&long=2.3522&radius=100",
    );
    expect(apiQuery(search({ kind: "cities", name: "berln", typos: false })).toString()).toBe("name=berln&typos=0");
  });

  it("asks which name matched whenever there is a name (docs/api.md#which-name-matched), and the address never", () => {
    const arena = search({ name: "arena", country: "US", page: 2 });
    expect(searchQuery(arena).toString()).toBe("name=arena&country=US&p=2&matched=1");
    expect(searchQuery(search({ kind: "cities", name: "leningrad", typos: false })).toString()).toBe(
      "name=leningrad&typos=0&matched=1",
    );
    expect(addressQuery(arena)).toBe("type=venues&name=arena&country=US&p=2");
    // No name, nothing to have matched: the API's query as it was.
    expect(searchQuery(search({ country: "DE" })).toString()).toBe("country=DE");
    expect(searchQuery(search({ near: { lat: "1", long: "2", radius: "10" } })).toString()).toBe(
      "lat=1&long=2&radius=10",
    );
  });

  it("opens a suggestion chosen as its id after the type, the form as it was", () => {
    expect(addressQuery(search({ kind: "cities", id: "2950159", name: "Berlin" }))).toBe(
      "type=cities&id=2950159&name=Berlin",
    );
    expect(asksAnything(search({ id: "2359751b" }))).toBe(true);
  });

  it("asks for something only with a record, a text, a point or a box", () => {
    expect(asksAnything(search({ typos: false, page: 3, lang: "de", asTyped: true }))).toBe(false);
    expect(asksAnything(search({ kind: "cities", cityName: "berlin" }))).toBe(false);
    expect(asksAnything(search({ state: "Texas" }))).toBe(true);
    expect(asksAnything(search({ near: { lat: "0", long: "0", radius: "10" } }))).toBe(true);
    expect(asksAnything(search({ bbox: "0,0,1,1" }))).toBe(true);
  });
});

describe("an address the page did not write", () => {
  it("ignores unknown parameters and values the page has no choice for", () => {
    expect(readAddress("?type=artists&kind=arena&cityId=2950159&typos=no&places=1&view=html&foo=bar")).toEqual(START);
    for (const p of ["0", "-1", "1.5", "two", "", "99999999999999999999"]) expect(readAddress(`p=${p}`).page).toBe(1);
    expect(readAddress("p=42").page).toBe(42);
  });

  it("takes a point only as numbers in range, with a radius, and a box only as four numbers in range", () => {
    for (const near of [
      "lat=48.8&long=2.3",
      "lat=abc&long=2.3&radius=25",
      "lat=91&long=0&radius=25",
      "lat=0&long=-181&radius=25",
      "lat=1&long=2&radius=2.5",
    ]) {
      expect(readAddress(near).near, near).toBeNull();
    }
    expect(readAddress("lat=-48.8&long=2&radius=25").near).toEqual({ lat: "-48.8", long: "2", radius: "25" });
    expect(readAddress("bbox=1,2,3").bbox).toBe("");
    expect(readAddress("bbox=0,10,1,5").bbox).toBe("");
  });

  it("keeps the box of a search given a box and a point, as the page never sends both", () => {
    const read = readAddress("bbox=1,2,3,4&lat=1&long=2&radius=25");
    expect(read.bbox).toBe("1,2,3,4");
    expect(read.near).toBeNull();
  });

  it("takes an id only as the API's ids of the type, and then no page", () => {
    expect(readAddress("type=cities&id=2950159&p=3")).toMatchObject({ id: "2950159", page: 1 });
    expect(readAddress("type=venues&id=osm-way-42").id).toBe("osm-way-42");
    for (const odd of ["type=cities&id=2359751b", "type=cities&id=0", "id=a%20b", `id=${"a".repeat(65)}`, "id="]) {
      expect(readAddress(odd).id, odd).toBe("");
    }
    expect(readAddress("type=cities&id=abc&p=3").page).toBe(3);
  });

  it("takes a field's text as it is, trimmed, for the API to judge", () => {
    expect(readAddress(`name=${"x".repeat(150)}`).name).toHaveLength(150);
    expect(readAddress("name=%20%20club%20berlin%20&country=%E2%82%AC").name).toBe("club berlin");
    expect(readAddress("name=a&name=b").name).toBe("a");
  });
});

describe("the query of the name's suggestions", () => {
  it("is the name and the filters, without a page or a radius", () => {
    const near = { lat: "48.8566", long: "2.3522", radius: "25" };
    expect(
      suggestQuery(search({ name: "arena ber", cityName: "Berlin", country: "DE", page: 4 }), null).toString(),
    ).toBe("name=arena+ber&cityName=Berlin&country=DE");
    expect(suggestQuery(search({ name: "par", near, typos: false }), null).toString()).toBe(
      "name=par&typos=0&lat=48.8566&long=2.3522",
    );
  });

  it("is focused on the point searched near, else on the place the map shows, never beside a box", () => {
    const near = { lat: "48.8566", long: "2.3522", radius: "25" };
    const shown = { lat: "52.52", long: "13.41" };
    expect(suggestQuery(search({ name: "ber", near }), shown).toString()).toBe("name=ber&lat=48.8566&long=2.3522");
    expect(suggestQuery(search({ name: "ber" }), shown).toString()).toBe("name=ber&lat=52.52&long=13.41");
    expect(suggestQuery(search({ name: "ber", bbox: "13,52,14,53" }), shown).toString()).toBe(
      "name=ber&bbox=13%2C52%2C14%2C53",
    );
  });
});
