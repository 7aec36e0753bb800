// A bar chart of labelled numbers, drawn by hand in SVG: categories along the bottom, one bar per series
// side by side in each (one run, or several), the value axis titled with its unit. Any answer with a
// label column and a numeric column can be drawn by turning it into a Chart (assay-charts.ts does so
// for assay results).
import { h, hoverText, s } from "./dom.js";

export interface Chart {
  /** What the values are, e.g. "Editing efficiency". */
  title: string;
  /** Their unit, e.g. "%", shown on the value axis; undefined when the source gives none. */
  unit?: string;
  categories: string[];
  /** One per run (or other group, unnamed when alone): its values by category, undefined where it has none. */
  series: Array<{ name: string; values: Array<number | undefined> }>;
}

const COLORS = ["#4c78a8", "#f58518", "#54a24b", "#e45756", "#b279a2", "#72b7b2", "#eeca3b", "#9d755d"];

/** Round axis bounds and a step: 1, 2 or 5 times a power of ten, about five ticks. */
function axisOf(low: number, high: number): { low: number; high: number; step: number } {
  const span = high - low || Math.abs(high) || 1;
  const power = 10 ** Math.floor(Math.log10(span / 5));
  const step = [1, 2, 5, 10].map((m) => m * power).find((candidate) => span / candidate <= 6) ?? 10 * power;
  return { low: Math.floor(low / step) * step, high: Math.ceil(high / step) * step || step, step };
}

/** Axis numbers without float noise (0.30000000000000004). */
function tickText(value: number, step: number): string {
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  return value.toLocaleString("en-US", { maximumFractionDigits: decimals, minimumFractionDigits: decimals });
}

export function drawChart(chart: Chart, hoverLine: HTMLElement): HTMLElement {
  const values = chart.series.flatMap((series) => series.values.filter((v): v is number => v !== undefined));
  const axis = axisOf(Math.min(0, ...values), Math.max(0, ...values));
  const top = 16;
  const plotHeight = 220;
  const slot = Math.max(28, Math.min(90, 620 / Math.max(chart.categories.length, 1)));
  const barWidth = Math.max(4, (slot - 8) / Math.max(chart.series.length, 1));
  const slanted = chart.categories.some((label) => label.length * 6.5 > slot);
  const longest = Math.min(24, Math.max(0, ...chart.categories.map((label) => label.length)));
  // Slanted names run down to the left of their bar: the axis moves right to keep the first one whole.
  const left = slanted ? Math.max(64, longest * 5.2 - slot / 2) : 64;
  const width = left + slot * chart.categories.length + 16;
  const height = top + plotHeight + (slanted ? longest * 3.8 + 24 : 34);
  const y = (value: number) => top + plotHeight - ((value - axis.low) / (axis.high - axis.low)) * plotHeight;
  const axisTitle = chart.unit ? `${chart.title} (${chart.unit})` : chart.title;
  const svg = s("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "chart",
    role: "group",
    "aria-label": axisTitle,
  });
  for (let tick = axis.low; tick <= axis.high + axis.step / 2; tick += axis.step) {
    svg.append(
      s("line", {
        x1: left,
        y1: y(tick),
        x2: width - 8,
        y2: y(tick),
        class: tick === 0 ? "zero" : "gridline",
      }),
      s(
        "text",
        { x: left - 6, y: y(tick) + 4, class: "tick-label", "text-anchor": "end" },
        tickText(tick, axis.step),
      ),
    );
  }
  svg.append(
    s(
      "text",
      {
        x: 14,
        y: top + plotHeight / 2,
        class: "axis-title",
        "text-anchor": "middle",
        transform: `rotate(-90 14 ${top + plotHeight / 2})`,
      },
      axisTitle,
    ),
  );
  chart.categories.forEach((category, c) => {
    const x0 = left + c * slot + 4;
    chart.series.forEach((series, i) => {
      const value = series.values[c];
      if (value === undefined) return;
      const bar = s("rect", {
        x: x0 + i * barWidth,
        y: Math.min(y(value), y(0)),
        width: Math.max(barWidth - 2, 2),
        height: Math.max(Math.abs(y(value) - y(0)), 1),
        fill: COLORS[i % COLORS.length],
        class: "bar",
      });
      const unit = chart.unit ? ` ${chart.unit}` : "";
      const which = series.name ? `${category} · ${series.name}` : category;
      hoverText(bar, `${which}: ${chart.title} ${value}${unit}`, hoverLine);
      svg.append(bar);
    });
    const cx = left + c * slot + slot / 2;
    const ly = top + plotHeight + 14;
    const name = category.length > 24 ? `${category.slice(0, 23)}…` : category;
    svg.append(
      slanted
        ? s(
            "text",
            { x: cx, y: ly, class: "category", "text-anchor": "end", transform: `rotate(-35 ${cx} ${ly})` },
            name,
          )
        : s("text", { x: cx, y: ly, class: "category", "text-anchor": "middle" }, name),
    );
  });
  const legend = h("p", { class: "legend" });
  chart.series.forEach((series, i) => {
    legend.append(h("span", { class: "key", "data-color": String(i % COLORS.length) }), `${series.name} `);
  });
  return h(
    "section",
    { class: "chart-block" },
    h("h2", {}, axisTitle),
    svg,
    chart.series.length > 1 ? legend : "",
  );
}
