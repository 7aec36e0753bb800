// API key: the key as the HTTP Basic username, the password empty.
import { credentialId, type LabdataCredential } from "./credential.js";

export function apiKeyCredential(apiKey: string): LabdataCredential {
  const header = `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`;
  return {
    method: "api_key",
    description: "API key (HTTP Basic)",
    id: credentialId("api_key", apiKey),
    authorize(headers) {
      headers.set("authorization", header);
    },
  };
}
