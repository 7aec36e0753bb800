// Loads the demo repository into a fresh emulator: accounts with fresh random passwords, other members,
// the seeded protocols, and one client application with a CLIENT_ACCESS_TOKEN for its owner.
import type { ProtocolsAdmin } from "../admin/handle.js";
import type { ProtocolsStore } from "../store.js";
import { COMMUNITY_MEMBERS, DEMO_ACCOUNTS } from "./people.js";
import { demoProtocolDrafts } from "./protocol-drafts.js";

/** Where the demo application sends the browser back to; a local listener, as a CLI sign-in uses. */
export const DEMO_REDIRECT_URI = "http://127.0.0.1:8976/callback";

export interface DemoUser {
  username: string;
  password: string;
  name: string;
  email: string;
  affiliation: string;
}

export interface DemoSetup {
  /** Accounts that can sign in; each has private protocols, one of them shared with the next account. */
  users: DemoUser[];
  /** Owned by the first demo user. */
  application: { clientId: string; clientSecret: string; redirectUri: string; name: string; owner: string };
  /** A CLIENT_ACCESS_TOKEN of the application, seeing public content and its owner's private content. */
  clientAccessToken: string;
  /** The public protocol with the most step text (a PDF of several pages), handy for trying the PDF view. */
  sampleProtocol: { id: number; uri: string; title: string };
}

export function loadDemo(admin: ProtocolsAdmin, store: ProtocolsStore, seed: number): DemoSetup {
  const users = DEMO_ACCOUNTS.map((person) => admin.createUser(person));
  for (const member of COMMUNITY_MEMBERS) admin.createUser(member);
  for (const draft of demoProtocolDrafts(seed)) store.addProtocol(draft);

  const owner = users[0];
  if (!owner) throw new Error("the demo needs at least one account");
  const application = admin.createApplication({
    owner: owner.username,
    redirectUri: DEMO_REDIRECT_URI,
    name: "Lab MCP demo",
  });
  const { accessToken } = admin.issueClientToken(application.clientId);
  addWorkspacesAndBookmarks(
    store,
    users.map((u) => u.username),
  );

  const stepChars = (p: { steps: { text: string }[] }): number =>
    p.steps.reduce((n, s) => n + s.text.length, 0);
  const sample = store
    .protocols()
    .filter((p) => p.isPublic)
    .reduce((best, p) => (stepChars(p) > stepChars(best) ? p : best));
  return {
    users,
    application,
    clientAccessToken: accessToken,
    sampleProtocol: { id: sample.id, uri: sample.uri, title: sample.title },
  };
}

/**
 * Two workspaces, each holding some public protocols of its members and one private one (which its
 * public list leaves out), and a few bookmarks per account. Chosen from the protocols in order, without
 * the seeded random, so that the rest of the demo stays as it was.
 */
function addWorkspacesAndBookmarks(store: ProtocolsStore, accounts: string[]): void {
  const [first = "", second = "", third = ""] = accounts;
  const protocols = store.protocols();
  const holding = (members: string[]) => {
    const ids = members.map((name) => store.userByName(name)?.id);
    const own = protocols.filter((p) => ids.includes(p.creatorId));
    const published = protocols.filter((p) => p.isPublic).slice(0, 6 * members.length);
    return [...published.slice(-6), ...own.filter((p) => !p.isPublic).slice(0, 1)].map((p) => p.id);
  };
  store.addWorkspace({
    title: "Okafor Lab",
    description: "Protocols of the Okafor lab: protein work and cell culture.",
    members: [first, second],
    protocolIds: holding([first, second]),
  });
  store.addWorkspace({
    title: "Plant Sciences Core Facility",
    description: "Shared methods of the core facility.",
    members: [second, third],
    protocolIds: holding([second, third, first]),
  });
  const published = protocols.filter((p) => p.isPublic);
  accounts.forEach((name, i) => {
    const user = store.userByName(name);
    if (!user) return;
    for (const p of published.slice(i * 3, i * 3 + 3)) p.bookmarkedBy.push(user.id);
  });
}
