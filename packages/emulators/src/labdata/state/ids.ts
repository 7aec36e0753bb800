// Platform-style ids ("seq_Kt6cY8d1", "lib_3FqT9aZx"): a type prefix and eight base-62 characters,
// drawn from a seeded generator so the same seed gives the same ids.
import type { Random } from "../../common/seeded-random.js";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** The prefixes the platform uses, by record type. */
export const ID_PREFIX = {
  user: "ent_",
  organization: "ent_",
  team: "team_",
  app: "app_",
  apiKey: "key_",
  secret: "sec_",
  project: "src_",
  folder: "lib_",
  dnaSequence: "seq_",
} as const;

export class IdFactory {
  readonly #used = new Set<string>();

  constructor(private readonly random: Random) {}

  next(prefix: string): string {
    // Collisions are astronomically rare, but an id must never be reused; the loop is bounded anyway.
    for (let attempt = 0; attempt < 100; attempt++) {
      let id = prefix;
      for (let i = 0; i < 8; i++) id += ALPHABET[this.random.uint32() % ALPHABET.length];
      if (!this.#used.has(id)) {
        this.#used.add(id);
        return id;
      }
    }
    throw new Error("could not draw a fresh id");
  }
}
