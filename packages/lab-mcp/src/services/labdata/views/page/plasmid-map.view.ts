// The plasmid map of a DNA sequence: circular or linear, each annotation an arc (or bar) pointing along
// its strand with its name, primers on an inner track, restriction sites as ticks; coordinates on hover,
// the length and topology in the middle, and the same features listed below in words.
import { annotationEnd } from "../../genbank/platform.js";
import { grouped, h, hoverText, s } from "./dom.js";
import { startView } from "./frame.js";
import { type Data, list, number, record, text } from "./read.js";

interface Span {
  name: string;
  kind: string;
  /** 0-based first base, and the base after the last; `end` past `length` when it wraps the origin. */
  start: number;
  end: number;
  strand: 1 | -1 | 0;
  color: string;
  track: "feature" | "primer" | "site";
}

const PALETTE: Record<string, string> = {
  cds: "#4c78a8",
  promoter: "#54a24b",
  terminator: "#e45756",
  rep_origin: "#b279a2",
  primer_bind: "#9d755d",
  misc_feature: "#72b7b2",
};
const FALLBACK = ["#4c78a8", "#f58518", "#54a24b", "#b279a2", "#72b7b2", "#eeca3b", "#ff9da6", "#9d755d"];
/** Only a plain colour reaches a fill attribute (never `url(...)`, which would be a request). */
const HEX_COLOR = /^#[0-9a-f]{3}([0-9a-f]{3})?$/i;

/** The record's features, primers and sites with a place on the sequence; the names of those without one. */
function spansOf(sequence: Data, length: number): { spans: Span[]; unplaced: string[] } {
  const spans: Span[] = [];
  const unplaced: string[] = [];
  const add = (item: Data, track: Span["track"], index: number) => {
    const start = number(item.start);
    const end = number(item.end);
    if (start === undefined || end === undefined || start < 0 || start >= length) {
      unplaced.push(text(item.name) ?? text(item.type) ?? track);
      return;
    }
    const last = annotationEnd(end, length);
    const kind = text(item.type) ?? (track === "primer" ? "primer" : "feature");
    const color = text(item.color);
    spans.push({
      name: text(item.name) ?? kind,
      kind,
      start,
      end: last <= start ? last + length : last,
      strand: item.strand === 1 ? 1 : item.strand === -1 ? -1 : 0,
      color:
        color && HEX_COLOR.test(color)
          ? color
          : (PALETTE[kind.toLowerCase()] ?? FALLBACK[index % FALLBACK.length] ?? "#888"),
      track,
    });
  };
  list(sequence.annotations).forEach((item, index) => {
    add(item, /restriction|enzyme|cut_site/i.test(text(item.type) ?? "") ? "site" : "feature", index);
  });
  list(sequence.primers).forEach((item, index) => {
    add(item, "primer", index);
  });
  return { spans, unplaced };
}

/** Where a span sits, 1-based as people count bases: "1,201..2,400 (1,200 bp), forward". */
function placeText(span: Span, length: number): string {
  const size = span.end - span.start;
  const last = span.end > length ? span.end - length : span.end;
  const strand = span.strand === 1 ? ", forward" : span.strand === -1 ? ", reverse" : "";
  return `${span.name} (${span.kind}): ${grouped(span.start + 1)}..${grouped(last)} (${grouped(size)} bp)${strand}`;
}

/** Lanes so that spans of one track do not overlap: each span gets the first lane free at its start. */
function lanes(spans: Span[], gap: number): number[] {
  const ends: number[] = [];
  return spans.map((span) => {
    let lane = ends.findIndex((end) => end + gap <= span.start);
    if (lane < 0) lane = ends.length;
    ends[lane] = span.end;
    return lane;
  });
}

/** A tick step that gives 4 to 10 ticks: 1, 2 or 5 times a power of ten. */
function tickStep(length: number): number {
  const raw = length / 8;
  const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1)));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => length / step <= 10) ?? 10 * power;
}

/**
 * How much larger than drawn the map's text is set, so that in a narrow frame (the map shrunk to fit)
 * names stay about 10 px or more on screen: 1 in a frame of 560 px or wider, up to 1.9.
 */
