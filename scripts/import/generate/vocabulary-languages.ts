/** Venue name words and patterns of the languages other than English (vocabulary.ts picks them). */

/** A pattern: `{city}` and `{list}` placeholders are filled from the lists (vocabulary.ts fills them). */
type Pattern = string;

/** A language's venue name words (lists) and the patterns they fill. */
export interface Vocabulary {
  lists: Record<string, readonly string[]>;
  patterns: readonly Pattern[];
  /** Share of names drawn from this language's patterns rather than the English ones. */
  localShare: number;
}

export const german: Vocabulary = {
  localShare: 0.7,
  lists: {
    word: [
      "Lido", "Astra", "Gloria", "Capitol", "Tonhalle", "Kesselhaus", "Lokschuppen", "Kantine",
      "Werkstatt", "Fabrik", "Molotow", "Bahnhof", "Hafenklang", "Rosenhof", "Lindenpark",
      "Sonnendeck", "Kuhstall", "Tanzhaus", "Sternwarte", "Mühle", "Schuppen", "Zwölf Apostel",
      "Brückenkopf", "Kulturbahnhof", "Wasserturm", "Kornspeicher", "Ringlokschuppen", "Zollhaus",
    ],
    place: ["Markt", "Hafen", "Ring", "Park", "Dom", "Rathaus", "Schlossberg", "See", "Wall", "Tor", "Anger"],
    zum: [
      "Goldenen Hirsch", "Schwarzen Adler", "Roten Ochsen", "Weißen Rössl", "Blauen Bock",
      "Grünen Baum", "Alten Fritz", "Lustigen Bären", "Goldenen Anker", "Wilden Mann",
    ],
    surname: [
      "Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker",
      "Hoffmann", "Schäfer", "Koch", "Bauer", "Richter", "Klein", "Wolf", "Schröder", "Neumann",
      "Zimmermann", "Braun", "Krüger",
    ],
    suffix: ["Club", "Bar", "Keller", "Halle", "Lounge", "Bühne", "Saal"],
  },
  patterns: [
    "Stadthalle {city}", "Sporthalle {city}", "Festhalle {city}", "Konzerthaus {city}",
    "Kulturzentrum {word}", "Theater am {place}", "Musikclub {word}", "Gasthaus zum {zum}",
    "Brauhaus {surname}", "Stadion am {place}", "Festwiese {city}", "Freilichtbühne {city}",
    "Zeche {word}", "Kulturfabrik {word}", "Jazzkeller {word}", "Biergarten am {place}",
    "Schlachthof {city}", "{word} {suffix}", "{surname}s Bierstube", "Arena {city}",
    "Live Music Hall {city}", "Messehalle {city}",
  ],
};

export const french: Vocabulary = {
  localShare: 0.7,
  lists: {
    word: [
      "Bataclan", "Trianon", "Divan", "Moulin", "Chat Noir", "Petit Bain", "Cigale", "Olympia",
      "Splendid", "Aéronef", "Transbordeur", "Rockstore", "Ferme", "Boule Noire", "Café de la Danse",
      "Maroquinerie", "Flèche d'Or", "Marché Gare", "Épicerie Moderne", "Vapeur", "Coopérative",
    ],
    adj: ["Rouge", "Bleu", "Noir", "Vert", "Doré", "Royal", "Municipal", "Moderne", "Populaire"],
    person: [
      "Jean Jaurès", "Victor Hugo", "Édith Piaf", "Georges Brassens", "Molière", "Jacques Brel",
      "Léo Ferré", "Django Reinhardt", "Charles Trenet", "Barbara",
    ],
  },
  patterns: [
    "Salle {person}", "Théâtre {adj}", "Théâtre de {city}", "Le {word}", "La {word}",
    "Zénith de {city}", "Stade {person}", "Palais des Sports de {city}",
    "Parc des Expositions de {city}", "Espace {person}", "Café {word}", "Bar le {word}",
    "Cabaret {word}", "Salle des Fêtes de {city}", "L'Usine à {word}", "Arènes de {city}",
  ],
};

export const spanish: Vocabulary = {
  localShare: 0.7,
  lists: {
    word: [
      "Apolo", "Razzmatazz", "Caracol", "Galileo", "But", "Copérnico", "Rock Star", "Porta Caeli",
      "Mirador", "Palermo", "La Riviera", "Sol", "Luna", "Estrella", "Vértigo", "Tropical",
      "Mandala", "Bóveda", "Faro", "Paraíso",
    ],
    person: [
      "Cervantes", "Lope de Vega", "Calderón", "García Lorca", "Benito Pérez Galdós", "Colón",
      "Bolívar", "San Martín", "Gardel", "Falla",
    ],
  },
  patterns: [
    "Sala {word}", "Teatro {person}", "Teatro Municipal de {city}", "Estadio {person}",
    "Palacio de los Deportes de {city}", "Auditorio de {city}", "Recinto Ferial de {city}",
    "Bar {word}", "Club {word}", "Plaza de Toros de {city}", "Café {word}", "Peña {word}",
    "Centro Cultural {person}", "Arena {city}",
  ],
};

export const italian: Vocabulary = {
  localShare: 0.7,
  lists: {
    word: [
      "Alcatraz", "Fabrique", "Estragon", "Vidia", "Hiroshima Mon Amour", "Locomotiv", "Magazzini",
      "Circolo degli Artisti", "Stazione", "Fenice", "Aurora", "Gloria", "Carroponte", "Lanterna",
      "Capolinea", "Officina", "Cantiere", "Spazio",
    ],
    person: [
      "Verdi", "Puccini", "Rossini", "Goldoni", "Pirandello", "Garibaldi", "Dante", "Vivaldi",
      "Donizetti", "Bellini",
    ],
  },
  patterns: [
    "Teatro {person}", "Teatro Comunale di {city}", "Stadio {person}",
    "Palazzetto dello Sport di {city}", "Auditorium {person}", "Circolo {word}", "Arena di {city}",
    "Bar {word}", "Locanda {word}", "Piazza {person}", "Club {word}", "Parco {person}",
  ],
};

