/**
 * "Search this area": the map's view as `bbox`, and a `bbox` of the page's address as the edges to
 * show again (src/page/bbox.ts, docs/architecture.md#the-search-page).
 */
import { describe, expect, it } from "vitest";
import { bboxParam, boxEdges } from "../../src/page/bbox.ts";

describe("the map's view as bbox", () => {
  it("is minLong,minLat,maxLong,maxLat, rounded outwards to 5 decimals", () => {
    expect(bboxParam({ west: 2.123456, south: 48.123456, east: 2.654321, north: 48.654321 })).toBe(
      "2.12345,48.12345,2.65433,48.65433",
    );
    expect(bboxParam({ west: -0.000001, south: -0.000001, east: 0.000001, north: 0.000001 })).toBe(
      "-0.00001,-0.00001,0.00001,0.00001",
    );
    expect(bboxParam({ west: 10, south: 0, east: 20, north: 1 })).toBe("10,0,20,1");
  });

  it("wraps longitudes of a map panned round the world into [-180, 180]", () => {
    expect(bboxParam({ west: 370, south: 1, east: 380, north: 2 })).toBe("10,1,20,2");
    expect(bboxParam({ west: -350, south: 1, east: -340, north: 2 })).toBe("10,1,20,2");
  });

  it("gives minLong > maxLong across the antimeridian, on either side of it", () => {
    expect(bboxParam({ west: 170, south: -20, east: 190, north: -10 })).toBe("170,-20,-170,-10");
    expect(bboxParam({ west: -190, south: -20, east: -170, north: -10 })).toBe("170,-20,-170,-10");
  });

  it("keeps an edge on the antimeridian on its own side", () => {
    expect(bboxParam({ west: 170, south: 0, east: 180, north: 1 })).toBe("170,0,180,1");
    expect(bboxParam({ west: 180, south: 0, east: 190, north: 1 })).toBe("-180,0,-170,1");
    expect(bboxParam({ west: -180, south: 0, east: -170, north: 1 })).toBe("-180,0,-170,1");
  });

  it("is the whole range of longitudes for a view as wide as the world or wider, latitudes clamped", () => {
    expect(bboxParam({ west: -200, south: -95, east: 200, north: 95 })).toBe("-180,-90,180,90");
    expect(bboxParam({ west: 15, south: -60, east: 375, north: 70 })).toBe("-180,-60,180,70");
  });
});

describe("a bbox read back as the edges of a view", () => {
  it("gives the edges the view had, east unwrapped across the antimeridian", () => {
    expect(boxEdges("2.12345,48.12345,2.65433,48.65433")).toEqual({
      west: 2.12345,
      south: 48.12345,
      east: 2.65433,
      north: 48.65433,
    });
    expect(boxEdges("170,-20,-170,-10")).toEqual({ west: 170, south: -20, east: 190, north: -10 });
    expect(boxEdges("-180,-90,180,90")).toEqual({ west: -180, south: -90, east: 180, north: 90 });
    // A view's box read back: the view, rounded outwards by at most a step of 5 decimals (and a float's error).
    for (const edges of [
      { west: 13.1, south: 52.3, east: 13.7, north: 52.7 },
      { west: 170.123456, south: -20, east: 190.654321, north: -10 },
    ]) {
      const back = boxEdges(bboxParam(edges));
      if (back === null) throw new Error("a box the page wrote is a box");
      const outwards = [
        edges.west - back.west,
        edges.south - back.south,
        back.east - edges.east,
        back.north - edges.north,
      ];
      for (const d of outwards) expect(d >= 0 && d < 1.001e-5, String(outwards)).toBe(true);
    }
  });

  it("is null for what is not a box the API takes", () => {
    for (const bbox of [
      "",
      "1,2,3",
      "1,2,3,4,5",
      "a,b,c,d",
      "1,,3,4",
      "181,0,182,1",
      "0,-91,1,0",
      "0,10,1,5",
      "1e2,0,2,1",
    ]) {
      expect(boxEdges(bbox), bbox).toBeNull();
    }
  });
});
