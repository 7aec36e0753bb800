// The API below /api/v2 (the token endpoint, which needs no authentication, is served before these).
import { compilePath } from "../../common/path-pattern.js";
import type { ApiRoute } from "./context.js";
import { createDnaSequence, getDnaSequence, listDnaSequences } from "./dna-sequences.js";
import { listFolders } from "./folders.js";
import { listProjects } from "./projects.js";
import { getMe } from "./users.js";

export const API_ROUTES: readonly ApiRoute[] = [
  { method: "GET", match: compilePath("/users/me"), action: "user.me", handle: getMe },
  {
    method: "GET",
    match: compilePath("/dna-sequences"),
    action: "dna-sequence.list",
    handle: listDnaSequences,
  },
  {
    method: "POST",
    match: compilePath("/dna-sequences"),
    action: "dna-sequence.create",
    handle: createDnaSequence,
  },
  {
    method: "GET",
    match: compilePath("/dna-sequences/:id"),
    action: "dna-sequence.read",
    handle: getDnaSequence,
  },
  { method: "GET", match: compilePath("/projects"), action: "project.list", handle: listProjects },
  { method: "GET", match: compilePath("/folders"), action: "folder.list", handle: listFolders },
];

export type { ApiRoute, RouteContext } from "./context.js";
