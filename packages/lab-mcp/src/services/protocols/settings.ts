// The settings of protocols_mcp: where the repository is, and which of the two sign-in ways is used
// (a client token, or an OAuth application the user signs in to).
import { homedir } from "node:os";
import { join } from "node:path";
import type { SettingSpec, SettingValues } from "../../core/config.js";
import { secretFileProblem, userConfigFile } from "../../core/user-config.js";

export const PROTOCOLS_SETTINGS: SettingSpec[] = [
  {
    env: "PROTOCOLS_BASE_URL",
    kind: "https-url",
    required: true,
    description:
      "HTTPS address of the protocol repository, e.g. https://www.protocols.io (API under /api/v3)",
  },
  {
    env: "PROTOCOLS_ACCESS_TOKEN",
    kind: "secret",
    description:
      "A client access token (CLIENT_ACCESS_TOKEN) of your application, instead of an OAuth sign-in",
  },
  {
    env: "PROTOCOLS_CLIENT_ID",
    kind: "string",
    description: "OAuth application client ID (with PROTOCOLS_CLIENT_SECRET and PROTOCOLS_REDIRECT_URI)",
  },
  { env: "PROTOCOLS_CLIENT_SECRET", kind: "secret", description: "OAuth application client secret" },
  {
    env: "PROTOCOLS_REDIRECT_URI",
    kind: "string",
    description: "The application's redirect URI, on this computer: http://127.0.0.1:<port>/<path>",
  },
  {
    env: "PROTOCOLS_TOKEN_FILE",
    kind: "file",
    description:
      "Where the OAuth tokens are kept (default: lab-mcp/protocols-tokens.json in your config folder)",
  },
  {
    env: "PROTOCOLS_DOWNLOAD_DIR",
    kind: "file",
    description: "Folder for downloaded PDFs (default: ~/Downloads/lab-mcp-protocols)",
  },
  {
    env: "PROTOCOLS_MAX_PDF_BYTES",
    kind: "integer",
    min: 65_536,
    max: 1_073_741_824,
    default: "104857600",
    description: "Largest PDF downloaded, in bytes (default 100 MiB); a larger one fails the download",
  },
];

const OAUTH_GROUP = ["PROTOCOLS_CLIENT_ID", "PROTOCOLS_CLIENT_SECRET", "PROTOCOLS_REDIRECT_URI"];

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
}

export function protocolsConfigOf(
  values: SettingValues,
  env: NodeJS.ProcessEnv = process.env,
): ProtocolsConfig {
  const value = (name: string) => values[name] as string | undefined;
  const clientId = value("PROTOCOLS_CLIENT_ID");
  const clientSecret = value("PROTOCOLS_CLIENT_SECRET");
  const redirectUri = value("PROTOCOLS_REDIRECT_URI");
  return {
    // The origin, without the trailing slash the URL parser adds to a bare host.
    baseUrl: (values.PROTOCOLS_BASE_URL as string).replace(/\/+$/, ""),
    clientToken: value("PROTOCOLS_ACCESS_TOKEN"),
    oauth: clientId && clientSecret && redirectUri ? { clientId, clientSecret, redirectUri } : undefined,
    tokenFile: tokenFileOf(values, env),
    downloadDir: value("PROTOCOLS_DOWNLOAD_DIR") ?? join(homedir(), "Downloads", "lab-mcp-protocols"),
  };
}

/** PROTOCOLS_TOKEN_FILE, or lab-mcp/protocols-tokens.json in the user's config folder. */
export function tokenFileOf(values: SettingValues, env: NodeJS.ProcessEnv = process.env): string {
  return (values.PROTOCOLS_TOKEN_FILE as string | undefined) ?? userConfigFile("protocols-tokens.json", env);
}

export const SETUP_HINT =
  "Set PROTOCOLS_ACCESS_TOKEN (a client token), or PROTOCOLS_CLIENT_ID, PROTOCOLS_CLIENT_SECRET and " +
  "PROTOCOLS_REDIRECT_URI (your OAuth application) and sign in, in the server's environment, and restart it";

export const SIGN_IN_HINT =
  "Call protocols_sign_in (your client opens the sign-in page), or run 'protocols-mcp login' in a terminal";

/** One sign-in way at most, the OAuth one complete, and a redirect URI this computer can receive. */
export function checkProtocolsSettings(values: SettingValues): string | undefined {
  const has = (name: string) => values[name] !== undefined;
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
  if (has("PROTOCOLS_REDIRECT_URI")) {
    const problem = redirectUriProblem(values.PROTOCOLS_REDIRECT_URI as string);
    if (problem) return problem;
  }
  return secretFileProblem("PROTOCOLS_TOKEN_FILE", values.PROTOCOLS_TOKEN_FILE as string | undefined);
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
