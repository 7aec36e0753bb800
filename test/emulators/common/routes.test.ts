// The emulators' one route-table design: path templates, and which route a method and path reach.
import { describe, expect, it } from "vitest";
import { compilePath } from "../../../packages/emulators/src/common/path-pattern.js";
import { emptyResponse } from "../../../packages/emulators/src/common/response.js";
import { ANY_METHOD, matchRoute, route } from "../../../packages/emulators/src/common/routes.js";

describe("compilePath", () => {
  it("matches one decoded segment per parameter, and nothing longer or shorter", () => {
    const match = compilePath("/tenants/:tenant/users/:id");
    expect(match("/tenants/acme/users/u%20one")).toEqual({ tenant: "acme", id: "u one" });
    expect(match("/tenants/acme/users")).toBeUndefined();
    expect(match("/tenants/acme/users/u1/extra")).toBeUndefined();
    expect(match("/tenants//users/u1")).toBeUndefined();
  });

  it("takes literal text after a parameter in the same segment", () => {
    const match = compilePath("/view/:uri.pdf");
    expect(match("/view/my-protocol.pdf")).toEqual({ uri: "my-protocol" });
    expect(match("/view/a.pdf.pdf")).toEqual({ uri: "a.pdf" });
    expect(match("/view/my-protocol.pdfx")).toBeUndefined();
    expect(match("/view/.pdf")).toBeUndefined();
  });

  it("does not match an undecodable segment, unless told to hand it over as sent", () => {
    expect(compilePath("/items/:id")("/items/%E0%A4%A")).toBeUndefined();
    expect(compilePath("/items/:id", { decode: false })("/items/%E0%A4%A")).toEqual({ id: "%E0%A4%A" });
  });

  it("reads template text literally, not as a regular expression", () => {
    expect(compilePath("/a.b")("/aXb")).toBeUndefined();
    expect(compilePath("/a.b")("/a.b")).toEqual({});
  });
});

describe("matchRoute", () => {
  const answer = () => emptyResponse();
  const routes = [
    route("GET", "/things", answer),
    route("POST", "/things", answer),
    route("DELETE", "/things/:id", answer),
    route("GET", "/pages", answer),
    route(ANY_METHOD, "/pages", answer),
  ];

  it("finds the route for the method and path, with its parameters", () => {
    const found = matchRoute(routes, "DELETE", "/things/7");
    expect(found).toMatchObject({ kind: "found", route: routes[2], params: { id: "7" } });
  });

  it("lists the methods a path takes, in table order, when the method is not one of them", () => {
    expect(matchRoute(routes, "PUT", "/things")).toEqual({ kind: "wrong-method", allow: "GET, POST" });
  });

  it("says when no route has the path", () => {
    expect(matchRoute(routes, "GET", "/nothing")).toEqual({ kind: "no-route" });
  });

  it("serves HEAD by the GET route only when asked, without listing HEAD", () => {
    expect(matchRoute(routes, "HEAD", "/things")).toEqual({ kind: "wrong-method", allow: "GET, POST" });
    expect(matchRoute(routes, "HEAD", "/things", { headAsGet: true })).toMatchObject({
      kind: "found",
      route: routes[0],
    });
  });

  it("lets an ANY_METHOD route take every method not listed before it", () => {
    expect(matchRoute(routes, "GET", "/pages")).toMatchObject({ kind: "found", route: routes[3] });
    expect(matchRoute(routes, "PATCH", "/pages")).toMatchObject({ kind: "found", route: routes[4] });
  });
});
