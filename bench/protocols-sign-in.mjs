// protocols_mcp signed in with OAuth, in this process: the bench plays the user's browser (already
// signed in at the repository, it approves the consent page), so that the authoring tools are listed
// and can be called. Not a benchmark itself (bench/run.mjs runs only *.bench.mjs files).
import { createServer } from "node:net";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { connectInMemory } from "./lib.mjs";

/** Opens the authorize URL as `user`'s browser, approves, and follows the redirect to the listener. */
async function approve(emulator, authorizeUrl, user) {
  emulator.admin.updateSettings({ browserSessionUser: user });
  const cookies = new Map();
  const open = async (url, form) => {
    const response = await fetch(url, {
      method: form ? "POST" : "GET",
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; "),
        ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
      redirect: "manual",
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return {
      status: response.status,
      location: response.headers.get("location"),
      text: await response.text(),
    };
  };
  const consent = await open(authorizeUrl);
  const ticket = /name="ticket" value="([^"]+)"/.exec(consent.text)?.[1];
  if (!ticket) throw new Error(`no consent page (${consent.status}): ${consent.text.slice(0, 200)}`);
  const decided = await open(new URL("/api/v3/oauth/authorize", emulator.url).href, {
    ticket,
    decision: "approve",
  });
  if (!decided.location) throw new Error(`consent not redirected (${decided.status})`);
  await open(decided.location);
}

/** A loopback port free now, for the sign-in's redirect listener. */
async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * A client of protocols_mcp (`definition`, settings `env` without the application) signed in as `user`
 * through a new application of theirs; `signIn` is the protocols_sign_in result, measured like any other.
 */
export async function signedInProtocols(definition, env, emulator, user = "ada-okafor") {
  const app = emulator.admin.createApplication({
    owner: user,
    redirectUri: `http://127.0.0.1:${await freePort()}/callback`,
    name: "lab-mcp bench",
  });
  const settings = {
    ...env,
    PROTOCOLS_CLIENT_ID: app.clientId,
    PROTOCOLS_CLIENT_SECRET: app.clientSecret,
    PROTOCOLS_REDIRECT_URI: app.redirectUri,
  };
  const connection = await connectInMemory(definition, settings, { elicitation: { url: {} } });
  connection.client.setRequestHandler(ElicitRequestSchema, async (request) => {
    setTimeout(() => void approve(emulator, request.params.url, user).catch(() => undefined), 5);
    return { action: "accept" };
  });
  const signIn = await connection.client.callTool({ name: "protocols_sign_in", arguments: {} });
  if (signIn.isError) throw new Error(`sign-in failed: ${JSON.stringify(signIn.content)}`);
  return { ...connection, signIn };
}
