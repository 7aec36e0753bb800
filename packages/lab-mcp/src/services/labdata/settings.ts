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
  LABDATA_TOKEN_EXCHANGE_AUDIENCE: setting
    .string({
      help: "Team mode (MCP_AUTH_ISSUER): the platform's client at the identity provider. Each signed-in person's token to this server is exchanged there (OAuth 2.0 Token Exchange) for an ID token with this audience, which goes to the platform; needs LABDATA_TOKEN_EXCHANGE_CLIENT_ID and its secret",
    })
    .optional(),
  LABDATA_TOKEN_EXCHANGE_CLIENT_ID: setting
    .string({
      help: "This server's confidential client at the identity provider, allowed to exchange tokens",
    })
    .optional(),
  LABDATA_TOKEN_EXCHANGE_CLIENT_SECRET: setting
    .secret({ help: "The secret of LABDATA_TOKEN_EXCHANGE_CLIENT_ID" })
    .optional(),
  LABDATA_TOKEN_EXCHANGE_CLIENT_SECRET_FILE: setting
    .file({
      help: "File holding the secret of LABDATA_TOKEN_EXCHANGE_CLIENT_ID, read again on every exchange",
    })
    .optional(),
  LABDATA_WAREHOUSE_URL: setting
    .postgresUrl({
      help: "Your tenant's data warehouse (PostgreSQL), e.g. postgres://postgres-warehouse.acme.benchling.com:5432/warehouse (default: that form, for a tenant on benchling.com). Logins are minted for each person",
    })
    .optional(),
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

/** What replaces a removed setting, said when someone still sets it. */
export const RETIRED_LABDATA_SETTINGS = {
  LABDATA_OIDC_PASS_THROUGH:
    "it sent each person's token for this server to the platform. Set LABDATA_TOKEN_EXCHANGE_AUDIENCE (with " +
    "LABDATA_TOKEN_EXCHANGE_CLIENT_ID and its secret) instead: the token is exchanged at the identity provider " +
    "for one issued for the platform",
} as const;

/** Why an exchange call has no token: no person signed in to this server. */
export const EXCHANGE_NEEDS_PERSON =
  "LABDATA_TOKEN_EXCHANGE_AUDIENCE exchanges each signed-in person's own token, and this call has no signed-in " +
  "person. It needs MCP_TRANSPORT=http with MCP_AUTH_ISSUER and MCP_AUTH_AUDIENCE set, so that everyone signs " +
  "in to this server; or the operator sets another authentication method";

/** One authentication method at most, each complete. */
export function checkLabdataSettings(
  values: LabdataValues & { MCP_TRANSPORT?: string; MCP_AUTH_ISSUER?: string },
): string | undefined {
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
    has("LABDATA_TOKEN_EXCHANGE_AUDIENCE") && "LABDATA_TOKEN_EXCHANGE_AUDIENCE",
  ].filter(Boolean);
  if (methods.length > 1)
    return `Two authentication methods are configured (${methods.join(" and ")}); keep one`;
  return (
    exchangeProblem(values) ?? secretFileProblem("LABDATA_CREDENTIALS_FILE", values.LABDATA_CREDENTIALS_FILE)
  );
}

/** Token exchange: all of its settings or none, and people signing in to this server. */
function exchangeProblem(
  values: LabdataValues & { MCP_TRANSPORT?: string; MCP_AUTH_ISSUER?: string },
): string | undefined {
  const audience = values.LABDATA_TOKEN_EXCHANGE_AUDIENCE !== undefined;
  const clientId = values.LABDATA_TOKEN_EXCHANGE_CLIENT_ID !== undefined;
  const secrets = [
    values.LABDATA_TOKEN_EXCHANGE_CLIENT_SECRET,
    values.LABDATA_TOKEN_EXCHANGE_CLIENT_SECRET_FILE,
  ];
  const secretCount = secrets.filter((value) => value !== undefined).length;
  if (!audience && !clientId && secretCount === 0) return undefined;
  if (secretCount === 2) {
    return "Set LABDATA_TOKEN_EXCHANGE_CLIENT_SECRET or LABDATA_TOKEN_EXCHANGE_CLIENT_SECRET_FILE, not both";
  }
  if (!audience || !clientId || secretCount === 0) {
    return (
      "Token exchange needs LABDATA_TOKEN_EXCHANGE_AUDIENCE, LABDATA_TOKEN_EXCHANGE_CLIENT_ID and " +
      "LABDATA_TOKEN_EXCHANGE_CLIENT_SECRET (or LABDATA_TOKEN_EXCHANGE_CLIENT_SECRET_FILE) together"
    );
  }
  if (values.MCP_TRANSPORT === "stdio" || values.MCP_AUTH_ISSUER === undefined) {
    // Only a person signed in to this server has a token the identity provider can exchange.
    return (
      "LABDATA_TOKEN_EXCHANGE_AUDIENCE needs MCP_TRANSPORT=http with MCP_AUTH_ISSUER (people signing in to " +
      "this server); over stdio set LABDATA_ID_TOKEN or LABDATA_ID_TOKEN_FILE instead"
    );
  }
  return undefined;
}
