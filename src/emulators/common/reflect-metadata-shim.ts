// @peculiar/x509 2.x uses tsyringe, which refuses to load unless a Reflect metadata API exists. The
// project does not depend on the reflect-metadata package, so this installs the three functions
// tsyringe calls (getMetadata, getOwnMetadata, defineMetadata), only when no polyfill is present.
// Import it before @peculiar/x509. If reflect-metadata is ever added, replace this with its import.

type MetadataApi = {
  getMetadata?: (key: unknown, target: object) => unknown;
  getOwnMetadata?: (key: unknown, target: object) => unknown;
  defineMetadata?: (key: unknown, value: unknown, target: object) => void;
};

const reflect = Reflect as unknown as MetadataApi;

if (typeof reflect.getMetadata !== "function") {
  const store = new WeakMap<object, Map<unknown, unknown>>();
  const getOwn = (key: unknown, target: object): unknown => store.get(target)?.get(key);
  reflect.getOwnMetadata = getOwn;
  reflect.defineMetadata = (key, value, target) => {
    const own = store.get(target) ?? new Map<unknown, unknown>();
    own.set(key, value);
    store.set(target, own);
  };
  // Like reflect-metadata: inherited metadata is found along the prototype chain.
  reflect.getMetadata = (key, target) => {
    for (let t: object | null = target; t !== null; t = Object.getPrototypeOf(t)) {
      if (store.get(t)?.has(key)) return getOwn(key, t);
    }
    return undefined;
  };
}
