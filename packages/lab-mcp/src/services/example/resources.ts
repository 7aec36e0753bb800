import { boundedString } from "../../core/inputs.js";
import { pageOf } from "../../core/paging.js";
import { json } from "../../core/render.js";
import { defineResource } from "../../core/resource.js";
import type { ExampleClient } from "./client.js";

/** The first 100 matches of a search as JSON, for clients that attach data rather than call tools. */
export const userSearchResource = defineResource({
  name: "user_search",
  uriTemplate: "example://users/search/{query}",
  title: "Example user search",
  description: "The users matching a query (first 100) as the JSON pagination envelope.",
  mimeType: "application/json",
  params: {
    query: boundedString({ description: "Text to match (2 to 200 characters).", min: 2, max: 200 }),
  },
  async read({ query }, ctx, client: ExampleClient) {
    const result = await client.searchUsers(query, 100, 0, ctx);
    return json(pageOf("users", result.users, result.total, 0));
  },
});
