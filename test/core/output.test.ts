// The output rules: the pagination envelope, markdown helpers and the exact error texts.
import { describe, expect, it } from "vitest";
import {
  ConnectionError,
  errorText,
  InvalidResponseError,
  RemoteStatusError,
  RemoteTimeoutError,
} from "../../packages/lab-mcp/src/core/errors.js";
import { pageOf } from "../../packages/lab-mcp/src/core/paging.js";
import {
  fieldList,
  markdown,
  nameWithId,
  truncate,
  utcTime,
} from "../../packages/lab-mcp/src/core/render.js";

describe("pagination envelope", () => {
  it("has the fields in the conventions' order, items named by the resource", () => {
    expect(Object.keys(pageOf("users", [1, 2], 5, 0))).toEqual([
      "total",
      "count",
      "offset",
      "users",
      "has_more",
      "next_offset",
    ]);
  });

  it.each([
    [5, 0, 2, true, 2],
    [5, 3, 2, false, null],
    [0, 0, 0, false, null],
    [5, 10, 0, false, null],
  ])("total %i, offset %i, %i items: has_more %s, next_offset %s", (total, offset, n, hasMore, next) => {
    const page = pageOf(
      "items",
      Array.from({ length: n }, (_, i) => i),
      total,
      offset,
    );
    expect(page).toMatchObject({ total, count: n, offset, has_more: hasMore, next_offset: next });
  });
});

describe("markdown helpers", () => {
  it("writes times in UTC, readable", () => {
    expect(utcTime("2026-11-22T14:03:59.123+02:00")).toBe("2026-11-22 12:03 UTC");
    expect(utcTime(0)).toBe("1970-01-01 00:00 UTC");
    expect(utcTime("not a date")).toBe("not a date");
  });

  it("puts the id after the name", () => {
    expect(nameWithId("pUC19", "seq_a1")).toBe("pUC19 (seq_a1)");
  });

  it("leaves out empty fields and empty blocks", () => {
    expect(fieldList({ Email: "a@b", Team: undefined, Notes: "", Length: 0 })).toEqual([
      "- **Email**: a@b",
      "- **Length**: 0",
    ]);
    expect(markdown("# T", [], undefined, false, ["- a"])).toBe("# T\n\n- a");
  });

  it("cuts long text and says how to get the rest", () => {
    expect(truncate("ACGTACGT", 4, "use export")).toBe("ACGT… (4 more characters; use export)");
    expect(truncate("ACGT", 4, "use export")).toBe("ACGT");
  });
});

describe("error texts", () => {
  it.each([
    [new RemoteStatusError(404), "Error: Resource not found. Please check the ID is correct."],
    [new RemoteStatusError(403), "Error: Permission denied. You don't have access to this resource."],
    [new RemoteStatusError(429), "Error: Rate limit exceeded. Please wait before making more requests."],
    [new RemoteStatusError(401), "Error: Invalid API authentication"],
    [new RemoteStatusError(418), "Error: API request failed with status 418"],
    [new RemoteTimeoutError(30_000), "Error: Request timed out. Please try again."],
    [new ConnectionError("x"), "Error: Unexpected error occurred: ConnectionError"],
    [new InvalidResponseError("x"), "Error: Unexpected error occurred: InvalidResponseError"],
    [new TypeError("x"), "Error: Unexpected error occurred: TypeError"],
    [new RangeError("x"), "Error: Unexpected error occurred: RangeError"],
  ])("%o -> %s", (error, text) => {
    expect(errorText(error)).toBe(text);
  });
});
