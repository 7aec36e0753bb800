export type { IdentityProviderAdmin, IssuedToken } from "./admin.js";
export type { MintIdTokenOptions } from "./id-tokens.js";
export {
  AUTHORIZE_PATH,
  DISCOVERY_PATH,
  INTROSPECT_PATH,
  JWKS_PATH,
  OAUTH_METADATA_PATH,
  REGISTER_PATH,
  REVOKE_PATH,
  TOKEN_PATH,
} from "./oauth/metadata.js";
export { DEMO_PEOPLE, type Person, subjectOf } from "./people.js";
export {
  DEFAULT_SCOPES,
  type IdentityProvider,
  type IdentityProviderOptions,
  startIdentityProvider,
} from "./server.js";