function textScale(width: number): number {
  return width > 0 ? Math.min(1.9, Math.max(1, 560 / width)) : 1;
}

/** The map with its text set `scale` times larger (a CSS variable, which the page's policy allows). */
function scaled(svg: SVGSVGElement, scale: number): SVGSVGElement {
  svg.style.setProperty("--text-scale", scale.toFixed(2));
  return svg;
}

// ---- circular ----

const CX = 300;
const CY = 230;
const RING = 120;

function angle(position: number, length: number): number {
  return (position / length) * 2 * Math.PI - Math.PI / 2;
}

function point(radius: number, theta: number): [number, number] {
  return [CX + radius * Math.cos(theta), CY + radius * Math.sin(theta)];
}

/** The outline of a band from angle a0 to a1 between two radii, with an arrowhead on its strand's end. */
function arcPath(a0: number, a1: number, inner: number, outer: number, strand: number): string {
  const middle = (inner + outer) / 2;
  const head = Math.min((a1 - a0) * 0.5, 9 / middle);
  const from = strand === -1 ? a0 + head : a0;
  const to = strand === 1 ? a1 - head : a1;
  const large = to - from > Math.PI ? 1 : 0;
  const p = (r: number, a: number) =>
    point(r, a)
      .map((v) => v.toFixed(1))
      .join(" ");
  const parts = [`M ${p(outer, from)}`, `A ${outer} ${outer} 0 ${large} 1 ${p(outer, to)}`];
  parts.push(strand === 1 ? `L ${p(middle, a1)} L ${p(inner, to)}` : `L ${p(inner, to)}`);
  parts.push(`A ${inner} ${inner} 0 ${large} 0 ${p(inner, from)}`);
  if (strand === -1) parts.push(`L ${p(middle, a0)}`);
  parts.push("Z");
  return parts.join(" ");
}

function circularMap(
  spans: Span[],
  length: number,
  title: string,
  hoverLine: HTMLElement,
  scale: number,
): SVGSVGElement {
  const svg = s("svg", {
    viewBox: "-40 0 680 460",
    class: "map",
    role: "group",
    "aria-label": `Circular map of ${title}`,
  });
  svg.append(s("circle", { cx: CX, cy: CY, r: RING, class: "backbone" }));
  const step = tickStep(length);
  for (let position = 0; position < length; position += step) {
    const a = angle(position, length);
    const [x0, y0] = point(RING - 4, a);
    const [x1, y1] = point(RING - 10, a);
    const [tx, ty] = point(RING - 24, a);
    svg.append(
      s("line", { x1: x0, y1: y0, x2: x1, y2: y1, class: "tick" }),
      s("text", { x: tx, y: ty + 3, class: "tick-label", "text-anchor": "middle" }, grouped(position || 1)),
    );
  }
  const features = spans.filter((span) => span.track === "feature");
  const primers = spans.filter((span) => span.track === "primer");
  const featureLanes = lanes(features, length * 0.005);
  const primerLanes = lanes(primers, length * 0.005);
  const labels: Array<{ span: Span; a: number; r: number }> = [];
  features.forEach((span, index) => {
    const inner = RING + 4 + (featureLanes[index] ?? 0) * 13;
    const a0 = angle(span.start, length);
    const a1 = angle(span.end, length);
    const band = s("path", {
      d: arcPath(a0, a1, inner, inner + 10, span.strand),
      fill: span.color,
      class: "feature",
    });
    hoverText(band, placeText(span, length), hoverLine);
    svg.append(band);
    labels.push({ span, a: (a0 + a1) / 2, r: inner + 10 });
  });
  primers.forEach((span, index) => {
    const outer = RING - 36 - (primerLanes[index] ?? 0) * 8;
    const band = s("path", {
      d: arcPath(angle(span.start, length), angle(span.end, length), outer - 5, outer, span.strand),
      class: "primer",
    });
    hoverText(band, placeText(span, length), hoverLine);
    svg.append(band);
    labels.push({ span, a: angle((span.start + span.end) / 2, length), r: outer });
  });
  for (const span of spans.filter((candidate) => candidate.track === "site")) {
    const a = angle(span.start, length);
    const [x0, y0] = point(RING - 6, a);
    const [x1, y1] = point(RING + 6, a);
    const site = s("line", { x1: x0, y1: y0, x2: x1, y2: y1, class: "site" });
    hoverText(site, placeText(span, length), hoverLine);
    svg.append(site);
    labels.push({ span, a, r: RING + 6 });
  }
  placeLabels(svg, labels, scale);
  svg.append(
    s(
      "text",
      { x: CX, y: CY - 8, class: "title", "text-anchor": "middle" },
      title.length > 24 ? `${title.slice(0, 23)}…` : title,
    ),
    s(
      "text",
      { x: CX, y: CY + 14, class: "subtitle", "text-anchor": "middle" },
      `${grouped(length)} bp · circular`,
    ),
  );
  return svg;
}

