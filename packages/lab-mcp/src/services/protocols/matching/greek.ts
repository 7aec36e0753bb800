// Greek letters and their spelled names, both ways: scientists write α-synuclein and alpha-synuclein,
// β-mercaptoethanol and beta-mercaptoethanol, µL and microliter, and a search in one spelling must find
// the other. The repository's search may not fold them, so a keyword is also searched in its other
// spellings (variants), and text matched on our side is folded to one spelling (foldGreek).

/** Lower-case Greek letters by name; the capitals are their upper case. */
const LETTERS: Record<string, string> = {
  alpha: "α",
  beta: "β",
  gamma: "γ",
  delta: "δ",
  epsilon: "ε",
  zeta: "ζ",
  eta: "η",
  theta: "θ",
  iota: "ι",
  kappa: "κ",
  lambda: "λ",
  mu: "μ",
  nu: "ν",
  xi: "ξ",
  omicron: "ο",
  pi: "π",
  rho: "ρ",
  sigma: "σ",
  tau: "τ",
  upsilon: "υ",
  phi: "φ",
  chi: "χ",
  psi: "ψ",
  omega: "ω",
};

/**
 * Names read as a letter only where they are one: short or common words that are something else too
 * (PI for propidium iodide, psi the unit of pressure, nu, xi, omicron) stay words.
 */
const SPELLED_AS_LETTER = Object.keys(LETTERS).filter(
  (name) => !["nu", "xi", "pi", "psi", "omicron"].includes(name),
);

const NAME_OF = new Map<string, string>(
  Object.entries(LETTERS).flatMap(([name, letter]) => [
    [letter, name],
    [letter.toUpperCase(), name],
  ]),
);
NAME_OF.set("ς", "sigma");

/** Micro units: µ (or μ) before a unit symbol, and the unit's name spelled with "micro". */
const MICRO_UNITS: Array<{ symbol: string; spelled: RegExp; name: string }> = [
  { symbol: "L", spelled: /micro-?lit(?:er|re)s?/gi, name: "microliter" },
  { symbol: "g", spelled: /micro-?grams?/gi, name: "microgram" },
  { symbol: "M", spelled: /micro-?molar/gi, name: "micromolar" },
  { symbol: "mol", spelled: /micro-?moles?/gi, name: "micromole" },
  { symbol: "m", spelled: /micro-?met(?:er|re)s?|microns?/gi, name: "micrometer" },
  { symbol: "s", spelled: /micro-?seconds?/gi, name: "microsecond" },
];
/** µ (micro sign) or μ (Greek mu) before a unit symbol that ends there. */
const MICRO_SYMBOL = /[µμ](mol|L|l|g|M|m|s)(?![A-Za-z])/g;
const GREEK = /[\u0391-\u03a9\u03b1-\u03c9\u00b5]/g;
/**
 * A spelled name where it reads as a letter: in lower case, capitalised or in capitals, not after a
 * lower-case letter (TNFalpha and DH5alpha are letters, betaine and Alphabet are not), before no letter.
 */
const SPELLED = new RegExp(
  `(?<![a-z])(${SPELLED_AS_LETTER.flatMap((name) => [name, name[0]?.toUpperCase() + name.slice(1), name.toUpperCase()]).join("|")})(?![A-Za-z])`,
  "g",
);

/** The text with micro units and Greek letters spelled out ("µL" → "microliter", "α" → "alpha"). */
export function spelledOut(text: string): string {
  return text
    .replace(MICRO_SYMBOL, (_, unit: string) => microName(unit))
    .replace(GREEK, (letter) => NAME_OF.get(letter === "µ" ? "μ" : letter) ?? letter);
}

/** The text with spelled names as Greek letters ("alpha" → "α", "microliter" → "µL"), units with the micro sign. */
export function withGreekLetters(text: string): string {
  let out = text.replace(MICRO_SYMBOL, (_, unit: string) => `µ${unit}`);
  for (const unit of MICRO_UNITS) out = out.replace(unit.spelled, `µ${unit.symbol}`);
  return out.replace(SPELLED, (name: string) => LETTERS[name.toLowerCase()] ?? name);
}

function microName(unit: string): string {
  const symbol = unit === "l" ? "L" : unit;
  return MICRO_UNITS.find((u) => u.symbol === symbol)?.name ?? `micro${unit}`;
}

/**
 * The spellings a keyword is searched in: as written, with every Greek letter spelled out, and with
 * every spelled name as its letter; each once. One entry when the keyword has neither.
 */
export function keywordSpellings(keyword: string): string[] {
  return [...new Set([keyword, spelledOut(keyword), withGreekLetters(keyword)])];
}

/**
 * Text in one spelling for matching: micro units and Greek letters spelled out, each spelled name a
 * word of its own ("TNFα" and "TNF-alpha" both read "TNF alpha"), compatibility forms unified (NFKC).
 */
export function foldGreek(text: string): string {
  return spelledOut(text.normalize("NFKC"))
    .replace(SPELLED, (name: string) => ` ${name.toLowerCase()} `)
    .replace(/micro-?lit(?:er|re)s?/gi, "microliter")
    .replace(/micro-?met(?:er|re)s?|microns?/gi, "micrometer");
}
