// Verifies OpenID Connect ID tokens against a tenant's identity provider: discovery document ->
// jwks_uri -> keys (cached), signature, issuer, audience and times by the emulator clock (jose).
// On a key id it does not know it fetches the keys once more, as providers rotate their keys. An OAuth
// access token (typ at+jwt, RFC 9068: minted for a resource such as an MCP server) is never taken as an
// ID token, whatever its audience: a service acting for a person exchanges it for an ID token first.
import { rootCertificates } from "node:tls";
import { createLocalJWKSet, decodeProtectedHeader, errors, type JWTPayload, jwtVerify } from "jose";
import { z } from "zod";
import type { Clock } from "../../common/clock.js";
import { getJson } from "../../common/https-json.js";
import type { OidcSetting } from "../state/model.js";

const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "ES256", "ES384"];

/** Why a token was refused, in words safe to send back (never the token or its claims). */
export class IdTokenRejected extends Error {}

const discoverySchema = z.object({ issuer: z.string().min(1), jwks_uri: z.url({ protocol: /^https$/ }) });
const jwksSchema = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });

interface Provider {
  issuer: string;
  jwksUri: string;
  keys: ReturnType<typeof createLocalJWKSet>;
  /** A refetch in flight, shared by concurrent requests that met the same unknown key. */
  refetching?: Promise<void>;
}

export class OidcVerifier {
  readonly #providers = new Map<string, Promise<Provider>>();
  readonly #ca: string[];

  constructor(
    trustedCaPems: string[],
    private readonly clock: Clock,
  ) {
    this.#ca = [...trustedCaPems, ...rootCertificates];
  }

  /** The verified claims, with a string `email`; throws IdTokenRejected. */
  async verify(token: string, setting: OidcSetting): Promise<JWTPayload & { email: string }> {
    if (isAccessToken(token)) {
      throw new IdTokenRejected(
        "Bearer token is an OAuth access token (typ at+jwt) for another resource, not an ID token for this " +
          "tenant: exchange it at the identity provider for an ID token whose audience is this tenant's",
      );
    }
    const provider = await this.#provider(setting.configurationUrl);
    let payload: JWTPayload;
    try {
      payload = await this.#check(token, provider, setting);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw rejection(error);
      await this.#refetchKeys(provider);
      try {
        payload = await this.#check(token, provider, setting);
      } catch (again) {
        throw rejection(again);
      }
    }
    if (typeof payload.email !== "string" || payload.email === "") {
      throw new IdTokenRejected("ID token has no email claim");
    }
    return payload as JWTPayload & { email: string };
  }

  async #check(token: string, provider: Provider, setting: OidcSetting): Promise<JWTPayload> {
    const { payload } = await jwtVerify(token, provider.keys, {
      issuer: provider.issuer,
      audience: setting.audience,
      algorithms: ALGORITHMS,
      currentDate: new Date(this.clock.now()),
      requiredClaims: ["exp"],
    });
    return payload;
  }

  // A failed fetch is not cached, so the next request tries again.
  #provider(configurationUrl: string): Promise<Provider> {
    let provider = this.#providers.get(configurationUrl);
    if (!provider) {
      provider = this.#discover(configurationUrl);
      this.#providers.set(configurationUrl, provider);
      provider.catch(() => this.#providers.delete(configurationUrl));
    }
    return provider;
  }

  async #discover(configurationUrl: string): Promise<Provider> {
    let discovery: z.infer<typeof discoverySchema>;
    try {
      discovery = discoverySchema.parse(await getJson(configurationUrl, this.#ca));
    } catch {
      throw new IdTokenRejected("could not read the identity provider's OpenID configuration");
    }
    return {
      issuer: discovery.issuer,
      jwksUri: discovery.jwks_uri,
      keys: await this.#fetchKeys(discovery.jwks_uri),
    };
  }

  async #fetchKeys(jwksUri: string): Promise<Provider["keys"]> {
    try {
      return createLocalJWKSet(
        jwksSchema.parse(await getJson(jwksUri, this.#ca)) as Parameters<typeof createLocalJWKSet>[0],
      );
    } catch {
      throw new IdTokenRejected("could not read the identity provider's keys (jwks_uri)");
    }
  }

  async #refetchKeys(provider: Provider): Promise<void> {
    provider.refetching ??= this.#fetchKeys(provider.jwksUri)
      .then((keys) => {
        provider.keys = keys;
      })
      .finally(() => {
        provider.refetching = undefined;
      });
    await provider.refetching;
  }
}

const ACCESS_TOKEN_TYPES = new Set(["at+jwt", "application/at+jwt"]);

function isAccessToken(token: string): boolean {
  try {
    const { typ } = decodeProtectedHeader(token);
    return typeof typ === "string" && ACCESS_TOKEN_TYPES.has(typ.toLowerCase());
  } catch {
    return false; // malformed: the verification says so
  }
}

function rejection(error: unknown): IdTokenRejected {
  if (error instanceof IdTokenRejected) return error;
  if (error instanceof errors.JWTExpired) return new IdTokenRejected("ID token has expired");
  if (error instanceof errors.JWTClaimValidationFailed) {
    const messages: Record<string, string> = {
      iss: "ID token issuer is not the identity provider's",
      aud: "ID token audience is not this tenant's",
      nbf: "ID token is not valid yet",
      iat: "ID token issue time is not valid",
      exp: "ID token has no valid expiry",
    };
    return new IdTokenRejected(messages[error.claim] ?? `ID token claim ${error.claim} is not valid`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return new IdTokenRejected("ID token signature is not valid");
  if (error instanceof errors.JWKSNoMatchingKey)
    return new IdTokenRejected("ID token is signed with a key the identity provider does not publish");
  if (error instanceof errors.JOSEAlgNotAllowed)
    return new IdTokenRejected("ID token algorithm is not allowed");
  return new IdTokenRejected("ID token is malformed");
}