/** Names outside the ring, each side stacked top to bottom without overlap, a leader to its feature. */
function placeLabels(
  svg: SVGSVGElement,
  labels: Array<{ span: Span; a: number; r: number }>,
  scale: number,
): void {
  const outside = RING + 62;
  for (const side of [1, -1]) {
    const mine = labels
      .filter((label) => (Math.cos(label.a) >= 0 ? 1 : -1) === side)
      .map((label) => ({ ...label, y: point(outside, label.a)[1] }))
      .sort((a, b) => a.y - b.y);
    let last = -Infinity;
    for (const label of mine) {
      label.y = Math.max(label.y, last + 14 * scale);
      last = label.y;
    }
    for (const label of mine) {
      const [fx, fy] = point(label.r, label.a);
      const x = CX + side * Math.max(Math.sqrt(Math.max(outside ** 2 - (label.y - CY) ** 2, 0)), RING + 30);
      // About 158 units beside the ring for a name, at 6.6 units a character of 12 px text.
      const room = Math.floor(158 / (6.6 * scale));
      const name = label.span.name.length > room ? `${label.span.name.slice(0, room - 1)}…` : label.span.name;
      svg.append(
        s("line", { x1: fx, y1: fy, x2: x - side * 3, y2: label.y - 4, class: "leader" }),
        s(
          "text",
          { x, y: label.y, class: `label ${label.span.track}`, "text-anchor": side === 1 ? "start" : "end" },
          name,
        ),
      );
    }
  }
}

// ---- linear ----

