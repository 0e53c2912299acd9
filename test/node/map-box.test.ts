/** "Search this area": the map's view as `bbox` (src/page/bbox.ts, docs/architecture.md#the-search-page). */
import { describe, expect, it } from "vitest";
import { bboxParam } from "../../src/page/bbox.ts";

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
