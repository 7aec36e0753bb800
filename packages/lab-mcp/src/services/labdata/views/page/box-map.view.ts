// The box and plate map: the grid of positions, what sits in each (its name in the cell, quantity and
// contents on hover), empty positions drawn empty, positions the user may not read hatched and marked.
import { gridSize, ROW_LETTERS } from "../../format/grid-layout.js";
import { h, hoverText, s } from "./dom.js";
import { startView } from "./frame.js";
import { type Data, list, number, record, text } from "./read.js";

const CELL = 72;
const MARGIN = 28;

/** "1.5 mL", or undefined when the platform gave no quantity. */
function quantityText(value: unknown): string | undefined {
  const quantity = record(value);
  const amount = number(quantity?.value);
  if (amount === undefined) return undefined;
  const units = text(quantity?.units);
  return units ? `${amount} ${units}` : String(amount);
}

interface Position {
  label: string;
  quantity?: string;
  hover: string;
  kind: "filled" | "hidden";
}

/** What one container shows: its short label, what hover says, and whether the user may read it. */
function positionOf(container: Data, position: string): Position {
  const hiddenId = text(container.inaccessibleId);
  if (hiddenId || container.resourceType === "inaccessible_resource") {
    return { label: "no access", hover: `${position}: a container you may not read`, kind: "hidden" };
  }
  const entities = list(container.contents).flatMap((content) => {
    const entity = record(content.entity);
    return entity ? [entity] : [];
  });
  const unreadable = entities.length > 0 && entities.every((entity) => text(entity.inaccessibleId));
  const contents = list(container.contents).flatMap((content) => {
    const entity = record(content.entity);
    if (!entity) return [];
    if (text(entity.inaccessibleId)) return ["an item you may not read"];
    const name = text(entity.name) ?? text(entity.id);
    const concentration = quantityText(content.concentration);
    return name ? [concentration ? `${name} at ${concentration}` : name] : [];
  });
  const name = text(container.name) ?? text(container.id) ?? "container";
  const first = record(list(container.contents)[0]?.entity);
  const label = text(first?.name) ?? name;
  const parts = [
    `${position}: ${name}`,
    quantityText(container.quantity),
    contents.length > 0 ? `holds ${contents.join("; ")}` : "holds nothing recorded",
  ];
  const hover = parts.filter(Boolean).join(" · ");
  // A container whose every content the user may not read is marked so, as a hidden container is.
  const quantity = quantityText(container.quantity);
  return unreadable
    ? { label: "no access", quantity, hover, kind: "hidden" }
    : { label, quantity, hover, kind: "filled" };
}

/** A label cut to fit a cell of the grid. */
function fitted(label: string, cell: number): string {
  const room = Math.max(3, Math.floor(cell / 5.8));
  return label.length > room ? `${label.slice(0, room - 1)}…` : label;
}

/** Every container in words, by position; one the platform gave no position is listed too, never left out. */
function contentsList(byPosition: Map<string, Data>, containers: Data[]): HTMLUListElement {
  const listed = h("ul", { class: "contents" });
  const positions = [...byPosition].sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }));
  for (const [position, container] of positions)
    listed.append(h("li", {}, positionOf(container, position).hover));
  for (const container of containers.filter((candidate) => !text(candidate.gridPosition))) {
    listed.append(h("li", {}, positionOf(container, "no position").hover));
  }
  return listed;
}

