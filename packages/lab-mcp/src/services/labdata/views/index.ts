// labdata's views (MCP Apps): a plasmid map, a box and plate map, a results chart. Each page is built
// from views/page/ into the product's dist/views/labdata/ (scripts/build-views.mjs) and read from there
// through the package's own name, the same path from the bundled bins, the compiled tree and the tests.
// The drawing is hand-written SVG, no library: three fixed kinds of picture (arcs on a ring, a grid,
// grouped bars) take a few hundred lines, where a charting library (Chart.js, ECharts, d3) would add
// 60-300 KiB to each page, draw to a canvas that tests and screen readers cannot read, or still need
// the arc and grid layout written by hand. The pages' weight is the extension's App (about 250 KiB).
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { defineView } from "../../../core/view.js";

const require = createRequire(import.meta.url);

/** The built page `name`, read once per process. */
function builtPage(name: string): () => Promise<string> {
  let page: string | undefined;
  return async () => {
    page ??= await readFile(require.resolve(`lab-mcp/views/labdata/${name}.html`), "utf8");
    return page;
  };
}

export const plasmidMapView = defineView({
  name: "plasmid_map_view",
  uri: "ui://labdata/plasmid-map",
  title: "Plasmid map",
  description:
    "A DNA sequence drawn as a circular or linear map: features with name and strand, primers, sites, length and topology.",
  html: builtPage("plasmid-map"),
});

export const boxMapView = defineView({
  name: "box_map_view",
  uri: "ui://labdata/box-map",
  title: "Box and plate map",
  description:
    "A box or plate drawn as its grid: what each position holds, empty and unreadable positions marked.",
  html: builtPage("box-map"),
});

export const resultsChartView = defineView({
  name: "results_chart_view",
  uri: "ui://labdata/chart",
  title: "Results chart",
  description:
    "Assay results, or a warehouse query's numeric columns by its first text column, drawn as bars: one chart per measure with its unit, runs side by side.",
  html: builtPage("results-chart"),
});
