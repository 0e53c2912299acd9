/**
 * The check of D1's documented limits on a statement (scripts/bench/d1-limits.ts), which the
 * property tests apply to every statement the worker sends: it must see each limit passed, and
 * not mistake SQL keywords or string literals for function calls.
 */
import { describe, expect, it } from "vitest";
import { d1LimitProblems, mostFunctionArguments } from "../../scripts/bench/d1-limits.ts";

describe("D1's limits on a statement", () => {
  it("counts a function's arguments, not those of IN lists, VALUES or strings", () => {
    expect(mostFunctionArguments("SELECT max(a, b, coalesce(c, d, e)) FROM t")).toBe(3);
    expect(mostFunctionArguments("SELECT 1 WHERE x IN (1, 2, 3, 4) AND y = 'f(1, 2, 3, 4, 5)'")).toBe(0);
    expect(mostFunctionArguments("INSERT INTO t VALUES (1, 2, 3, 4, 5)")).toBe(0);
    expect(mostFunctionArguments("SELECT count(*) FROM t")).toBe(1);
  });

  it("sees each limit passed, and nothing in a statement within them", () => {
    const args = Array.from({ length: 33 }, (_, i) => String(i)).join(", ");
    expect(d1LimitProblems(`SELECT max(${args})`, [])).toEqual(["a function of 33 arguments (D1: 32)"]);
    expect(
      d1LimitProblems(
        "SELECT 1",
        Array.from({ length: 101 }, () => 1),
      ),
    ).toEqual(["101 bound parameters (D1: 100)"]);
    expect(d1LimitProblems(`SELECT '${"x".repeat(100_001)}'`, [])).toEqual(["100010 bytes of SQL (D1: 100000)"]);
    expect(d1LimitProblems("SELECT 1 WHERE a LIKE ?", ["x".repeat(51)])).toEqual([
      "a LIKE or GLOB with a bound value of more than 50 bytes",
    ]);
    expect(d1LimitProblems("SELECT 'LIKE' || ?", ["x".repeat(51)])).toEqual([]);
    expect(d1LimitProblems(`SELECT max(${args.split(", ").slice(0, 32).join(", ")})`, [])).toEqual([]);
  });
});
