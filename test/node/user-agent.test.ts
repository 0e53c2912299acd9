/** The User-Agent of the downloads names the project's public home, never a local path or a token. */
import { describe, expect, it } from "vitest";
import { publicHome, userAgent } from "../../scripts/venues/http.ts";

describe("the User-Agent of the downloads", () => {
  it("names a public http(s) home, from a homepage or a git remote of any form", () => {
    expect(publicHome("https://github.com/acme/venue-city-search")).toBe("https://github.com/acme/venue-city-search");
    expect(publicHome("https://github.com/acme/venue-city-search.git\n")).toBe(
      "https://github.com/acme/venue-city-search",
    );
    expect(publicHome("git@github.com:acme/venue-city-search.git")).toBe("https://github.com/acme/venue-city-search");
    expect(publicHome("ssh://git@gitlab.example.org/acme/vcs.git")).toBe("https://gitlab.example.org/acme/vcs");
    expect(publicHome("http://code.example.org/vcs/")).toBe("http://code.example.org/vcs");
    // A token or a user name in the remote stays out.
    expect(publicHome("https://me:ghp_secret@github.com/acme/vcs.git")).toBe("https://github.com/acme/vcs");
  });

  it("sends nothing for a folder, a file URL, or a host on a private network", () => {
    for (const local of [
      "/home/me/src/venue-city-search",
      "../venue-city-search",
      "C:\\src\\venue-city-search",
      "file:///home/me/src/venue-city-search",
      "me@buildbox:repos/vcs.git",
      "https://localhost/vcs",
      "http://192.168.1.20/vcs.git",
      "http://10.0.0.5/vcs.git",
      "https://git.internal/vcs",
      "https://nas.local/vcs",
      "http://[::1]/vcs",
      "",
    ]) {
      expect(publicHome(local), local).toBeNull();
    }
  });

  it("names this checkout without a local path", () => {
    const ua = userAgent("ops@example.org");
    expect(ua).toMatch(/^venue-city-search\/\d+\.\d+\.\d+ \(\+(https?:\/\/[^ ;]+; )?ops@example\.org\)$/);
    expect(ua).not.toContain(process.cwd());
  });
});
