// Keyword search and ordering for the protocol list. A protocol matches when every word of the key
// appears in its title, description, steps or author names; relevance weighs where the words appear.
import type { Protocol } from "../model.js";

export const ORDER_FIELDS = ["activity", "relevance", "date", "name", "id"] as const;
export type OrderField = (typeof ORDER_FIELDS)[number];

interface SearchText {
  title: string;
  description: string;
  steps: string;
  authors: string;
}

// Protocols never change once added, so their lowercased text is worked out once.
const texts = new WeakMap<Protocol, SearchText>();

function searchText(protocol: Protocol): SearchText {
  let text = texts.get(protocol);
  if (!text) {
    text = {
      title: protocol.title.toLowerCase(),
      description: protocol.description.toLowerCase(),
      steps: protocol.steps.map((s) => s.text.toLowerCase()).join("\n"),
      authors: protocol.authors.map((a) => a.name.toLowerCase()).join("\n"),
    };
    texts.set(protocol, text);
  }
  return text;
}

export function keyTerms(key: string): string[] {
  return key.toLowerCase().split(/\s+/).filter(Boolean);
}

/** The relevance score of a protocol for the key's terms, or undefined when it does not match. */
export function relevance(protocol: Protocol, terms: readonly string[], phrase: string): number | undefined {
  const text = searchText(protocol);
  let score = 0;
  for (const term of terms) {
    const inTitle = text.title.includes(term);
    const inAuthors = text.authors.includes(term);
    const inDescription = text.description.includes(term);
    const inSteps = text.steps.includes(term);
    if (!inTitle && !inAuthors && !inDescription && !inSteps) return undefined;
    score += (inTitle ? 10 : 0) + (inAuthors ? 4 : 0) + (inDescription ? 3 : 0) + (inSteps ? 1 : 0);
  }
  if (terms.length > 1 && text.title.includes(phrase.toLowerCase())) score += 10;
  return score;
}

/** The popularity index the real service orders by default. */
export function activity(protocol: Protocol): number {
  const s = protocol.stats;
  return s.views + 10 * s.bookmarks + 20 * s.runs + 5 * s.comments + 2 * s.exports;
}

function sortValue(protocol: Protocol, field: OrderField, scores: Map<Protocol, number>): number | string {
  switch (field) {
    case "activity":
      return activity(protocol);
    case "relevance":
      return scores.get(protocol) ?? activity(protocol);
    case "date":
      return protocol.publishedOn ?? protocol.createdOn;
    case "name":
      return protocol.title.toLowerCase();
    case "id":
      return protocol.id;
  }
}

/**
 * Sorted copy. Ties are broken by id in the same direction, so pages never overlap. Names compare by
 * code point, not locale, so page boundaries are identical on every machine.
 */
export function orderProtocols(
  protocols: readonly Protocol[],
  field: OrderField,
  direction: "asc" | "desc",
  scores: Map<Protocol, number>,
): Protocol[] {
  const sign = direction === "asc" ? 1 : -1;
  const keyed = protocols.map((p) => ({ p, value: sortValue(p, field, scores) }));
  keyed.sort((a, b) => {
    if (a.value !== b.value) return (a.value < b.value ? -1 : 1) * sign;
    return (a.p.id - b.p.id) * sign;
  });
  return keyed.map((k) => k.p);
}
