/**
 * The sources read once for a plan (scripts/import/shards/read-once.ts): the main database's build
 * keeps its build file as its sources were read, a venue database's build of the same sources
 * starts from a copy of it, and a build of other sources, or of the other --skip-invalid, reads
 * them itself. (That the venue databases built so answer as one database does:
 * test/node/shards.test.ts.)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildFileFrom, createBuildFile } from "../../scripts/import/phases/build-file.ts";
import { noCounts } from "../../scripts/import/phases/counts.ts";
import { dropRead, keepRead, sharedRead } from "../../scripts/import/shards/read-once.ts";

const DIR = mkdtempSync(join(tmpdir(), "vcs-read-once-"));
const READ = join(DIR, "read");
const GERMANY = { code: "DE", iso3: "DEU", name: "Germany", languages: ["de"] };

afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const venueDatabase = (skipInvalid: boolean, sourcesVersion: string) =>
  sharedRead({ count: 2, index: 1, read: READ }, skipInvalid, sourcesVersion);

describe("the sources read once for a plan", () => {
  it("starts a venue database's build from a copy of the main one's, for the same sources alone", () => {
    const main = sharedRead({ count: 2, index: null, read: READ }, false, "v1");
    expect(main.from).toBeUndefined();
    const keep = main.shared?.keep;
    if (keep === undefined) throw new Error("the main database's build keeps its reading");
    expect(venueDatabase(false, "v1")).toEqual({});

    const db = createBuildFile(join(DIR, "main.sqlite"));
    db.exec(`INSERT INTO countries (code, name, name_norm) VALUES ('DE', 'Germany', 'germany');
             INSERT INTO raw_venues (id, name, name_norm, words, names, own, shared, file, line, kind, source, hints)
             VALUES ('v1', 'Olympiastadion', 'olympiastadion', 'olympiastadion', '', '', '', 'generated', 1, 'stadium', 'generated', '')`);
    const counts = { ...noCounts(100), countries: 1, venueSources: ["generated"] };
    keepRead(db, keep, { counts, countries: [GERMANY], problems: { total: 0, kept: [] } });
    db.close();

    const venue = venueDatabase(false, "v1");
    expect(venue.shared?.kept?.counts).toEqual(counts);
    expect(venue.shared?.kept?.countries).toEqual([GERMANY]);
    if (venue.from === undefined) throw new Error("a venue database's build starts from the copy");
    const copy = buildFileFrom(join(DIR, "venue.sqlite"), venue.from);
    expect(copy.prepare("SELECT name FROM countries").pluck().all()).toEqual(["Germany"]);
    expect(copy.prepare("SELECT name FROM raw_venues").pluck().all()).toEqual(["Olympiastadion"]);
    expect(copy.prepare("SELECT count(*) FROM side_venues.venue_docs").pluck().get()).toBe(0);
    copy.close();

    expect(venueDatabase(false, "v2")).toEqual({});
    expect(venueDatabase(true, "v1")).toEqual({});
    dropRead(READ);
    expect(venueDatabase(false, "v1")).toEqual({});
  });
});
