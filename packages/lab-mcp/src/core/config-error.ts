// The one error of start-up: a settings problem, told in one line that names the setting, with a
// "did you mean" when the user is one typo away from a known name.

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/** The candidate at most two edits from `given` (case aside), the nearest first. */
export function closest(given: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  const upper = given.toUpperCase();
  for (const candidate of candidates) {
    // At least as many edits as the lengths differ: most names of the environment stop here, cheaply
    // (every start-up compares each variable with every setting).
    if (Math.abs(upper.length - candidate.length) > 2) continue;
    const distance = editDistance(upper, candidate.toUpperCase());
    if (distance <= 2 && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

/** "; did you mean X?" when one is close, else nothing. */
export function suggest(given: string, candidates: readonly string[]): string {
  const close = closest(given, candidates);
  return close ? `; did you mean ${close}?` : "";
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}
