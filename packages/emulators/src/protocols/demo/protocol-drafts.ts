// The demo repository: a few hundred public protocols built from the bench techniques, plus private ones
// per demo account (some shared with a colleague). Everything here follows from the seed alone.

import { createRandom, type Random } from "../../common/seeded-random.js";
import type { Author } from "../model.js";
import type { ProtocolDraft, StepDraft } from "../store.js";
import { COMMUNITY_MEMBERS, DEMO_ACCOUNTS, type DemoPerson, GUEST_AUTHORS } from "./people.js";
import { GENERAL_STEPS, LONG_NOTES, TECHNIQUES, type Technique } from "./techniques.js";

export const DEFAULT_SEED = 20_240_601;

const PRIVATE_PER_ACCOUNT = 5;
const MIN_STEPS = 5;
const MAX_STEPS = 40;
const LONG_STEP_CHARS = 1000;
// 2016-01-01 .. 2024-12-31 (unix seconds): fixed, so the data does not depend on when it is made.
const FIRST_DAY = 1_451_606_400;
const LAST_DAY = 1_735_603_200;
const DAY_SECONDS = 24 * 3600;

const PRIVATE_TITLES = [
  (title: string) => `${title} (lab working copy)`,
  (title: string) => `Draft: ${title}`,
  (title: string) => `${title}, optimised for our lab`,
  (title: string) => `Pilot: ${title}`,
  (title: string) => `${title} – in-house variant`,
];

interface TitledTechnique {
  title: string;
  technique: Technique;
  variant: string;
}

function allTitles(): TitledTechnique[] {
  return TECHNIQUES.flatMap((technique) =>
    technique.titles.flatMap((template) =>
      technique.variants.map((variant) => ({ title: template.replace("{x}", variant), technique, variant })),
    ),
  );
}

function fill(text: string, variant: string): string {
  return text.replaceAll("{x}", variant);
}

// The technique's own steps, trimmed or padded with general bench steps to `count`, a few made long.
function stepsFor(random: Random, technique: Technique, variant: string): StepDraft[] {
  const count = random.int(MIN_STEPS, MAX_STEPS);
  const core = technique.sections.flatMap((section) =>
    section.steps.map((text) => ({ section: section.name, text: fill(text, variant) })),
  );
  const steps = count <= core.length ? random.sample(core, count) : [...core];
  for (const text of random.sample(GENERAL_STEPS, count - steps.length)) {
    const at = random.int(1, steps.length);
    steps.splice(at, 0, { section: steps[at - 1]?.section ?? core[0]?.section ?? "Procedure", text });
  }
  if (random.chance(0.6)) {
    // Each long step of a protocol starts with a different note, from a random first one.
    const first = random.int(0, LONG_NOTES.length - 1);
    const chosen = random.sample(
      steps.map((_, i) => i),
      random.int(1, 3),
    );
    chosen.forEach((index, k) => {
      const step = steps[index];
      if (step) step.text = longVersionOf(step.text, first + 2 * k);
    });
  }
  return steps;
}

// The step followed by notes from LONG_NOTES[from] on, until it runs past LONG_STEP_CHARS.
function longVersionOf(text: string, from: number): string {
  let long = text;
  for (let i = 0; i < LONG_NOTES.length && long.length <= LONG_STEP_CHARS; i++) {
    long = `${long}\n\n${LONG_NOTES[(from + i) % LONG_NOTES.length]}`;
  }
  return long;
}

function authorOf(person: { name: string; affiliation: string; username?: string }): Author {
  return { name: person.name, affiliation: person.affiliation, username: person.username ?? null };
}

function authorsFor(random: Random, creator: DemoPerson): Author[] {
  const others = [...DEMO_ACCOUNTS, ...COMMUNITY_MEMBERS, ...GUEST_AUTHORS].filter(
    (p) => p.name !== creator.name,
  );
  return [authorOf(creator), ...random.sample(others, random.int(0, 3)).map(authorOf)];
}

// Popularity falls off steeply, as on a real repository: most protocols are seen a few hundred times.
function statsFor(random: Random) {
  const views = 10 + Math.floor(random.float() ** 3 * 25_000);
  return {
    views,
    bookmarks: Math.floor((views / 40) * random.float()),
    comments: Math.floor((views / 400) * random.float()),
    exports: Math.floor((views / 25) * random.float()),
    runs: Math.floor((views / 100) * random.float()),
  };
}

function draftFor(
  random: Random,
  { title, technique, variant }: TitledTechnique,
  creator: DemoPerson,
  isPublic: boolean,
): ProtocolDraft {
  const createdOn = random.int(FIRST_DAY, LAST_DAY);
  return {
    title,
    creator: creator.username,
    isPublic,
    authors: authorsFor(random, creator),
    description: fill(technique.description, variant),
    guidelines: technique.guidelines,
    materials: [...technique.materials],
    steps: stepsFor(random, technique, variant),
    createdOn,
    publishedOn: isPublic ? createdOn + random.int(0, 60) * DAY_SECONDS : undefined,
    versionCount: random.chance(0.25) ? random.int(2, 4) : 1,
    stats: isPublic
      ? statsFor(random)
      : { views: random.int(0, 30), bookmarks: 0, comments: 0, exports: 0, runs: 0 },
  };
}

/** Every demo protocol, oldest first, so ids grow with creation dates as on the real service. */
export function demoProtocolDrafts(seed: number): ProtocolDraft[] {
  const random = createRandom(seed);
  const titles = allTitles();
  const creators = [...DEMO_ACCOUNTS, ...COMMUNITY_MEMBERS];
  const drafts = titles.map((titled) => draftFor(random, titled, random.pick(creators), true));

  DEMO_ACCOUNTS.forEach((account, accountIndex) => {
    for (let i = 0; i < PRIVATE_PER_ACCOUNT; i++) {
      const titled = random.pick(titles);
      const draft = draftFor(random, titled, account, false);
      draft.title = (PRIVATE_TITLES[i % PRIVATE_TITLES.length] ?? String)(titled.title);
      // Every account shares its first private protocol with the next account, so each has one shared.
      const colleague = DEMO_ACCOUNTS[(accountIndex + 1) % DEMO_ACCOUNTS.length];
      if (colleague && (i === 0 || random.chance(0.2))) draft.sharedWith = [colleague.username];
      drafts.push(draft);
    }
  });
  return drafts.sort((a, b) => (a.createdOn ?? 0) - (b.createdOn ?? 0));
}
