// GET /view/<protocol_uri>.pdf: the protocol as a PDF. Anyone may download public protocols; private ones
// need a token whose user may see them. A sent token must be valid: a bad one is refused, not ignored.
// The PDF limit has its own windows: per user when signed in, per address when anonymous.
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendMethodNotAllowed, sendNotFound } from "./api-errors.js";
import { identifyCaller, rateKey, sendAuthError } from "./caller.js";
import type { ProtocolsContext } from "./context.js";
import { admit } from "./rate-limits.js";
import { canSee } from "./visibility.js";

export const PDF_PATH = /^\/view\/([^/]+)\.pdf$/;

export async function handlePdfRequest(
  req: IncomingMessage,
  res: ServerResponse,
  encodedUri: string,
  ctx: ProtocolsContext,
): Promise<void> {
  const caller = identifyCaller(req, ctx);
  const windows = caller.kind === "user" ? ctx.limits.pdfSignedIn : ctx.limits.pdfAnonymous;
  if (!admit(windows, rateKey(caller), res, "PDF downloads")) return;
  if (caller.kind === "invalid_token" || caller.kind === "expired_token")
    return sendAuthError(res, caller, ctx, "v3");
  if (req.method !== "GET" && req.method !== "HEAD") return sendMethodNotAllowed(res, "GET");

  let uri: string;
  try {
    uri = decodeURIComponent(encodedUri);
  } catch {
    return sendNotFound(res, "Protocol not found.");
  }
  const protocol = ctx.store.findProtocol(uri);
  const viewer = caller.kind === "user" ? caller.user : undefined;
  // By URI only, as the view address is; not found and not visible answer alike.
  if (!protocol || protocol.uri !== uri || !canSee(protocol, viewer))
    return sendNotFound(res, "Protocol not found.");

  const pdf = await ctx.pdfs.get(protocol);
  res.writeHead(200, {
    "content-type": "application/pdf",
    "content-length": String(pdf.bytes.length),
    "content-disposition": `inline; filename="${protocol.uri}.pdf"`,
    "cache-control": viewer && !protocol.isPublic ? "private, no-store" : "public, max-age=300",
  });
  res.end(pdf.bytes);
}