function linearMap(
  spans: Span[],
  length: number,
  title: string,
  topology: string,
  hoverLine: HTMLElement,
): SVGSVGElement {
  const left = 20;
  const width = 660;
  const x = (position: number) => left + (position / length) * width;
  const features = spans.filter((span) => span.track === "feature");
  const primers = spans.filter((span) => span.track === "primer");
  const featureLanes = lanes(features, length * 0.08);
  const primerLanes = lanes(primers, length * 0.08);
  const rows = Math.max(1, ...featureLanes.map((lane) => lane + 1));
  const axis = 40 + rows * 30;
  const height = axis + 40 + Math.max(0, ...primerLanes.map((lane) => lane + 1)) * 26;
  const svg = s("svg", {
    viewBox: `0 0 700 ${height}`,
    class: "map",
    role: "group",
    "aria-label": `Linear map of ${title}`,
  });
  svg.append(
    s("text", { x: left, y: 18, class: "title" }, title.length > 40 ? `${title.slice(0, 39)}…` : title),
    s(
      "text",
      { x: left + width, y: 18, class: "subtitle", "text-anchor": "end" },
      `${grouped(length)} bp · ${topology}`,
    ),
    s("line", { x1: x(0), y1: axis, x2: x(length), y2: axis, class: "backbone" }),
  );
  const step = tickStep(length);
  for (let position = 0; position <= length; position += step) {
    svg.append(
      s("line", { x1: x(position), y1: axis, x2: x(position), y2: axis + 5, class: "tick" }),
      s(
        "text",
        { x: x(position), y: axis + 17, class: "tick-label", "text-anchor": "middle" },
        grouped(position || 1),
      ),
    );
  }
  const bar = (span: Span, y: number, tall: number, className: string) => {
    const x0 = x(span.start);
    const x1 = x(Math.min(span.end, length));
    const head = Math.min(8, (x1 - x0) / 2);
    const mid = y + tall / 2;
    const points =
      span.strand === 1
        ? [
            [x0, y],
            [x1 - head, y],
            [x1, mid],
            [x1 - head, y + tall],
            [x0, y + tall],
          ]
        : span.strand === -1
          ? [
              [x0 + head, y],
              [x1, y],
              [x1, y + tall],
              [x0 + head, y + tall],
              [x0, mid],
            ]
          : [
              [x0, y],
              [x1, y],
              [x1, y + tall],
              [x0, y + tall],
            ];
    const shape = s("polygon", {
      points: points.map((p) => p.join(",")).join(" "),
      class: className,
      fill: className === "feature" ? span.color : undefined,
    });
    hoverText(shape, placeText(span, length), hoverLine);
    const name = span.name.length > 22 ? `${span.name.slice(0, 21)}…` : span.name;
    svg.append(
      shape,
      s("text", { x: (x0 + x1) / 2, y: y - 3, class: `label ${span.track}`, "text-anchor": "middle" }, name),
    );
  };
  features.forEach((span, index) => {
    bar(span, axis - 22 - (featureLanes[index] ?? 0) * 30, 12, "feature");
  });
  primers.forEach((span, index) => {
    bar(span, axis + 34 + (primerLanes[index] ?? 0) * 26, 6, "primer");
  });
  for (const span of spans.filter((candidate) => candidate.track === "site")) {
    const site = s("line", {
      x1: x(span.start),
      y1: axis - 8,
      x2: x(span.start),
      y2: axis + 8,
      class: "site",
    });
    hoverText(site, placeText(span, length), hoverLine);
    svg.append(
      site,
      s("text", { x: x(span.start), y: axis + 30, class: "label site", "text-anchor": "middle" }, span.name),
    );
  }
  return svg;
}

startView("labdata plasmid map", (structured, root) => {
  // The export's answer carries the record under `sequence`; labdata_get_entity's is the record.
  const sequence = record(structured.sequence) ?? structured;
  const title = text(sequence.name) ?? text(sequence.id) ?? "DNA sequence";
  const length = number(sequence.length) ?? text(sequence.bases)?.length;
  const type = text(sequence.entityType);
  root.append(h("h1", {}, h("span", { class: "name" }, title)));
  if (type && type !== "dna_sequence") {
    root.append(
      h("p", { class: "note" }, `A map is drawn for DNA sequences; this is a ${type.replace(/_/g, " ")}.`),
    );
    return;
  }
  if (!length) {
    root.append(h("p", { class: "note" }, "The platform gave no length for this sequence: nothing to draw."));
    return;
  }
  const circular = sequence.isCircular === true;
  const topology = circular ? "circular" : sequence.isCircular === false ? "linear" : "topology not given";
  const { spans, unplaced } = spansOf(sequence, length);
  const hoverLine = h(
    "p",
    { class: "hover", "aria-live": "polite" },
    "Point at a feature to see where it is.",
  );
  root.append(
    h(
      "p",
      { class: "facts" },
      [text(sequence.id), `${grouped(length)} bp`, topology].filter(Boolean).join(" · "),
    ),
    scaled(
      circular
        ? circularMap(spans, length, title, hoverLine, textScale(root.clientWidth))
        : linearMap(spans, length, title, topology, hoverLine),
      textScale(root.clientWidth),
    ),
    hoverLine,
  );
  const listed = h("ul", { class: "contents" });
  for (const span of [...spans].sort((a, b) => a.start - b.start))
    listed.append(h("li", {}, placeText(span, length)));
  root.append(
    spans.length > 0 ? listed : h("p", { class: "note" }, "No features, primers or sites are annotated."),
  );
  // An annotation without a place on the sequence is not drawn; it is named, never left out in silence.
  if (unplaced.length > 0) {
    root.append(
      h("p", { class: "note" }, `Not drawn, no place on the sequence given: ${unplaced.join("; ")}`),
    );
  }
});
