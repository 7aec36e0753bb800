// The settings of protocols_mcp: where the repository is, and which of the two sign-in ways is used
// (a client token, or an OAuth application the user signs in to).
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { setting } from "../../core/start/setting.js";
import { secretFileProblem, userConfigFile } from "../../core/start/user-config.js";

export const PROTOCOLS_SETTINGS = z.object({
  PROTOCOLS_BASE_URL: setting.httpsUrl({
    help: "HTTPS address of the protocol repository, e.g. https://www.protocols.io (with or without /api/v3)",
    apiRoot: { path: "/api/v3", example: "https://www.protocols.io" },
  }),
  PROTOCOLS_ACCESS_TOKEN: setting
    .secret({
      help: "A client access token (CLIENT_ACCESS_TOKEN) of your application, instead of an OAuth sign-in",
    })
    .optional(),
  PROTOCOLS_CLIENT_ID: setting
    .string({
      help: "OAuth application client ID (with PROTOCOLS_CLIENT_SECRET and PROTOCOLS_REDIRECT_URI)",
    })
    .optional(),
  PROTOCOLS_CLIENT_SECRET: setting.secret({ help: "OAuth application client secret" }).optional(),
  PROTOCOLS_REDIRECT_URI: setting
    .string({
      help: "The application's redirect URI, on this computer: http://127.0.0.1:<port>/<path>; in team mode (MCP_AUTH_AUDIENCE) <origin of MCP_AUTH_AUDIENCE>/oauth/protocols/callback",
    })
    .optional(),
  PROTOCOLS_TOKEN_FILE: setting
    .file({
      help: "Where the OAuth tokens are kept, mode 0600, never inside a git work tree (default: lab-mcp/protocols-tokens.json in your config folder); with REDIS_URL they are kept in the shared state instead",
    })
    .optional(),
  PROTOCOLS_DOWNLOAD_DIR: setting
    .file({ help: "Folder for downloaded PDFs (default: ~/Downloads/lab-mcp-protocols)" })
    .optional(),
  PROTOCOLS_MAX_PDF_BYTES: setting
    .integer({
      min: 65_536,
      max: 1_073_741_824,
      help: "Largest PDF downloaded, in bytes (default 100 MiB); a larger one fails the download",
    })
    .default(104_857_600),
});

export type ProtocolsShape = typeof PROTOCOLS_SETTINGS.shape;
export type ProtocolsValues = z.output<typeof PROTOCOLS_SETTINGS>;

const OAUTH_GROUP = ["PROTOCOLS_CLIENT_ID", "PROTOCOLS_CLIENT_SECRET", "PROTOCOLS_REDIRECT_URI"] as const;

