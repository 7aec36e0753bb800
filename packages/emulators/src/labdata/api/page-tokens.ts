// nextToken: an opaque, signed cursor bound to the query it came from (filters, sort and caller), so
// a token used with another query, or altered, is refused instead of silently paging something else.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { badRequest } from "./errors.js";

/** The last item of a page: its sort value and id (the tie-break). */
export interface Cursor {
  v: string | number;
  id: string;
}

export class PageTokens {
  readonly #key = randomBytes(32);

  issue(binding: string, cursor: Cursor): string {
    const payload = Buffer.from(JSON.stringify({ b: digest(binding), v: cursor.v, id: cursor.id })).toString(
      "base64url",
    );
    return `${payload}.${this.#sign(payload)}`;
  }

  /** The cursor in `token`; a 400 when it is not one of ours or belongs to another query. */
  read(token: string, binding: string): Cursor {
    const [payload = "", signature = "", extra] = token.split(".");
    const expected = Buffer.from(this.#sign(payload));
    const given = Buffer.from(signature);
    if (extra !== undefined || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw badRequest("nextToken is not valid");
    }
    const parsed = JSON.parse(Buffer.from(payload, "base64url").toString()) as { b: string } & Cursor;
    if (parsed.b !== digest(binding)) {
      throw badRequest("nextToken belongs to a different query: repeat the filters and sort it came with");
    }
    return { v: parsed.v, id: parsed.id };
  }

  #sign(payload: string): string {
    return createHmac("sha256", this.#key).update(payload).digest("base64url");
  }
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, 22);
}
