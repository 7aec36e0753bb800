import { boundedString, pagingInputs } from "../../../core/inputs.js";
import { pageReply } from "../../../core/page-reply.js";
import { briefPage, pageOf, pageShape } from "../../../core/paging.js";
import { fieldList, heading, markdown, nameWithId } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import { type ExampleClient, type ExampleUser, exampleUserSchema } from "../client.js";

export const searchUsers = defineTool({
  name: "example_search_users",
  title: "Search Example Users",
  description:
    "Search the users of the example service by name, email or team. Returns each user's name, id, " +
    "email and team. Use it to find a user's id or email; page with offset when has_more is true.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: {
    query: boundedString({
      description:
        "Text to match against names, emails and teams (2 to 200 characters), e.g. 'chen' or 'genomics'.",
      min: 2,
      max: 200,
    }),
    ...pagingInputs,
  },
  output: pageShape("users", exampleUserSchema),
  async handler({ query, limit, offset, response_format }, ctx, client: ExampleClient) {
    const result = await client.searchUsers(query, limit, offset, ctx);
    const users = result.users.map(withoutEmptyTeam);
    const page = pageOf("users", users, result.total, offset);
    // The sentences below answer both formats; only json's structured copy takes the whole envelope.
    const copy = response_format === "json" ? page : briefPage(page);
    if (result.total === 0) return reply(copy, `No users found matching '${query}'`);
    if (result.users.length === 0) {
      return reply(
        copy,
        `No users at offset ${offset} for '${query}': there are ${result.total} matches. Use a smaller offset.`,
      );
    }
    return pageReply(page, response_format, () =>
      markdown(
        heading(1, `User Search Results: '${query}'`),
        `Found ${page.total} users (showing ${page.count})`,
        ...users.map((user) => [
          heading(2, nameWithId(user.name, user.id)),
          ...fieldList({ Email: user.email, Team: user.team }),
        ]),
        page.has_more && `More results: call again with offset=${page.next_offset}.`,
      ),
    );
  },
});

function withoutEmptyTeam(user: ExampleUser): ExampleUser {
  const { team, ...rest } = user;
  return team ? { ...rest, team } : rest;
}
