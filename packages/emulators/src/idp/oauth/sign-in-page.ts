// The pages a tester sees at /authorize: pick one of the provider's people and approve or deny the
// application, or an error page. Every value is HTML-escaped; there is no script, and htmlResponse
// forbids framing and caching.
import { escapeHtml, htmlResponse } from "../../common/html.js";
import type { HttpResponse, ResponseHeaders } from "../../common/response.js";
import type { Person } from "../people.js";
import { AUTHORIZE_PATH } from "./metadata.js";

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f6f8;margin:0;color:#1d2730}
main{max-width:30rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem;margin-top:0}fieldset{border:1px solid #d5dbe0;border-radius:6px;padding:.5rem 1rem}
label{display:block;margin:.5rem 0}button{padding:.5rem 1.2rem;margin:1rem .5rem 0 0;font-size:1rem}
.error{color:#b00020}.muted{color:#5a6570;word-break:break-all}`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · identity provider emulator</title><style>${STYLE}</style></head>
<body><main>
${body}
</main></body>
</html>
`;
}

export function signInPage(
  opts: {
    clientName: string;
    clientId: string;
    redirectUri: string;
    resource: string;
    scope: string;
    people: readonly Person[];
    ticket: string;
    error?: string;
  },
  headers: ResponseHeaders,
): HttpResponse {
  const error = opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>\n` : "";
  const choices = opts.people
    .map(
      (p) =>
        `<label><input type="radio" name="subject" value="${escapeHtml(p.subject)}" required> ${escapeHtml(p.name)} <span class="muted">(${escapeHtml(p.email)})</span></label>`,
    )
    .join("\n");
  const html = page(
    "Sign in",
    `<h1>Sign in to ${escapeHtml(opts.clientName)}</h1>
${error}<p class="muted">Application: ${escapeHtml(opts.clientId)}<br>Access to: ${escapeHtml(opts.resource)}<br>Scope: ${escapeHtml(opts.scope)}<br>You will be sent back to ${escapeHtml(opts.redirectUri)}</p>
<form method="post" action="${AUTHORIZE_PATH}">
<input type="hidden" name="ticket" value="${escapeHtml(opts.ticket)}">
<fieldset><legend>Sign in as</legend>
${choices}
</fieldset>
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</form>`,
  );
  return htmlResponse(200, html, headers);
}

export function errorPage(status: number, title: string, message: string): HttpResponse {
  return htmlResponse(
    status,
    page(title, `<h1>${escapeHtml(title)}</h1>\n<p class="error">${escapeHtml(message)}</p>`),
  );
}
