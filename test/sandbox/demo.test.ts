// npm run demo: the built lab-demo bin tours both servers through a real MCP client, prints each step
// with what the agent sees (progress included), exits 0 by itself and leaves nothing behind.
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TOUR_STEPS } from "../../packages/emulators/src/demo/tour.js";
import { runBin } from "./processes.js";

describe("lab-demo", () => {
  it("tours both servers step by step, exits 0 and cleans up", { timeout: 90_000 }, async () => {
    const demo = runBin("lab-demo");
    const code = await demo.exited(80_000);
    const output = demo.output();
    expect(code, output).toBe(0);

    // Every step, in order.
    let from = 0;
    TOUR_STEPS.forEach((title, index) => {
      const at = output.indexOf(`== ${index + 1}. ${title}\n`, from);
      expect(at, `step ${index + 1} "${title}"`).toBeGreaterThan(from - 1);
      from = at;
    });
    // What an agent sees at each step.
    const expected = [
      /labdata_mcp 0\.1\.0: \d+ tools\n {2}labdata_[a-z_]+ /,
      /protocols_mcp 0\.1\.0: \d+ tools\n {2}protocols_download_pdf/,
      /> labdata_get_current_user \{\}\n {2}\| # Signed in to the lab data platform/,
      /\| - \*\*Authentication\*\*: API key/,
      /> labdata_list_entities \{"name":"Cas9","limit":5\}\n[^>]*\(showing 1–5\)[^>]*More: call again with offset=5\./,
      /> labdata_list_entities \{"name":"Cas9","limit":5,"offset":5\}\n[^>]*\(showing 6–10\)/,
      /> labdata_get_entity \{"id":"seq_\w+"\}\n {2}\| # .+ \(seq_\w+\)/,
      /> labdata_list_entities \{"limit":3,"offset":1500\}\n( {2}… progress \d+%: Skipping to offset 1500: \d+ of 1500 read\n){3,}/,
      /\(showing 1501–1503\)/,
      /> labdata_export_dna_sequence \{"id":"seq_\w+","format":"genbank"\}\n {2}\| LOCUS {7}/,
      /\| FEATURES {13}Location\/Qualifiers/,
      /\| \/\/\n/,
      /> labdata_list_entries \{"name":"Cas9 screen","author":"me",[^\n]*\}\n[^>]*Cas9 screen – HEK293T guide panel \(etr_\w+\)/,
      /> labdata_get_entry \{"id":"etr_\w+"\}\n {2}\| # Cas9 screen – HEK293T guide panel/,
      /> labdata_list_assay_results \{"run":"12"\}\n[^>]*Run: NGS Amplicon Run 12/,
      /> labdata_list_tasks \{\}\n {2}\| # Open tasks assigned to you \(Mira Patel/,
      /> labdata_query_warehouse \{"sql":"SELECT r\.run_number, [^\n]*\}\n {2}\| 3 rows\.\n[^>]*\| \| Run number \| results \| mean_efficiency \|\n[^>]*\| \| 13 \| 6 \| 78\.3 \|/,
      /> protocols_search \{"keyword":"western blot","limit":3\}\n {2}\| # Protocol search: 'western blot'/,
      /> protocols_get_protocol \{"part":"steps","protocol":"\d+","limit":3\}\n(?: {2}\|.*\n)*? {2}\| \*\*Step 1\.\*\*/,
      /> protocols_download_pdf \{"protocol":"\d+"\}\n {2}… progress \d+%: /,
      /\| # PDF: .+\n[^>]*\| - \*\*Pages\*\*: \d+/,
      /\| \[file \S+\.pdf: protocols:\/\/protocols\//,
      /\(the client saves the PDF as \S+\.pdf\)/,
      /Done\. The client saved the PDF in a temp folder, now removed/,
    ];
    for (const pattern of expected) expect(output).toMatch(pattern);
    expect(output).not.toMatch(/isError|Error:/);

    // The PDF's temp folder is gone, and so are the servers.
    const pdf = /the client saves the PDF as (\S+\.pdf)/.exec(output)?.[1] as string;
    expect(existsSync(pdf)).toBe(false);
    for (const url of output.matchAll(/(http:\/\/127\.0\.0\.1:\d+\/mcp)/g)) {
      await expect(fetch(url[1] as string, { method: "POST" })).rejects.toThrow();
    }
  });

  it("documents itself in --help", async () => {
    const demo = runBin("lab-demo", ["--help"]);
    expect(await demo.exited()).toBe(0);
    expect(demo.stdout()).toMatch(/^Usage: lab-demo \[--download-dir <dir>\]/);
  });
});
