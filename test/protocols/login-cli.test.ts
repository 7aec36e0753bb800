// `protocols-mcp login` and `logout`, the built bin as a child process; the test plays the browser:
// reads the printed authorize URL, signs in on the repository's form, approves, and lets the redirect
// reach the bin's listener.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectStdio, ROOT, textOf } from "../support/clients.js";
import { useProtocolsEmulator } from "../support/emulator.js";
import {
  filesContaining,
  holdPortInAnotherProcess,
  localhostApp,
  loopbackApp,
  passwordOf,
  playBrowser,
  tempHome,
  tokensIn,
} from "../support/protocols.js";
import { run } from "./run-bin.js";

const emulator = useProtocolsEmulator();

function appEnv(app: { clientId: string; clientSecret: string; redirectUri: string }, home = tempHome()) {
  return {
    HOME: home.dir,
    XDG_CONFIG_HOME: home.xdgConfig,
    PROTOCOLS_BASE_URL: emulator.url,
    PROTOCOLS_CLIENT_ID: app.clientId,
    PROTOCOLS_CLIENT_SECRET: app.clientSecret,
    PROTOCOLS_REDIRECT_URI: app.redirectUri,
  };
}

/** A PATH whose xdg-open and open only write down the URL they were given. */
function fakeOpeners(dir: string): { path: string; opened: () => string | undefined } {
  const bin = join(dir, "fake-bin");
  const record = join(dir, "opened.txt");
  mkdirSync(bin, { recursive: true });
  for (const name of ["xdg-open", "open"]) {
    const script = join(bin, name);
    writeFileSync(script, `#!/bin/sh\nprintf '%s' "$1" > '${record}'\n`);
    chmodSync(script, 0o755);
  }
  return {
    path: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
    opened: () => (existsSync(record) ? readFileSync(record, "utf8") : undefined),
  };
}