export const portuguese: Vocabulary = {
  localShare: 0.7,
  lists: {
    word: [
      "Circo Voador", "Fundição", "Audio", "Tropical", "Aurora", "Coliseu", "Capitólio", "Sambódromo",
      "Canecão", "Vivo", "Lapa", "Estrela", "Sereia", "Maré", "Farol",
    ],
    person: [
      "Camões", "Vinicius de Moraes", "Tom Jobim", "Amália Rodrigues", "Carmen Miranda",
      "Pixinguinha", "Castro Alves", "Machado de Assis", "Chico Buarque", "Elis Regina",
    ],
  },
  patterns: [
    "Teatro {person}", "Estádio {person}", "Casa de Shows {word}", "Bar do {person}",
    "Arena {city}", "Ginásio {word}", "Centro Cultural {person}", "Parque de Exposições de {city}",
    "Coliseu de {city}", "Clube {word}", "Espaço {word}",
  ],
};

export const dutch: Vocabulary = {
  localShare: 0.7,
  lists: {
    word: [
      "Paradiso", "Melkweg", "Tivoli", "Doornroosje", "Effenaar", "Vera", "Patronaat", "Gigant",
      "Luxor", "Mezz", "Metropool", "Bibelot", "Nieuwe Nor", "Oosterpoort", "Willemeen", "Hedon",
    ],
    place: ["Markt", "Haven", "Singel", "Gracht", "Dam", "Plein", "Park", "Dijk"],
  },
  patterns: [
    "Poppodium {word}", "Schouwburg {city}", "Stadsschouwburg {city}", "Café {word}",
    "Concertzaal {word}", "Sporthal {word}", "Festivalterrein {city}", "Muziekcentrum {city}",
    "Theater aan de {place}", "Podium {word}", "Cultuurhuis {word}",
  ],
};

export const nordic: Vocabulary = {
  localShare: 0.6,
  lists: {
    word: [
      "Debaser", "Nalen", "Pustervik", "Vega", "Rockefeller", "Tavastia", "Sentrum", "Lille Vega",
      "Kulturhuset", "Stjärnan", "Fyrtornet", "Valhalla", "Norrsken", "Tivoli",
    ],
  },
  patterns: [
    "{city} Konserthus", "Kulturhuset {word}", "Klubb {word}", "{city} Arena", "{city} Stadion",
    "Folkets Hus {city}", "{word} Scen", "Musikhuset {city}", "Bar {word}",
    "Festivalplassen {city}",
  ],
};

export const slavicLatin: Vocabulary = {
  localShare: 0.6,
  lists: {
    word: [
      "Stodoła", "Proxima", "Progresja", "Palladium", "Lucerna", "Roxy", "Akropolis", "Kwadrat",
      "Żak", "Łaźnia", "Hala Stulecia", "Forum", "Dom", "Zima", "Orzeł", "Sokół",
    ],
  },
  patterns: [
    "Klub {word}", "Hala {word}", "Teatr {word}", "Stadion {city}", "Filharmonia {city}",
    "Dom Kultury {word}", "Amfiteatr {city}", "Pub {word}", "Scena {word}", "Arena {city}",
  ],
};

export const cyrillic: Vocabulary = {
  localShare: 0.5,
  lists: {
    word: [
      "Космонавт", "Аврора", "Зал Ожидания", "Главклуб", "Известия", "Юбилейный", "Октябрь",
      "Горбушка", "Стадион Live", "Сектор", "Муза", "Маяк", "Звезда", "Ласточка",
    ],
    latin: ["Kosmonavt", "Avrora", "Glavclub", "Izvestia", "Yubileyny", "Oktyabr", "Sektor", "Mayak"],
  },
  patterns: [
    "Клуб «{word}»", "Театр «{word}»", "Бар «{word}»", "Дворец спорта «{word}»",
    "Концертный зал «{word}»", "{city} Arena", "Club {latin}", "{latin} Hall",
  ],
};

export const japanese: Vocabulary = {
  localShare: 0.6,
  lists: {
    word: [
      "Quattro", "Blitz", "Shelter", "Loft", "Garden", "Liquidroom", "Unit", "Eggman", "Diamond Hall",
      "Big Cat", "Drum Logos", "Penny Lane", "Rensa", "Bottom Line",
    ],
    kana: ["ホール", "ライブハウス", "ドーム", "会館", "劇場"],
    kanji: ["青葉", "桜", "港", "星", "月光", "白鳥", "銀河", "朝日", "若草", "緑"],
  },
  patterns: [
    "Zepp {city}", "{city} Club {word}", "{city} {word}", "Live House {word}", "{city} Kaikan",
    "{city} Dome", "{city} Shimin Hall", "{kanji}{kana}", "{city} Kokusai Forum",
  ],
};

export const turkish: Vocabulary = {
  localShare: 0.6,
  lists: {
    word: ["Babylon", "Zorlu", "Jolly Joker", "IF", "Dorock", "Salon", "Kadıköy", "Moda", "Yeldeğirmeni"],
    person: ["Atatürk", "İnönü", "Barış Manço", "Cem Karaca", "Zeki Müren", "Sezen Aksu"],
  },
  patterns: [
    "{city} Kültür Merkezi", "Sahne {word}", "{person} Stadyumu", "{city} Spor Salonu",
    "Bar {word}", "{word} Sahnesi", "{city} Açıkhava Tiyatrosu", "{person} Konser Salonu",
  ],
};

