// How a long notebook entry's markdown is cut into parts (labdata_get_entry's offset): between blocks,
// so that no table, list or paragraph is split; a table longer than a part is cut between its rows and
// the next part repeats its header row. Pure functions over markdown as entryMarkdown writes it.
import { describe, expect, it } from "vitest";
import {
  continuedPart,
  ENTRY_PART_CHARS,
  entryPart,
} from "../../packages/lab-mcp/src/services/labdata/tools/get-entry.js";

const table = (rows: number, tag: string) =>
  [
    "| Sample | Guide | Well | Titer |",
    "|---|---|---|---|",
    ...Array.from(
      { length: rows },
      (_, i) => `| ${tag} sample ${i} (seq_a${i}) | EMX1 | A${i % 12} | 2.0e5 |`,
    ),
  ].join("\n");

/** Every part of `text`, each with the offset it starts at. */
function parts(text: string): Array<{ offset: number; part: string }> {
  const all: Array<{ offset: number; part: string }> = [];
  let offset: number | null = 0;
  for (let i = 0; offset !== null && i < 100; i++) {
    const { part, next }: { part: string; next: number | null } = entryPart(text, offset);
    all.push({ offset, part });
    offset = next;
  }
  return all;
}

describe("a long entry's parts", () => {
  it("are cut between blocks only, every part within the size told", () => {
    const blocks = Array.from({ length: 30 }, (_, day) =>
      [`## Day ${day}`, "Transfected and counted.", table(25, `d${day}`)].join("\n\n"),
    );
    const text = blocks.join("\n\n");
    const cut = parts(text);
    expect(cut.length).toBeGreaterThan(2);
    expect(cut.map(({ part }) => part).join("")).toBe(text);
    for (const { offset, part } of cut.slice(1)) {
      expect(text.slice(offset - 2, offset), `cut at ${offset}`).toBe("\n\n");
      expect(part.length).toBeLessThanOrEqual(ENTRY_PART_CHARS);
    }
  });

  it("cut a table longer than a part between its rows, the next part naming its columns again", () => {
    const text = ["## Plate", "Counted all wells.", table(300, "p")].join("\n\n");
    const cut = parts(text);
    expect(cut.length).toBeGreaterThan(1);
    for (const { offset, part } of cut.slice(1)) {
      expect(text[offset - 1]).toBe("\n");
      expect(part).toMatch(/^\| p sample \d+ /);
      expect(continuedPart(text, offset, part)).toBe(
        `(The table goes on.)\n\n| Sample | Guide | Well | Titer |\n|---|---|---|---|\n${part}`,
      );
    }
    // A part that starts with a block of its own is shown as it is.
    expect(continuedPart(text, text.indexOf("Counted"), "Counted all wells.")).toBe("Counted all wells.");
  });
});