describe("protocols-mcp login", () => {
  it("signs in end to end and stores the tokens (0600) in the user's config folder; logout deletes them", async () => {
    const app = await loopbackApp(emulator);
    const home = tempHome();
    const openers = fakeOpeners(home.dir);
    const env = { ...appEnv(app, home), PATH: openers.path };
    const login = run(["login"], env);
    const url = await login.authorizeUrl;
    expect(login.stdout()).toContain("Sign in to the protocol repository: open this address in your browser");
    expect(login.stdout()).toContain(
      `Waiting for the browser to come back to ${app.redirectUri} (up to 5 min; Ctrl-C to stop)...`,
    );
    const state = new URL(url).searchParams.get("state");
    expect(state).toMatch(/^[\w-]{43}$/);
    expect(new URL(url).searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(new URL(url).searchParams.get("code_challenge_method")).toBe("S256");

    // The user signs in on the repository's form (no shortcut) and approves.
    const visit = await playBrowser(emulator, url, {
      user: "mei-chen",
      password: passwordOf(emulator, "mei-chen"),
    });
    expect(visit.redirect?.searchParams.get("state")).toBe(state);
    expect(visit.listenerStatus).toBe(200);
    expect(visit.listenerPage).toContain(
      "You are signed in to the protocol repository. You can close this tab.",
    );
    expect(await login.exit).toBe(0);
    expect(openers.opened()).toBe(url);

    const file = home.defaultTokenFile;
    expect(login.stdout().trim().split("\n").at(-1)).toBe(
      `Signed in to the protocol repository as Mei Chen (mei-chen). Tokens saved to ${file} (readable only by you).`,
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    expect(file.startsWith(ROOT)).toBe(false);
    const tokens = tokensIn(file);
    const secrets = [tokens.access_token, tokens.refresh_token, app.clientSecret, state as string];
    for (const secret of secrets.slice(0, 3)) {
      expect(login.stdout()).not.toContain(secret);
      expect(login.stderr()).not.toContain(secret);
    }

    // The server, started by a client with the same settings, works as Mei.
    const server = await connectStdio("protocols-mcp", env);
    const profile = textOf(await server.client.callTool({ name: "protocols_get_profile", arguments: {} }));
    expect(profile.text).toContain("- **User**: Mei Chen (mei-chen)");
    const mine = textOf(
      await server.client.callTool({ name: "protocols_list_my_protocols", arguments: { which: "private" } }),
    );
    expect(mine.text).toContain("Found 5 private protocols of yours (showing 1–5)");

    // Signing out from a terminal counts at once for the running server.
    const logout = run(["logout"], env);
    expect(await logout.exit).toBe(0);
    expect(logout.stdout()).toBe(`Signed out: deleted the stored sign-in ${file}.\n`);
    expect(existsSync(file)).toBe(false);
    const after = textOf(await server.client.callTool({ name: "protocols_get_profile", arguments: {} }));
    expect(after.text).toMatch(/^Error: Not signed in to the protocol repository\./);
    await server.close();
    for (const secret of secrets.slice(0, 3)) expect(server.stderr()).not.toContain(secret);

    const again = run(["logout"], env);
    expect(await again.exit).toBe(0);
    expect(again.stdout()).toBe(`Not signed in: there is no ${file}.\n`);
    expect(filesContaining(secrets)).toEqual([]);
  });

  it("refuses a redirect with a wrong state, on the page and in the terminal, then takes the right one", async () => {
    const app = await loopbackApp(emulator);
    const home = tempHome();
    const login = run(["login", "--no-browser"], {
      ...appEnv(app, home),
      PROTOCOLS_TOKEN_FILE: home.tokenFile,
    });
    const url = await login.authorizeUrl;
    const forged = await playBrowser(emulator, url, { user: "tomas-garcia", mangleState: true });
    expect(forged.listenerStatus).toBe(400);
    expect(forged.listenerPage).toContain("does not belong to the sign-in in progress (wrong state)");
    expect(forged.listenerPage).toContain("nothing was signed in");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(login.stderr()).toBe(
      "protocols-mcp login: Refused a sign-in response whose state does not match this sign-in (an old tab, or a " +
        "forged link); still waiting.\n",
    );
    expect(login.child.exitCode).toBeNull();

    await playBrowser(emulator, url, { user: "mei-chen" });
    expect(await login.exit).toBe(0);
    expect(login.stdout()).toContain(`as Mei Chen (mei-chen). Tokens saved to ${home.tokenFile}`);
  });

  it("gives up after its wait when the repository refuses an unregistered redirect_uri", async () => {
    const app = await loopbackApp(emulator);
    const unregistered = { ...app, redirectUri: `${app.redirectUri}-elsewhere` };
    const login = run(["login", "--no-browser", "--timeout", "2"], appEnv(unregistered));
    const visit = await playBrowser(emulator, await login.authorizeUrl, { user: "mei-chen" });
    expect(visit.repositoryStatus).toBe(400);
    expect(visit.repositoryPage).toContain(
      "The redirect_uri is not the one registered for this application.",
    );
    expect(visit.redirect).toBeUndefined();
    expect(await login.exit).toBe(1);
    expect(login.stderr()).toBe(
      "protocols-mcp login: No sign-in came back from the browser within 2 s. Run 'protocols-mcp login' to try again.\n",
    );
  });

  it("says so when the user denies access", async () => {
    const app = await loopbackApp(emulator);
    const login = run(["login", "--no-browser"], appEnv(app));
    await playBrowser(emulator, await login.authorizeUrl, { user: "mei-chen", decision: "deny" });
    expect(await login.exit).toBe(1);
    expect(login.stderr()).toBe(
      "protocols-mcp login: The sign-in was not completed in the browser (access_denied: the sign-in was declined). " +
        "Run 'protocols-mcp login' to try again.\n",
    );
  });

  it("never repeats the error_description of a sign-in response (it may echo anything, a secret included)", async () => {
    const app = await loopbackApp(emulator);
    const login = run(["login", "--no-browser"], appEnv(app));
    const authorize = new URL(await login.authorizeUrl);
    const callback = new URL(authorize.searchParams.get("redirect_uri") ?? "");
    callback.searchParams.set("state", authorize.searchParams.get("state") ?? "");
    callback.searchParams.set("error", "server_error");
    callback.searchParams.set("error_description", `client_secret=${app.clientSecret}`);
    const page = await fetch(callback);
    const html = await page.text();
    expect(page.status).toBe(400);
    expect(html).toContain("server_error: the repository failed while signing in");
    expect(html).not.toContain(app.clientSecret);
    expect(await login.exit).toBe(1);
    expect(login.stderr()).toBe(
      "protocols-mcp login: The sign-in was not completed in the browser (server_error: the repository failed while signing in). " +
        "Run 'protocols-mcp login' to try again.\n",
    );
  });

  it("says so when the redirect URI's port is taken", async () => {
    const app = await loopbackApp(emulator);
    const blocker = createServer();
    await new Promise<void>((resolve) =>
      blocker.listen(Number(new URL(app.redirectUri).port), "127.0.0.1", resolve),
    );
    try {
      const login = run(["login", "--no-browser"], appEnv(app));
      expect(await login.exit).toBe(1);
      expect(login.stderr()).toBe(
        `protocols-mcp login: Cannot receive the sign-in at ${app.redirectUri} (PROTOCOLS_REDIRECT_URI): the port is ` +
          "in use (is another sign-in running?). Run 'protocols-mcp login' to try again.\n",
      );
    } finally {
      blocker.close();
    }
  });

  it("with a localhost redirect URI, refuses to start when another program holds the port on [::1] or 127.0.0.1", async () => {
    for (const taken of ["::1", "127.0.0.1"]) {
      const app = await localhostApp(emulator);
      const port = Number(new URL(app.redirectUri).port);
      const blocker = await holdPortInAnotherProcess(taken, port);
      try {
        const login = run(["login", "--no-browser", "--timeout", "2"], appEnv(app));
        expect(await login.exit).toBe(1);
        expect(login.stdout()).toBe("");
        const shown = taken.includes(":") ? `[${taken}]` : taken;
        expect(login.stderr()).toBe(
          `protocols-mcp login: Cannot receive the sign-in at ${app.redirectUri} (PROTOCOLS_REDIRECT_URI): the port ` +
            `is in use on ${shown}, where a browser may take localhost to (is another sign-in running?). ` +
            "Run 'protocols-mcp login' to try again.\n",
        );
      } finally {
        blocker.kill();
      }
    }
  });

  it("signs in end to end with a localhost redirect URI", async () => {
    const app = await localhostApp(emulator);
    const home = tempHome();
    const login = run(["login", "--no-browser"], {
      ...appEnv(app, home),
      PROTOCOLS_TOKEN_FILE: home.tokenFile,
    });
    const visit = await playBrowser(emulator, await login.authorizeUrl, { user: "mei-chen" });
    expect(visit.redirect?.hostname).toBe("localhost");
    expect(visit.listenerStatus).toBe(200);
    expect(await login.exit).toBe(0);
    expect(login.stdout()).toContain(`as Mei Chen (mei-chen). Tokens saved to ${home.tokenFile}`);
  });

  it("needs the OAuth application's settings", async () => {
    const login = run(["login"], { PROTOCOLS_BASE_URL: emulator.url, HOME: tempHome().dir });
    expect(await login.exit).toBe(2);
    expect(login.stderr()).toBe(
      "protocols-mcp: login needs your OAuth application: set PROTOCOLS_CLIENT_ID, PROTOCOLS_CLIENT_SECRET and " +
        "PROTOCOLS_REDIRECT_URI. Run 'protocols-mcp --help' for all settings.\n",
    );
  });

  it("reads its own flags with the settings flags, through the one parser of the bins", async () => {
    const env = { ...appEnv(await loopbackApp(emulator)) };
    const cases: Array<[string[], string]> = [
      [["login", "--no-browsr"], "Unknown option --no-browsr; did you mean --no-browser?"],
      [["login", "--timeout"], "Option --timeout needs a value."],
      [["login", "--timeout=0"], "--timeout must be a whole number of seconds from 1 to 3600."],
      [["login", "--request-timeout", "0"], 'MCP_REQUEST_TIMEOUT must be a whole number, 1 to 600; got "0".'],
      [["logout", "--token-fil", "/tmp/x"], "Unknown option --token-fil; did you mean --token-file?"],
    ];
    for (const [args, problem] of cases) {
      const outcome = run(args, env);
      expect(await outcome.exit, args.join(" ")).toBe(2);
      expect(outcome.stderr()).toBe(
        `protocols-mcp: ${problem} Run 'protocols-mcp --help' for all settings.\n`,
      );
    }
  });

  it("lists login and logout in --help", async () => {
    const help = run(["--help"], {});
    expect(await help.exit).toBe(0);
    expect(help.stdout()).toContain("PROTOCOLS_REDIRECT_URI");
    expect(help.stdout()).toContain("protocols-mcp login [--no-browser] [--timeout <seconds>]");
    expect(help.stdout()).toContain("protocols-mcp logout");
  });
});
