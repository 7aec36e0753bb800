// apiPath: every interpolated value is one path segment on the wire, and the values that would move
// the path ("", ".", "..") are refused before any request is made.
import { describe, expect, it } from "vitest";
import { errorText, InvalidInputError } from "../../packages/lab-mcp/src/core/errors.js";
import { apiPath } from "../../packages/lab-mcp/src/core/http/api-path.js";
import { noAuth } from "../../packages/lab-mcp/src/core/http/auth.js";
import { RemoteClient } from "../../packages/lab-mcp/src/core/http/remote-client.js";
import { useExampleEmulator } from "../support/emulator.js";

const emulator = useExampleEmulator();

describe("apiPath", () => {
  it("encodes each value as one segment and leaves the literal parts as written", () => {
    expect(apiPath`api/v2/dna-sequences/${"seq_a1B2"}`).toBe("api/v2/dna-sequences/seq_a1B2");
    expect(apiPath`a/${"x/y?z=1#f"}/b`).toBe("a/x%2Fy%3Fz%3D1%23f/b");
    expect(apiPath`a/${"%2e%2e"}`).toBe("a/%252e%252e");
    expect(apiPath`view/${"my-protocol"}.pdf`).toBe("view/my-protocol.pdf");
    expect(apiPath`v/${12314}/steps`).toBe("v/12314/steps");
    expect(apiPath`api/v3/session/profile`).toBe("api/v3/session/profile");
  });

  it.each(["", ".", ".."])("refuses %j with a text the agent can act on", (value) => {
    const attempt = () => apiPath`api/v4/protocols/${value}/steps`;
    expect(attempt).toThrow(InvalidInputError);
    try {
      attempt();
    } catch (error) {
      expect(errorText(error)).toBe(
        `Error: Invalid input: '${value}' is not an id. Use an id as the list and search tools show it.`,
      );
    }
  });

  it("reaches the remote at the one path it names: a slash or a query in a value stays inside its segment", async () => {
    const client = new RemoteClient({ baseUrl: emulator.url, auth: noAuth });
    emulator.requests.clear();
    await client.request({ path: apiPath`users/${"search?q=../../admin"}` }).catch(() => undefined);
    const [request] = emulator.requests.entries();
    expect(emulator.requests.count()).toBe(1);
    expect(request?.path).toBe("/api/users/search%3Fq%3D..%2F..%2Fadmin");
    expect(request?.query).toEqual({});
  });

  it("sends nothing when a value is refused", async () => {
    emulator.requests.clear();
    const client = new RemoteClient({ baseUrl: emulator.url, auth: noAuth });
    await expect(async () => client.request({ path: apiPath`users/${".."}` })).rejects.toThrow(
      InvalidInputError,
    );
    expect(emulator.requests.count()).toBe(0);
  });
});
