// Finding a word inside a text the way a reader would: "centrifugation" finds "Centrifuge at 10,000 × g"
// and "centrifuged", "alpha-synuclein" finds "α-synuclein". Words are compared by their Porter stems
// (the npm `stemmer`, made for exactly this) after Greek letters are folded to their names.
import { stemmer } from "stemmer";
import { foldGreek } from "./greek.js";

const WORD = /[\p{L}\p{N}]+/gu;

/** The stems of the words of a text. */
export function stemsOf(text: string): string[] {
  return (foldGreek(text).toLowerCase().match(WORD) ?? []).map((word) => stemmer(word));
}

/** Whether `text` holds every word of `wanted` (stems, any order). */
export function mentions(text: string, wanted: readonly string[]): boolean {
  if (wanted.length === 0) return false;
  const stems = new Set(stemsOf(text));
  return wanted.every((stem) => stems.has(stem));
}

const sentences = new Intl.Segmenter("en", { granularity: "sentence" });

/** The sentences of a text, each with its trailing space trimmed; blank ones left out. */
export function sentencesOf(text: string): string[] {
  return [...sentences.segment(text)].map((s) => s.segment.trim()).filter(Boolean);
}

/**
 * The sentences of `text` that mention any word of `wanted`, those with the most of its words first
 * (then in text order).
 */
export function mentioningSentences(text: string, wanted: readonly string[]): string[] {
  const wantedSet = new Set(wanted);
  return sentencesOf(text)
    .map((sentence, at) => {
      const stems = new Set(stemsOf(sentence));
      return { sentence, at, hits: [...wantedSet].filter((stem) => stems.has(stem)).length };
    })
    .filter((s) => s.hits > 0)
    .sort((a, b) => b.hits - a.hits || a.at - b.at)
    .map((s) => s.sentence);
}
