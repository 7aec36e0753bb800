// The results chart: each numeric measure of the answer as bars with its unit on the axis, one run or
// several side by side; the values on hover.
import { assayCharts } from "./assay-charts.js";
import { drawChart } from "./chart.js";
import { h } from "./dom.js";
import { startView } from "./frame.js";
import { list } from "./read.js";

startView("labdata results chart", (structured, root) => {
  const charts = assayCharts(structured);
  const count = list(structured.assay_results).length;
  root.append(
    h("h1", {}, "Assay results"),
    h("p", { class: "facts" }, `${count} ${count === 1 ? "result" : "results"} on this page`),
  );
  if (charts.length === 0) {
    root.append(h("p", { class: "note" }, "No numeric values to chart in this answer."));
    return;
  }
  const hoverLine = h("p", { class: "hover", "aria-live": "polite" }, "Point at a bar to see its value.");
  root.append(...charts.map((chart) => drawChart(chart, hoverLine)), hoverLine);
});