/** The OAuth application the user signs in to. */
export interface OAuthApp {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export interface ProtocolsConfig {
  baseUrl: string;
  /** A CLIENT_ACCESS_TOKEN, when that is the sign-in way. */
  clientToken?: string;
  oauth?: OAuthApp;
  tokenFile: string;
  downloadDir: string;
  /**
   * Whether a PDF is also saved in downloadDir unless the call says otherwise: true when the client
   * runs on this computer (stdio); over HTTP the server's disk is not the user's.
   */
  saveFilesByDefault?: boolean;
}

export function protocolsConfigOf(
  values: ProtocolsValues,
  env: NodeJS.ProcessEnv = process.env,
): ProtocolsConfig {
  const clientId = values.PROTOCOLS_CLIENT_ID;
  const clientSecret = values.PROTOCOLS_CLIENT_SECRET;
  const redirectUri = values.PROTOCOLS_REDIRECT_URI;
  return {
    baseUrl: baseUrlOf(values.PROTOCOLS_BASE_URL),
    clientToken: values.PROTOCOLS_ACCESS_TOKEN,
    oauth: clientId && clientSecret && redirectUri ? { clientId, clientSecret, redirectUri } : undefined,
    tokenFile: tokenFileOf(values, env),
    downloadDir: values.PROTOCOLS_DOWNLOAD_DIR ?? join(homedir(), "Downloads", "lab-mcp-protocols"),
  };
}

/** The repository's origin, without the trailing slash the URL parser adds to a bare host. */
export function baseUrlOf(setting: string): string {
  return setting.replace(/\/+$/, "");
}

/** PROTOCOLS_TOKEN_FILE, or lab-mcp/protocols-tokens.json in the user's config folder. */
export function tokenFileOf(
  values: Pick<ProtocolsValues, "PROTOCOLS_TOKEN_FILE">,
  env: NodeJS.ProcessEnv = process.env,
): string {
  return values.PROTOCOLS_TOKEN_FILE ?? userConfigFile("protocols-tokens.json", env);
}

export const SETUP_HINT =
  "Set PROTOCOLS_ACCESS_TOKEN (a client token), or PROTOCOLS_CLIENT_ID, PROTOCOLS_CLIENT_SECRET and " +
  "PROTOCOLS_REDIRECT_URI (your OAuth application) and sign in, in the server's environment, and restart it";

export const SIGN_IN_HINT =
  "Call protocols_sign_in (your client opens the sign-in page), or run 'protocols-mcp login' in a terminal";

/**
 * One sign-in way at most, the OAuth one complete, and a redirect URI this server receives: on this
 * computer, or in team mode (`audience`: MCP_AUTH_AUDIENCE) the callback route of its public URL.
 */
export function checkProtocolsSettings(values: ProtocolsValues, audience?: string): string | undefined {
  const has = (name: keyof ProtocolsValues) => values[name] !== undefined;
  const given = OAUTH_GROUP.filter(has);
  if (given.length > 0 && given.length < OAUTH_GROUP.length) {
    const missing = OAUTH_GROUP.filter((name) => !has(name));
    return `${OAUTH_GROUP.join(", ")} go together; ${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} missing`;
  }
  if (has("PROTOCOLS_ACCESS_TOKEN") && given.length > 0) {
    return "Two sign-in ways are configured (PROTOCOLS_ACCESS_TOKEN and the OAuth application PROTOCOLS_CLIENT_ID); keep one";
  }
  if (has("PROTOCOLS_ACCESS_TOKEN") && has("PROTOCOLS_TOKEN_FILE")) {
    return "PROTOCOLS_TOKEN_FILE holds OAuth sign-ins and is not used with PROTOCOLS_ACCESS_TOKEN; unset one";
  }
  if (values.PROTOCOLS_REDIRECT_URI !== undefined) {
    const problem = audience
      ? teamRedirectProblem(values.PROTOCOLS_REDIRECT_URI, audience)
      : redirectUriProblem(values.PROTOCOLS_REDIRECT_URI);
    if (problem) return problem;
  }
  return secretFileProblem("PROTOCOLS_TOKEN_FILE", values.PROTOCOLS_TOKEN_FILE);
}

/** The route of the MCP server each person's sign-in comes back to (auth/personal-sign-in.ts serves it). */
export const TEAM_CALLBACK_PATH = "/oauth/protocols/callback";

/** In team mode the browser comes back to the server's public URL, whichever replica answers. */
export function teamRedirectProblem(value: string, audience: string): string | undefined {
  let expected: string;
  try {
    expected = new URL(TEAM_CALLBACK_PATH, new URL(audience).origin).toString();
  } catch {
    return undefined; // MCP_AUTH_AUDIENCE's own check says what is wrong with it
  }
  if (value === expected) return undefined;
  return (
    `In team mode (MCP_AUTH_AUDIENCE) PROTOCOLS_REDIRECT_URI must be ${expected} (this server's public ` +
    "callback, registered with your application), so that each person's sign-in comes back to the server"
  );
}

/** The redirect must come back to a listener on this computer: plain http on loopback, with a port. */
export function redirectUriProblem(value: string): string | undefined {
  const expected = "must be http://127.0.0.1:<port>/<path> or http://localhost:<port>/<path>";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `PROTOCOLS_REDIRECT_URI is not a valid URL; it ${expected}`;
  }
  const loopback = url.hostname === "127.0.0.1" || url.hostname === "localhost";
  // Port 0 would be any free port, never the one registered with the application.
  const noPort = url.port === "" || url.port === "0";
  if (url.protocol !== "http:" || !loopback || noPort || url.username || url.password) {
    return `PROTOCOLS_REDIRECT_URI ${expected} (this computer, with a port), as registered with your application`;
  }
  if (url.hash || value.includes("#")) return "PROTOCOLS_REDIRECT_URI must not have a #fragment";
  return undefined;
}
