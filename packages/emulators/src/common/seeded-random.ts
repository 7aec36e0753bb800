// A small seeded generator (sfc32, seeded through splitmix32) so demo data and ids come out the same
// for the same seed on every machine. Not for secrets: those come from node:crypto.

export interface Random {
  /** A uniform unsigned 32-bit integer. */
  uint32(): number;
  /** A uniform float in [0, 1). */
  float(): number;
  /** A uniform integer in [min, max]. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** `count` distinct items, in their original order. */
  sample<T>(items: readonly T[], count: number): T[];
  /** `length` characters drawn from `alphabet`. */
  string(alphabet: string, length: number): string;
}

function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function createRandom(seed: number): Random {
  const init = splitmix32(seed);
  let a = init();
  let b = init();
  let c = init();
  let d = init();
  const uint32 = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t;
  };
  const float = (): number => uint32() / 4294967296;
  return {
    uint32,
    float,
    int: (min, max) => min + Math.floor(float() * (max - min + 1)),
    chance: (probability) => float() < probability,
    pick: <T>(items: readonly T[]): T => {
      const item = items[Math.floor(float() * items.length)];
      if (item === undefined) throw new RangeError("pick from an empty list");
      return item;
    },
    sample: <T>(items: readonly T[], count: number): T[] => {
      // A partial Fisher-Yates shuffle of the indexes, then back into the original order.
      const indexes = items.map((_, i) => i);
      const taken = Math.min(count, items.length);
      for (let i = 0; i < taken; i++) {
        const j = i + Math.floor(float() * (indexes.length - i));
        [indexes[i], indexes[j]] = [indexes[j] as number, indexes[i] as number];
      }
      return indexes
        .slice(0, taken)
        .sort((a, b) => a - b)
        .map((i) => items[i] as T);
    },
    string: (alphabet, length) => {
      let out = "";
      for (let i = 0; i < length; i++) out += alphabet[Math.floor(float() * alphabet.length)];
      return out;
    },
  };
}
