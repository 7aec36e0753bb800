// A throwaway certificate authority made when an emulator starts, so emulators can serve real HTTPS
// that clients trust through NODE_EXTRA_CA_CERTS, with nothing stored in the project tree.
import { webcrypto } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { isIP } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
// Must come first: @peculiar/x509 loads tsyringe, which needs the Reflect metadata API at load time.
import "reflect-metadata";
import * as x509 from "@peculiar/x509";

// Node's webcrypto is the provider; its type differs nominally from the DOM Crypto the library names.
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

export interface CertificateAuthority {
  certPem: string;
  keyPem: string;
}

const EC_KEY = { name: "ECDSA", namedCurve: "P-256" } as const;
const SIGNING = { name: "ECDSA", hash: "SHA-256" } as const;
const DAY_MS = 24 * 60 * 60 * 1000;

// Backdated a day so clock skew between processes never makes a fresh certificate "not yet valid".
function validity(): { notBefore: Date; notAfter: Date } {
  const now = Date.now();
  return { notBefore: new Date(now - DAY_MS), notAfter: new Date(now + 30 * DAY_MS) };
}

async function generateKeys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(EC_KEY, true, ["sign", "verify"])) as CryptoKeyPair;
}

async function exportPrivateKeyPem(key: CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey("pkcs8", key);
  return x509.PemConverter.encode(der, "PRIVATE KEY");
}

async function importPrivateKeyPem(pem: string): Promise<CryptoKey> {
  const der = x509.PemConverter.decodeFirst(pem);
  return webcrypto.subtle.importKey("pkcs8", der, EC_KEY, false, ["sign"]);
}

// A positive 16-byte serial: OpenSSL rejects negative serials, so the top bit is cleared.
function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return Buffer.from(bytes).toString("hex");
}

export async function createCertificateAuthority(
  commonName = "lab-mcp emulator CA",
): Promise<CertificateAuthority> {
  const keys = await generateKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: [{ CN: [commonName] }, { O: ["lab-mcp"] }],
    ...validity(),
    signingAlgorithm: SIGNING,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: cert.toString("pem"), keyPem: await exportPrivateKeyPem(keys.privateKey) };
}

export async function issueServerCertificate(
  ca: CertificateAuthority,
  hostnames: string[] = ["localhost", "127.0.0.1", "::1"],
): Promise<{ certPem: string; keyPem: string }> {
  const caCert = new x509.X509Certificate(ca.certPem);
  const caKey = await importPrivateKeyPem(ca.keyPem);
  const keys = await generateKeys();
  const first = hostnames[0] ?? "localhost";
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: [{ CN: [first] }],
    // The issuer must be byte-identical to the CA's subject for chain building, so reuse its Name.
    issuer: caCert.subjectName,
    ...validity(),
    signingAlgorithm: SIGNING,
    publicKey: keys.publicKey,
    signingKey: caKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      // Hostname checks use only the SAN (the CN is ignored), so IP literals must be "ip" entries.
      new x509.SubjectAlternativeNameExtension(
        hostnames.map((name) => ({ type: isIP(name) ? "ip" : "dns", value: name })),
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(caCert.publicKey),
    ],
  });
  return { certPem: cert.toString("pem"), keyPem: await exportPrivateKeyPem(keys.privateKey) };
}

// Writes the CA certificate (never its key) where NODE_EXTRA_CA_CERTS can point.
export async function writeCaFile(ca: CertificateAuthority, path?: string): Promise<string> {
  const target = path ?? join(await mkdtemp(join(tmpdir(), "lab-mcp-ca-")), "ca.pem");
  await writeFile(target, ca.certPem, { mode: 0o644 });
  return target;
}
