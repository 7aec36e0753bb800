// The two protocols resources against the recorded shapes (fact sheet 4.1, 5.1, 5.3, 6, 10): the same
// readers as the tools, so the v4 record with `steps` null, Draft.js text, HTML section names, steps
// out of array order and status_code 1 on HTTP 400 read as they do through protocols_get_protocol.
import { beforeEach, describe, expect, it } from "vitest";
import { NEVER_SHOWN, useClientTokenServer, useFakeRepository } from "./connect.js";
import { invalidUriV4, protocolV4, stepsV4 } from "./fixtures.js";

const fake = useFakeRepository();
const conn = useClientTokenServer(fake);

beforeEach(() => {
  fake.on("protocol", { body: protocolV4 });
  fake.on("steps", { body: stepsV4 });
});

async function read(uri: string): Promise<string> {
  const result = await conn.client.readResource({ uri });
  expect(result.contents[0]).toMatchObject({ mimeType: "text/markdown" });
  return String((result.contents[0] as { text?: string }).text);
}

describe("protocols resources on recorded answers", () => {
  it("reads the protocol with its decoded title, DOI and Draft.js description", async () => {
    const text = await read("protocols://protocols/1001");
    expect(text).not.toMatch(NEVER_SHOWN);
    expect(text).toMatch(/^# Lysis & clearing of E\. coli <5 mL cultures \(1001\)\n/);
    expect(text).toContain("- **DOI**: 10.17504/protocols.io.abc123/v2\n");
    expect(text).toContain("## Description\n\n> Clears lysates of small cultures.\n>\n> - Works for 1–5 mL.");
    expect(text).toContain("- **Steps**: 4");
  });

  it("reads every step in linked order under decoded section names, uncut", async () => {
    const text = await read("protocols://protocols/1001/steps");
    expect(text).not.toMatch(NEVER_SHOWN);
    const order = [...text.matchAll(/\*\*Step (\d+)\.\*\*/g)].map((m) => m[1]);
    expect(order).toEqual(["1", "2", "3", "4"]);
    expect(text.indexOf("## Lysis")).toBeLessThan(text.indexOf("**Step 1.**"));
    expect(text.indexOf("## Clearing & storage")).toBeLessThan(text.indexOf("**Step 3.**"));
    expect(text).toContain("incubate for 5 min at 4 °C");
    expect(fake.seen.map((r) => [r.route, r.query.content_format])).toEqual([["steps", "markdown"]]);
  });

  it("answers an unknown protocol (status_code 1, HTTP 400) with the not-found text", async () => {
    fake.on("protocol", { status: 400, body: invalidUriV4 });
    await expect(conn.client.readResource({ uri: "protocols://protocols/424242" })).rejects.toThrow(
      "Error: Resource not found. Please check the ID is correct.",
    );
  });
});
