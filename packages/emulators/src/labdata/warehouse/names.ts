// Warehouse names: what Benchling calls a schema's or field's "warehouse name", lower snake case made
// from its display name ("Tm (°C)" -> "tm_c", "Cell Line" -> "cell_line"), kept unique where they meet.

export function warehouseName(display: string): string {
  const plain = display
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (plain === "") return "field";
  return /^[0-9]/.test(plain) ? `f_${plain}` : plain;
}

/** Hands out names, adding _2, _3... to one already taken. */
export class NameSet {
  readonly #taken: Set<string>;

  constructor(taken: Iterable<string> = []) {
    this.#taken = new Set(taken);
  }

  claim(wanted: string): string {
    let name = wanted;
    for (let n = 2; this.#taken.has(name); n++) name = `${wanted}_${n}`;
    this.#taken.add(name);
    return name;
  }
}
