// The settings of labdata_mcp, and which authentication method they choose.
import { z } from "zod";
import { setting } from "../../core/start/setting.js";
import { secretFileProblem } from "../../core/start/user-config.js";

export const LABDATA_SETTINGS = z.object({
  LABDATA_BASE_URL: setting.httpsUrl({
    help: "HTTPS address of your tenant, e.g. https://acme.benchling.com (with or without /api/v2)",
    apiRoot: { path: "/api/v2", example: "https://acme.benchling.com" },
  }),
  LABDATA_API_KEY: setting.secret({ help: "API key (sent as the HTTP Basic username)" }).optional(),
  LABDATA_CLIENT_ID: setting.string({ help: "OAuth app client ID (with LABDATA_CLIENT_SECRET)" }).optional(),
  LABDATA_CLIENT_SECRET: setting.secret({ help: "OAuth app client secret" }).optional(),
  LABDATA_ID_TOKEN: setting
    .secret({ help: "OpenID Connect ID token from your identity provider" })
    .optional(),
  LABDATA_ID_TOKEN_FILE: setting
    .file({ help: "File holding the ID token, read again on every use (for an outside refresher)" })
    .optional(),
  LABDATA_OIDC_PASS_THROUGH: setting
    .boolean({
      help: "Send each signed-in person's own access token to this server (MCP_AUTH_ISSUER) to the platform as their OpenID Connect token; the platform must trust the same identity provider with this server as audience",
    })
    .default(false),
  LABDATA_CREDENTIALS_FILE: setting
    .file({
      help: "Where an API key you ask to remember is kept, never inside a git work tree (default: lab-mcp/labdata.json in your config folder)",
    })
    .optional(),
});

export type LabdataValues = z.output<typeof LABDATA_SETTINGS>;

export const SETUP_HINT =
  "Set LABDATA_API_KEY, or LABDATA_CLIENT_ID and LABDATA_CLIENT_SECRET, or LABDATA_ID_TOKEN (or LABDATA_ID_TOKEN_FILE) " +
  "in the server's environment and restart it";

/** Why a pass-through call has no token: no person signed in to this server. */
export const PASS_THROUGH_NEEDS_PERSON =
  "LABDATA_OIDC_PASS_THROUGH sends each signed-in person's own token, and this call has no signed-in person. " +
  "It needs MCP_TRANSPORT=http with MCP_AUTH_ISSUER and MCP_AUTH_AUDIENCE set, so that everyone signs in to this " +
  "server; or the operator sets another authentication method";

/** One authentication method at most, each complete. */
export function checkLabdataSettings(values: LabdataValues & { MCP_TRANSPORT?: string }): string | undefined {
  const has = (name: keyof LabdataValues) => values[name] !== undefined;
  if (has("LABDATA_CLIENT_ID") !== has("LABDATA_CLIENT_SECRET")) {
    return "LABDATA_CLIENT_ID and LABDATA_CLIENT_SECRET go together; set both or neither";
  }
  if (has("LABDATA_ID_TOKEN") && has("LABDATA_ID_TOKEN_FILE")) {
    return "Set LABDATA_ID_TOKEN or LABDATA_ID_TOKEN_FILE, not both";
  }
  const methods = [
    has("LABDATA_API_KEY") && "LABDATA_API_KEY",
    has("LABDATA_CLIENT_ID") && "LABDATA_CLIENT_ID/LABDATA_CLIENT_SECRET",
    (has("LABDATA_ID_TOKEN") || has("LABDATA_ID_TOKEN_FILE")) && "LABDATA_ID_TOKEN",
    values.LABDATA_OIDC_PASS_THROUGH && "LABDATA_OIDC_PASS_THROUGH",
  ].filter(Boolean);
  if (methods.length > 1)
    return `Two authentication methods are configured (${methods.join(" and ")}); keep one`;
  if (values.LABDATA_OIDC_PASS_THROUGH && values.MCP_TRANSPORT === "stdio") {
    // Over stdio nobody signs in to this server: there is no person whose token could be passed on.
    return "LABDATA_OIDC_PASS_THROUGH needs MCP_TRANSPORT=http with MCP_AUTH_ISSUER (people signing in to this server); over stdio set LABDATA_ID_TOKEN or LABDATA_ID_TOKEN_FILE instead";
  }
  return secretFileProblem("LABDATA_CREDENTIALS_FILE", values.LABDATA_CREDENTIALS_FILE);
}
