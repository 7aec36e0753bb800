// The API below /api/v2 (the token endpoint, which needs no authentication, is served before these).
import { route } from "../../common/routes.js";
import type { ApiRoute, RouteContext } from "./context.js";
import { createDnaSequence, getDnaSequence, listReadableDnaSequences } from "./dna-sequences.js";
import { listReadableFolders } from "./folders.js";
import { listReadableProjects } from "./projects.js";
import { getMe } from "./users.js";

function apiRoute(method: string, template: string, action: string, handle: ApiRoute["handle"]): ApiRoute {
  return { ...route(method, template, handle), action };
}

export const API_ROUTES: readonly ApiRoute[] = [
  apiRoute("GET", "/users/me", "user.me", getMe),
  apiRoute("GET", "/dna-sequences", "dna-sequence.list", listReadableDnaSequences),
  apiRoute("POST", "/dna-sequences", "dna-sequence.create", createDnaSequence),
  apiRoute("GET", "/dna-sequences/:id", "dna-sequence.read", getDnaSequence),
  apiRoute("GET", "/projects", "project.list", listReadableProjects),
  apiRoute("GET", "/folders", "folder.list", listReadableFolders),
];

export type { ApiRoute, RouteContext };
