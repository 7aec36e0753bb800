// The admin operations on accounts: users, client applications and their client tokens. Inputs are
// validated here (parse-input.ts) so that the in-process handle and admin/routes.ts refuse alike.
import { z } from "zod";
import { profileWire } from "../api/api-shapes.js";
import type { ProtocolsContext } from "../context.js";
import { newClientId, newClientSecret, newPassword } from "../new-secrets.js";
import { StoreError } from "../store.js";
import { parseInput } from "./parse-input.js";

export interface UserProfile {
  username: string;
  name: string;
  email: string;
  affiliation: string;
}

export interface CreatedUser extends UserProfile {
  password: string;
}

export interface ApplicationInfo {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  name: string;
  /** Username of the owner, whose private content the application's CLIENT_ACCESS_TOKEN sees. */
  owner: string;
}

export interface IssuedClientToken {
  accessToken: string;
  tokenType: "Bearer";
  kind: "CLIENT_ACCESS_TOKEN";
  username: string;
}

const text = (max: number) => z.string().trim().min(1).max(max);

const newUserSchema = z.strictObject({
  username: z.string(),
  name: text(200).optional(),
  email: z.email().optional(),
  affiliation: z.string().max(300).optional(),
  password: z.string().min(1).max(200).optional(),
});

// Absolute http(s) without a fragment (RFC 6749 section 3.1.2); compared byte for byte at authorization.
const redirectUriSchema = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hash === "" && !value.includes("#");
  } catch {
    return false;
  }
}, "redirectUri must be an absolute http or https URL without a fragment");

const newApplicationSchema = z.strictObject({
  owner: z.string(),
  redirectUri: redirectUriSchema,
  name: text(200).optional(),
});

export type NewUser = z.input<typeof newUserSchema>;
export type NewApplication = z.input<typeof newApplicationSchema>;

export interface AccountsAdmin {
  createUser(input: NewUser): CreatedUser;
  listUsers(): UserProfile[];
  createApplication(input: NewApplication): ApplicationInfo;
  /** Without client secrets, which are shown once, at creation. */
  listApplications(): Omit<ApplicationInfo, "clientSecret">[];
  /** A CLIENT_ACCESS_TOKEN for the application's owner; it does not expire. */
  issueClientToken(clientId: string): IssuedClientToken;
}

/** The username of a user id; "" for one that is gone. */
export function usernameOf(ctx: ProtocolsContext, userId: number): string {
  return ctx.store.userById(userId)?.username ?? "";
}

export function accountsAdmin(ctx: ProtocolsContext): AccountsAdmin {
  const { store } = ctx;
  return {
    createUser(input) {
      const data = parseInput(newUserSchema, input);
      const user = store.addUser({ ...data, password: data.password ?? newPassword() });
      return { ...profileWire(user), password: user.password };
    },

    listUsers() {
      return store.users().map(profileWire);
    },

    createApplication(input) {
      const data = parseInput(newApplicationSchema, input);
      const owner = store.requireUser(data.owner, "owner");
      const app = store.addApplication({
        clientId: newClientId(),
        clientSecret: newClientSecret(),
        redirectUri: data.redirectUri,
        name: data.name ?? `${owner.name}'s application`,
        ownerId: owner.id,
      });
      const { clientId, clientSecret, redirectUri, name } = app;
      return { clientId, clientSecret, redirectUri, name, owner: owner.username };
    },

    listApplications() {
      return store.applications().map((app) => ({
        clientId: app.clientId,
        redirectUri: app.redirectUri,
        name: app.name,
        owner: usernameOf(ctx, app.ownerId),
      }));
    },

    issueClientToken(clientId) {
      const app = store.application(clientId);
      if (!app) throw new StoreError(404, "no application with this clientId");
      const accessToken = ctx.tokens.issueClientToken(app.clientId, app.ownerId);
      return {
        accessToken,
        tokenType: "Bearer",
        kind: "CLIENT_ACCESS_TOKEN",
        username: usernameOf(ctx, app.ownerId),
      };
    },
  };
}
