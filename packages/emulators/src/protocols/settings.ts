// What tests and the sandbox may change while the emulator runs: token and code lifetimes, who is
// signed in for browser requests without a session cookie, and the rate limits.
import { z } from "zod";

export interface RateLimitSettings {
  /** API requests per minute per user (per address when anonymous). */
  apiPerMinute: number;
  /** PDF downloads per minute per signed-in user. */
  pdfSignedInPerMinute: number;
  /** PDF downloads per minute per address without a token. */
  pdfAnonymousPerMinute: number;
}

export interface ProtocolsSettings {
  /** expires_in of new OAuth access tokens; the real service's is one year. */
  accessTokenLifetimeSeconds: number;
  /** How long an authorization code can be exchanged. */
  codeLifetimeSeconds: number;
  /** Username treated as signed in for browser requests without a session cookie; null: nobody. */
  browserSessionUser: string | null;
  rateLimits: RateLimitSettings;
}

export const ONE_YEAR_SECONDS = 365 * 24 * 3600;

export function defaultSettings(): ProtocolsSettings {
  return {
    accessTokenLifetimeSeconds: ONE_YEAR_SECONDS,
    codeLifetimeSeconds: 600,
    browserSessionUser: null,
    rateLimits: { apiPerMinute: 100, pdfSignedInPerMinute: 5, pdfAnonymousPerMinute: 3 },
  };
}

const perMinute = z.number().int().min(1).max(1_000_000);

export const settingsPatchSchema = z.strictObject({
  accessTokenLifetimeSeconds: z
    .number()
    .int()
    .min(1)
    .max(10 * ONE_YEAR_SECONDS)
    .optional(),
  codeLifetimeSeconds: z
    .number()
    .int()
    .min(1)
    .max(24 * 3600)
    .optional(),
  browserSessionUser: z.string().min(1).nullable().optional(),
  rateLimits: z
    .strictObject({
      apiPerMinute: perMinute.optional(),
      pdfSignedInPerMinute: perMinute.optional(),
      pdfAnonymousPerMinute: perMinute.optional(),
    })
    .optional(),
});

export type SettingsPatch = z.infer<typeof settingsPatchSchema>;
