// OpenID Connect: an ID token from the user's identity provider, as a Bearer token. From a file, it
// is read again on every use so that an outside refresher can rotate it without a restart.
import { credentialId, type LabdataCredential } from "./credential.js";
import { readSecretFile } from "./secret-file.js";

export function idTokenCredential(source: { token: string } | { file: string }): LabdataCredential {
  let lastSent: string | undefined;
  const current = async (): Promise<string> => {
    if ("token" in source) return source.token;
    return readSecretFile(source.file, "LABDATA_ID_TOKEN_FILE", "Write a fresh ID token into it.");
  };
  return {
    method: "oidc",
    description: `OpenID Connect ID token${"file" in source ? " (from a file, re-read on use)" : ""}`,
    id: credentialId("oidc", "token" in source ? source.token : `file:${source.file}`),
    async authorize(headers) {
      lastSent = await current();
      headers.set("authorization", `Bearer ${lastSent}`);
    },
    async renewAfterUnauthorized() {
      // Worth one more try only when the file now holds another token.
      return "file" in source && (await current()) !== lastSent;
    },
  };
}
