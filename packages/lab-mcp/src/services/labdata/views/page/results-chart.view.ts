// The results chart: each numeric measure of the answer as bars with its unit on the axis, one run or
// several side by side; the values on hover. Two answers draw here: assay results, and the warehouse's
// rows where a label column and a numeric column come back.
import { assayCharts } from "./assay-charts.js";
import { type Chart, drawChart } from "./chart.js";
import { grouped, h } from "./dom.js";
import { startView } from "./frame.js";
import { type Data, list } from "./read.js";
import { isWarehouseAnswer, MAX_BARS, warehouseCharts } from "./warehouse-charts.js";

const plural = (count: number, one: string, many: string) => `${grouped(count)} ${count === 1 ? one : many}`;

function drawCharts(charts: Chart[], root: HTMLElement): void {
  const hoverLine = h("p", { class: "hover", "aria-live": "polite" }, "Point at a bar to see its value.");
  root.append(...charts.map((chart) => drawChart(chart, hoverLine)), hoverLine);
}

function drawAssayResults(structured: Data, root: HTMLElement): void {
  const charts = assayCharts(structured);
  const count = list(structured.assay_results).length;
  root.append(
    h("h1", {}, "Assay results"),
    h("p", { class: "facts" }, `${plural(count, "result", "results")} on this page`),
  );
  if (charts.length === 0) {
    root.append(h("p", { class: "note" }, "No numeric values to chart in this answer."));
    return;
  }
  drawCharts(charts, root);
}

function drawWarehouseAnswer(structured: Data, root: HTMLElement): void {
  const answer = warehouseCharts(structured);
  const facts = `${plural(answer.rows, "row", "rows")}${answer.labels ? `, by ${answer.labels}` : ""}`;
  root.append(h("h1", {}, "Warehouse query"), h("p", { class: "facts" }, facts));
  const note = (words: string) => root.append(h("p", { class: "note" }, words));
  if (structured.cut) note("The query has more rows than the answer holds: only these are drawn.");
  const nothing =
    answer.rows === 0
      ? "The query returned no rows."
      : !answer.labels
        ? "Nothing to chart: no text column came back to name the bars."
        : answer.charts.length > 0
          ? undefined
          : answer.inexact > 0
            ? "Nothing to chart: its numbers are too precise to draw exactly (see the table)."
            : "Nothing to chart: no column of numbers came back.";
  if (nothing) {
    note(nothing);
    return;
  }
  if (answer.undrawnRows > 0) {
    note(
      `The first ${MAX_BARS} rows are drawn; ${plural(answer.undrawnRows, "more is", "more are")} in the table.`,
    );
  }
  if (answer.inexact > 0) {
    note(
      `${plural(answer.inexact, "number is", "numbers are")} too precise to draw exactly: left out (see the table).`,
    );
  }
  drawCharts(answer.charts, root);
}

startView("labdata results chart", (structured, root) => {
  if (isWarehouseAnswer(structured)) drawWarehouseAnswer(structured, root);
  else drawAssayResults(structured, root);
});
