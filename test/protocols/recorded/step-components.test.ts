// protocols_get_steps on v3 steps in the components model (fact sheet 5.2, [DOC-2018] [SCINOTE-P]
// [SCINOTE-C]): each documented component kind reads as text in the step, in order_id order, not only
// the description, so that the quantities, durations, links and commands of a step reach the agent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callJson, callText } from "../../support/clients.js";
import { connectWithClientToken, type Listening, NEVER_SHOWN } from "./connect.js";
import { type FakeRepository, startFakeRepository } from "./fake-repository.js";

/** A v3 step (5.2) of these components, each `{type_id, order_id, source}` as the 2018 documents list them. */
function v3Step(id: number, previousId: number | null, components: Array<[number, Record<string, unknown>]>) {
  return {
    id,
    guid: `F934${String(id).padStart(28, "0")}`,
    previous_id: previousId,
    previous_guid: null,
    modified_on: 0,
    protocol_id: 0,
    components: components.map(([type_id, source], i) => ({
      id: id * 100 + i,
      guid: `C${id}${i}`,
      // Listed out of order: order_id decides.
      order_id: components.length - i,
      type_id,
      title: type_id === 6 ? "Section" : "component",
      source,
    })),
  };
}

/** The steps endpoint's docs-derived `steps` key (5.1, 12), first step `previous_id: null` [SCINOTE-P]. */
const stepsV3 = {
  steps: [
    v3Step(2, 1, [
      [23, { source: "https://www.protocols.io/files/gel.png", original_name: "gel.png" }],
      [
        21,
        {
          cases: [
            { title: "Cells attached", label: "yes" },
            { title: "Cells floating", label: "no" },
          ],
        },
      ],
      [15, { name: "Count", command: "wc -l reads.fastq", os_name: "Linux", os_version: "" }],
      [
        8,
        {
          name: "ImageJ",
          developer: "NIH",
          repository: "",
          link: "https://imagej.net",
          os_name: "",
          os_version: "",
        },
      ],
      [1, { description: '<div class = "text-blocks">Image the gel.</div>' }],
      [6, { title: "Imaging &amp; analysis" }],
    ]),
    v3Step(1, null, [
      [20, { name: "Dynabeads", sku: "11041", vendor: { name: "Thermo Fisher", username: null } }],
      [7, { link: "https://example.invalid/bead-guide" }],
      [24, { temperature: "4", unit: "°C", title: "Temperature" }],
      [4, { duration: 300000, title: "Incubation" }],
      [3, { amount: "20", unit: "µL", title: "Buffer" }],
      [1, { description: '<div class = "text-blocks">Add buffer to the beads.</div>' }],
      [6, { title: "Binding" }],
    ]),
  ],
  status_code: 0,
};

const STEP_ONE = [
  "Add buffer to the beads.",
  "Buffer: 20 µL",
  "Incubation: 5 min",
  "Temperature: 4 °C",
  "https://example.invalid/bead-guide",
  "Reagent: Dynabeads (Thermo Fisher, cat. no. 11041)",
].join("\n\n");

const STEP_TWO = [
  "Image the gel.",
  "Software: [ImageJ](https://imagej.net) (NIH)",
  "Command (Count): `wc -l reads.fastq`",
  "Cases: Cells attached; Cells floating",
  "[file: gel.png](https://www.protocols.io/files/gel.png)",
].join("\n\n");

let fake: FakeRepository;
let conn: Listening;

beforeAll(async () => {
  fake = await startFakeRepository();
  fake.on("steps", { body: stepsV3 });
  conn = await connectWithClientToken(fake);
});

afterAll(async () => {
  await conn?.close();
  await fake?.close();
});

describe("protocols_get_steps: v3 components (5.2)", () => {
  it("reads every component kind as text, in order_id order, in json", async () => {
    const page = await callJson<{ steps: Array<{ id: number; section: string; step: string }> }>(
      conn,
      "protocols_get_protocol",
      { part: "steps", protocol: "22532" },
    );
    expect(page.steps).toEqual([
      expect.objectContaining({ id: 1, section: "Binding", step: STEP_ONE }),
      expect.objectContaining({ id: 2, section: "Imaging & analysis", step: STEP_TWO }),
    ]);
  });

  it("shows the same text in markdown, with nothing raw", async () => {
    const { text, isError } = await callText(conn, "protocols_get_protocol", {
      part: "steps",
      protocol: "22532",
    });
    expect(isError).toBe(false);
    expect(text).not.toMatch(NEVER_SHOWN);
    expect(text).toContain("## Section: Binding");
    expect(text).toContain("> Buffer: 20 µL\n>\n> Incubation: 5 min\n>\n> Temperature: 4 °C");
    expect(text).toContain("## Section: Imaging & analysis");
    expect(text).toContain("Command (Count): `wc -l reads.fastq`");
    expect(text.indexOf("Add buffer")).toBeLessThan(text.indexOf("Image the gel."));
  });
});

describe("v3 annotation components: safety (19), expected result (17), note (26)", () => {
  let annotated: FakeRepository;
  let reader: Listening;
  beforeAll(async () => {
    annotated = await startFakeRepository();
    annotated.on("steps", {
      body: {
        steps: [
          // Listed last to first by order_id: safety and the expected result come before the description.
          v3Step(1, null, [
            [26, { body: "" }],
            [1, { description: '<div class = "text-blocks">Add 1 mL of TRIzol and pipette.</div>' }],
            [17, { body: "<p>A clear pink lysate.</p>" }],
            [19, { body: "<p>Phenol: work in a fume hood.</p>", link: "" }],
          ]),
        ],
        status_code: 0,
      },
    });
    reader = await connectWithClientToken(annotated);
  });
  afterAll(async () => {
    await reader?.close();
    await annotated?.close();
  });

  it("reads the instruction first, then each annotation under its name; an empty one is left out", async () => {
    const { text } = await callText(reader, "protocols_get_protocol", { part: "steps", protocol: "22532" });
    expect(text).toContain(
      [
        "**Step 1.**",
        "> Add 1 mL of TRIzol and pipette.",
        ">",
        "> Safety: Phenol: work in a fume hood.",
        ">",
        "> Expected result: A clear pink lysate.",
      ].join("\n"),
    );
    expect(text).not.toMatch(/Note:/);
  });
});
