// The INSDC feature table's location grammar (https://www.insdc.org/submitting-standards/feature-table/,
// section 3.4): ranges with `<`/`>` partial ends, single bases, complement(), join() and order(), read
// by one recursive descent in a single pass (nesting bounded), and written back. Forms that name no
// range of this record (a base between two, `x.y`, another entry's `J00194.1:1..10`) are kept as text
// and reported by the caller as not storable.

/** One stretch of bases, 1-based and inclusive as in GenBank; `<`/`>` marks a partial end. */
export interface Segment {
  start: number;
  end: number;
  strand: 1 | -1;
  /** The start is `<n` (the feature begins before it) or `>n`. */
  startMark: "" | "<" | ">";
  endMark: "" | "<" | ">";
}

export interface ParsedLocation {
  /** join: one feature of several parts in order; order: parts in an order not known. */
  operator: "join" | "order" | undefined;
  /** Parts in biological order (complement(join(a,b)) lists b then a, as Biopython does). */
  segments: Segment[];
  /** Why the location names no range of this record, when it does not. */
  unsupported?: string;
}

/** Deeper nesting than any real file needs; a hostile one is refused before the stack is at risk. */
const MAX_DEPTH = 16;
/** More parts than any real feature has (a gene of many exons has hundreds); a bound on the work. */
const MAX_PARTS = 10_000;

export class LocationError extends Error {}

type Node =
  | { kind: "range"; segment: Segment }
  | { kind: "other"; why: string }
  | { kind: "complement"; inner: Node }
  | { kind: "join" | "order"; parts: Node[] };

/** Reads a location; throws LocationError when it is not one. */
export function parseLocation(text: string): ParsedLocation {
  const reader = new Reader(text.replace(/\s+/g, ""));
  const node = reader.node(0);
  if (reader.at < reader.text.length)
    throw new LocationError(`unexpected '${reader.text[reader.at]}' at character ${reader.at + 1}`);
  const operators = new Set<"join" | "order">();
  const whys: string[] = [];
  const segments = flatten(node, 1, operators, whys);
  const operator = operators.has("order") ? "order" : operators.has("join") ? "join" : undefined;
  const mixed = operators.size > 1 ? "join and order mixed" : undefined;
  const unsupported = whys[0] ?? mixed;
  return { operator, segments, ...(unsupported ? { unsupported } : {}) };
}

function flatten(node: Node, strand: 1 | -1, operators: Set<"join" | "order">, whys: string[]): Segment[] {
  switch (node.kind) {
    case "range":
      return [{ ...node.segment, strand: strand === 1 ? node.segment.strand : flip(node.segment.strand) }];
    case "other":
      whys.push(node.why);
      return [];
    case "complement":
      // join() under it turns its parts round; a lone range has nothing to turn.
      return flatten(node.inner, flip(strand), operators, whys);
    default: {
      operators.add(node.kind);
      const parts = node.parts.flatMap((part) => flatten(part, 1, operators, whys));
      return strand === 1 ? parts : parts.reverse().map((s) => ({ ...s, strand: flip(s.strand) }));
    }
  }
}

const flip = (strand: 1 | -1): 1 | -1 => (strand === 1 ? -1 : 1);

class Reader {
  at = 0;
  private parts = 0;
  constructor(readonly text: string) {}

  node(depth: number): Node {
    if (depth > MAX_DEPTH) throw new LocationError(`nested deeper than ${MAX_DEPTH} levels`);
    for (const word of ["complement", "join", "order"] as const) {
      if (this.text.startsWith(`${word}(`, this.at)) {
        this.at += word.length + 1;
        const parts = [this.node(depth + 1)];
        while (this.text[this.at] === ",") {
          this.at += 1;
          if (++this.parts > MAX_PARTS) throw new LocationError(`more than ${MAX_PARTS} parts`);
          parts.push(this.node(depth + 1));
        }
        this.expect(")");
        if (word !== "complement") return { kind: word, parts };
        if (parts.length !== 1) throw new LocationError("complement() takes one location");
        return { kind: "complement", inner: parts[0] as Node };
      }
    }
    return this.simple();
  }

  /** A range, a single base, or a form naming no range here (a:b reference, x^y, x.y). */
  private simple(): Node {
    const begin = this.at;
    // A reference to another entry: accession[.version]:location
    const colon = this.scanAccession();
    if (colon !== undefined) {
      this.at = colon + 1;
      this.position();
      if (this.text.startsWith("..", this.at)) {
        this.at += 2;
        this.position();
      }
      return { kind: "other", why: `it points into another entry (${this.text.slice(begin, this.at)})` };
    }
    const first = this.position();
    if (this.text.startsWith("..", this.at)) {
      this.at += 2;
      const second = this.position();
      return {
        kind: "range",
        segment: {
          start: first.value,
          end: second.value,
          strand: 1,
          startMark: first.mark,
          endMark: second.mark,
        },
      };
    }
    if (this.text[this.at] === "^" || this.text[this.at] === ".") {
      const sign = this.text[this.at];
      this.at += 1;
      this.position();
      const what = sign === "^" ? "a site between two bases" : "one base somewhere in a range";
      return { kind: "other", why: `it is ${what} (${this.text.slice(begin, this.at)})` };
    }
    return {
      kind: "range",
      segment: {
        start: first.value,
        end: first.value,
        strand: 1,
        startMark: first.mark,
        endMark: first.mark,
      },
    };
  }

  /** The index of the ':' of an `accession:` prefix starting here, if there is one. */
  private scanAccession(): number | undefined {
    let i = this.at;
    if (!/[A-Za-z]/.test(this.text[i] ?? "")) return undefined;
    while (i < this.text.length && /[A-Za-z0-9_.]/.test(this.text[i] as string)) i++;
    return this.text[i] === ":" ? i : undefined;
  }

  private position(): { value: number; mark: "" | "<" | ">" } {
    const c = this.text[this.at];
    const mark = c === "<" || c === ">" ? c : "";
    if (mark) this.at += 1;
    const from = this.at;
    while (this.at < this.text.length && isDigit(this.text.charCodeAt(this.at))) this.at++;
    if (this.at === from) throw new LocationError(`a position expected at character ${from + 1}`);
    if (this.at - from > 9)
      throw new LocationError(`position ${this.text.slice(from, this.at)} is too large`);
    return { value: Number(this.text.slice(from, this.at)), mark };
  }

  private expect(char: string): void {
    if (this.text[this.at] !== char)
      throw new LocationError(`'${char}' expected at character ${this.at + 1}`);
    this.at += 1;
  }
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** The location as GenBank writes it: complement() around a part on the reverse strand. */
export function formatLocation(location: Pick<ParsedLocation, "operator" | "segments">): string {
  const { segments } = location;
  const range = (s: Segment) =>
    s.start === s.end && s.startMark === s.endMark && !s.startMark
      ? `${s.start}`
      : `${s.startMark}${s.start}..${s.endMark}${s.end}`;
  const operator = location.operator ?? "join";
  if (segments.length === 1) {
    const only = segments[0] as Segment;
    return only.strand === -1 ? `complement(${range(only)})` : range(only);
  }
  if (segments.every((s) => s.strand === -1)) {
    return `complement(${operator}(${[...segments].reverse().map(range).join(",")}))`;
  }
  return `${operator}(${segments.map((s) => (s.strand === -1 ? `complement(${range(s)})` : range(s))).join(",")})`;
}
