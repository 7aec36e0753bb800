// The provider's test hooks, in process (`idp.admin`) and over its admin API under /_admin for the bin
// and the sandbox: auto-approve sign-ins as a person, revoke everything a person holds, list the access
// tokens issued, the people, and mint ID tokens or rotate keys.
import { z } from "zod";
import type { AdminRoutes } from "../common/admin.js";
import { readJsonBody } from "../common/json-body.js";
import { type HttpResponse, jsonResponse } from "../common/response.js";
import { route } from "../common/routes.js";
import type { MintIdTokenOptions } from "./id-tokens.js";
import type { AuthorizationServerContext } from "./oauth/context.js";
import type { IssuedAccessToken } from "./oauth/grants.js";
import type { Person } from "./people.js";

export type IssuedToken = Omit<IssuedAccessToken, "tokenHash" | "family"> & { active: boolean };

export interface IdentityProviderAdmin {
  /**
   * While set, GET /authorize approves at once as this person (subject or email) and redirects back
   * with a code: no page. For `clientId` only when given, else for every client; null stops it.
   */
  autoApprove(person: string | null, options?: { clientId?: string }): void;
  /** Revokes every refresh and access token of the person; returns how many access tokens were live. */
  revokeSubject(person: string): number;
  /** The access tokens issued so far, oldest first, with whether each is still active. */
  issuedTokens(): IssuedToken[];
  people(): readonly Person[];
  /**
   * Where the person's email is given from now on: in access tokens and introspection (off: `sub`
   * only, as Auth0, Okta and Entra ID issue them by default), in ID tokens. Both on at start.
   */
  emailClaims(where: { accessToken: boolean; idToken: boolean }): void;
}

export function createAdmin(ctx: AuthorizationServerContext): IdentityProviderAdmin {
  const personOf = (who: string): Person => {
    const person = ctx.people.find(who);
    if (!person) throw new Error(`the identity provider has no person ${who}`);
    return person;
  };
  return {
    autoApprove(person, options = {}) {
      ctx.approvals.set(person === null ? null : personOf(person).subject, options.clientId);
    },
    revokeSubject: (person) => ctx.grants.revokeSubject(personOf(person).subject),
    issuedTokens: () =>
      ctx.grants.accessTokens().map(({ tokenHash: _hash, family: _family, ...token }) => ({
        ...token,
        active: ctx.grants.isActive(token.jti),
      })),
    people: () => ctx.people.all(),
    emailClaims(where) {
      ctx.settings.emailClaims = { ...where };
    },
  };
}

const mintSchema = z
  .object({
    email: z.email(),
    audience: z.string().min(1),
    expiresInSec: z.number().int().min(-86_400).max(86_400).optional(),
    notBefore: z.iso.datetime().optional(),
    name: z.string().max(200).optional(),
  })
  .strict();

const autoApproveSchema = z
  .object({ person: z.string().min(1).nullable(), clientId: z.string().min(1).optional() })
  .strict();
const personSchema = z.object({ person: z.string().min(1) }).strict();

function invalid(status: number, message: string): HttpResponse {
  return jsonResponse(status, { error: "invalid_request", message });
}

export function adminRoutes(
  admin: IdentityProviderAdmin,
  idTokens: { mint(options: MintIdTokenOptions): Promise<string>; rotateKeys(): Promise<void> },
  ctx: AuthorizationServerContext,
): AdminRoutes {
  return [
    route("POST", "/id-tokens", async ({ req }) => {
      const body = await readJsonBody(req, mintSchema);
      if (!body.ok) return invalid(body.status, body.message);
      const { notBefore, ...rest } = body.value;
      const idToken = await idTokens.mint({
        ...rest,
        notBefore: notBefore ? new Date(notBefore) : undefined,
      });
      return jsonResponse(201, { id_token: idToken, expires_in: rest.expiresInSec ?? 3600 });
    }),
    route("POST", "/rotate-keys", async () => {
      await idTokens.rotateKeys();
      return jsonResponse(200, { rotated: true });
    }),
    route("POST", "/auto-approve", async ({ req }) => {
      const body = await readJsonBody(req, autoApproveSchema);
      if (!body.ok) return invalid(body.status, body.message);
      const { person, clientId } = body.value;
      if (person !== null && !ctx.people.find(person)) return invalid(404, `no person ${person}`);
      admin.autoApprove(person, clientId === undefined ? {} : { clientId });
      return jsonResponse(200, { person, clientId: clientId ?? null });
    }),
    route("POST", "/revoke-subject", async ({ req }) => {
      const body = await readJsonBody(req, personSchema);
      if (!body.ok) return invalid(body.status, body.message);
      if (!ctx.people.find(body.value.person)) return invalid(404, `no person ${body.value.person}`);
      return jsonResponse(200, { revoked: admin.revokeSubject(body.value.person) });
    }),
    route("GET", "/tokens", () => jsonResponse(200, { tokens: admin.issuedTokens() })),
    route("GET", "/people", () => jsonResponse(200, { people: admin.people() })),
  ];
}
