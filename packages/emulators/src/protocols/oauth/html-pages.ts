// The pages a person sees during sign-in: the sign-in form, the consent page and the error page. Every
// value is HTML-escaped, and the headers forbid framing (no clickjacking of the Approve button) and caching.
import { escapeHtml } from "../../common/html.js";

export { htmlResponse } from "../../common/html.js";

export const AUTHORIZE_PATH = "/api/v3/oauth/authorize";

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f6f8;margin:0;color:#1d2730}
main{max-width:28rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem;margin-top:0}label{display:block;margin:.8rem 0 .2rem}
input[type=text],input[type=password]{width:100%;padding:.5rem;box-sizing:border-box}
button{padding:.5rem 1.2rem;margin:1rem .5rem 0 0;font-size:1rem}.error{color:#b00020}.muted{color:#5a6570}`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · protocols emulator</title><style>${STYLE}</style></head>
<body><main>
${body}
</main></body>
</html>
`;
}

export function signInPage(opts: {
  appName: string;
  ticket: string;
  username?: string;
  error?: string;
}): string {
  const error = opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : "";
  return page(
    "Sign in",
    `<h1>Sign in to continue to ${escapeHtml(opts.appName)}</h1>
${error}<form method="post" action="${AUTHORIZE_PATH}">
<input type="hidden" name="action" value="sign_in">
<input type="hidden" name="ticket" value="${escapeHtml(opts.ticket)}">
<label for="username">Username</label>
<input type="text" id="username" name="username" autocomplete="username" required value="${escapeHtml(opts.username ?? "")}">
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`,
  );
}

export function consentPage(opts: {
  appName: string;
  appOwner: string;
  userName: string;
  username: string;
  redirectUri: string;
  ticket: string;
}): string {
  return page(
    "Authorize application",
    `<h1>${escapeHtml(opts.appName)} wants to access your account</h1>
<p>Signed in as <strong>${escapeHtml(opts.userName)}</strong> (${escapeHtml(opts.username)}).</p>
<p><strong>${escapeHtml(opts.appName)}</strong>, by ${escapeHtml(opts.appOwner)}, will be able to read your
private protocols and your profile, and all public protocols.</p>
<p class="muted">You will be sent back to ${escapeHtml(opts.redirectUri)}</p>
<form method="post" action="${AUTHORIZE_PATH}">
<input type="hidden" name="ticket" value="${escapeHtml(opts.ticket)}">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

export function errorPage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p class="error">${escapeHtml(message)}</p>`);
}
