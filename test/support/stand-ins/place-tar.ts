/**
 * A `place.tar.xz` as the MusicBrainz JSON dump ships it (musicbrainz-server
 * lib/MusicBrainz/Script/MBDump.pm `make_tar`, JSONDump.pm `write_json`): the members TIMESTAMP,
 * COPYING, README, REPLICATION_SEQUENCE, SCHEMA_SEQUENCE, mbdump/place (one place per line,
 * joined by "\n", no newline after the last), JSON_DUMPS_SCHEMA_NUMBER, in that order, with no
 * directory entry for mbdump/. Packed with the npm package tar-stream, compressed by the system
 * `xz` (Debian's xz-utils, here and in CI), as the dump's own `tar … | xz` does.
 */
import { spawn } from "node:child_process";
import { pack } from "tar-stream";

const README =
  "The file under mbdump/ contains one document (entity) per line, in JSON\n" +
  "format, and is named according to the type of entity in the dump.\n";
// The dump copies admin/COPYING-PublicDomain (the CC0 1.0 legal code); its opening stands in for it here.
const COPYING =
  "Creative Commons Legal Code\n\nCC0 1.0 Universal\n\n(The CC0 1.0 legal code; shortened in this test file.)\n";
const DUMPED = new Date("2026-11-25T00:10:01Z");

/** Bytes through `xz --compress --stdout`. */
function xz(input: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn("xz", ["--compress", "--stdout", "--threads=1"], { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.on("error", (e) => reject(new Error(`xz could not run (is xz-utils installed?): ${e.message}`)));
    child.on("close", (code) =>
      code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`xz exited ${code}: ${Buffer.concat(err)}`)),
    );
    child.stdin.end(input);
  });
}

/** The dump's place.tar.xz holding these `mbdump/place` lines. */
export async function buildPlaceTarXz(lines: string[]): Promise<Buffer> {
  const tar = pack();
  const members: [string, string][] = [
    ["TIMESTAMP", "2026-11-25 00:10:01.246712+00\n"],
    ["COPYING", COPYING],
    ["README", README],
    ["REPLICATION_SEQUENCE", "172034\n"],
    ["SCHEMA_SEQUENCE", "30\n"],
    ["mbdump/place", lines.join("\n")],
    ["JSON_DUMPS_SCHEMA_NUMBER", "1\n"],
  ];
  for (const [name, text] of members) {
    tar.entry({ name, mtime: DUMPED, mode: 0o644, uname: "musicbrainz", gname: "musicbrainz" }, Buffer.from(text));
  }
  tar.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of tar) chunks.push(chunk as Buffer);
  return xz(Buffer.concat(chunks));
}