startView("labdata box map", (structured, root) => {
  const storage = record(structured.storage) ?? {};
  const containers = list(structured.containers);
  const byPosition = new Map<string, Data>();
  for (const container of containers) {
    const position = text(container.gridPosition);
    if (position) byPosition.set(position.toUpperCase(), container);
  }
  const id = text(storage.id) ?? "";
  // A location (room, freezer, shelf) has no grid: what is inside it is listed by name.
  if (id.startsWith("loc_")) {
    const inside = list(structured.inside).flatMap((item) => text(item.name) ?? text(item.id) ?? []);
    root.append(
      h("h1", {}, "Location ", h("span", { class: "name" }, text(storage.name) ?? id)),
      h("p", { class: "facts" }, [id, text(record(storage.schema)?.name)].filter(Boolean).join(" · ")),
      inside.length > 0
        ? h("ul", { class: "contents" }, ...inside.map((name) => h("li", {}, name)))
        : h("p", { class: "note" }, "Nothing inside that you may see."),
    );
    return;
  }
  const kind = id.startsWith("plt_") ? "Plate" : "Box";
  const capacity = number(storage.totalCapacity) ?? number(storage.size);
  const [rows, columns] = gridSize(capacity, byPosition.keys());
  const name = text(storage.name) ?? (id || kind);
  const filled =
    capacity === undefined ? `${containers.length} filled` : `${containers.length} of ${capacity} filled`;
  const facts = [
    id,
    text(record(storage.schema)?.name),
    filled,
    text(storage.barcode) && `barcode ${storage.barcode}`,
  ];
  const hoverLine = h(
    "p",
    { class: "hover", "aria-live": "polite" },
    "Point at a position to see what it holds.",
  );
  root.append(
    h("h1", {}, `${kind} `, h("span", { class: "name" }, name)),
    h("p", { class: "facts" }, facts.filter(Boolean).join(" · ")),
  );
  if (rows === 0 || columns === 0) {
    const note =
      containers.length > 0 ? "The platform gave no size or positions for this grid." : "It is empty.";
    root.append(h("p", { class: "note" }, note), contentsList(byPosition, containers));
    return;
  }
  // Cells sized to the frame, so that the grid is drawn at its size on screen and its text stays legible.
  const room = root.clientWidth > 0 ? Math.min(root.clientWidth, 760) : 760;
  const cell = Math.max(22, Math.min(CELL, Math.floor((room - MARGIN - 4) / columns)));
  const width = MARGIN + columns * cell + 4;
  const height = MARGIN + rows * cell + 4;
  const wells = kind === "Plate";
  const svg = s(
    "svg",
    {
      viewBox: `0 0 ${width} ${height}`,
      class: "grid",
      role: "group",
      "aria-label": `${kind} ${name}, ${rows} rows by ${columns} columns`,
    },
    s(
      "defs",
      {},
      s(
        "pattern",
        {
          id: "no-access",
          width: 6,
          height: 6,
          patternUnits: "userSpaceOnUse",
          patternTransform: "rotate(45)",
        },
        s("line", { x1: 0, y1: 0, x2: 0, y2: 6, class: "hatch" }),
      ),
    ),
  );
  for (let c = 0; c < columns; c++) {
    svg.append(
      s(
        "text",
        { x: MARGIN + c * cell + cell / 2, y: MARGIN - 9, class: "axis", "text-anchor": "middle" },
        c + 1,
      ),
    );
  }
  for (let r = 0; r < rows; r++) {
    const letter = ROW_LETTERS.charAt(r);
    svg.append(
      s(
        "text",
        { x: MARGIN - 9, y: MARGIN + r * cell + cell / 2 + 4, class: "axis", "text-anchor": "end" },
        letter,
      ),
    );
    for (let c = 0; c < columns; c++) {
      const position = `${letter}${c + 1}`;
      const container = byPosition.get(position);
      const shown = container ? positionOf(container, position) : undefined;
      const x = MARGIN + c * cell;
      const y = MARGIN + r * cell;
      const state = shown?.kind ?? "empty";
      const group = s("g", { class: `position ${state}`, "data-position": position });
      const shape = wells
        ? s("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell / 2 - 3 })
        : s("rect", { x: x + 2, y: y + 2, width: cell - 4, height: cell - 4, rx: 5 });
      group.append(shape);
      if (shown?.quantity && cell >= 56) {
        group.append(
          s(
            "text",
            { x: x + cell / 2, y: y + cell / 2 + 16, "text-anchor": "middle", class: "cell-quantity" },
            fitted(shown.quantity, cell),
          ),
        );
      }
      if (shown && cell >= 34) {
        group.append(
          s(
            "text",
            { x: x + cell / 2, y: y + cell / 2 + 4, "text-anchor": "middle", class: "cell-label" },
            fitted(shown.label, cell),
          ),
        );
      }
      hoverText(group, shown?.hover ?? `${position}: empty`, hoverLine);
      svg.append(group);
    }
  }
  const legend = h(
    "p",
    { class: "legend" },
    h("span", { class: "key filled" }),
    "holds something ",
    h("span", { class: "key empty" }),
    "empty ",
    h("span", { class: "key hidden" }),
    "you may not read it",
  );
  root.append(svg, hoverLine, legend, contentsList(byPosition, containers));
});
