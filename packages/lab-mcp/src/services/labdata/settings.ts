// The settings of labdata_mcp, and which authentication method they choose.
import type { SettingSpec, SettingValues } from "../../core/config.js";
import { secretFileProblem } from "../../core/user-config.js";

export const LABDATA_SETTINGS: SettingSpec[] = [
  {
    env: "LABDATA_BASE_URL",
    kind: "https-url",
    required: true,
    description: "HTTPS base URL of your tenant, e.g. https://acme.labdata.example",
  },
  { env: "LABDATA_API_KEY", kind: "secret", description: "API key (sent as the HTTP Basic username)" },
  {
    env: "LABDATA_CLIENT_ID",
    kind: "string",
    description: "OAuth app client ID (with LABDATA_CLIENT_SECRET)",
  },
  { env: "LABDATA_CLIENT_SECRET", kind: "secret", description: "OAuth app client secret" },
  {
    env: "LABDATA_ID_TOKEN",
    kind: "secret",
    description: "OpenID Connect ID token from your identity provider",
  },
  {
    env: "LABDATA_ID_TOKEN_FILE",
    kind: "file",
    description: "File holding the ID token, read again on every use (for an outside refresher)",
  },
  {
    env: "LABDATA_CREDENTIALS_FILE",
    kind: "file",
    description:
      "Where an API key you ask to remember is kept (default: lab-mcp/labdata.json in your config folder)",
  },
];

export const SETUP_HINT =
  "Set LABDATA_API_KEY, or LABDATA_CLIENT_ID and LABDATA_CLIENT_SECRET, or LABDATA_ID_TOKEN (or LABDATA_ID_TOKEN_FILE) " +
  "in the server's environment and restart it";

/** One authentication method at most, each complete. */
export function checkLabdataSettings(values: SettingValues): string | undefined {
  const has = (name: string) => values[name] !== undefined;
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
  ].filter(Boolean);
  if (methods.length > 1)
    return `Two authentication methods are configured (${methods.join(" and ")}); keep one`;
  return secretFileProblem("LABDATA_CREDENTIALS_FILE", values.LABDATA_CREDENTIALS_FILE as string | undefined);
}
