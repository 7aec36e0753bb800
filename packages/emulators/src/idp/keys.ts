// The provider's RS256 signing keys (jose): the current one and the one before it, both published,
// so tokens signed just before a rotation still verify. A "foreign" key with the current key id lets
// tests make tokens whose signature is wrong.
import { type CryptoKey, calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from "jose";

export const ALG = "RS256";

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

async function newKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { kid, privateKey, publicJwk: { ...jwk, kid, alg: ALG, use: "sig" } };
}

export class SigningKeys {
  #current: SigningKey;
  #previous: SigningKey | undefined;
  #foreign: CryptoKey | undefined;

  private constructor(first: SigningKey) {
    this.#current = first;
  }

  static async create(): Promise<SigningKeys> {
    return new SigningKeys(await newKey());
  }

  get current(): SigningKey {
    return this.#current;
  }

  /** The JWKS document: public keys only. */
  jwks(): { keys: JWK[] } {
    return { keys: [this.#current, this.#previous].filter((k) => k !== undefined).map((k) => k.publicJwk) };
  }

  /** A new current key; the old one stays published until the next rotation. */
  async rotate(): Promise<void> {
    const next = await newKey();
    this.#previous = this.#current;
    this.#current = next;
  }

  /** A private key that is not published anywhere. */
  async foreign(): Promise<CryptoKey> {
    this.#foreign ??= (await generateKeyPair(ALG)).privateKey;
    return this.#foreign;
  }
}
