/** The part of setlistfm-js (plain JavaScript, no types of its own) that test/node/setlistfm-client.test.ts calls. */
declare module "setlistfm-js" {
  interface Config {
    key?: string;
    format?: "json" | "xml";
    language?: string;
  }
  /** Each call resolves with the parsed JSON body, or with the Response itself when it is not JSON. */
  class SetlistFmApi {
    constructor(config?: Config);
    searchCountries(): Promise<unknown>;
    searchCities(query: Record<string, string>): Promise<unknown>;
  }
  export = SetlistFmApi;
}
