// labdata's views (MCP Apps) in Chromium: the built labdata-mcp bin over stdio, called by a client that
// declares the extension, and each answer drawn by a small host made with the extension's AppBridge
// (test/views/host/host.ts), the view's page in a sandboxed frame. What a person sees is checked: the
// features and their names, the wells and what they hold, the axis with its unit; a name written as HTML
// shows as those characters; the page asks for nothing on the network. The warehouse's answers are a real
// PostgreSQL's (the emulator's warehouse). Screenshots: docs/screenshots.
import { join } from "node:path";
import type { Browser, FrameLocator, Page } from "playwright-core";
import { build } from "rolldown";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WarehouseHandle } from "../../packages/emulators/src/labdata/index.js";
import { CHROMIUM, launchChromium, NO_CHROMIUM, newBrowserProfile, screenshot } from "../support/browser.js";
import { type Connected, connectStdio, ROOT } from "../support/clients.js";
import { useLabdataEmulator } from "../support/emulator.js";
import { apiKeyEnv } from "../support/labdata.js";

if (!CHROMIUM) console.warn(NO_CHROMIUM);

const MIME_TYPE = "text/html;profile=mcp-app";
const RENDERS_VIEWS = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [MIME_TYPE] } } };
const HOSTILE = "<img src=x onerror=alert(1)>";

interface HostPage {
  renderView(html: string, call: { arguments: Record<string, unknown>; result: unknown }): Promise<void>;
}

