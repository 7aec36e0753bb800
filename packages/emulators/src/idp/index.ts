export type { MintIdTokenOptions } from "./id-tokens.js";
export {
  DISCOVERY_PATH,
  type IdentityProvider,
  type IdentityProviderOptions,
  JWKS_PATH,
  startIdentityProvider,
} from "./server.js";
