// Which tools protocols_mcp offers by default (MCP_TOOLSETS unset): every read, the account and PDFs;
// the writes by name. What the surface may cost is held in test/conventions/surface-size.test.ts.
import { describe, expect, it } from "vitest";
import { connectInMemory } from "../support/clients.js";
import { ALL_SERVICES } from "../support/services.js";

const protocols = ALL_SERVICES.find(({ definition }) => definition.id === "protocols");
if (!protocols) throw new Error("protocols_mcp is not among the services");

describe("protocols_mcp's default toolsets", () => {
  it("offer every read, the account and PDFs, and no write", async () => {
    const { MCP_TOOLSETS: _all, ...env } = protocols.env;
    const connection = await connectInMemory(protocols.definition, env);
    try {
      const { tools } = await connection.client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        "protocols_download_pdf",
        "protocols_get_profile",
        "protocols_get_protocol",
        "protocols_list_my_protocols",
        "protocols_list_workspaces",
        "protocols_search",
        "protocols_sign_in",
        "protocols_sign_out",
      ]);
    } finally {
      await connection.close();
    }
  });
});
