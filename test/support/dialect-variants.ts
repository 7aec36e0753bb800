// The repository emulator's dialects a tool is tried in: the recorded preset, and every value of every
// knob other than legacy's, each alone on top of legacy (packages/emulators/src/protocols/dialect.ts).
import {
  type Dialect,
  type DialectPatch,
  presetDialect,
} from "../../packages/emulators/src/protocols/dialect.js";

const ALTERNATIVES: { [K in keyof Dialect]: Array<Dialect[K]> } = {
  flags: ["integer", "string", "by-version"],
  listEra: ["2019", "top-level", "absent"],
  pageOrigin: [0],
  people: ["split", "by-version"],
  doi: ["versioned"],
  markup: ["html"],
  richText: ["draftjs", "html", "markdown"],
  protocolKey: ["protocol"],
  protocolSteps: ["null", "absent"],
  stepsKey: ["steps"],
  stepOrder: ["shuffled"],
  firstPreviousId: [0],
  errorKey: ["status_text", "by-version"],
  authErrors: ["http400"],
  expiryWarning: [true],
  tokenResponse: ["recorded"],
  redirectParam: ["either"],
};

/** [what differs, the patch that sets it] for each dialect to try. */
export function dialectVariants(): Array<[string, DialectPatch]> {
  const legacy = presetDialect("legacy");
  const variants: Array<[string, DialectPatch]> = [["the recorded preset", { preset: "recorded" }]];
  for (const [knob, values] of Object.entries(ALTERNATIVES)) {
    for (const value of values) {
      if (value === legacy[knob as keyof Dialect]) continue;
      variants.push([`${knob}: ${JSON.stringify(value)}`, { preset: "legacy", [knob]: value }]);
    }
  }
  return variants;
}