describe.skipIf(!CHROMIUM)("labdata's views, rendered by an MCP Apps host in Chromium", () => {
  const emulator = useLabdataEmulator({ warehouse: { tenants: ["acme"] } });
  let warehouse: WarehouseHandle;
  let conn: Connected;
  let browser: Browser;
  let hostScript: string;

  beforeAll(async () => {
    warehouse = await emulator.warehouse("acme");
    conn = await connectStdio(
      "labdata-mcp",
      apiKeyEnv(emulator.demo, undefined, { LABDATA_WAREHOUSE_URL: warehouse.url }),
      RENDERS_VIEWS,
    );
    browser = await launchChromium();
    const bundle = await build({
      input: join(ROOT, "test", "views", "host", "host.ts"),
      platform: "browser",
      write: false,
      logLevel: "warn",
      output: { format: "iife" },
    });
    hostScript = bundle.output[0].code;
  });
  afterAll(async () => {
    await browser?.close();
    await conn?.close();
  }, 60_000);

  /** The view a tool links to in tools/list, read as a resource of the server. */
  async function viewOf(tool: string): Promise<string> {
    const { tools } = await conn.client.listTools();
    const uri = (tools.find((candidate) => candidate.name === tool)?._meta?.ui as { resourceUri?: string })
      ?.resourceUri;
    expect(uri).toMatch(/^ui:\/\/labdata\//);
    const { contents } = await conn.client.readResource({ uri: uri as string });
    expect(contents[0]).toMatchObject({ uri, mimeType: MIME_TYPE });
    return (contents[0] as { text: string }).text;
  }

  /**
   * Calls `tool` for real, and renders its view from the answer in the host; the frame, and every
   * request the page made (none may leave it) and every dialog it opened (none may).
   */
  async function render(
    tool: string,
    args: Record<string, unknown>,
    client: Connected = conn,
  ): Promise<{ page: Page; view: FrameLocator; requests: string[]; dialogs: string[] }> {
    const html = await viewOf(tool);
    const result = await client.client.callTool({ name: tool, arguments: args });
    expect(result.isError).toBeFalsy();
    const page = await (await newBrowserProfile(browser)).newPage();
    const requests: string[] = [];
    const dialogs: string[] = [];
    await page.route("**/*", (route) => {
      requests.push(route.request().url());
      return route.abort();
    });
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.setContent(
      `<!doctype html><html><head><style>body{margin:0}iframe{border:0;width:100%;height:600px;display:block}</style></head><body></body></html>`,
    );
    await page.addScriptTag({ content: hostScript });
    // renderView: what test/views/host/host.ts gives the host page.
    await page.evaluate(({ html, call }) => (globalThis as unknown as HostPage).renderView(html, call), {
      html,
      call: { arguments: args, result },
    });
    return { page, view: page.frameLocator("iframe"), requests, dialogs };
  }

  /** A screenshot of the whole frame, as tall as the view asked to be. */
  async function picture(page: Page, name: string): Promise<void> {
    const height = await page.locator("iframe").evaluate((frame) => frame.getBoundingClientRect().height);
    await page.setViewportSize({ width: 800, height: Math.ceil(Math.min(height, 1400)) });
    await screenshot(page, name);
  }

  it("draws a plasmid's map: its features by name, coordinates on hover, length and topology", async () => {
    const id = emulator.demo.registry.shRnaPlasmids["pLKO-shRNA-1"];
    const record = (await conn.client.callTool({
      name: "labdata_get_entity",
      arguments: { id, response_format: "json" },
    })) as unknown as { structuredContent: { length: number; annotations: Array<{ name: string }> } };
    const { length, annotations } = record.structuredContent;
    const { page, view, requests, dialogs } = await render("labdata_get_entity", { id });
    await expect.poll(() => view.locator("svg.map").count()).toBe(1);
    const map = view.locator("svg.map");
    expect(await map.getAttribute("aria-label")).toBe("Circular map of pLKO-shRNA-1");
    expect(await view.locator("svg.map").textContent()).toContain(
      `${length.toLocaleString("en-US")} bp · circular`,
    );
    for (const { name } of annotations) {
      await expect
        .poll(() => view.locator("svg text.label", { hasText: name.slice(0, 20) }).count())
        .toBeGreaterThan(0);
    }
    await view.locator("path.feature").filter({ hasText: "shTP53 hairpin" }).hover();
    expect(await view.locator(".hover").textContent()).toMatch(
      /^shTP53 hairpin \(misc_feature\): [\d,]+\.\.[\d,]+ \(58 bp\), forward$/,
    );
    await picture(page, "plasmid-map");
    // In a narrow frame the map shrinks, and its names grow to stay readable (about 10 px on screen).
    const nameHeight = () =>
      view
        .locator("svg text.label")
        .getByText("dCas9", { exact: true })
        .evaluate((label) => label.getBoundingClientRect().height);
    expect(await nameHeight()).toBeGreaterThanOrEqual(12);
    await page.setViewportSize({ width: 400, height: 700 });
    await expect.poll(nameHeight).toBeGreaterThanOrEqual(11);
    await screenshot(page, "plasmid-map-small");
    expect(requests).toEqual([]);
    expect(dialogs).toEqual([]);
  });

  it("shows a name written as HTML as those characters, never as markup", async () => {
    const created = await conn.client.callTool({
      name: "labdata_create_dna_sequence",
      arguments: {
        name: HOSTILE,
        bases: "ATGC".repeat(300),
        folder_id: emulator.demo.folders["CRISPR Vectors"],
        is_circular: false,
        annotations: [
          { name: "<b>bold</b> promoter", type: "promoter", start: 11, end: 300, strand: "reverse" },
          { name: "EcoRI", type: "restriction_site", start: 601, end: 606, strand: "forward" },
        ],
      },
    });
    const { id } = created.structuredContent as { id: string };
    const { view, requests, dialogs } = await render("labdata_get_entity", { id });
    await expect.poll(() => view.locator("h1").textContent()).toBe(HOSTILE);
    expect(await view.locator("img").count()).toBe(0);
    expect(await view.locator("b").count()).toBe(0);
    expect(await view.locator("svg text.label").first().textContent()).toBe("<b>bold</b> promoter");
    expect(await view.locator("svg.map").textContent()).toContain("1,200 bp · linear");
    // A restriction site the record annotates: a tick across the sequence, named.
    expect(await view.locator("line.site").count()).toBe(1);
    expect(await view.locator("svg text.label.site").textContent()).toBe("EcoRI");
    await view.locator("polygon.feature").first().hover();
    expect(await view.locator(".hover").textContent()).toBe(
      "<b>bold</b> promoter (promoter): 11..300 (290 bp), reverse",
    );
    expect(requests).toEqual([]);
    expect(dialogs).toEqual([]);
  });

  it("draws the export's sequence too", async () => {
    const id = emulator.demo.registry.shRnaPlasmids["pLKO-shRNA-2"];
    const { view } = await render("labdata_export_dna_sequence", { id, format: "genbank" });
    await expect.poll(() => view.locator("h1").textContent()).toBe("pLKO-shRNA-2");
    expect(await view.locator("svg text.label", { hasText: "shKRAS hairpin" }).count()).toBe(1);
  });

  it("draws a box: what each position holds, quantities on hover, empty positions empty", async () => {
    const { view, page, requests } = await render("labdata_get_box_contents", {
      id: emulator.demo.registry.glycerolBoxId,
    });
    await expect.poll(() => view.locator("svg.grid").count()).toBe(1);
    expect(await view.locator("h1").textContent()).toBe("Box Glycerol stocks GS-1");
    expect(await view.locator('[data-position="C4"]').getAttribute("class")).toBe("position filled");
    expect(await view.locator('[data-position="C4"] text.cell-label').textContent()).toBe("pLKO-shRNA-3");
    expect(await view.locator('[data-position="C5"]').getAttribute("class")).toBe("position empty");
    expect(await view.locator(".position.empty").count()).toBe(81 - 4);
    for (const label of ["A", "I", "1", "9"]) {
      expect(await view.locator("svg text.axis", { hasText: new RegExp(`^${label}$`) }).count()).toBe(1);
    }
    await view.locator('[data-position="C4"]').hover();
    expect(await view.locator(".hover").textContent()).toBe(
      "C4: pLKO-shRNA-3 glycerol stock · 1.5 mL · holds pLKO-shRNA-3; DH5alpha pLKO-shRNA-3",
    );
    await view.locator('[data-position="C5"]').hover();
    expect(await view.locator(".hover").textContent()).toBe("C5: empty");
    await picture(page, "box-map");
    expect(requests).toEqual([]);
  });

  it("names what a location holds instead of drawing a grid it does not have", async () => {
    const { view, requests } = await render("labdata_get_box_contents", { id: "-80 °C Freezer A" });
    await expect.poll(() => view.locator("h1").textContent()).toBe("Location -80 °C Freezer A");
    expect(await view.locator("svg.grid").count()).toBe(0);
    expect(await view.locator("ul.contents li").allTextContents()).toEqual(
      expect.arrayContaining(["Freezer A Shelf 2", "Freezer A Rack B", "Glycerol stocks GS-1"]),
    );
    expect(requests).toEqual([]);
  });

  it("draws a plate as its wells, by row letter and column number", async () => {
    const { view } = await render("labdata_get_box_contents", { id: emulator.demo.registry.plateId });
    await expect.poll(() => view.locator("svg.grid circle").count()).toBe(96);
    expect(await view.locator("h1").textContent()).toBe("Plate Primer plate P-1");
    expect(await view.locator("svg text.axis").allTextContents()).toEqual([
      ..."123456789".split(""),
      "10",
      "11",
      "12",
      ..."ABCDEFGH".split(""),
    ]);
    expect(await view.locator(".position.filled").count()).toBeGreaterThan(0);
    expect(await view.locator('[data-position="H12"]').count()).toBe(1);
  });

  it("marks a position whose contents the caller may not read", async () => {
    const { app } = emulator.demo;
    const asApp = await connectStdio(
      "labdata-mcp",
      {
        MCP_TOOLSETS: "all",
        LABDATA_BASE_URL: emulator.demo.baseUrl,
        LABDATA_CLIENT_ID: app.clientId,
        LABDATA_CLIENT_SECRET: app.clientSecret,
      },
      RENDERS_VIEWS,
    );
    try {
      const { view } = await render(
        "labdata_get_box_contents",
        { id: emulator.demo.registry.glycerolBoxId },
        asApp,
      );
      await expect
        .poll(() => view.locator('[data-position="C4"]').getAttribute("class"))
        .toBe("position hidden");
      expect(await view.locator('[data-position="C4"] text.cell-label').textContent()).toBe("no access");
    } finally {
      await asApp.close();
    }
  });

  it("charts assay results with the unit on the axis, several runs side by side", async () => {
    const schemaId = emulator.demo.notebook.assaySchemas["Editing Efficiency"];
    const { view, page, requests } = await render("labdata_list_assay_results", {
      schema_id: schemaId,
      limit: 18,
    });
    await expect.poll(() => view.locator("svg.chart").count()).toBe(3);
    const titles = await view.locator("svg.chart text.axis-title").allTextContents();
    expect(titles).toEqual(["Editing efficiency (%)", "Indel frequency (%)", "Reads aligned (reads)"]);
    const legend = await view.locator(".chart-block").first().locator(".legend").textContent();
    expect(legend?.match(/Run \d+/g)?.length).toBe(3);
    await view.locator("svg.chart").first().locator("rect.bar").first().hover();
    expect(await view.locator(".hover").textContent()).toMatch(
      / · [^·]*Run \d+: Editing efficiency [\d.]+ %$/,
    );
    await picture(page, "results-chart");
    expect(requests).toEqual([]);
  });

  /** The warehouse's answer to `sql`, as the tool's json gives it. */
  async function warehouseRows(sql: string): Promise<Array<Array<string | number | null>>> {
    const answer = await conn.client.callTool({
      name: "labdata_query_warehouse",
      arguments: { sql, response_format: "json" },
    });
    expect(answer.isError).toBeFalsy();
    return (answer.structuredContent as { rows: Array<Array<string | number | null>> }).rows;
  }

  it("charts the warehouse's answer: a bar per row named by its text column, a chart per number", async () => {
    const sql = `SELECT 'Run ' || r.run_number AS run, round(avg(e.editing_efficiency)::numeric, 1) AS mean_efficiency,
                        count(*) AS results
                   FROM editing_efficiency e JOIN ngs_amplicon_run r ON r.id = e.assay_run
                  GROUP BY r.run_number ORDER BY r.run_number`;
    const rows = await warehouseRows(sql);
    expect(rows.length).toBeGreaterThan(1);
    const { view, requests, dialogs } = await render("labdata_query_warehouse", { sql });
    await expect.poll(() => view.locator("svg.chart").count()).toBe(2);
    expect(await view.locator("h1").textContent()).toBe("Warehouse query");
    expect(await view.locator(".facts").textContent()).toBe(`${rows.length} rows, by run`);
    // Computed columns have no unit: the axis says only what they are.
    expect(await view.locator("svg.chart text.axis-title").allTextContents()).toEqual([
      "mean_efficiency",
      "results",
    ]);
    const first = view.locator("svg.chart").first();
    expect(await first.locator("text.category").allTextContents()).toEqual(rows.map((row) => row[0]));
    expect(await first.locator("rect.bar").count()).toBe(rows.length);
    await first.locator("rect.bar").first().hover();
    expect(await view.locator(".hover").textContent()).toBe(
      `${rows[0]?.[0]}: mean_efficiency ${rows[0]?.[1]}`,
    );
    expect(requests).toEqual([]);
    expect(dialogs).toEqual([]);
  });

  it("puts a warehouse column's unit on the axis, from the catalog", async () => {
    const sql = `SELECT DISTINCT ON (p.name) p.name, y.concentration, y.a260_a280
                   FROM plasmid_yield y JOIN dna_sequence p ON p.id = y.plasmid
                  ORDER BY p.name, y.concentration DESC`;
    const rows = await warehouseRows(sql);
    const { view, page } = await render("labdata_query_warehouse", { sql });
    await expect.poll(() => view.locator("svg.chart").count()).toBe(2);
    expect(await view.locator("svg.chart text.axis-title").allTextContents()).toEqual([
      "Concentration (ng/µL)",
      "A260/A280",
    ]);
    expect(await view.locator(".facts").textContent()).toBe(`${rows.length} rows, by Name`);
    const bars = view.locator("svg.chart").first().locator("rect.bar");
    expect(await bars.count()).toBe(rows.length);
    await bars.last().hover();
    const last = rows.at(-1);
    expect(await view.locator(".hover").textContent()).toBe(`${last?.[0]}: Concentration ${last?.[1]} ng/µL`);
    await picture(page, "warehouse-chart");
  });

  it("shows a label and a column name written as HTML in the warehouse's answer as those characters", async () => {
    const sql = `SELECT '${HOSTILE}' AS name, 1.5 AS "<b>value</b>"`;
    const { view, requests, dialogs } = await render("labdata_query_warehouse", { sql });
    await expect.poll(() => view.locator("svg.chart").count()).toBe(1);
    expect(await view.locator("svg.chart text.axis-title").textContent()).toBe("<b>value</b>");
    // Long names are cut on the axis; the whole name is in the bar's tooltip and the hover line.
    expect(await view.locator("svg.chart text.category").textContent()).toBe(`${HOSTILE.slice(0, 23)}…`);
    await view.locator("rect.bar").hover();
    expect(await view.locator(".hover").textContent()).toBe(`${HOSTILE}: <b>value</b> 1.5`);
    expect(await view.locator("rect.bar title").textContent()).toBe(`${HOSTILE}: <b>value</b> 1.5`);
    expect(await view.locator("img").count()).toBe(0);
    expect(await view.locator("b").count()).toBe(0);
    expect(requests).toEqual([]);
    expect(dialogs).toEqual([]);
  });

  it("says in words when the warehouse's answer has no label or no number to chart", async () => {
    const unnamed = await render("labdata_query_warehouse", {
      sql: "SELECT r.run_number, count(*) AS results FROM ngs_amplicon_run r GROUP BY 1 ORDER BY 1",
    });
    await expect
      .poll(() => unnamed.view.locator(".note").textContent())
      .toBe("Nothing to chart: no text column came back to name the bars.");
    expect(await unnamed.view.locator("svg").count()).toBe(0);
    const wordsOnly = await render("labdata_query_warehouse", {
      sql: "SELECT name FROM dna_sequence ORDER BY name LIMIT 3",
    });
    await expect
      .poll(() => wordsOnly.view.locator(".note").textContent())
      .toBe("Nothing to chart: no column of numbers came back.");
    expect(await wordsOnly.view.locator("svg").count()).toBe(0);
    expect(await wordsOnly.view.locator(".facts").textContent()).toBe("3 rows, by Name");
  });

  it("draws the first rows of a long warehouse answer and says how many more, and leaves out inexact numbers", async () => {
    // 100 rows, 90 sent (max_rows), 80 drawn: each cut said.
    const long = await render("labdata_query_warehouse", {
      sql: "SELECT 'Plate ' || g AS plate, g * 1.5 AS signal FROM generate_series(1, 100) AS g",
      max_rows: 90,
    });
    await expect.poll(() => long.view.locator("rect.bar").count()).toBe(80);
    expect(await long.view.locator(".note").allTextContents()).toEqual([
      "The query has more rows than the answer holds: only these are drawn.",
      "The first 80 rows are drawn; 10 more are in the table.",
    ]);
    expect(await long.view.locator("text.category").last().textContent()).toBe("Plate 80");
    // 20 significant digits: the structured copy keeps them as text, which a bar could not show exactly.
    const precise = await render("labdata_query_warehouse", {
      sql: "SELECT 'huge' AS name, 12345678901234567890.5::numeric AS amount, 2 AS small",
    });
    await expect.poll(() => precise.view.locator("svg.chart").count()).toBe(1);
    expect(await precise.view.locator("svg.chart text.axis-title").textContent()).toBe("small");
    expect(await precise.view.locator(".note").textContent()).toBe(
      "1 number is too precise to draw exactly: left out (see the table).",
    );
    const onlyPrecise = await render("labdata_query_warehouse", {
      sql: "SELECT 'huge' AS name, 12345678901234567890.5::numeric AS amount",
    });
    await expect
      .poll(() => onlyPrecise.view.locator(".note").textContent())
      .toBe("Nothing to chart: its numbers are too precise to draw exactly (see the table).");
  });
});
