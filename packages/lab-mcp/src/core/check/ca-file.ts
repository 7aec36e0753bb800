// The CA file of `<bin> check`: NODE_EXTRA_CA_CERTS, read as Node reads it at start (PEM certificates),
// told apart from the ways it goes wrong, each with its own fix: the file is missing, cannot be read,
// holds no PEM certificate, or holds certificates none of which issued what the server presents. Node
// itself only prints a warning for the first three and goes on without the file.
import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import type { DetailedPeerCertificate } from "node:tls";
import { type CheckStep, failed, passed } from "./report.js";

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export interface CaFile {
  path: string;
  certificates: X509Certificate[];
}

/** A certificate's name as people say it: its CN, else its O, else the whole subject. */
export function nameOf(subject: string): string {
  const field = (key: string) =>
    subject
      .split("\n")
      .find((line) => line.startsWith(`${key}=`))
      ?.slice(key.length + 1);
  return field("CN") ?? field("O") ?? subject.replaceAll("\n", ", ");
}

/** The step for the file NODE_EXTRA_CA_CERTS names, and the certificates it holds when they can be read. */
export function caFileStep(path: string): { step: CheckStep; file?: CaFile } {
  const name = "CA file";
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as { code?: string }).code ?? "unreadable";
    if (code === "ENOENT" || code === "ENOTDIR") {
      return {
        step: failed(
          name,
          `NODE_EXTRA_CA_CERTS names ${path}, which does not exist (${code}); Node goes on without it`,
          "set NODE_EXTRA_CA_CERTS to the full path of the CA's PEM file (no ~, no quotes in the value), and restart the server",
        ),
      };
    }
    return {
      step: failed(
        name,
        `NODE_EXTRA_CA_CERTS names ${path}, which cannot be read (${code}); Node goes on without it`,
        code === "EISDIR"
          ? "name the PEM file itself, not its folder"
          : "make the file readable by the user the server runs as (e.g. chmod a+r), or copy it where that user can read it",
      ),
    };
  }
  const certificates: X509Certificate[] = [];
  for (const block of bytes.toString("latin1").match(PEM_BLOCK) ?? []) {
    try {
      certificates.push(new X509Certificate(block));
    } catch {
      // A damaged block: counted out below, as Node leaves it out.
    }
  }
  if (certificates.length === 0) {
    // DER (a binary .cer/.crt) starts with an ASN.1 SEQUENCE byte; anything else is not a certificate.
    const der = bytes[0] === 0x30;
    return {
      step: failed(
        name,
        `${path} holds no PEM certificate (no valid -----BEGIN CERTIFICATE----- block${der ? "; it looks like binary DER" : ""})`,
        der
          ? `convert it to PEM: openssl x509 -inform der -in ${path} -out ca.pem, then set NODE_EXTRA_CA_CERTS to ca.pem`
          : "set NODE_EXTRA_CA_CERTS to the CA certificate in PEM form (the text file that starts with -----BEGIN CERTIFICATE-----)",
      ),
    };
  }
  const names = certificates.map((certificate) => nameOf(certificate.subject));
  const shown =
    names.length > 3 ? `${names.slice(0, 3).join("; ")}; and ${names.length - 3} more` : names.join("; ");
  return {
    step: passed(
      name,
      `${path}: ${certificates.length} certificate${certificates.length === 1 ? "" : "s"} (${shown})`,
    ),
    file: { path, certificates },
  };
}

/** The certificates the server presented, leaf first, as Node hands them over. */
function chainOf(peer: DetailedPeerCertificate): X509Certificate[] {
  const chain: X509Certificate[] = [];
  let current: DetailedPeerCertificate | undefined = peer;
  const seen = new Set<string>();
  while (current?.raw && !seen.has(current.fingerprint256)) {
    seen.add(current.fingerprint256);
    chain.push(new X509Certificate(current.raw));
    const next: DetailedPeerCertificate | undefined = current.issuerCertificate;
    current = next && next !== current ? next : undefined;
  }
  return chain;
}

/**
 * Why the server's certificate is not trusted although the CA file was read: none of the file's
 * certificates issued any certificate of the chain the server presented. Undefined when one did (then
 * the cause is elsewhere, and the general advice stands).
 */
export function notTheIssuer(
  file: CaFile,
  peer: DetailedPeerCertificate,
  where: string,
): CheckStep | undefined {
  const chain = chainOf(peer);
  const issued = chain.some((certificate) =>
    file.certificates.some((ca) => certificate.checkIssued(ca) && certificate.verify(ca.publicKey)),
  );
  if (issued || chain.length === 0) return undefined;
  const top = chain[chain.length - 1] as X509Certificate;
  const issuer = nameOf(top.issuer);
  return failed(
    "TLS",
    `CertificateError: the certificate of ${where} is issued by "${issuer}", and none of the ${file.certificates.length} certificate(s) in ${file.path} is that CA`,
    `add the certificate of "${issuer}" (PEM) to ${file.path}; if your company's network inspects HTTPS, that is its CA, which IT can give you (openssl s_client -showcerts -connect ${where} shows the chain)`,
  );
}
