// The token endpoint's answers (fact sheet 2.2), read strictly: a sign-in cannot go on without its tokens.
import { z } from "zod";
import { number } from "./values.js";

/** Seconds as a number or a numeric string: the token answers' examples all send "30681976". */
const seconds = z.preprocess((value) => number.parse(value), z.number().positive());

/**
 * A token answer (fact sheet 2.2): `token_type` "bearer" in any case, `expires_in` a string or a number,
 * extra fields (`refresh_expires_in`, `user`, `status_code`) ignored. A refresh answer may leave the
 * refresh token out (it stays the same); a code exchange may not.
 */
export const refreshResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().nullish(),
  expires_in: seconds,
  refresh_token: z.string().min(1).optional(),
});
export const tokenResponseSchema = refreshResponseSchema.extend({ refresh_token: z.string().min(1) });
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** The error body of the OAuth token endpoint (RFC 6749 section 5.2). */
export const oauthErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() });
