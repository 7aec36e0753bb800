// The example remote's API: one endpoint, GET users/search, with a bearer API key.
import { z } from "zod";
import { apiPath } from "../../core/http/api-path.js";
import { bearerAuth } from "../../core/http/auth.js";
import { RemoteClient, type RequestScope } from "../../core/http/remote-client.js";

export const exampleUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  team: z.string().nullish(),
});
export type ExampleUser = z.infer<typeof exampleUserSchema>;

const searchResponseSchema = z.object({ users: z.array(exampleUserSchema), total: z.number().int().min(0) });
export type UserSearchResult = z.infer<typeof searchResponseSchema>;

export class ExampleClient {
  private readonly remote: RemoteClient;

  constructor(options: { baseUrl: string; apiKey: string; timeoutMs: number; maxResponseBytes?: number }) {
    this.remote = new RemoteClient({
      baseUrl: options.baseUrl,
      auth: bearerAuth(options.apiKey),
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
      // The example remote states no limit; this keeps a runaway agent polite.
      rateLimit: { requests: 100, windowMs: 10_000 },
    });
  }

  async searchUsers(
    query: string,
    limit: number,
    offset: number,
    scope: RequestScope,
  ): Promise<UserSearchResult> {
    const response = await this.remote.request(
      { path: apiPath`users/search`, query: { q: query, limit, offset }, schema: searchResponseSchema },
      scope,
    );
    return response.body;
  }
}
