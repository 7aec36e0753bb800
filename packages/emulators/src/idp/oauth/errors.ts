// The identity provider's OAuth error responses: the shared RFC 6749 section 5.2 bodies
// (common/oauth/errors.ts), with this server's realm in the Basic challenge of a 401.
import { oauthErrors } from "../../common/oauth/errors.js";

export { NO_STORE } from "../../common/oauth/errors.js";

export const oauthError = oauthErrors("identity provider");
