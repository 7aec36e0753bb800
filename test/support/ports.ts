// Free loopback ports for servers a test starts on a port it must name (redirect URIs, Redis, bins):
// the fleet launcher's own, so tests and `npm run fleet` pick ports one way.
export { freePort } from "../../packages/emulators/src/fleet/redis.js";
