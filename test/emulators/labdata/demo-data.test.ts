// The demo data: the same for the same seed, realistic DNA (GC ~50%, 500..10,000 bases, plasmids with
// promoters, CDS, origins, terminators and primers), the users, app and tenants the docs describe,
// and credentials that are new at every start.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LabdataEmulator } from "../../../packages/emulators/src/labdata/index.js";
import { demoOf, startTestLabdata } from "../../support/emulator.js";
import { basic, fetchReply } from "../../support/labdata-http.js";

interface Seq {
  id: string;
  name: string;
  bases: string;
  length: number;
  isCircular: boolean;
  annotations: { start: number; end: number; type: string; name: string }[];
  primers: { bases: string; start: number; end: number; strand: number }[];
  translations: { aminoAcids: string }[];
  schema: { name: string } | null;
  webURL: string;
}

let first: LabdataEmulator;
let again: LabdataEmulator;
let other: LabdataEmulator;

beforeAll(async () => {
  [first, again, other] = await Promise.all([
    startTestLabdata(),
    startTestLabdata({ seed: 1 }),
    startTestLabdata({ seed: 2 }),
  ]);
  for (const emulator of [first, again, other]) emulator.admin.updateSettings("acme", { rateLimit: null });
});

afterAll(async () => {
  await Promise.all([first.close(), again.close(), other.close()]);
});

async function page(emulator: LabdataEmulator, query: string): Promise<Seq[]> {
  const reply = await fetchReply(`${emulator.tenant("acme").apiUrl}/dna-sequences?${query}`, {
    authorization: basic(demoOf(emulator).admin.apiKey),
  });
  expect(reply.status).toBe(200);
  return reply.body.dnaSequences;
}

const complement: Record<string, string> = { A: "T", T: "A", C: "G", G: "C" };
const reverseComplement = (bases: string) =>
  [...bases]
    .reverse()
    .map((b) => complement[b] ?? "N")
    .join("");

describe("labdata demo data", () => {
  it("is the same for the same seed and different for another seed", async () => {
    const [a, b, c] = await Promise.all([first, again, other].map((e) => page(e, "sort=name&pageSize=100")));
    // All but webURL, which names each emulator's own port.
    const portless = (seqs: Seq[] | undefined) => seqs?.map(({ webURL: _, ...rest }) => rest);
    expect(portless(b)).toEqual(portless(a));
    expect(c?.map((s) => s.id)).not.toEqual(a?.map((s) => s.id));
    expect(demoOf(again).projects).toEqual(demoOf(first).projects);
  });

  it("has fresh random credentials at every start", () => {
    const [x, y] = [demoOf(first), demoOf(again)];
    expect(x.user.apiKey).not.toBe(y.user.apiKey);
    expect(x.app.clientId).not.toBe(y.app.clientId);
    expect(x.app.clientSecret).not.toBe(y.app.clientSecret);
    expect(first.adminSecret).not.toBe(again.adminSecret);
    for (const user of [x.user, x.admin, x.colleague, x.reader, x.suspended, x.globex.user]) {
      expect(user.apiKey).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    }
  });

  it("has the organization, teams, projects and folders the docs name", () => {
    const demo = demoOf(first);
    expect(Object.keys(demo.teams).sort()).toEqual(["Cloning", "Protein Engineering"]);
    expect(Object.keys(demo.projects).sort()).toEqual([
      "Antibody Discovery",
      "Cas9 Engineering",
      "Plasmid Library",
      "Strain Construction",
    ]);
    expect(Object.keys(demo.folders)).toHaveLength(10);
    const users = first.admin.listUsers("acme");
    expect(users.filter((u) => u.kind === "person")).toHaveLength(5);
    expect(users.find((u) => u.id === demo.suspended.id)?.status).toBe("suspended");
  });

  it("holds about 2,300 sequences, 2,000 of them live in Plasmid Library for the main user", async () => {
    const api = first.tenant("acme").apiUrl;
    const all = await fetchReply(`${api}/dna-sequences?archiveReason=ANY&pageSize=1`, {
      authorization: basic(demoOf(first).admin.apiKey),
    });
    expect(Number(all.headers.get("result-count"))).toBe(2320);
    const project = demoOf(first).projects["Plasmid Library"];
    const mine = await fetchReply(`${api}/dna-sequences?projectId=${project}&pageSize=1`, {
      authorization: basic(demoOf(first).user.apiKey),
    });
    expect(mine.headers.get("result-count")).toBe("2000");
  });

  it("has realistic DNA: GC near 50%, 500 to 10,000 bases, plasmids circular with their features", async () => {
    const sample = await page(first, "pageSize=100&archiveReason=ANY");
    let gc = 0;
    let total = 0;
    for (const seq of sample) {
      expect(seq.bases).toMatch(/^[ACGT]+$/);
      expect(seq.length).toBe(seq.bases.length);
      expect(seq.length).toBeGreaterThanOrEqual(500);
      expect(seq.length).toBeLessThanOrEqual(10_000);
      gc += seq.bases.replace(/[AT]/g, "").length;
      total += seq.length;
      for (const a of seq.annotations) {
        expect(a.start).toBeLessThan(a.end);
        expect(a.end).toBeLessThanOrEqual(seq.length);
      }
      for (const p of seq.primers) {
        const site = seq.bases.slice(p.start, p.end);
        expect(p.bases).toBe(p.strand === 1 ? site : reverseComplement(site));
      }
    }
    expect(gc / total).toBeGreaterThan(0.45);
    expect(gc / total).toBeLessThan(0.55);

    const plasmids = await page(first, `folderId=${demoOf(first).folders["Expression Vectors"]}&pageSize=50`);
    for (const plasmid of plasmids) {
      expect(plasmid.isCircular).toBe(true);
      expect(plasmid.schema?.name).toBe("Plasmid");
      expect(plasmid.name).toMatch(/^p[A-Za-z0-9.]+-[A-Za-z0-9-]+$/);
      const types = new Set(plasmid.annotations.map((a) => a.type));
      for (const type of ["promoter", "CDS", "rep_origin"]) expect(types.has(type)).toBe(true);
      expect(plasmid.primers.length).toBeGreaterThan(0);
      expect(plasmid.translations.length).toBeGreaterThan(0);
      for (const t of plasmid.translations) expect(t.aminoAcids).toMatch(/^M[A-Z]*$/);
    }
    const features = new Set(plasmids.flatMap((p) => p.annotations.map((a) => a.name)));
    expect([...features].some((name) => ["GFP", "KanR", "AmpR"].includes(name))).toBe(true);
    expect(plasmids.some((p) => p.annotations.some((a) => a.type === "terminator"))).toBe(true);
  });

  it("has a small second tenant, globex, for isolation", async () => {
    const { globex } = demoOf(first);
    const reply = await fetchReply(`${globex.baseUrl}/api/v2/projects`, {
      authorization: basic(globex.user.apiKey),
    });
    expect(reply.body.projects.map((p: { name: string }) => p.name)).toEqual(["Globex Research"]);
  });
});
