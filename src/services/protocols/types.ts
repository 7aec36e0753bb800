// The repository's shapes, checked on arrival: anything else is an InvalidResponseError, not a crash.
// Fields the tools do not rely on are optional, so that a richer real-world record still passes.
import { z } from "zod";

const person = z
  .object({
    name: z.string(),
    username: z.string().nullish(),
    affiliation: z.string().nullish(),
  })
  .passthrough();
export type Person = z.infer<typeof person>;

export const protocolSummarySchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    uri: z.string(),
    url: z.string().nullish(),
    doi: z.string().nullish(),
    version_id: z.number().nullish(),
    creator: person.nullish(),
    authors: z.array(person).nullish(),
    description: z.string().nullish(),
    created_on: z.number().nullish(),
    published_on: z.number().nullish(),
    public: z.boolean().nullish(),
    stats: z.record(z.string(), z.unknown()).nullish(),
  })
  .passthrough();
export type ProtocolSummary = z.infer<typeof protocolSummarySchema>;

export const stepSchema = z
  .object({
    id: z.number().nullish(),
    guid: z.string().nullish(),
    previous_guid: z.string().nullish(),
    number: z.union([z.string(), z.number()]).nullish(),
    section: z.string().nullish(),
    step: z.string(),
  })
  .passthrough();
export type Step = z.infer<typeof stepSchema>;

export const protocolSchema = protocolSummarySchema
  .extend({
    guidelines: z.string().nullish(),
    materials: z
      .array(
        z.object({ name: z.string(), vendor: z.string().nullish(), sku: z.string().nullish() }).passthrough(),
      )
      .nullish(),
    versions: z
      .array(
        z
          .object({ version_id: z.number(), title: z.string().nullish(), created_on: z.number().nullish() })
          .passthrough(),
      )
      .nullish(),
    steps: z.array(stepSchema).nullish(),
  })
  .passthrough();
export type Protocol = z.infer<typeof protocolSchema>;

/** status_code 0 is success; the repository also sends it on 2xx answers. */
const ok = z.number().int().optional();

export const listResponseSchema = z.object({
  items: z.array(protocolSummarySchema),
  pagination: z
    .object({
      current_page: z.number().int().nullish(),
      total_pages: z.number().int().nullish(),
      total_results: z.number().int().min(0),
      page_size: z.number().int().nullish(),
    })
    .passthrough(),
  status_code: ok,
});
export type ListResponse = z.infer<typeof listResponseSchema>;

export const protocolResponseSchema = z.object({ payload: protocolSchema, status_code: ok });
export const stepsResponseSchema = z.object({ payload: z.array(stepSchema), status_code: ok });

export const profileSchema = z
  .object({
    username: z.string(),
    name: z.string().nullish(),
    email: z.string().nullish(),
    affiliation: z.string().nullish(),
  })
  .passthrough();
export type Profile = z.infer<typeof profileSchema>;
export const profileResponseSchema = z.object({ user: profileSchema, status_code: ok });

/** A refresh answer may leave the refresh token out (it stays the same); a code exchange may not. */
export const refreshResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.number().positive(),
  refresh_token: z.string().min(1).optional(),
});
export const tokenResponseSchema = refreshResponseSchema.extend({ refresh_token: z.string().min(1) });
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** The error body of the OAuth token endpoint (RFC 6749 section 5.2). */
export const oauthErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() });
