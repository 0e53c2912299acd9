/**
 * The languages of names (city, state and country), as setlist.fm localizes them: English, the
 * names themselves, and the translations the import stores (table localized_names, column lang).
 */
export const LANGUAGES = ["en", "es", "fr", "de", "pt", "tr", "it", "pl"] as const;
export type Language = (typeof LANGUAGES)[number];
/** The languages with stored translations (English is the names themselves). */
export const TRANSLATED: readonly Exclude<Language, "en">[] = ["es", "fr", "de", "pt", "tr", "it", "pl"];
