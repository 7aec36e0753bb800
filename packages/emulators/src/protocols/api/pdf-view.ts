// GET /view/<protocol_uri>.pdf: the protocol as a PDF. Anyone may download public protocols; private ones
// need a token whose user may see them. A sent token must be valid: a bad one is refused, not ignored.
// The PDF limit has its own windows: per user when signed in, per address when anonymous. The view
// options (compact_view, only_materials, only_steps, only_commands) change what the PDF holds.
import { decodedSegment, type PathParams } from "../../common/path-pattern.js";
import { type HttpResponse, withHeaders } from "../../common/response.js";
import { ANY_METHOD, route } from "../../common/routes.js";
import type { ProtocolsContext, RepositoryRequest } from "../context.js";
import { apiMethodNotAllowed, apiNotFound } from "./api-errors.js";
import { authError, type Caller, identifyCaller, rateKey } from "./caller.js";
import { type PdfView, pdfViewOf } from "./pdf-render.js";
import { admit } from "./rate-limits.js";
import { canSee } from "./visibility.js";

async function answerPdfRequest(
  { req, url, ctx }: RepositoryRequest,
  params: PathParams,
): Promise<HttpResponse> {
  const caller = identifyCaller(req, ctx);
  const windows = caller.kind === "user" ? ctx.limits.pdfSignedIn : ctx.limits.pdfAnonymous;
  const rate = admit(windows, rateKey(caller), "PDF downloads");
  if (rate.refusal) return withHeaders(rate.refusal, rate.headers);
  const view = pdfViewOf(url.searchParams);
  return withHeaders(await pdfAnswer(ctx, req.method, caller, params.uri ?? "", view), rate.headers);
}

async function pdfAnswer(
  ctx: ProtocolsContext,
  method: string | undefined,
  caller: Caller,
  encodedUri: string,
  view: PdfView,
): Promise<HttpResponse> {
  if (caller.kind === "invalid_token" || caller.kind === "expired_token") return authError(caller, ctx, "v3");
  if (method !== "GET" && method !== "HEAD") return apiMethodNotAllowed("GET");
  const uri = decodedSegment(encodedUri);
  const protocol = uri === undefined ? undefined : ctx.store.findProtocol(uri);
  const viewer = caller.kind === "user" ? caller.user : undefined;
  // By URI only, as the view address is; not found, not visible and undecodable answer alike.
  if (!protocol || protocol.uri !== uri || !canSee(protocol, viewer))
    return apiNotFound("Protocol not found.");

  const pdf = await ctx.pdfs.get(protocol, view);
  return {
    status: 200,
    headers: {
      "content-disposition": `inline; filename="${protocol.uri}.pdf"`,
      "cache-control": viewer && !protocol.isPublic ? "private, no-store" : "public, max-age=300",
    },
    body: { kind: "bytes", bytes: pdf.bytes, contentType: "application/pdf" },
  };
}

/** Every method reaches the handler: the limit and the token are checked before the method. */
export const PDF_ROUTE = route(ANY_METHOD, "/view/:uri.pdf", answerPdfRequest, { decode: false });
